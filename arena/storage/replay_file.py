"""The replay file: a versioned JSONL record of one game (docs/replay-format.md).

Line 1 is the header (readable alone, cheaply); then one line per event, per accepted
answer, per model-call trace and per belief report, in the order they happened. A
running game appends and flushes each line, so a crash leaves a readable partial file;
`finish` rewrites the header with the result atomically. Field order and names change only with
`SCHEMA_VERSION`, and older versions load through `UPCASTERS`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from arena import __version__
from arena.llm.types import ModelCallRecord
from arena.records import BeliefReport
from arena.rules.config import GameConfig
from arena.rules.draw import LEGACY_DRAW, DrawName
from arena.rules.errors import ArenaError
from arena.rules.events import EVENT_ADAPTER, Event
from arena.rules.referee import Answer
from arena.rules.types import Winner

SCHEMA_VERSION = 1
UPCASTERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""`UPCASTERS[v]` turns a version-`v` line (header or body) into version `v + 1`."""


class ReplayError(ArenaError):
    """A file that is not a readable replay; the message names the first bad line."""


class SeatAgent(BaseModel):
    """What played a seat."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    agent: str
    """The agent spec, e.g. `bot`, `random`, `openai:gpt-4.1-mini`, `human`."""
    model: str | None = None
    prompt_version: str | None = None


class SeatHandover(BaseModel):
    """A person's seat handed to a bot mid-game, after repeated timeouts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    step: int
    """The first request step the bot answered."""
    agent: str
    """The agent that took over, e.g. `bot`."""
    reason: str


class ReplayResult(BaseModel):
    """How the game ended."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    winner: Winner
    reason: str
    days: int
    events: int


class ReplayHeader(BaseModel):
    """Line 1 of a replay. The order of these fields is part of the file format."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["header"] = "header"
    schema_version: int = SCHEMA_VERSION
    game_id: str
    created_at: str
    """ISO-8601 UTC time the game started (set by the runner; the referee has no clock)."""
    software_version: str = __version__
    config: GameConfig
    seed: int
    draw: DrawName = LEGACY_DRAW
    """How the referee drew from `seed` (`arena.rules.draw`); absent in files written before
    the draw was fixed, which were dealt by `python_random`. New games record `CURRENT_DRAW`."""
    seats: tuple[SeatAgent, ...] = ()
    tournament: str | None = None
    endpoints: dict[str, Any] = Field(default_factory=dict)
    """Per model endpoint: the capabilities probed and the fallbacks in use."""
    result: ReplayResult | None = None
    handovers: tuple[SeatHandover, ...] = ()
    """Seats whose person was replaced by a bot (written only when there are some, so
    files without handovers are unchanged and older readers still load them)."""

    @model_serializer(mode="wrap")
    def _drop_empty_handovers(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("handovers"):
            data.pop("handovers", None)
        return data


class Replay(BaseModel):
    """A whole replay in memory."""

    model_config = ConfigDict(frozen=True)

    header: ReplayHeader
    events: tuple[Event, ...]
    answers: tuple[Answer, ...]
    traces: tuple[ModelCallRecord, ...]
    beliefs: tuple[BeliefReport, ...]
    event_lines: tuple[int, ...]
    """The file line number (1-based) of each event, for error messages."""


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def event_line(seq: int, event: Event) -> str:
    """The JSONL line of an event."""
    return _dump({"type": "event", "seq": seq, "event": event.model_dump(mode="json")})


def answer_line(answer: Answer) -> str:
    """The JSONL line of an accepted answer."""
    return _dump({"type": "answer", **answer.model_dump(mode="json", exclude_none=True)})


def belief_line(report: BeliefReport) -> str:
    """The JSONL line of a belief report."""
    return _dump({"type": "belief", "report": report.model_dump(mode="json")})


def trace_line(record: ModelCallRecord) -> str:
    """The JSONL line of a model call."""
    return _dump({"type": "trace", "record": record.model_dump(mode="json")})


class ReplayWriter:
    """Appends a game's lines as they happen; `finish` stamps the result into the header."""

    def __init__(self, path: Path, header: ReplayHeader, *, resume: bool = False) -> None:
        self.path = path
        self.header = header
        path.parent.mkdir(parents=True, exist_ok=True)
        if resume and path.exists():
            self._file: IO[str] = path.open("a", encoding="utf-8")
        else:
            self._file = path.open("w", encoding="utf-8")
            self._write(_dump(header.model_dump(mode="json")))

    def _write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()

    def event(self, seq: int, event: Event) -> None:
        """Append an event line."""
        self._write(event_line(seq, event))

    def answer(self, answer: Answer) -> None:
        """Append an answer line."""
        self._write(answer_line(answer))

    def trace(self, record: ModelCallRecord) -> None:
        """Append a model-call trace line."""
        self._write(trace_line(record))

    def belief(self, report: BeliefReport) -> None:
        """Append a belief-report line."""
        self._write(belief_line(report))

    def finish(self, result: ReplayResult | None = None) -> ReplayHeader:
        """Close the file, rewriting the header (with `result`) atomically."""
        self._file.close()
        self.header = self.header.model_copy(update={"result": result})
        # Split on "\n" only: `str.splitlines` also breaks at U+2028, U+0085 and other
        # characters a JSON string may hold raw, and would cut a player's speech in two.
        lines = self.path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
        lines[0] = _dump(self.header.model_dump(mode="json"))
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)
        return self.header

    def close(self) -> None:
        """Close without finishing (the game may resume later)."""
        self._file.close()


def _upcast(obj: dict[str, Any], version: int) -> dict[str, Any]:
    while version < SCHEMA_VERSION:
        obj = UPCASTERS[version](obj)
        version += 1
    return obj


def _header_from(line: str, path: Path) -> ReplayHeader:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        raise ReplayError(f"{path}:1: not a Werewolf Arena replay (line 1 is not JSON)") from None
    if not isinstance(obj, dict) or obj.get("type") != "header":
        raise ReplayError(f"{path}:1: not a Werewolf Arena replay (no header line)")
    version = obj.get("schema_version")
    if (
        not isinstance(version, int)
        or version > SCHEMA_VERSION
        or (version < SCHEMA_VERSION and version not in UPCASTERS)
    ):
        raise ReplayError(
            f"{path}:1: replay schema version {version!r} is not supported "
            f"(this is version {SCHEMA_VERSION})"
        )
    try:
        return ReplayHeader.model_validate(_upcast(obj, version))
    except ValidationError as exc:
        raise ReplayError(f"{path}:1: bad header: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else str(err["msg"])


def read_header(path: Path) -> ReplayHeader:
    """Read only the header line (fast: listing thousands of games reads one line each).

    Raises:
        ReplayError: the file is not a replay, or its header is unreadable.
    """
    try:
        with path.open(encoding="utf-8") as file:
            first = file.readline()
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path}: cannot read: {exc}") from None
    if not first.strip():
        raise ReplayError(f"{path}:1: empty file")
    return _header_from(first, path)


def iter_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream the body lines after the header as (line number, object).

    Raises:
        ReplayError: a line is not JSON, naming it.
    """
    header = read_header(path)
    with path.open(encoding="utf-8") as file:
        next(file)
        yield from _body(file, str(path), header.schema_version)


def _body(lines: Iterable[str], source: str, version: int) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            raise ReplayError(f"{source}:{number}: not JSON (truncated or corrupt)") from None
        if not isinstance(obj, dict):
            raise ReplayError(f"{source}:{number}: not a replay line")
        yield number, _upcast(obj, version)


def read_replay(path: Path) -> Replay:
    """Read a whole replay.

    Raises:
        ReplayError: the first line that is not a valid replay line.
    """
    return _collect(read_header(path), iter_lines(path), str(path))


def parse_replay_lines(lines: Sequence[str], source: str = "<stream>") -> Replay:
    """Parse a replay held as lines in memory (a live game's published lines).

    Raises:
        ReplayError: the first line that is not a valid replay line, named by `source`.
    """
    if not lines or not lines[0].strip():
        raise ReplayError(f"{source}:1: empty replay (no header line)")
    header = _header_from(lines[0], Path(source))
    return _collect(header, _body(lines[1:], source, header.schema_version), source)


def _collect(header: ReplayHeader, body: Iterable[tuple[int, dict[str, Any]]], path: str) -> Replay:
    events: list[Event] = []
    lines: list[int] = []
    answers: list[Answer] = []
    traces: list[ModelCallRecord] = []
    beliefs: list[BeliefReport] = []
    for number, obj in body:
        try:
            match obj.get("type"):
                case "event":
                    if obj.get("seq") != len(events):
                        raise ReplayError(
                            f"{path}:{number}: event seq {obj.get('seq')!r}, expected {len(events)}"
                        )
                    events.append(EVENT_ADAPTER.validate_python(obj["event"]))
                    lines.append(number)
                case "answer":
                    answers.append(
                        Answer.model_validate({k: v for k, v in obj.items() if k != "type"})
                    )
                case "trace":
                    traces.append(ModelCallRecord.model_validate(obj["record"]))
                case "belief":
                    beliefs.append(BeliefReport.model_validate(obj["report"]))
                case other:
                    raise ReplayError(f"{path}:{number}: unknown line type {other!r}")
        except (ValidationError, KeyError) as exc:
            detail = _first_error(exc) if isinstance(exc, ValidationError) else f"missing {exc}"
            raise ReplayError(f"{path}:{number}: bad {obj.get('type')} line: {detail}") from None
    return Replay(
        header=header,
        events=tuple(events),
        answers=tuple(answers),
        traces=tuple(traces),
        beliefs=tuple(beliefs),
        event_lines=tuple(lines),
    )
