"""Reading exam and key files: every bad input is one line naming the file and the line.

An exam, its key and a contestant's answers are files people hand the arena (a published
exam, a key kept apart), so nothing in them is trusted: each line is parsed into its
frozen model, and the key must name the very exam file it is given with (its SHA-256).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import NamedTuple, TypeVar

from pydantic import BaseModel, ValidationError

from arena.errors import ArenaError, one_line
from arena.exam.items import FORMAT, ExamHeader, Item, KeyHeader, KeyItem, KeySource

M = TypeVar("M", bound=BaseModel)


class Exam(NamedTuple):
    """An exam file, read."""

    path: Path
    sha256: str
    header: ExamHeader
    items: tuple[Item, ...]


class Key(NamedTuple):
    """A key file, read."""

    header: KeyHeader
    sources: dict[str, KeySource]
    """By the source game's hash."""
    truths: dict[str, KeyItem]
    """By item id."""


def key_path(exam: Path) -> Path:
    """The key file beside exam file `exam`: `exam.jsonl` → `exam.key.jsonl`."""
    stem = exam.name.removesuffix(".jsonl")
    return exam.with_name(f"{stem}.key.jsonl")


def text_lines(path: Path, what: str) -> tuple[str, list[str]]:
    """The file's text and its whole lines (a torn last line is left out).

    Raises:
        ArenaError: the file cannot be read, is not UTF-8, or is empty.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ArenaError(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"{path}: cannot read the {what}: {_first_line(exc)}") from None
    lines = text.split("\n")[:-1]
    if not lines:
        raise ArenaError(f"{path}: empty: not an {what}")
    return text, lines


def parse_line(model: type[M], line: str, path: Path, number: int) -> M:
    """Line `number` of `path` as `model` (one of this package's line models).

    Raises:
        ArenaError: `PATH:LINE: not a valid TYPE line: problem`.
    """
    try:
        found = model.model_validate(json.loads(line))
    except (ValueError, RecursionError) as exc:
        why = one_line(exc) if isinstance(exc, ValidationError) else _first_line(exc)
        kind = model.model_fields["type"].default
        raise ArenaError(f"{path}:{number}: not a valid {kind!s} line: {why}") from None
    version = getattr(found, "format", FORMAT)
    if version != FORMAT:
        raise ArenaError(f"{path}:{number}: format {version}; this arena reads format {FORMAT}")
    return found


def read_exam(path: Path) -> Exam:
    """An exam file: its header, every item, and the SHA-256 of its bytes.

    Raises:
        ArenaError: one line, for the first problem (bad line, wrong count, repeated id).
    """
    text, lines = text_lines(path, "exam file")
    header = parse_line(ExamHeader, lines[0], path, 1)
    items = tuple(parse_line(Item, line, path, n) for n, line in enumerate(lines[1:], start=2))
    if len(items) != header.items:
        raise ArenaError(f"{path}: {len(items)} items, its header says {header.items}")
    if len({i.id for i in items}) != len(items):
        raise ArenaError(f"{path}: an item id appears twice")
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Exam(path, sha, header, items)


def read_key(path: Path, exam: Exam) -> Key:
    """The key file of `exam`.

    Raises:
        ArenaError: one line: not a key file, a key of another exam (by the exam file's
            hash), or a key that lacks the truth of some item.
    """
    _, lines = text_lines(path, "key file")
    header = parse_line(KeyHeader, lines[0], path, 1)
    if header.exam_sha256 != exam.sha256:
        raise ArenaError(
            f"{path}: the key of exam {header.exam_id} ({header.exam_sha256[:12]}), not of "
            f"{exam.path} ({exam.header.exam_id}, {exam.sha256[:12]})"
        )
    sources: dict[str, KeySource] = {}
    truths: dict[str, KeyItem] = {}
    for number, line in enumerate(lines[1:], start=2):
        if '"type":"source"' in line[:20]:
            source = parse_line(KeySource, line, path, number)
            sources[source.sha256] = source
        else:
            truth = parse_line(KeyItem, line, path, number)
            truths[truth.item] = truth
    missing = [i.id for i in exam.items if i.id not in truths]
    if missing:
        raise ArenaError(f"{path}: no truth for {len(missing)} items (first: {missing[0]})")
    return Key(header, sources, truths)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__
