"""A person playing one seat from the terminal: `arena play --seat 5=human`.

The human sees exactly what the seat may see — new lines of its own transcript, rendered
from its `Observation` — and answers through the same actions as every other agent,
typed as short commands:

    vote 3 · pass · speak 我是預言家，3號查殺 | claim=seer check=3:wolf suspect=3
    inspect 7 · protect 2 · kill 9 · save · poison 4 · shoot 6 · explode [5]
    run · withdraw · order asc|desc [start] · recommend 3 [8] · badge 4 · tear · whisper …

A command the referee would refuse comes back with the reason and is asked again, like an
LLM's malformed tool call. Reading the keyboard runs in a thread, so the other seats'
simultaneous decisions go on meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from arena.agents.base import AgentReply
from arena.rules.actions import Action, parse_action
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.observation import Observation
from arena.rules.types import Role
from arena.transcript import Lang, render

ALIASES = {
    "abstain": "pass", "skip": "pass", "no": "pass", "stay": "pass", "explode": "self_explode",
    "check": "inspect", "knife": "kill", "guard": "protect", "run": "run_for_sheriff",
    "order": "choose_order", "recommend": "recommend_exile", "badge": "pass_badge",
    "tear": "tear_badge", "say": "speak",
}  # fmt: skip
_TEXT = ("speak", "whisper")
_ONE_TARGET = ("vote", "shoot", "pass_badge", "protect", "kill", "poison", "inspect")


def parse_command(line: str) -> Action:
    """Turn a typed command into an action.

    Raises:
        InvalidActionError: an unknown command or a missing or malformed argument.
    """
    head, _, rest = line.strip().partition(" ")
    kind = ALIASES.get(head.lower(), head.lower())
    rest = rest.strip()
    if kind in _TEXT:
        return _speech(kind, rest)
    args = rest.split()
    if kind in _ONE_TARGET:
        return parse_action({"kind": kind, "target": _seat(args[0] if args else "", kind)})
    if kind == "self_explode":
        return parse_action({"kind": kind, "target": _seat(args[0], kind) if args else None})
    if kind == "recommend_exile":
        return parse_action({"kind": kind, "targets": [_seat(a, kind) for a in args]})
    if kind == "choose_order":
        direction = {"asc": "ascending", "desc": "descending"}.get(args[0] if args else "", "")
        start = _seat(args[1], kind) if len(args) > 1 else None
        return parse_action({"kind": kind, "direction": direction or "?", "start": start})
    if kind in ("pass", "run_for_sheriff", "withdraw", "tear_badge", "save") and not args:
        return parse_action({"kind": kind})
    raise InvalidActionError(f"unknown command {line.strip()!r}; type one of the options shown")


def _seat(text: str, kind: str) -> int:
    if not text.isdigit():
        raise InvalidActionError(f"{kind} needs a seat number, got {text or 'nothing'!r}")
    return int(text)


def _speech(kind: str, rest: str) -> Action:
    text, _, tags = rest.partition("|")
    if kind == "whisper":
        return parse_action({"kind": kind, "text": text.strip()})
    claims: dict[str, object] = {}
    for tag in tags.split():
        key, _, value = tag.partition("=")
        if key == "claim":
            claims["role"] = value if value in set(Role) else f"unknown role {value}"
        elif key == "check":
            seat, _, verdict = value.partition(":")
            checks = claims.setdefault("checks", [])
            assert isinstance(checks, list)
            checks.append({"seat": _seat(seat, "check"), "is_wolf": verdict == "wolf"})
        elif key in ("suspect", "trust"):
            claims[key + "s"] = [_seat(s, key) for s in value.split(",") if s]
        else:
            raise InvalidActionError(
                f"unknown speech tag {tag!r}; use claim=, check=, suspect=, trust="
            )
    return parse_action({"kind": kind, "text": text.strip(), "claims": claims})


def describe(request: DecisionRequest, lang: Lang) -> str:
    """The prompt line: what is asked and the legal commands."""
    options = []
    for option in request.options:
        seats = f" [{' '.join(map(str, option.targets))}]" if option.targets else ""
        options.append(f"{option.action}{seats}")
    when = f"{'night' if request.night else 'day'} {request.day}"
    head = f"第{request.day}{'夜' if request.night else '天'}" if lang == "zh" else when
    return f"{head} · {request.kind}{' (' + request.context + ')' if request.context else ''}: " + (
        " | ".join(options)
    )


class TerminalHuman:
    """A human seat at the terminal (or any line-based reader and writer)."""

    def __init__(
        self,
        lang: Lang = "zh",
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.lang: Lang = lang
        self._read = read
        self._write = write
        self._shown = 0

    @property
    def name(self) -> str:
        """`human`."""
        return "human"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Show what is new in the seat's view, then read one command."""
        for seen in view.seen:
            if seen.seq >= self._shown and (line := render(seen.event, self.lang)) is not None:
                self._write(line)
        self._shown = view.log_length
        if feedback:
            self._write(f"! {feedback}")
        prompt = describe(request, self.lang) + "\n> "
        try:
            line = await asyncio.to_thread(self._read, prompt)
        except EOFError:
            return AgentReply(action=None, error="the terminal closed")
        try:
            return AgentReply(action=parse_command(line))
        except InvalidActionError as exc:
            return AgentReply(action=None, error=str(exc))
