"""The `Desk`: what a hosted game shares with its people's pages, and their answers back.

For each game it holds the game's public card (`Table`: board, seats, who is a person,
token hashes; never the seed; a custom board travels whole in it), each human seat's
view lines (events that seat may see, already projected by `observe` in the host; their
one format is `view_line` and `read_view`), the
seat's pending decision, the current speaker, and a per-seat inbox of answers keyed by
the request's `step`. The first answer posted for a step wins until the seat takes it; a
duplicate changes nothing, and one for a step the seat is no longer asking is never
taken (`access.submit` also refuses it).

`MemoryDesk` is the single-machine twin (the dashboard's process hosts the game in a
thread); `RedisDesk` (`redis_desk.py`) is the same contract on a Redis server, for games
hosted by a worker. Both pass `tests/storage/test_desk.py`.
"""

from __future__ import annotations

import json
import threading
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from arena.rules.boards import Board
from arena.rules.decisions import DecisionRequest
from arena.rules.events import EVENT_ADAPTER, Event
from arena.rules.observation import Observation, Seen, know
from arena.rules.visibility import Viewer
from arena.text.script import Display
from arena.transcript import Lang

SeatKind = Literal["human", "bot", "random", "model"]


class SeatPlan(BaseModel):
    """Who sits at a seat of a hosted game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: SeatKind
    name: str = ""
    """A person's chosen display name (rated as `human:<name>`), or the model spec."""


class Pace(BaseModel):
    """The timing floors of a game with people (seconds; 0 turns one off; `arena.humans.pace`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    night_s: float = Field(15.0, ge=0, le=3600)
    """The shortest night, from its first request to the release of the dawn."""
    step_s: float = Field(2.0, ge=0, le=600)
    """The shortest batch of night decisions."""
    window_s: float = Field(5.0, ge=0, le=600)
    """The exact length of a self-explosion window (and a person's time to answer it)."""

    @property
    def longest_hold_s(self) -> float:
        """The most pacing can add to one decision (for the runner's call time limit)."""
        return self.night_s + max(self.step_s, self.window_s)


class Table(BaseModel):
    """A hosted game's card: everything about it that is not secret (no seed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: str
    board: str | Board
    """A built-in board's id, or a custom board whole (a board file read by the Play page):
    the host, here or on a worker, needs nothing but the card to play it."""
    preset: str | None = None
    lang: Lang = "zh"
    display: Display | None = None
    """The script the game is shown and recorded in, when `lang` does not say it: `zh-Hans`
    for a Chinese game created from a 简体 page, so its header and the seats that write
    their own words (model seats, plug-ins, remote agents) follow the page. None: `lang`'s
    own (`display_of`: Chinese is Traditional)."""
    seats: dict[int, SeatPlan]
    token_hashes: dict[int, str] = Field(default_factory=dict)
    """sha256 of each human seat's join token (the tokens themselves are not kept)."""
    decision_timeout_s: float = 180.0
    """How long a person has for one decision before the recorded default."""
    speech_timeout_s: float = 300.0
    """How long a person has for a speech."""
    handover_after: int = 2
    """Timeouts in a row after which a bot takes the seat for the rest of the game."""
    pace: Pace = Field(default_factory=Pace)
    """Timing floors that keep answer speeds from telling hidden information."""


PUBLIC_SEAT = 0
"""The view number of a game's public projection (what any spectator may see)."""

STANDING_STEP = -1
"""The inbox slot of a standing answer: armed during the day's speeches, taken by the next
window after a speech (`BrowserSeat`), where the rules check it like any answer."""


class Pending(BaseModel):
    """A person's pending decision, as published for their page."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    request: DecisionRequest
    deadline: float
    """Unix time after which the recorded default is applied."""
    feedback: str | None = None
    """Why the last answer was refused."""


class Status(BaseModel):
    """What the whole table can see of the game's progress."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    state: Literal["waiting", "checking", "running", "finished", "failed"] = "waiting"
    """`checking`: the host is probing the model seats' endpoints (the preflight)."""
    speaking: int | None = None
    """The seat giving a speech now (public: the table hears who speaks)."""
    events: int = 0
    """How many events the public has seen (the whole log's length would count the hidden
    ones: whether the witch acted, how many rounds the wolves needed)."""
    winner: str | None = None
    replay: str | None = None
    """The finished replay's file name."""
    error: str | None = None


def view_line(seq: int, event: Event) -> str:
    """One line of a view as the host publishes it: `{"seq": N, "event": {...}}`.

    The view lines' one format: the host writes them with this, and every reader (a
    seat's page, the Live page's public view) reads them with `read_view`.
    """
    return json.dumps({"seq": seq, "event": event.model_dump(mode="json")}, ensure_ascii=False)


def read_view(lines: list[str], viewer: Viewer) -> Observation:
    """The `Observation` of `viewer` from its published view lines.

    Its `log_length` is one past the last event the viewer saw, not the log's own length:
    how many hidden events there are (a witch's potion, a guard's choice) is hidden too.
    """
    seen = []
    for line in lines:
        obj = json.loads(line)
        seen.append(Seen(int(obj["seq"]), EVENT_ADAPTER.validate_python(obj["event"])))
    knowledge = know(viewer, [s.event for s in seen])
    length = seen[-1].seq + 1 if seen else 0
    return Observation.model_construct(
        viewer=viewer, seen=tuple(seen), knowledge=knowledge, log_length=length
    )


class Desk(Protocol):
    """The shared state of hosted games (memory or Redis)."""

    def put_table(self, table: Table) -> None:
        """Create or replace a game's card."""
        ...

    def table(self, game_id: str) -> Table | None:
        """A game's card, or None for an unknown game."""
        ...

    def set_status(self, game_id: str, status: Status) -> None:
        """Publish the game's progress."""
        ...

    def status(self, game_id: str) -> Status:
        """The game's progress (`waiting` before the host starts)."""
        ...

    def append_view(self, game_id: str, seat: int, lines: list[str]) -> None:
        """Append JSON lines (visible events) to a seat's view."""
        ...

    def view(self, game_id: str, seat: int, start: int = 0) -> list[str]:
        """A seat's view lines from `start`."""
        ...

    def set_pending(self, game_id: str, seat: int, pending: Pending | None) -> None:
        """Publish (or clear, with None) a seat's pending decision."""
        ...

    def pending(self, game_id: str, seat: int) -> Pending | None:
        """A seat's pending decision."""
        ...

    def post(self, game_id: str, seat: int, step: int, answer: str) -> bool:
        """Put an answer (action JSON) in a seat's inbox; False if one was posted for `step`."""
        ...

    def take(self, game_id: str, seat: int, step: int) -> str | None:
        """The answer posted for `step`, removed from the inbox (None: nothing yet)."""
        ...

    def enqueue(self, game_id: str) -> None:
        """Ask a worker to host the game."""
        ...

    def next_queued(self, timeout_s: float) -> str | None:
        """A game waiting for a host (blocks up to `timeout_s`), or None."""
        ...


class MemoryDesk:
    """A `Desk` in this process, safe across threads (page sessions and the host)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._tables: dict[str, Table] = {}
        self._status: dict[str, Status] = {}
        self._views: dict[tuple[str, int], list[str]] = {}
        self._pending: dict[tuple[str, int], Pending] = {}
        self._answers: dict[tuple[str, int], dict[int, str]] = {}
        self._queue: list[str] = []

    def put_table(self, table: Table) -> None:  # noqa: D102
        with self._lock:
            self._tables[table.game_id] = table

    def table(self, game_id: str) -> Table | None:  # noqa: D102
        with self._lock:
            return self._tables.get(game_id)

    def set_status(self, game_id: str, status: Status) -> None:  # noqa: D102
        with self._lock:
            self._status[game_id] = status

    def status(self, game_id: str) -> Status:  # noqa: D102
        with self._lock:
            return self._status.get(game_id, Status())

    def append_view(self, game_id: str, seat: int, lines: list[str]) -> None:  # noqa: D102
        with self._lock:
            self._views.setdefault((game_id, seat), []).extend(lines)

    def view(self, game_id: str, seat: int, start: int = 0) -> list[str]:  # noqa: D102
        with self._lock:
            return list(self._views.get((game_id, seat), [])[start:])

    def set_pending(self, game_id: str, seat: int, pending: Pending | None) -> None:  # noqa: D102
        with self._lock:
            if pending is None:
                self._pending.pop((game_id, seat), None)
            else:
                self._pending[(game_id, seat)] = pending

    def pending(self, game_id: str, seat: int) -> Pending | None:  # noqa: D102
        with self._lock:
            return self._pending.get((game_id, seat))

    def post(self, game_id: str, seat: int, step: int, answer: str) -> bool:  # noqa: D102
        with self._lock:
            inbox = self._answers.setdefault((game_id, seat), {})
            if step in inbox:
                return False
            inbox[step] = answer
            return True

    def take(self, game_id: str, seat: int, step: int) -> str | None:  # noqa: D102
        with self._lock:
            return self._answers.setdefault((game_id, seat), {}).pop(step, None)

    def enqueue(self, game_id: str) -> None:  # noqa: D102
        with self._lock:
            self._queue.append(game_id)
            self._lock.notify_all()

    def next_queued(self, timeout_s: float) -> str | None:  # noqa: D102
        with self._lock:
            if not self._queue:
                self._lock.wait(timeout_s)
            return self._queue.pop(0) if self._queue else None
