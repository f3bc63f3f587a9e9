"""Prompts for LLM seats, rendered only from an `Observation` and versioned templates.

A prompt has three messages, ordered for provider prompt caching:

1. system — the rules summary (from the game's `RuleSet` and board) and the seat's role
   guide. Identical for every call of a seat in a game.
2. user — the game log as the seat saw it (`arena.transcript` lines). It only grows
   between calls, so its earlier part stays a cached prefix; when it outgrows the token
   budget the oldest rounds are condensed (speeches clipped, per-vote lines dropped),
   then omitted.
3. user — the seat's current state and the question; this is what changes per call.

Everything players said is quoted data: `quote` strips chat-template tokens, control and
bidi characters and JSON-encodes the text, so a speech that imitates the moderator, the
system, or a tool call reads as a quoted string, and the system prompt says so.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any, NamedTuple

import yaml

from arena.llm.tokens import estimate_tokens
from arena.llm.types import ChatMessage
from arena.prompt_rules import rule_lines
from arena.rules import events as ev
from arena.rules.boards import Board, board
from arena.rules.config import RuleSet, resolve_rules
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ArenaError
from arena.rules.observation import Observation, Seen
from arena.rules.types import Phase, Role, SeatId
from arena.rules.visibility import SeatViewer
from arena.toolschema import ToolTexts, tool_name
from arena.transcript import Lang, render, role_name, seat, seats

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
DEFAULT_VERSION = "v1"


class Prompt(NamedTuple):
    """The messages of one model call and the `template@version` that made them."""

    messages: tuple[ChatMessage, ...]
    prompt_id: str


@dataclass(frozen=True, slots=True)
class PromptLibrary:
    """One version of the prompt data in one language (see `prompts/README.md`)."""

    version: str
    lang: Lang
    system: str
    rules: Mapping[str, Any]
    roles: Mapping[str, str]
    decisions: Mapping[str, Any]
    tools: ToolTexts

    @property
    def prompt_id(self) -> str:
        """`werewolf-<lang>@<version>`, stamped on every trace."""
        return f"werewolf-{self.lang}@{self.version}"

    def label(self, key: str, **fields: object) -> str:
        """A label of the state summary, filled in."""
        return str(self.decisions["labels"][key]).format(**fields)

    def ask(self, request: DecisionRequest) -> str:
        """What `request` asks, in words."""
        asks: Mapping[str, str] = self.decisions["ask"]
        return asks.get(f"{request.kind}.{request.context}") or asks[request.kind]


@functools.cache
def load_library(
    lang: Lang = "zh", version: str = DEFAULT_VERSION, root: Path = PROMPTS_DIR
) -> PromptLibrary:
    """Load `prompts/<version>/<lang>/`.

    Raises:
        ArenaError: the version or language does not exist, or a file is unreadable.
    """
    folder = root / version / lang
    if not folder.is_dir():
        raise ArenaError(f"no prompts for {lang!r} version {version!r} (looked in {folder})")
    try:
        tools = _yaml(folder / "tools.yaml")
        return PromptLibrary(
            version=version,
            lang=lang,
            system=(folder / "system.md").read_text(encoding="utf-8"),
            rules=_yaml(folder / "rules.yaml"),
            roles=_yaml(folder / "roles.yaml"),
            decisions=_yaml(folder / "decisions.yaml"),
            tools=ToolTexts(actions=tools["actions"], fields=tools["fields"]),
        )
    except (OSError, yaml.YAMLError, KeyError) as exc:
        raise ArenaError(f"prompts {folder}: {exc}") from None


def _yaml(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ArenaError(f"{path} must hold a mapping")
    return data


def rules_summary(board_: Board, rules: RuleSet, lib: PromptLibrary) -> str:
    """The rules of this game as short sentences, from the board and the knobs."""
    return "\n".join(f"- {line}" for line in rule_lines(board_, rules, lib.rules, lib.lang))


def system_prompt(view: Observation, rules: RuleSet | None, lib: PromptLibrary) -> str:
    """The stable system message of a seat: the rules and its own role's guide."""
    k = view.knowledge
    board_ = board(k.board)
    rules = rules or resolve_rules(board_, board_.preset)
    role = k.own_role
    return Template(lib.system).substitute(
        seat=_seat_of(view),
        seats=k.seats,
        role=role_name(role, lib.lang) if role else "?",
        rules=rules_summary(board_, rules, lib),
        role_guide=lib.roles[role.value] if role else "",
    )


def decision_prompt(
    view: Observation,
    request: DecisionRequest,
    rules: RuleSet | None,
    lib: PromptLibrary,
    *,
    budget_tokens: int,
) -> Prompt:
    """The messages asking `view`'s seat to answer `request`."""
    phase = lib.label("night" if request.night else "day", n=request.day)
    tools = ", ".join(tool_name(o.action) for o in request.options)
    last = "\n".join(
        [state_text(view, phase, lib), lib.ask(request), lib.label("options", tools=tools)]
    )
    return _prompt(view, rules, lib, last, budget_tokens)


def belief_prompt(
    view: Observation,
    others: Sequence[SeatId],
    rules: RuleSet | None,
    lib: PromptLibrary,
    *,
    budget_tokens: int,
) -> Prompt:
    """The messages asking `view`'s seat for its private wolf probabilities of `others`."""
    k = view.knowledge
    phase = lib.label("night" if k.phase is Phase.NIGHT else "day", n=k.day)
    last = "\n".join(
        [state_text(view, phase, lib), str(lib.decisions["belief"]), seats(others, lib.lang)]
    )
    return _prompt(view, rules, lib, last, budget_tokens)


def feedback_text(error: str, lib: PromptLibrary) -> str:
    """The message that returns a rejected answer's error to the model."""
    return str(lib.decisions["feedback"]).format(error=error)


def _prompt(
    view: Observation, rules: RuleSet | None, lib: PromptLibrary, last: str, budget: int
) -> Prompt:
    messages = (
        ChatMessage(role="system", content=system_prompt(view, rules, lib)),
        ChatMessage(role="user", content=history_text(view, lib, budget)),
        ChatMessage(role="user", content=last),
    )
    return Prompt(messages, lib.prompt_id)


def state_text(view: Observation, phase: str, lib: PromptLibrary) -> str:
    """The seat's current state: who is in, the sheriff, what it knows."""
    k = view.knowledge
    me = _seat_of(view)
    lang = lib.lang
    role = role_name(k.own_role, lang) if k.own_role else "?"
    lines = [
        lib.label("now", phase=phase, seat=me, role=role),
        lib.label("alive", seats=seats(k.present(), lang)),
    ]
    if k.out:
        lines.append(lib.label("out", seats=seats(k.out, lang)))
    if k.sheriff is not None:
        lines.append(lib.label("sheriff", seat=seat(k.sheriff, lang)))
    known = [f"{seat(s, lang)} {role_name(r, lang)}" for s, r in k.roles.items() if s != me]
    if known:
        lines.append(lib.label("known_roles", roles=", ".join(known)))
    if k.checks:
        checks = [
            f"{seat(s, lang)} {lib.label('wolf' if w else 'good')}" for s, w in k.checks.items()
        ]
        lines.append(lib.label("checks", checks=", ".join(checks)))
    if k.own_role is Role.WITCH:
        used = {True: lib.label("used"), False: lib.label("unused")}
        lines.append(
            lib.label("potions", antidote=used[k.antidote_used], poison=used[k.poison_used])
        )
    return "\n".join(lines)


def history_text(view: Observation, lib: PromptLibrary, budget_tokens: int) -> str:
    """The seat's log, oldest rounds condensed and then omitted to fit `budget_tokens`.

    The current round is always shown in full.
    """
    rounds = _rounds(view.seen)
    if not rounds:
        return f"{lib.label('log')}\n{lib.label('log_empty')}"
    texts = [_round_text(n, seen, lib, condensed=False) for n, seen in rounds]
    total = sum(estimate_tokens(t) for t in texts)
    for i in range(len(rounds) - 1):
        if total <= budget_tokens:
            break
        short = _round_text(*rounds[i], lib, condensed=True)
        total += estimate_tokens(short) - estimate_tokens(texts[i])
        texts[i] = short
    dropped = 0
    while total > budget_tokens and dropped < len(rounds) - 1:
        total -= estimate_tokens(texts[dropped])
        dropped += 1
    head = [lib.label("log")]
    if dropped:
        head.append(lib.label("omitted", n=rounds[dropped - 1][0]))
    return "\n".join(head + texts[dropped:])


def _rounds(seen: Sequence[Seen]) -> list[tuple[int, list[Seen]]]:
    """The log cut into rounds (night N, then day N); setup events join the first round."""
    rounds: list[tuple[int, list[Seen]]] = []
    current: list[Seen] = []
    number, started = 1, False
    for item in seen:
        e = item.event
        if isinstance(e, ev.PhaseStarted) and e.phase is Phase.NIGHT:
            if started:
                rounds.append((number, current))
                current = []
            number, started = e.day, True
        current.append(item)
    if current:
        rounds.append((number, current))
    return rounds


def _round_text(number: int, seen: Sequence[Seen], lib: PromptLibrary, *, condensed: bool) -> str:
    header = lib.label("round_condensed" if condensed else "round", n=number)
    lines = [line for s in seen if (line := event_line(s.event, lib.lang, condensed=condensed))]
    return "\n".join([f"## {header}", *lines])


_CLIP = 80
_DROPPED_WHEN_CONDENSED = (ev.VoteCast, ev.SpeakingOrderSet, ev.KnifeNominated)


def event_line(event: ev.Event, lang: Lang, *, condensed: bool = False) -> str | None:
    """One log line, with every player-written text quoted (and clipped when condensed)."""
    if condensed and isinstance(event, _DROPPED_WHEN_CONDENSED):
        return None
    if isinstance(event, ev.Spoke | ev.WolfWhispered):
        text = event.text if not condensed or len(event.text) <= _CLIP else event.text[:_CLIP] + "…"
        event = event.model_copy(update={"text": quote(text)})
    return render(event, lang)


_TEMPLATE_TOKEN = re.compile(
    r"<\|[^|<>\n]{0,40}\|>|</?s>|\[/?INST\]|<</?SYS>>|</?(?:start|end)_of_turn>"
    r"|</?(?:system|user|assistant|tool|tool_call|tool_response|im_start|im_end)\b[^<>\n]{0,20}>",
    re.IGNORECASE,
)
_DEFANG = str.maketrans({"<": "‹", ">": "›", "|": "¦", "[": "⟦", "]": "⟧"})


def neutralise(text: str) -> str:
    """`text` with chat-template tokens defanged and invisible characters blanked.

    Control, format (zero-width, bidi override) and line/paragraph separator characters
    become spaces; newlines and tabs are kept (`quote` escapes them).
    """
    text = _TEMPLATE_TOKEN.sub(lambda m: m.group().translate(_DEFANG), text)
    return "".join(
        ch if ch in "\n\t" or unicodedata.category(ch) not in {"Cc", "Cf", "Zl", "Zp"} else " "
        for ch in text
    )


def quote(text: str) -> str:
    """A player's words as a JSON string: one line, quoted, harmless to the template."""
    return json.dumps(neutralise(text), ensure_ascii=False)


def _seat_of(view: Observation) -> int:
    if not isinstance(view.viewer, SeatViewer):
        raise ArenaError("a prompt is rendered for a seat, not for a team or spectator view")
    return view.viewer.seat
