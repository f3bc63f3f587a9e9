"""The replay file: a versioned JSONL record of one game (docs/replay-format.md).

Line 1 is the header (readable alone, cheaply); then one line per event, per accepted
answer, per model-call trace and per belief report, in the order they happened. A
running game appends and flushes each line, so a crash leaves a readable partial file;
`finish` rewrites the header with the result atomically and signs the file: its last line
is the `signature` (`arena.storage.seal`), over every byte before it. Field order and names
change only with `SCHEMA_VERSION`, and older versions load through `UPCASTERS`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationError,
)

from arena.errors import ArenaError, clip, one_line
from arena.llm.types import ModelCallRecord
from arena.records import BeliefReport
from arena.rules.events import EVENT_ADAPTER, Event, GameEnded
from arena.rules.referee import Answer
from arena.storage.jsonl import ReplayError as ReplayError
from arena.storage.jsonl import bad, check_keys, decode, parse, raw_lines
from arena.storage.outsiders import INSIDER_AGENTS as INSIDER_AGENTS
from arena.storage.outsiders import has_outsiders as has_outsiders
from arena.storage.outsiders import open_running
from arena.storage.replay_header import SCHEMA_VERSION as SCHEMA_VERSION
from arena.storage.replay_header import ReplayHeader as ReplayHeader
from arena.storage.replay_header import ReplayResult as ReplayResult
from arena.storage.replay_header import SeatAgent as SeatAgent
from arena.storage.replay_header import SeatHandover as SeatHandover
from arena.storage.replay_lines import (
    LINE_KEYS,
    answer_line,
    belief_line,
    event_line,
    header_line,
    signed_text,
    trace_line,
)
from arena.storage.seal import Digests, Seal, arena_key
from arena.userfile import BOM


def _from_v1(obj: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2 added a line type only: every version-1 line is a valid version-2 line."""
    return obj


UPCASTERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_v1}
"""`UPCASTERS[v]` turns a version-`v` line (header or body) into version `v + 1`."""
TornTail = Literal["error", "drop"]
"""What a reader does with a torn last line: refuse the file, or leave the line out."""


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
    answer_lines: tuple[int, ...] = ()
    """The file line number of each answer."""
    torn_line: int | None = None
    """A torn last line left out by `read_replay(..., torn_tail="drop")`."""
    seal: Seal | None = None
    """The `signature` line, if the file has one (`arena.storage.seal.check_seal`)."""
    digest: str | None = None
    """SHA-256 of every byte before the signature line (of the whole file without one)."""
    body_digest: str | None = None
    """SHA-256 of the lines between the header and the signature: the game, whatever its
    header says (a copy under a new id has the same)."""


class ReplayWriter:
    """Appends a game's lines as they happen; `finish` stamps the result and signs.

    The arena's key is read when the writer is made (`arena_key(create=True)`), so a bad
    key stops a game before it starts, not after it was played. `sign=False` writes an
    unsigned file (tests of readers of old files). A game with outsiders is written
    owner-only until it is finished and signed (`outsiders.open_running`).
    """

    def __init__(
        self, path: Path, header: ReplayHeader, *, resume: bool = False, sign: bool = True
    ) -> None:
        self.path = path
        self.header = header
        self.key = arena_key(create=True) if sign else None
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = open_running(path, append=resume, private=has_outsiders(header))
        if self._file.tell() == 0:  # new, or resumed from nothing
            self._write(header_line(header))

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
        """Close the file, rewriting the header (with `result`) and signing, atomically."""
        self._file.close()
        self.header = self.header.model_copy(update={"result": result})
        # Split on "\n" only: `str.splitlines` also breaks at U+2028, U+0085 and other
        # characters a JSON string may hold raw, and would cut a player's speech in two.
        lines = self.path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
        lines[0] = header_line(self.header)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(signed_text(lines, self.key), encoding="utf-8")
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


def _header_from(text: str, source: str) -> ReplayHeader:
    text = text.removeprefix(BOM)  # some editors start a file with one; JSON has none
    obj = parse(text, source, 1, not_json="not a Werewolf Arena replay (line 1 is not JSON)")
    if not isinstance(obj, dict) or obj.get("type") != "header":
        raise bad(source, 1, "not a Werewolf Arena replay (no header line)")
    version = obj.get("schema_version")
    if (
        type(version) is not int
        or version > SCHEMA_VERSION
        or (version < SCHEMA_VERSION and version not in UPCASTERS)
    ):
        raise bad(
            source,
            1,
            f"replay schema version {_short(version)} is not supported "
            f"(this is version {SCHEMA_VERSION})",
        )
    obj = _upcast(obj, version)
    check_keys(obj, _HEADER_KEYS, source, 1)
    try:
        return ReplayHeader.model_validate(obj)
    except ValidationError as exc:
        raise bad(source, 1, f"bad header: {one_line(exc)}") from None
    except ArenaError as exc:
        raise bad(source, 1, f"bad header: {exc}") from None


_HEADER_KEYS = frozenset(ReplayHeader.model_fields)


def _short(value: object) -> str:
    return clip(repr(value), 40)


def read_header(path: Path) -> ReplayHeader:
    """Read only the header line (fast: listing thousands of games reads one line each).

    Raises:
        ReplayError: the file is not a replay, or its header is unreadable.
    """
    lines = raw_lines(path)
    try:
        first = next(lines, None)
    finally:
        lines.close()
    if first is None or not first[1].strip():
        raise bad(path, 1, "empty file")
    return _header_from(decode(first[1], path, 1), str(path))


def iter_lines(
    path: Path, *, torn_tail: TornTail = "error"
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream the body lines after the header as (line number, object).

    A torn last line (the file ends mid-line: a crash while writing) is an error, or with
    `torn_tail="drop"` silently skipped; the caller learns of it from `read_replay`.

    Raises:
        ReplayError: a line is not UTF-8, not JSON, too deep or not an object, naming it.
    """
    header = read_header(path)
    yield from _body(_texts(path, torn_tail), str(path), header.schema_version)


def _texts(
    path: Path,
    torn_tail: TornTail,
    torn: list[int] | None = None,
    digests: Digests | None = None,
) -> Iterator[_Text]:
    """The body lines of `path`, decoded; a torn last line is raised or dropped.

    `digests` hashes the bytes as read (the header line included), for the signature.
    """
    lines = raw_lines(path)
    first = next(lines, None)
    if digests is not None and first is not None:
        digests.header(first[1].removeprefix(BOM.encode()))  # a mark, not content
    for number, raw, complete in lines:
        if complete or _is_whole(raw):
            if digests is not None:
                digests.line(raw)
            yield number, decode(raw, path, number)
        elif torn_tail == "drop":
            if torn is not None:
                torn.append(number)
        else:
            raise bad(path, number, "not JSON: torn last line (the file ends mid-line)")


def _is_whole(raw: bytes) -> bool:
    """Whether a last line without its newline is still a whole JSON object."""
    try:
        return isinstance(json.loads(raw), dict)
    except (ValueError, RecursionError):
        return False


_Text = tuple[int, str]


def _body(
    lines: Iterable[_Text], source: str, version: int
) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in lines:
        if not line.strip():
            continue
        obj = parse(line, source, number)
        if not isinstance(obj, dict):
            raise bad(source, number, "not a replay line (not a JSON object)")
        yield number, _upcast(obj, version)


def read_replay(path: Path, *, torn_tail: TornTail = "error") -> Replay:
    """Read a whole replay.

    With `torn_tail="drop"` a torn last line is left out and named in `Replay.torn_line`
    (for showing what there is of a crashed game); validation keeps the default.

    Raises:
        ReplayError: the first line that is not a valid replay line, naming file and line.
    """
    header = read_header(path)
    torn: list[int] = []
    digests = Digests()
    body = _body(_texts(path, torn_tail, torn, digests), str(path), header.schema_version)
    replay = _collect(header, body, str(path), digests)
    return replay.model_copy(update={"torn_line": torn[0]}) if torn else replay


def parse_replay_lines(lines: Sequence[str], source: str = "<stream>") -> Replay:
    """Parse a replay held as lines in memory (a live game's published lines).

    Raises:
        ReplayError: the first line that is not a valid replay line, named by `source`.
    """
    if not lines or not lines[0].strip():
        raise bad(source, 1, "empty replay (no header line)")
    header = _header_from(lines[0], source)
    digests = Digests()
    digests.header(lines[0].removeprefix(BOM).encode("utf-8"))
    numbered = _hashed(enumerate(lines[1:], start=2), digests)
    return _collect(header, _body(numbered, source, header.schema_version), source, digests)


def _hashed(lines: Iterable[_Text], digests: Digests) -> Iterator[_Text]:
    for number, line in lines:
        digests.line(line.encode("utf-8"))
        yield number, line


def _collect(
    header: ReplayHeader,
    body: Iterable[tuple[int, dict[str, Any]]],
    path: str,
    digests: Digests | None = None,
) -> Replay:
    events: list[Event] = []
    lines: list[int] = []
    answers: list[Answer] = []
    answer_lines: list[int] = []
    traces: list[ModelCallRecord] = []
    beliefs: list[BeliefReport] = []
    sealed: Seal | None = None
    for number, obj in body:
        if sealed is not None:
            raise bad(path, number, "a line after the signature line (added after signing)")
        kind = obj.get("type")
        if kind is None:  # was `unknown line type None`, which named neither key nor types
            *most, last = LINE_KEYS
            raise bad(path, number, f'a line without a "type" ({", ".join(most)} or {last})')
        if not isinstance(kind, str) or kind not in LINE_KEYS:
            raise bad(path, number, f"unknown line type {_short(kind)}")
        check_keys(obj, LINE_KEYS[kind], path, number)
        try:
            match kind:
                case "event":
                    seq = obj.get("seq")
                    if type(seq) is not int or seq != len(events):
                        raise bad(path, number, f"event seq {_short(seq)}, expected {len(events)}")
                    events.append(EVENT_ADAPTER.validate_python(obj["event"]))
                    lines.append(number)
                case "answer":
                    answers.append(
                        Answer.model_validate({k: v for k, v in obj.items() if k != "type"})
                    )
                    answer_lines.append(number)
                case "trace":
                    traces.append(ModelCallRecord.model_validate(obj["record"]))
                case "belief":
                    beliefs.append(BeliefReport.model_validate(obj["report"]))
                case "signature":
                    sealed = Seal.model_validate(obj)
        except (ValidationError, KeyError) as exc:
            detail = one_line(exc) if isinstance(exc, ValidationError) else f"missing {exc}"
            raise bad(path, number, f"bad {kind} line: {detail}") from None
    digest, body_digest = (
        digests.finish(last_is_seal=sealed is not None) if digests is not None else (None, None)
    )
    return Replay(
        header=header,
        events=tuple(events),
        answers=tuple(answers),
        traces=tuple(traces),
        beliefs=tuple(beliefs),
        event_lines=tuple(lines),
        answer_lines=tuple(answer_lines),
        seal=sealed,
        digest=digest,
        body_digest=body_digest,
    )


class ReplayStatus(NamedTuple):
    """How complete a replay is, for a reader to say so (`replay_status`)."""

    state: Literal["finished", "unfinished", "truncated"]
    """`unfinished`: no result yet (running, or stopped and resumable); `truncated`: the
    header records a result the log does not reach, or the last line is torn."""
    events: int
    """Events in the file (the ones a reader can show)."""
    expected: int | None
    """Events the header's result records, if it has one."""
    torn_line: int | None


def replay_status(replay: Replay) -> ReplayStatus:
    """Whether `replay` is a finished game, an unfinished one or a truncated file.

    This reads the file's own claims only; `arena validate` re-runs the rules.
    """
    result = replay.header.result
    expected = result.events if result is not None else None
    ended = any(isinstance(e, GameEnded) for e in replay.events)
    if replay.torn_line is not None or (
        result is not None and (len(replay.events) < result.events or not ended)
    ):
        state: Literal["finished", "unfinished", "truncated"] = "truncated"
    elif result is None:
        state = "unfinished"
    else:
        state = "finished"
    return ReplayStatus(state, len(replay.events), expected, replay.torn_line)
