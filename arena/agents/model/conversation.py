"""One append-only conversation per model seat, rendered only from what the seat saw.

A seat's requests form one growing chat: the system message (this game's rules, the
seat's role guide, how to answer), then one user turn per question — the referee's reply
to the previous answer, the events the seat saw since, its current state, the question
and the legal answers — and the model's answer as an assistant turn. Each request is the
previous one plus a suffix, so a provider's prefix cache serves all but the new turn.

Choices that keep it so on every server:

- Answers are kept as assistant *text* (the answer's JSON), never as tool calls with
  `role: tool` results: servers disagree on those (llama.cpp's chat template drops tool
  messages, some refuse `content: null`), and text is accepted by all of them.
- Roles alternate strictly. A question that got no answer (a timeout, a provider error)
  is continued by appending to the same user turn, which still extends the request.
- Older days are condensed rarely: at the first question of a day, and only when the
  chat has outgrown the history budget, the turns since the last summary are replaced by
  a summary of the rounds they covered (claims, checks, votes and deaths kept; speeches
  cut short). Summaries are layered: the system message and every earlier summary stay
  as they were, so even a condensed request shares them with the previous one and only
  the rounds condensed now are new. That is the one place a request does not extend the
  previous one, at most once a day per seat (twice only past twice the budget, to stay
  inside a context window).
- A question that would not fit in the server's window even so (SmolLM2's 8,192 tokens on
  a 12-seat day) condenses the current round too (sizes: `arena.agents.model.sizing`).

- The system message never changes. A card taken during the game (the thief's) comes
  with its guide in the seat's next turn, and a condensation that replaces that turn
  carries the guide into its summary.

A seat of a `zh-Hans` game reads every line of it in Simplified characters
(`PromptLibrary.written`): the rules, its state, the question, the legal answers and the
speeches it heard, as a 简体 page shows them; its own answers stay as it wrote them.

Everything players said is quoted data: `quote` strips chat-template tokens, control and
bidi characters and JSON-encodes the text, so a speech that imitates the moderator, the
system, or a tool call reads as a quoted string, and the system prompt says so.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from string import Template

from arena.agents.model.library import PromptLibrary
from arena.agents.model.options import options_text
from arena.agents.model.rules_text import rule_lines
from arena.agents.model.sizing import Measure, estimated
from arena.agents.model.tools import BELIEF_FIELD
from arena.errors import ArenaError
from arena.llm.types import ChatMessage
from arena.rules import events as ev
from arena.rules.boards import board
from arena.rules.config import RuleSet, resolve_rules
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation, Seen
from arena.rules.types import Phase, Role, SeatId
from arena.rules.visibility import SeatViewer
from arena.transcript import render, role_name, seat, seats


@dataclass(slots=True)
class Conversation:
    """A seat's chat with its model; `messages` is what the next request sends."""

    lib: PromptLibrary
    rules: RuleSet | None
    budget_tokens: int
    """The history budget, in the endpoint's tokens (see `TokenGauge`): the whole request's."""
    window_tokens: int | None = None
    """The prompt tokens a request may hold (the server's window less a reply's), if known."""
    messages: list[ChatMessage] = field(default_factory=list)
    seen: int = 0
    """How many events of the full log the chat has shown (`Observation.log_length`)."""
    reply: str | None = None
    """The referee's word on the last answer, opening the next user turn."""
    answered: bool = True
    """Whether the last user turn has an answer (else the next text continues it)."""
    condensed_on: tuple[int, int] = (0, 0)
    """(day, times) of the last condensation."""
    covered: int = 0
    """The events before this position of the log are in summaries; the rest in full turns."""
    kept: int = 1
    """`messages[:kept]` (the system message and the summaries) never change again."""
    answers_from: int = 0
    """The seat's own words from this event on are in its answers above (not repeated)."""
    role: Role | None = None
    """The card whose guide the chat holds last (the system message's, or a later turn's)."""
    guide_at: int = 0
    """Which message holds that guide (0: the system message)."""

    def ask(self, view: Observation, question: str, *, measure: Measure = estimated) -> None:
        """Add a question; past the budget condense older rounds, past the window this one."""
        if not self.messages:
            system = self.lib.written(system_text(view, self))
            self.messages.append(ChatMessage(role="system", content=system))
            self.role = view.knowledge.own_role
        elif self._over_budget(view, measure):
            self._condense(view)
        text = self._turn(view, question)
        if self._over_window(text, measure) and self._condense(view, whole=True):
            text = self._turn(view, question)
        own = view.knowledge.own_role
        if own is not None and own is not self.role:  # the guide `_turn` added, once
            self.role = own
            self.guide_at = len(self.messages) - (0 if self.answered else 1)
        self.seen = view.log_length
        self.reply = None
        self._say(text)

    def _turn(self, view: Observation, question: str) -> str:
        """The next turn's text: the referee's word, the news, the seat's state, `question`."""
        own = view.knowledge.own_role
        me = _seat_of(view)
        news = [
            line
            for s in view.seen
            if s.seq >= self.seen
            if (
                line := event_line(
                    s.event, self.lib, own=me if s.seq >= self.answers_from else None
                )
            )
        ]
        parts = [self.reply] if self.reply else []
        parts.append("\n".join(news) if news else self.lib.label("nothing_new"))
        if own is not None and own is not self.role:  # a thief took a card: its guide, once
            # here and not in the system message, which never changes (the prefix cache)
            parts.append(self._role_text(own))
        parts += [self.lib.label("rule"), state_text(view, self.lib), question]
        return "\n".join(parts)

    def _over_window(self, text: str, measure: Measure) -> bool:
        """Whether the chat with `text` as its next turn would not fit in the window."""
        turn = ChatMessage(role="user", content=self.lib.written(text))
        return self.window_tokens is not None and measure([*self.messages, turn]) > (
            self.window_tokens
        )

    def snapshot(self) -> Conversation:
        """A copy of the chat as it is now, to go back to (`condense_now`)."""
        return replace(self, messages=list(self.messages))

    def condense_now(
        self, view: Observation, budget_tokens: int, window_tokens: int | None = None
    ) -> None:
        """The endpoint refused the chat as longer than its window: condense now, shrunk.

        Called on the chat before the refused question (`snapshot`), which the caller asks
        again: the budget and the window shrink (never grow) and the older rounds are
        condensed now, not only at a day's first question (`arena.agents.model.overflow`).
        """
        self.budget_tokens = min(self.budget_tokens, budget_tokens)
        if window_tokens is not None:
            known = self.window_tokens
            self.window_tokens = window_tokens if known is None else min(known, window_tokens)
        if self.messages and len(_rounds(view.seen)) >= 2:
            self._condense(view)

    def _role_text(self, role: Role) -> str:
        """The guide of a card taken during the game (the system message has the dealt one)."""
        name = role_name(role, self.lib.lang)
        return self.lib.label("new_role", role=name, guide=self.lib.role_guide(role.value))

    def answer(self, text: str) -> None:
        """The model answered `text` (its JSON answer, as written)."""
        self.messages.append(ChatMessage(role="assistant", content=text or "…"))
        self.answered = True

    def refuse(self, error: str, reminder: str) -> None:
        """The last answer was refused: say why and ask again, in the same chat."""
        self._say(self.lib.label("refused", error=error) + "\n" + reminder)

    def settle(self, *, defaulted: bool) -> None:
        """The last answer stood, or the referee applied its default; the next turn says so."""
        self.reply = self.lib.label("defaulted" if defaulted else "accepted")

    def _say(self, text: str) -> None:
        text = self.lib.written(text)
        if self.answered:
            self.messages.append(ChatMessage(role="user", content=text))
        else:
            last = self.messages[-1]
            self.messages[-1] = last.model_copy(update={"content": f"{last.content}\n\n{text}"})
        self.answered = False

    def _over_budget(self, view: Observation, measure: Measure) -> bool:
        used = measure(self.messages)
        day, times = self.condensed_on
        today = view.knowledge.day
        if used <= self.budget_tokens or not self.answered or len(_rounds(view.seen)) < 2:
            return False
        if day != today:
            return True
        return times < 2 and used > 2 * self.budget_tokens

    def _condense(self, view: Observation, *, whole: bool = False) -> bool:
        """Replace the turns since the last summary by a summary of the rounds they covered.

        The current round stays in full unless `whole`: it is shown again from its start in
        the next turn. With `whole` it is summarized too, up to now, and the next turn
        shows only what follows. False when there was nothing to summarize.
        """
        rounds = _rounds(view.seen)
        cut = view.log_length if whole else rounds[-1][1][0].seq
        done = [
            (n, part)
            for n, items in rounds
            if (part := [s for s in items if self.covered <= s.seq < cut])
        ]
        if not done:
            return False
        lines: list[str] = []
        for number, items in done:
            lines.append(f"## {self.lib.label('round', n=number)}")
            lines += [t for s in items if (t := event_line(s.event, self.lib, condensed=True))]
        first, last = done[0][0], done[-1][0]
        if self.role is not None and self.guide_at >= self.kept:  # its turn is replaced now
            lines.append(self._role_text(self.role))
            self.guide_at = self.kept
        summary = self.lib.written(
            "\n".join([self.lib.label("summary", first=first, n=last), *lines])
        )
        self.messages = self.messages[: self.kept]
        self.messages.append(ChatMessage(role="user", content=summary))
        self.messages.append(ChatMessage(role="assistant", content=self.lib.label("noted")))
        self.kept, self.covered = len(self.messages), cut
        self.answered = True  # the chat ends with the acknowledgement of the summary
        self.seen = cut
        self.answers_from = view.log_length
        day, times = self.condensed_on
        today = view.knowledge.day
        self.condensed_on = (today, times + 1 if day == today else 1)
        return True


def system_text(view: Observation, conversation: Conversation) -> str:
    """The stable system message of a seat: the rules, its own role's guide, how to answer."""
    lib = conversation.lib
    k = view.knowledge
    board_ = board(k.board)
    rules = conversation.rules or resolve_rules(board_, board_.preset)
    role = k.own_role
    summary = "\n".join(f"- {line}" for line in rule_lines(board_, rules, lib.rules, lib.lang))
    return Template(lib.system).substitute(
        seat=_seat_of(view),
        seats=k.seats,
        role=role_name(role, lib.lang) if role else "?",
        rules=summary,
        role_guide=lib.role_guide(role.value) if role else "",
    )


def decision_question(
    view: Observation,
    request: DecisionRequest,
    lib: PromptLibrary,
    *,
    beliefs: Sequence[SeatId] = (),
) -> str:
    """What `request` asks and its legal answers; `beliefs` asks for a report with it."""
    everyone = "|".join(str(s) for s in range(1, view.knowledge.seats + 1))
    roles = list(view.knowledge.role_counts)
    answers = options_text(request, lib.tools, everyone, roles)
    lines = [lib.ask(request), lib.label("answers"), *answers]
    if beliefs:
        lines.append(lib.label("with_beliefs", field=BELIEF_FIELD, seats=_numbers(beliefs)))
    return "\n".join(lines)


def belief_question(others: Sequence[SeatId], lib: PromptLibrary) -> str:
    """The private belief question over `others`."""
    return lib.label("belief", field=BELIEF_FIELD, seats=_numbers(others))


def reminder(
    request: DecisionRequest, lib: PromptLibrary, seats_: int, roles: Sequence[Role] = ()
) -> str:
    """The legal answers again, for a re-ask (`roles`: the board's)."""
    everyone = "|".join(str(s) for s in range(1, seats_ + 1))
    answers = options_text(request, lib.tools, everyone, roles)
    return "\n".join([lib.label("answers"), *answers])


def state_text(view: Observation, lib: PromptLibrary) -> str:
    """The seat's current state: the phase, who is in, the sheriff, what it knows."""
    k = view.knowledge
    me = _seat_of(view)
    lang = lib.lang
    phase = lib.label("night" if k.phase is Phase.NIGHT else "day", n=k.day)
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


def is_exile_vote(request: DecisionRequest) -> bool:
    """Whether `request` is an exile vote (where daily beliefs are asked)."""
    return request.kind is DecisionKind.VOTE


def _numbers(ns: Sequence[SeatId]) -> str:
    return ", ".join(str(n) for n in ns)


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


_CLIP = 80
_DROPPED_WHEN_CONDENSED = (ev.SpeakingOrderSet, ev.KnifeNominated)


def event_line(
    event: ev.Event, lib: PromptLibrary, *, condensed: bool = False, own: SeatId | None = None
) -> str | None:
    """One log line, with every player-written text quoted (and clipped when condensed).

    The words of seat `own` are not repeated: its answer, just above in the conversation,
    holds them.
    """
    if condensed and isinstance(event, _DROPPED_WHEN_CONDENSED):
        return None
    if isinstance(event, ev.ActionDefaulted):
        event = event.model_copy(update={"reason": lib.label("default_reason")})
    if isinstance(event, ev.Spoke | ev.WolfWhispered) and event.seat == own and event.text:
        return render(event.model_copy(update={"text": lib.label("own_words")}), lib.lang)
    if isinstance(event, ev.Spoke | ev.WolfWhispered):
        text = event.text if not condensed or len(event.text) <= _CLIP else event.text[:_CLIP] + "…"
        event = event.model_copy(update={"text": quote(text)})
    return render(event, lib.lang)


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
