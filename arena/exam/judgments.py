"""The judges' verdicts on speeches, kept beside the answers so they are asked once.

`arena exam report` judges each wolf's speech a contestant gave (`arena.exam.judge`) and
appends the verdicts to `judgments.jsonl` in the answers folder: a report read again, and
the dashboard's Exams page, take them from the file instead of asking the judges again
(a model judge costs calls; the page calls no agent). A verdict names the answer it
judged by a hash of it, so a speech given anew (a sitting redone) is judged anew.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from arena.exam.answers import ItemAnswer
from arena.exam.files import parse_line, text_lines

FILE = "judgments.jsonl"


class Judgment(BaseModel):
    """One judge's verdict on one contestant's speech item."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["judgment"] = "judgment"
    judge: str
    contestant: str
    item: str
    answer: str
    """`answer_hash` of the answer judged."""
    speaker: float | None
    """The mean change of the listeners' wolf probability on the speaker (None: no report)."""
    team: float | None
    """The same for the mean over the wolf team's seats."""
    listeners: int


Verdicts = Mapping[tuple[str, str, str], Judgment]
"""Judgments by (judge, contestant, item)."""


def answer_hash(answer: ItemAnswer) -> str:
    """What a verdict is bound to: the answer's action, hashed."""
    action = answer.action.model_dump_json() if answer.action is not None else "null"
    return hashlib.sha256(action.encode("utf-8")).hexdigest()[:16]


def read_judgments(folder: Path) -> dict[tuple[str, str, str], Judgment]:
    """The verdicts kept in `folder` (none when it has no file; a torn last line is left out).

    Raises:
        ArenaError: a line that is not a judgment (one line, naming it).
    """
    path = folder / FILE
    if not path.is_file():
        return {}
    _, lines = text_lines(path, "judgments file")
    found = (parse_line(Judgment, line, path, n) for n, line in enumerate(lines, start=1))
    return {(j.judge, j.contestant, j.item): j for j in found}


def append_judgments(folder: Path, judgments: Iterable[Judgment]) -> None:
    """Add `judgments` to the folder's file."""
    lines = "".join(j.model_dump_json() + "\n" for j in judgments)
    if lines:
        with (folder / FILE).open("a", encoding="utf-8") as out:
            out.write(lines)


def current(
    verdicts: Verdicts, judges: Sequence[str], contestant: str, item: str, answer: ItemAnswer
) -> list[Judgment]:
    """The verdicts on this answer by `judges` (those bound to another answer are stale)."""
    bound = answer_hash(answer)
    found = [verdicts.get((judge, contestant, item)) for judge in judges]
    return [j for j in found if j is not None and j.answer == bound]
