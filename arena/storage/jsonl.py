"""Reading a replay's lines safely: every fault is a `ReplayError` naming file and line.

A replay may be cut by a crash, edited by hand, or written by a hostile client; a reader
(validate, replay, the leaderboard, the dashboard) must then say in one line what is wrong
and where, never crash. A line is at most `MAX_LINE_BYTES` long; bytes are decoded per
line (an invalid UTF-8 byte names its line; a byte order mark before the header is dropped
by `replay_file`); JSON is parsed with the nesting bounded (`MAX_DEPTH`, far above anything
the arena writes and below what the serializer and the interpreter's recursion limit can
handle); and an object may carry only the keys its line type defines.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, BinaryIO

from arena.errors import ArenaError
from arena.text import cannot_read
from arena.userfile import open_regular

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest replay line read (the arena's longest, a trace holding a whole long
conversation, is well under 1 MB): a longer one is refused before it is held whole."""
MAX_DEPTH = 200
"""Deepest nesting of objects and arrays a replay line may have (the arena writes < 20)."""
_TOO_DEEP = f"nested too deep (over {MAX_DEPTH} levels of objects and arrays)"


class ReplayError(ArenaError):
    """A file that is not a readable replay; the message names the file and first bad line.

    `source` and `line` (1-based, None for the file as a whole) and `reason` (the message
    without its location) let a caller such as the leaderboard skip the file with a
    one-line warning of its own.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.source = source
        self.line = line
        self.reason = reason if reason is not None else message


def bad(source: str | Path, line: int | None, reason: str) -> ReplayError:
    """A `ReplayError` at `source:line`: `reason`."""
    where = f"{source}:{line}" if line is not None else str(source)
    return ReplayError(f"{where}: {reason}", source=str(source), line=line, reason=reason)


def raw_lines(path: Path) -> Generator[tuple[int, bytes, bool], None, None]:
    """Each line of `path` as (line number, bytes without the newline, ended by a newline).

    Raises:
        ReplayError: the file cannot be opened or read, or is not a regular file (a FIFO
            is refused at once, never waited on: `open_regular`).
    """
    try:
        with open_regular(path) as file:
            for number, raw in enumerate(iter(_reader(file), b""), start=1):
                complete = raw.endswith(b"\n")
                if len(raw) > MAX_LINE_BYTES and not complete:
                    raise bad(path, number, f"a line longer than {MAX_LINE_BYTES:,} bytes")
                yield number, raw[:-1] if complete else raw, complete
    except OSError as exc:
        said = cannot_read(path, exc)  # said in --lang by the CLI
        reason = str(said).removeprefix(f"{path}: ")
        raise bad(path, None, reason).keyed(said.key or "", **said.values) from None


def _reader(file: BinaryIO) -> Callable[[], bytes]:
    """Read one line of `file`, at most `MAX_LINE_BYTES` and its newline."""
    return functools.partial(file.readline, MAX_LINE_BYTES + 1)


def decode(raw: bytes, source: str | Path, number: int) -> str:
    """A line's text.

    Raises:
        ReplayError: the line is not valid UTF-8 (names the byte and its column).
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = raw[exc.start]
        raise bad(
            source, number, f"invalid UTF-8 byte 0x{byte:02x} at column {exc.start + 1}"
        ) from None


def parse(
    text: str, source: str | Path, number: int, *, not_json: str = "not JSON (truncated or corrupt)"
) -> Any:
    """A line's JSON value, with its nesting bounded; `not_json` is the message for non-JSON.

    Raises:
        ReplayError: not JSON (truncated or corrupt), or nested deeper than `MAX_DEPTH`.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise bad(source, number, _TOO_DEEP) from None
    except ValueError:
        raise bad(source, number, not_json) from None
    if _brackets(text) > MAX_DEPTH and depth(value) > MAX_DEPTH:
        raise bad(source, number, _TOO_DEEP)
    return value


def _brackets(text: str) -> int:
    """A bound on a JSON text's nesting: every object or array opens with its own bracket.

    Counted in C, it spares walking the value of the usual line (a replay line nests a few
    levels; walking it in Python was a sixth of reading a replay).
    """
    return text.count("{") + text.count("[")


def depth(value: Any) -> int:
    """How deeply objects and arrays nest in `value` (a scalar is 0); iterative."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            return level
        stack.extend((child, level) for child in children)
    return deepest


def check_keys(obj: dict[str, Any], allowed: frozenset[str], source: str, number: int) -> None:
    """Refuse keys a line type does not define (a foreign or hand-edited line).

    Raises:
        ReplayError: `obj` has a key outside `allowed`.
    """
    extra = sorted(set(obj) - allowed)
    if extra:
        kind = obj.get("type")
        names = ", ".join(repr(k[:40]) for k in extra[:3]) + (", ..." if len(extra) > 3 else "")
        raise bad(source, number, f"{kind} line has unknown key {names}")
