"""The one reader of the YAML files people hand the arena: bounded in size, aliases and words.

Board files (`arena play --board`, the Play page's upload), tournament files, match spec
files, scenario files, `--set knob=VALUE` values, and the packaged YAML read the same way
(the example boards, the prompt library, the text catalog) all come through `read_yaml` or
`parse_yaml`. Replay lines are JSON and have their own line reader (`arena.storage.jsonl`),
which shares the byte order mark rule and the clipped messages.

The bounds, and why:
- Size: a file of more than `MAX_BYTES` (a board file: `board_file.MAX_BYTES`) is refused
  before it is parsed; only that much is ever read.
- Aliases: a YAML alias (`*name`) repeats its anchor's node, so nested aliases grow
  exponentially: 329 bytes of nine nested lists of nine aliases stand for 387 million
  strings (a "billion laughs"), which took over a minute and 3 GB before it failed. The
  document's node graph is measured before anything is built: its size with every alias
  expanded (nodes plus the characters of their scalars) may be at most twice its byte
  bound (a file without aliases never comes near), its nesting at most `MAX_DEPTH`
  levels, and an alias inside its own anchor (a recursive document) is refused. Anchors
  used as an author would (shared defaults, `<<: *base`) pass.
- Keys: a key written twice in one mapping is refused (YAML keeps the last one silently).
- Words: every message is one line, and what it repeats of the input is clipped
  (`arena.errors.clip`).
- A UTF-8 byte order mark at the start of a file (some Windows editors write one) is
  dropped, never a reason to refuse.
- Only a regular file is read (`open_regular`): a FIFO, socket or device named as a file
  is refused at once, never waited on (opening a FIFO blocks until someone writes to it).

This module reads files but imports nothing of the arena except its errors, so every layer
may use it; the rules core does not (it does no I/O) and uses `clip`/`one_line` directly.
"""

from __future__ import annotations

import os
import re
import stat
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from arena.errors import ArenaError, clip, one_line

MAX_BYTES = 1024 * 1024
"""The largest YAML file read (a tournament file of a thousand agents is under 100 KB)."""
MAX_DEPTH = 100
"""The deepest nesting of mappings and lists, aliases expanded (the arena's own: < 10)."""
MERGE = "tag:yaml.org,2002:merge"
"""The tag of `<<` (a merge key), which may repeat."""
BOM = "\ufeff"
"""The UTF-8 byte order mark, as text: dropped from the start of any file read."""

BOOL = "tag:yaml.org,2002:bool"
"""The tag of a boolean scalar."""


def _yaml12_booleans(base: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    """`base` reading booleans as YAML 1.2 does: only `true` and `false` (any case).

    PyYAML follows YAML 1.1, where `yes`, `no`, `on` and `off` are booleans too, so a
    tournament file's `beliefs: off` reached the arena as `False` and was refused as not
    one of "off", "daily", "per_speech" (and a seat named `no` would be `False`). With
    1.2's rule a word stays a word; fields that are booleans still take `yes`/`off`, as
    pydantic reads those strings as booleans.
    """
    resolvers = {
        first: [(tag, pattern) for tag, pattern in entries if tag != BOOL]
        for first, entries in base.yaml_implicit_resolvers.items()
    }
    loader: type[yaml.SafeLoader] = type(
        base.__name__, (base,), {"yaml_implicit_resolvers": resolvers}
    )
    loader.add_implicit_resolver(
        BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    return loader


_Loader: type[yaml.SafeLoader] = _yaml12_booleans(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
"""libyaml's safe loader when PyYAML was built with it (fast, and it bounds nesting while
it parses); else the pure-Python one; either with YAML 1.2's booleans."""


def read_yaml(
    source: Traversable,
    name: str | None = None,
    *,
    what: str = "file",
    max_bytes: int = MAX_BYTES,
    error: type[ArenaError] = ArenaError,
) -> Any:
    """The value of the YAML file `source` (a path or package data), within the bounds.

    `name` (default: `source` as text) starts every message, `what` names the kind of file
    in them ("board file"), and `error` is the error type raised.

    Raises:
        ArenaError: (`error`) `NAME: problem`, one line: a missing, unreadable or too large
            file, not UTF-8, not YAML, or aliases past the bound.
    """
    label = str(source) if name is None else name
    return parse_yaml(
        read_text(source, label, what=what, max_bytes=max_bytes, error=error),
        label,
        max_bytes=max_bytes,
        error=error,
    )


M = TypeVar("M", bound=BaseModel)


def read_model(
    path: Path,
    model: type[M],
    *,
    what: str,
    mapping: str,
    error: type[ArenaError],
    named: tuple[type[ArenaError], ...] = (),
) -> M:
    """The YAML file `path` (a mapping) validated as `model`, its paths read from its folder.

    The model's validators get `context={"base": path.parent}`. `mapping` is the message
    for a file that is not a mapping; an error of a type in `named` that a validator raises
    is raised again as `error` with the file's name in front, as a pydantic error is.

    Raises:
        ArenaError: (`error`) `PATH: problem`, one line: `read_yaml`'s, not a mapping, or the
            first invalid field.
    """
    data = read_yaml(path, what=what, error=error)
    if not isinstance(data, dict):
        raise error(f"{path}: {mapping}")
    try:
        return model.model_validate(data, context={"base": path.parent})
    except ValidationError as exc:
        raise error(f"{path}: {one_line(exc)}") from None
    except named as exc:
        raise error(f"{path}: {clip(str(exc))}") from None


def read_text(
    source: Traversable,
    name: str,
    *,
    what: str = "file",
    max_bytes: int = MAX_BYTES,
    error: type[ArenaError] = ArenaError,
) -> str:
    """The text of `source`, reading at most `max_bytes + 1` bytes of it.

    Raises:
        ArenaError: (`error`) a missing or unreadable file, one over `max_bytes`, or one
            that is not UTF-8.
    """
    try:
        opened = open_regular(source) if isinstance(source, Path) else source.open("rb")
        with opened as file:
            data = file.read(max_bytes + 1)
    except FileNotFoundError:
        said = error(f"{name}: no such {what}")
        raise said.keyed("error.no_such", name=name, what=what) from None
    except IsADirectoryError:
        said = error(f"{name}: a folder, not a {what}")
        raise said.keyed("error.not_a_file", name=name, what=what) from None
    except OSError as exc:
        why = exc.strerror or exc
        said = error(f"{name}: cannot read: {why}")
        raise said.keyed("error.cannot_read.other", where=name, why=why) from None
    return decode(data, name, what=what, max_bytes=max_bytes, error=error)


class NotAFile(OSError):
    """A path that names something other than a regular file (a FIFO, a socket, a device)."""


def open_regular(path: Path) -> BinaryIO:
    """`path` opened for reading in binary, if it is a regular file.

    Opened without blocking and then checked on the open descriptor (not by a `stat`
    before it, which a swap could race): opening a FIFO for reading waits for a writer,
    so `arena validate` on one hung forever.

    Raises:
        IsADirectoryError: `path` is a folder.
        NotAFile: it is a FIFO, socket or device (`strerror` says which).
        OSError: as `os.open` does (missing, no permission).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "a folder, not a file")
        if not stat.S_ISREG(mode):
            raise NotAFile(0, f"not a regular file ({_kind(mode)})")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind(mode: int) -> str:
    """What a non-regular file is, in a word."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file"


def decode(
    data: bytes,
    name: str,
    *,
    what: str = "file",
    max_bytes: int = MAX_BYTES,
    error: type[ArenaError] = ArenaError,
) -> str:
    """A file's bytes as text (an upload's, or `read_text`'s), without a byte order mark.

    Raises:
        ArenaError: (`error`) more than `max_bytes`, or not UTF-8 (naming the byte).
    """
    if len(data) > max_bytes:
        raise error(f"{name}: too large: a {what} has at most {max_bytes:,} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = data[exc.start]
        raise error(f"{name}: not UTF-8 text (byte 0x{byte:02x} at offset {exc.start})") from None


def parse_yaml(
    text: str,
    name: str,
    *,
    max_bytes: int = MAX_BYTES,
    error: type[ArenaError] = ArenaError,
) -> Any:
    """The value of one YAML document, within the bounds (see the module's docstring).

    `name` starts every message; `max_bytes` bounds the text (in characters) and, doubled,
    the document with its aliases expanded.

    Raises:
        ArenaError: (`error`) `NAME[:LINE]: problem`, one line: too large, not YAML (one
            document), nested too deep, or aliases that expand past the bound or into
            themselves.
    """
    if len(text) > max_bytes:
        raise error(f"{name}: too large: at most {max_bytes:,} characters")
    loader = _Loader(text.removeprefix(BOM))
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _measure(node, name, 2 * max_bytes, error)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise error(yaml_message(exc, name)) from None
    except RecursionError:  # the pure-Python loader, before `_measure` could look
        raise error(f"{name}: nested too deep (over {MAX_DEPTH} levels)") from None
    finally:
        loader.dispose()


def yaml_message(exc: yaml.YAMLError, name: str) -> str:
    """`NAME:LINE: not valid YAML: problem`, the problem clipped (it may quote the input)."""
    mark = getattr(exc, "problem_mark", None)
    where = f":{mark.line + 1}" if mark is not None else ""
    problem = getattr(exc, "problem", None) or "invalid YAML"
    return f"{name}{where}: not valid YAML: {clip(str(problem))}"


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_keys(node: MappingNode, name: str, error: type[ArenaError]) -> None:
    """Refuse a key written twice in one mapping (YAML would keep the last one silently)."""
    seen: set[tuple[str, str]] = set()
    for key, _ in node.value:
        if isinstance(key, ScalarNode) and key.tag != MERGE:
            if (key.tag, key.value) in seen:
                line = key.start_mark.line + 1
                raise error(f"{name}:{line}: {clip(repr(key.value))} is written twice")
            seen.add((key.tag, key.value))


def _measure(root: Node, name: str, limit: int, error: type[ArenaError]) -> None:
    """Refuse a document that its aliases expand past `limit` units or `MAX_DEPTH` levels.

    One walk measures each distinct node once, and refuses an alias inside its own anchor.

    A node's expanded size is 1 plus its scalar's length or its children's sizes, and its
    height 1 plus its deepest child's: both are the same wherever an alias repeats the
    node, so they are computed once per node, and the walk costs the size of the file, not
    of its expansion.
    """
    measured: dict[int, tuple[int, int]] = {}  # id(node) -> (expanded size, height)
    open_: set[int] = set()  # the nodes whose children are being measured: the path
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_.discard(key)
            kids = [measured[id(kid)] for kid in _children(node)]
            size = 1 + sum(s for s, _ in kids)
            height = 1 + max((h for _, h in kids), default=0)
            line = node.start_mark.line + 1
            if height > MAX_DEPTH:
                raise error(f"{name}:{line}: nested too deep (over {MAX_DEPTH} levels)")
            if size > limit:
                raise error(
                    f"{name}:{line}: its aliases expand the document past {limit:,} "
                    "nodes and characters (a YAML bomb?); write the repeated parts out"
                )
            measured[key] = (size, height)
        elif key in measured:
            continue
        elif key in open_:
            line = node.start_mark.line + 1
            raise error(f"{name}:{line}: an alias inside its own anchor (a recursive document)")
        elif isinstance(node, ScalarNode):
            measured[key] = (1 + len(node.value), 0)
        else:
            if isinstance(node, MappingNode):
                _check_keys(node, name, error)
            open_.add(key)
            stack.append((node, True))
            stack.extend((kid, False) for kid in _children(node))
