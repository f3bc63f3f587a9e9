"""The scenario file format: frozen pydantic models, parsed from YAML with one-line errors.

A scenario fixes a board, a preset with overrides, a role deal and a seed; scripts some
answers by phase, seat and decision kind; names a check point; and lists what must hold
there. docs/scenarios.md documents every field; `load_scenario` turns any mistake into a
`ScenarioError` naming the file and the field.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from arena.board_file import board_ref
from arena.errors import ArenaError, clip, one_line
from arena.rules import events as ev
from arena.rules.actions import Action
from arena.rules.boards import Board, PresetName
from arena.rules.config import GameConfig
from arena.rules.custom import parse_board
from arena.rules.decisions import DecisionKind
from arena.rules.types import Role, SeatId
from arena.scenario.notation import (
    ACTION_KINDS,
    DECISION_KINDS,
    CheckPoint,
    Death,
    parse_action,
    parse_death,
    parse_phase,
    parse_point,
)
from arena.userfile import read_model

EVENT_MODELS: dict[str, type[BaseModel]] = {
    cls.model_fields["kind"].default: cls for cls in get_args(get_args(ev.Event)[0])
}
"""Every event model by its `kind`."""

_CITATION = re.compile(r"^(000|001|003|004):([0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*) +(\S.*)$")
WOLVES = "wolves"
"""The script's seat key for every wolf asked in the same batch."""


class ScenarioError(ArenaError):
    """A scenario file that cannot be read: the message names the file and the field."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Citation(_Frozen):
    """A seed line and the rule sentence quoted from it, e.g. `003:91 同守同救失效`."""

    seed: str
    lines: tuple[int, ...]
    quote: str

    @classmethod
    def parse(cls, text: str) -> Citation:
        """Parse `SEED:LINES QUOTE` (lines: `91`, `91-93` or `91,203`).

        Raises:
            ValueError: the text does not cite a seed line.
        """
        match = _CITATION.match(text.strip())
        if match is None:
            raise ValueError(
                f"{text!r} does not cite a seed line; write 'SEED:LINE quoted rule', "
                "e.g. '003:91 同守同救失效'"
            )
        seed, spans, quote = match.groups()
        lines: list[int] = []
        for span in spans.split(","):
            low, _, high = span.partition("-")
            lines.extend(range(int(low), int(high or low) + 1))
        return cls(seed=seed, lines=tuple(lines), quote=quote)

    def __str__(self) -> str:
        return f"{self.seed}:{','.join(map(str, self.lines))} {self.quote}"


def _citations(value: object) -> object:
    items = value if isinstance(value, list) else [value]
    return [Citation.parse(v) if isinstance(v, str) else v for v in items]


def _deal(value: object) -> object:
    if isinstance(value, dict):
        seats = sorted(value)
        if seats != list(range(1, len(seats) + 1)):
            raise ValueError("a seat→role deal must name every seat from 1 up, once")
        return [value[s] for s in seats]
    return value


class ScriptEntry(_Frozen):
    """Answers one seat (or every wolf) gives, in order, to requests that match `key`."""

    phase: str
    seat: SeatId | None
    """None: the entry is the wolves' (every wolf asked in one batch takes the same answer)."""
    key: str
    """A decision kind (matches requests of that kind) or an action kind (matches the
    seat's requests that offer that action and have no entry of their own kind)."""
    actions: tuple[Action, ...]
    optional: bool = False
    """Written `key?`: used only if the referee asks; never reported unused."""

    @property
    def who(self) -> str:
        """`seat 5` or `the wolves` (for messages)."""
        return WOLVES if self.seat is None else f"seat {self.seat}"


def _script(value: object) -> object:
    if not isinstance(value, dict):
        raise ValueError("script must map phases ('night 1', 'day 1') to seats")
    entries: list[ScriptEntry] = []
    for phase, seats in value.items():
        where = f"script.{phase}"
        label = _checked(where, lambda p=phase: parse_phase(str(p)))
        if not isinstance(seats, dict):
            raise ValueError(f"{where}: map seats (or 'wolves') to their answers")
        for seat, answers in seats.items():
            entries.extend(_seat_entries(f"{where}.{seat}", label, seat, answers))
    return entries


def _seat_entries(where: str, label: str, seat: object, answers: object) -> list[ScriptEntry]:
    if seat != WOLVES and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 1):
        raise ValueError(f"{where}: {seat!r} is not a seat number or 'wolves'")
    if not isinstance(answers, dict):
        raise ValueError(f"{where}: map decision kinds (knife, vote, …) to answers")
    entries = []
    for written, given in answers.items():
        here = f"{where}.{written}"
        key = str(written).removesuffix("?")
        if key not in DECISION_KINDS and key not in ACTION_KINDS:
            raise ValueError(f"{here}: {key!r} is neither a decision kind nor an action kind")
        items = given if isinstance(given, list) else [given]
        if not items:
            raise ValueError(f"{here}: no answers")
        actions = tuple(_checked(here, lambda v=v, k=key: parse_action(v, k)) for v in items)
        entries.append(
            ScriptEntry(
                phase=label,
                seat=None if seat == WOLVES else int(seat),
                key=key,
                actions=actions,
                optional=str(written).endswith("?"),
            )
        )
    return entries


def _checked(where: str, parse: Any) -> Any:
    try:
        return parse()
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


class EventMatch(_Frozen):
    """Events of one kind, optionally in one phase, whose fields equal the given values.

    Written as a kind (`badge_lost`) or a mapping: `{kind: seer_checked, target: 9,
    is_wolf: true, in: night 1, count: 1}`; any other key is an event field.
    """

    kind: str
    phase: str | None = Field(None, alias="in")
    count: int | None = Field(None, ge=0)
    """How many such events exactly (default: at least one)."""
    fields: dict[str, Any] = {}

    @model_validator(mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        if isinstance(value, str):
            return {"kind": value}
        if not isinstance(value, dict):
            return value
        own = {"kind", "in", "count"}
        data = {k: v for k, v in value.items() if k in own}
        data["fields"] = {k: v for k, v in value.items() if k not in own}
        return data

    @model_validator(mode="after")
    def _known(self) -> EventMatch:
        model = EVENT_MODELS.get(self.kind)
        if model is None:
            raise ValueError(f"unknown event kind {self.kind!r}")
        for name in self.fields:
            if name not in model.model_fields or name == "kind":
                raise ValueError(f"event {self.kind} has no field {name!r}")
        if self.phase is not None:
            parse_phase(self.phase)
        return self

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.fields.items())
        where = f" in {self.phase}" if self.phase else ""
        return f"{self.kind}({args}){where}"


class AskMatch(_Frozen):
    """Requests a seat received, written as a decision kind or a mapping.

    A mapping matches by decision kind, offered action, phase, speech context and the
    legal targets of the offered action.
    """

    kind: DecisionKind | None = None
    action: str | None = None
    phase: str | None = Field(None, alias="in")
    context: str | None = None
    targets: tuple[SeatId, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _short(cls, value: object) -> object:
        return {"kind": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _known(self) -> AskMatch:
        if self.action is not None and self.action not in ACTION_KINDS:
            raise ValueError(f"unknown action kind {self.action!r}")
        if self.targets is not None and self.action is None:
            raise ValueError("'targets' needs 'action': the targets of which action?")
        if self.phase is not None:
            parse_phase(self.phase)
        return self

    def __str__(self) -> str:
        parts = [str(self.kind or "any decision")]
        if self.action:
            parts.append(f"offering {self.action}")
        if self.targets is not None:
            parts.append(f"on {list(self.targets)}")
        if self.context:
            parts.append(f"({self.context})")
        if self.phase:
            parts.append(f"in {self.phase}")
        return " ".join(parts)


class Refusal(_Frozen):
    """An answer the referee must refuse as illegal.

    It is tried when the `nth` batch with a request of `kind` in `phase` is issued (to any
    seat) and must raise `IllegalActionError` containing `error`. The seat then answers
    as scripted (or by default).
    """

    phase: str = Field(alias="in")
    seat: SeatId
    kind: DecisionKind
    action: Action
    error: str = Field(min_length=1)
    """Text the refusal's message must contain."""
    nth: int = Field(1, ge=1)
    """Try it at the nth batch with a request of `kind` in `phase` (2: a PK re-vote)."""

    @model_validator(mode="before")
    @classmethod
    def _action(cls, value: object) -> object:
        if isinstance(value, dict) and "action" in value and "kind" in value:
            value = {**value, "action": parse_action(value["action"], str(value["kind"]))}
        return value

    @field_validator("phase")
    @classmethod
    def _phase(cls, value: str) -> str:
        return parse_phase(value)


def _deaths(value: object) -> object:
    if not isinstance(value, list):
        raise ValueError("deaths must be a list like ['7 knife night 1']")
    return [parse_death(v) if isinstance(v, str) else v for v in value]


SeatOrNone = SeatId | Literal["none"]
"""A seat, or the word `none`."""


class Expect(_Frozen):
    """What must hold at the check point. Every field is optional; omitted means unchecked."""

    deaths: Annotated[tuple[Death, ...] | None, BeforeValidator(_deaths)] = None
    """Every death so far, exactly (any order)."""
    alive: tuple[SeatId, ...] | None = None
    """Exactly the living seats."""
    alive_includes: tuple[SeatId, ...] = ()
    """Seats that must be alive (others may be too)."""
    dead_includes: tuple[SeatId, ...] = ()
    """Seats that must be dead (others may be too)."""
    triggers: dict[SeatId, bool] = {}
    """Seat → whether it could use its death trigger when it died (was offered `shoot`)."""
    sheriff: SeatOrNone | None = None
    """The sheriff, or `none`."""
    exiles: dict[int, SeatOrNone | tuple[SeatId, ...]] = {}
    """Day → the seat voted out that day (an idiot who flips counts), or `none`; a list:
    one of these seats, decided by lot."""
    winner: Literal["good", "wolves", "draw", "lovers", "none"] | None = None
    """Who has won, or `none` (not over yet)."""
    last_words: tuple[SeatId, ...] | None = None
    """Exactly the seats that gave last words so far."""
    learned: dict[SeatId, tuple[EventMatch, ...]] = {}
    """Seat → events that seat saw (through `observe`)."""
    not_learned: dict[SeatId, tuple[EventMatch, ...]] = {}
    """Seat → events that seat must not have seen."""
    asked: dict[SeatId, tuple[AskMatch, ...]] = {}
    """Seat → requests it received (a shot offered, a vote asked, …)."""
    not_asked: dict[SeatId, tuple[AskMatch, ...]] = {}
    """Seat → requests it must not have received."""
    refused: tuple[Refusal, ...] = ()
    """Answers the referee must refuse as illegal."""
    events: tuple[EventMatch, ...] = ()
    """Raw events that must be in the log (god view)."""
    no_events: tuple[EventMatch, ...] = ()
    """Raw events that must not be in the log."""
    sequence: tuple[EventMatch, ...] = ()
    """Raw events that must appear in this order (others may come between)."""


class Scenario(_Frozen):
    """One rule scenario: a fixed game, a script, a check point and what must hold there."""

    name: str = Field(min_length=1)
    source: Annotated[tuple[Citation, ...], BeforeValidator(_citations)] = Field(min_length=1)
    """The seed lines the scenario checks, each with the quoted rule sentence."""
    board: str | Board
    """A built-in board's id, a board file (relative to the scenario) or a board inline."""
    preset: PresetName | None = None
    overrides: dict[str, Any] = {}
    deal: Annotated[tuple[Role, ...], BeforeValidator(_deal)]
    """A role per seat: a list (seat 1 first) or a seat → role mapping."""
    seed: int = 0
    """Seeds the drawn speaking orders and lots."""
    script: Annotated[tuple[ScriptEntry, ...], BeforeValidator(_script)] = ()
    at: Annotated[CheckPoint, BeforeValidator(lambda v: parse_point(str(v)))]
    expect: Expect

    @field_validator("board", mode="before")
    @classmethod
    def _board(cls, value: object, info: ValidationInfo) -> object:
        """A board file is read relative to the scenario's folder; a mapping is a board."""
        try:
            if isinstance(value, str):
                return board_ref(value, (info.context or {}).get("base"))
            if isinstance(value, dict):
                return parse_board(value)
        except ArenaError as exc:
            raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _config(self) -> Scenario:
        try:
            self.config  # noqa: B018 - validates board, preset, overrides and deal together
        except ValidationError as exc:
            raise ValueError(one_line(exc)) from None
        except ArenaError as exc:
            raise ValueError(clip(str(exc))) from None
        return self

    @property
    def config(self) -> GameConfig:
        """The game this scenario plays."""
        return GameConfig(
            board=self.board, preset=self.preset, overrides=self.overrides, deal=self.deal
        )


def load_scenario(path: Path) -> Scenario:
    """Read and validate one scenario file.

    Raises:
        ScenarioError: unreadable file, bad YAML or an invalid field; one line naming the
            file and the field.
    """
    return read_model(
        path,
        Scenario,
        what="scenario file",
        mapping="a scenario is a mapping of fields (name, board, …)",
        error=ScenarioError,
    )
