"""A contestant's answers to an exam: one JSON Lines file per contestant, appended as it goes.

The first line (`Sitting`) names the exam (its id and the SHA-256 of its file) and the
contestant; every later line is one item's `ItemAnswer`, written and flushed as soon as its
moment is answered. A sitting that stops (a crash, Ctrl-C) keeps every line written; run
again, it reads them and asks only the items not yet answered (a torn last line is dropped
first). So the file is the sitting's record: the report reads nothing else of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from arena.errors import ArenaError
from arena.exam.files import parse_line, text_lines
from arena.exam.items import FORMAT
from arena.llm.types import ModelCallRecord
from arena.rules.actions import Action
from arena.rules.types import Role, SeatId


class Sitting(BaseModel):
    """The first line of an answers file: whose answers to which exam."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["sitting"] = "sitting"
    format: int = FORMAT
    exam_id: str
    exam_sha256: str
    exam: str
    """The exam file as named when it was sat (the report looks for it there)."""
    contestant: str
    """The contestant's seat spec as written (`bot`, `py:MODULE:FACTORY`, `openai:MODEL`, a URL)."""
    lang: str


class ItemAnswer(BaseModel):
    """One item's answer, as the seat contract games use gave it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["answer"] = "answer"
    item: str
    action: Action | None = None
    """A decision item's accepted answer (the request's default when `defaulted`)."""
    beliefs: dict[SeatId, float] | None = None
    """A belief item's wolf probabilities (None: no report)."""
    roles: dict[SeatId, Role] | None = None
    """A role item's guesses (None: no guess)."""
    defaulted: str | None = None
    """Why the answer is not the contestant's own: the arena's default after refused or
    late answers (a decision), or no report or guess came (a question), as in a game."""
    derived: bool = False
    """A role guess read off the belief report (`arena.exam.guess.from_beliefs`)."""
    tries: int = 0
    """Answers asked for (the first, and re-asks after refusals)."""
    seconds: float = 0.0
    """Wall time from the first ask to the accepted answer or the default."""
    calls: tuple[ModelCallRecord, ...] = ()
    """Every model call or remote exchange the answer took, as games' traces record them."""

    @property
    def own(self) -> bool:
        """Whether the contestant itself gave this answer."""
        return self.defaulted is None and not self.derived


def slug(contestant: str) -> str:
    """A file name for a contestant's answers: its spec with unsafe characters as `_`."""
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", contestant).strip("_.")[:80] or "contestant"


def answers_path(folder: Path, contestant: str) -> Path:
    """Where `contestant`'s answers go in `folder`."""
    return folder / f"{slug(contestant)}.answers.jsonl"


def start(path: Path, sitting: Sitting) -> set[str]:
    """Open `path` for `sitting`: create it, or resume it; the items already answered.

    Raises:
        ArenaError: the file holds another exam's or another contestant's answers.
    """
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sitting.model_dump_json() + "\n", encoding="utf-8")
        return set()
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]  # a torn last line: the crash's unfinished write
        path.write_text(text, encoding="utf-8")
    found, answers = read_lines(path, text)
    if (found.exam_sha256, found.contestant) != (sitting.exam_sha256, sitting.contestant):
        raise ArenaError(
            f"{path}: holds {found.contestant}'s answers to exam {found.exam_id} "
            f"({found.exam_sha256[:12]}), not {sitting.contestant}'s to "
            f"{sitting.exam_id} ({sitting.exam_sha256[:12]}): choose another --out"
        )
    return {a.item for a in answers}


def append(path: Path, answers: Sequence[ItemAnswer]) -> None:
    """Add `answers` to the file and flush them (they survive a crash once this returns)."""
    with path.open("a", encoding="utf-8") as out:
        out.write("".join(a.model_dump_json() + "\n" for a in answers))
        out.flush()


def read_answers(path: Path) -> tuple[Sitting, list[ItemAnswer]]:
    """An answers file: its sitting and every answer (a torn last line is left out).

    Raises:
        ArenaError: `PATH:LINE: problem`, one line, for a file that is not an answers file.
    """
    text, _ = text_lines(path, "answers file")
    return read_lines(path, text[: text.rfind("\n") + 1])


def read_lines(path: Path, text: str) -> tuple[Sitting, list[ItemAnswer]]:
    """Parse an answers file's `text` (whole lines).

    Raises:
        ArenaError: `PATH:LINE: problem`, for the first line that is not what it should be.
    """
    lines = text.split("\n")[:-1]
    if not lines:
        raise ArenaError(f"{path}: empty: not an exam answers file")
    sitting = parse_line(Sitting, lines[0], path, 1)
    answers = [parse_line(ItemAnswer, line, path, n) for n, line in enumerate(lines[1:], start=2)]
    return sitting, answers
