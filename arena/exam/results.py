"""Finding an exam's results: its answers files, the exam they answer, and its key.

An answers folder (what `arena exam run --out DIR` wrote) or answers files are read; each
names the exam it answers by path and SHA-256, and every one must answer the same exam.
The exam file is looked for where the sitting named it (as given then, or beside the
answers), unless given; the key beside the exam (`FILE.key.jsonl`), unless given.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from arena.errors import ArenaError
from arena.exam.answers import ItemAnswer, Sitting, read_answers
from arena.exam.files import Exam, Key, key_path, read_exam, read_key

SUFFIX = ".answers.jsonl"


class Results(NamedTuple):
    """An exam, its key, and every contestant's answers by item id."""

    exam: Exam
    key: Key
    sittings: dict[str, dict[str, ItemAnswer]]


def answer_files(paths: Sequence[Path]) -> list[Path]:
    """The answers files named, and those in the folders named (`*.answers.jsonl`).

    Raises:
        ArenaError: a path that does not exist, or no answers file at all.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.glob(f"*{SUFFIX}")))
        elif path.is_file():
            files.append(path)
        else:
            raise ArenaError(f"{path}: no such file or folder")
    if not files:
        raise ArenaError(f"no answers file (*{SUFFIX}) in {', '.join(map(str, paths))}")
    return files


def read_sittings(files: Sequence[Path]) -> list[tuple[Path, Sitting, list[ItemAnswer]]]:
    """Every answers file, read; all must answer one exam, each a different contestant.

    Raises:
        ArenaError: a bad file, two exams, or one contestant twice.
    """
    read = [(f, *read_answers(f)) for f in files]
    exams = {s.exam_sha256 for _, s, _ in read}
    if len(exams) > 1:
        raise ArenaError(f"the answers are to {len(exams)} different exams: report one at a time")
    names = [s.contestant for _, s, _ in read]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise ArenaError(f"{twice} has two answers files: give one")
    return read


def locate_exam(given: Path | None, first: tuple[Path, Sitting]) -> Path:
    """The exam file: `given`, else where the sitting named it, else beside the answers.

    Raises:
        ArenaError: none of those exists (give it with --exam).
    """
    if given is not None:
        return given
    folder, sitting = first[0].parent, first[1]
    named = Path(sitting.exam)
    for candidate in (named, folder / named.name, folder.parent / named.name):
        if candidate.is_file():
            return candidate
    raise ArenaError(f"cannot find the exam file {sitting.exam} the answers name: give --exam")


def load(paths: Sequence[Path], exam_path: Path | None, key_file: Path | None) -> Results:
    """The results under `paths`, with their exam and key.

    Raises:
        ArenaError: one line, for the first problem found.
    """
    read = read_sittings(answer_files(paths))
    exam = read_exam(locate_exam(exam_path, (read[0][0], read[0][1])))
    if read[0][1].exam_sha256 != exam.sha256:
        raise ArenaError(f"{exam.path} is not the exam these answers are to (its SHA-256 differs)")
    key = read_key(key_file or key_path(exam.path), exam)
    known = {i.id for i in exam.items}
    sittings = {}
    for path, sitting, answers in read:
        stray = next((a.item for a in answers if a.item not in known), None)
        if stray is not None:
            raise ArenaError(f"{path}: answers item {stray}, which the exam does not have")
        sittings[sitting.contestant] = {a.item: a for a in answers}
    return Results(exam, key, sittings)
