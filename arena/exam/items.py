"""An exam's items and its key: what a contestant is shown, and the truth kept apart.

An item is one moment of a recorded game — a seat, the referee's request of that step —
with exactly what the seat knew then (`Observation`, built by `observe` from the re-run
log, cut where the request was issued) and one question about it. The truth (every card,
the wolves) is never in an item: it is a `KeyItem` in the key file, so an exam can be
published without its answers and graded later against the key.

Both files are JSON Lines with a header line first. Field order is part of the format:
the same replays and seed give the same bytes (`arena exam build`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.draw import DrawName
from arena.rules.observation import Observation
from arena.rules.referee import Answer
from arena.rules.types import Role, SeatId

FORMAT = 1
"""The version of the exam, key and answer files; raised on any change of their fields."""

Kind = Literal["vote", "belief", "seer", "knife", "role", "speech"]
"""The question an item asks (docs/agents.md, The exam):

- `vote`: a good seat's exile vote, at the moment the day's ballot opens;
- `belief`: a good seat's wolf probability for every other present seat, at that moment;
- `role`: a guess of the card of every other seat whose card the seat does not know;
- `seer`: the seer's night check;
- `knife`: a wolf's choice of the night's knife;
- `speech`: a wolf's speech while at the table (not its last words), with its structured
  claims (deception).
"""
KINDS: tuple[Kind, ...] = ("vote", "belief", "role", "seer", "knife", "speech")
"""Every kind, in the order items are drawn and reported."""
DECISIONS: frozenset[Kind] = frozenset({"vote", "seer", "knife", "speech"})
"""Kinds answered as a referee decision (`Agent.decide`); the others are questions of their
own (`Believer.believe`, `RoleGuesser.guess_roles`)."""


class _Line(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SourceGame(_Line):
    """A replay an exam was cut from, named by the SHA-256 of its file's bytes."""

    sha256: str
    game_id: str


class ExamHeader(_Line):
    """The first line of an exam file."""

    type: Literal["exam"] = "exam"
    format: int = FORMAT
    exam_id: str
    """`exam-` and 16 hex digits of a hash of the sources, seed, kinds and items per game."""
    seed: int
    kinds: tuple[Kind, ...]
    per_game: int
    sources: tuple[SourceGame, ...]
    """Every game items were cut from, by content hash (sorted)."""
    items: int


class Item(_Line):
    """One question at one recorded moment, as the asked seat saw it."""

    type: Literal["item"] = "item"
    id: str
    """`<first 12 hex of the source's hash>-s<seat>-<step>-<kind>`: unique in an exam."""
    source: str
    """The SHA-256 of the replay the moment is from."""
    game_id: str
    config: GameConfig
    """The game's board and rules, without any fixed deal (the deal is the key's)."""
    seat: SeatId
    step: int
    """The referee's request step (a batch of simultaneous requests) of this moment."""
    until: int
    """The log's length when the request was issued: the view is the log cut here, what
    `arena replay --as seat:N --until UNTIL` prints."""
    day: int
    role: Role
    """The asked seat's own card (it is in the view too), for reporting by role."""
    kind: Kind
    request: DecisionRequest | None
    """The referee's request as it issued it (decision kinds), else None."""
    asked: tuple[SeatId, ...] = ()
    """The seats a `belief` or `role` question is about (the contestant answers for each)."""
    view: Observation


class KeyHeader(_Line):
    """The first line of a key file: which exam it grades."""

    type: Literal["key"] = "key"
    format: int = FORMAT
    exam_id: str
    exam_sha256: str
    """The SHA-256 of the exam file this key belongs to."""


class KeySource(_Line):
    """What re-runs a source game up to its last item: the god view, for judging speeches."""

    type: Literal["source"] = "source"
    sha256: str
    config: GameConfig
    seed: int
    draw: DrawName
    answers: tuple[Answer, ...]
    """The recorded answers before the source's last item's step."""


class KeyItem(_Line):
    """The truth at an item's moment."""

    type: Literal["truth"] = "truth"
    item: str
    roles: tuple[Role, ...]
    """Every seat's card at the moment, seat 1 first (a thief's taken card once taken)."""
    wolves: tuple[SeatId, ...]
    """The seats of the wolf team (`arena.rules.roles.is_wolf`)."""


def item_id(source: str, seat: SeatId, step: int, kind: Kind) -> str:
    """The item's id: readable, and unique within an exam."""
    return f"{source[:12]}-s{seat}-{step}-{kind}"
