"""`arena exam run`: every contestant answers every item, resumably, within its limits.

Items are asked moment by moment (one seat at one step: a vote, its belief report and
its role guess are one moment), each moment of a fresh seat (`Contestant.seat_at`). The
moments of one seat of one game form a stream, asked in step order; a contestant's
streams run concurrently up to its endpoint's slots (`Contestant.slots`: a llama-server
slot per request stream) or `concurrency`; contestants run side by side.
Each moment's answers are appended to the contestant's file as soon as they are in
(`arena.exam.answers`), so a stopped sitting resumes where it stopped, and every
contestant answers the same items.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from arena.agents.remote.client import RemoteAgent
from arena.agents.traits import trait
from arena.exam.answers import ItemAnswer, Sitting, answers_path, append, start
from arena.exam.asking import ask_moment
from arena.exam.contestant import Contestant
from arena.exam.files import Exam
from arena.exam.items import Item
from arena.match import Limits

Progress = Callable[[str, int, int], None]
"""Called as `progress(contestant, items_done, items_total)` after each moment."""


class Tally(NamedTuple):
    """What one contestant's sitting did this run."""

    contestant: str
    path: Path
    asked: int
    """Items answered in this run."""
    skipped: int
    """Items answered in an earlier run (resumed)."""
    own: int
    calls: int
    tokens: int
    cost_usd: float
    seconds: float
    derived: int = 0
    """Role items answered by reading the guess off the contestant's belief report (a seat
    with no role question): neither its own answer nor a default."""


def moments(items: Sequence[Item]) -> list[list[Item]]:
    """The items grouped by moment (source, seat, step), in the exam's order."""
    groups: dict[tuple[str, int, int], list[Item]] = {}
    for item in items:
        groups.setdefault((item.source, item.seat, item.step), []).append(item)
    return list(groups.values())


def streams(items: Sequence[Item]) -> list[list[list[Item]]]:
    """The moments grouped by seat of a game (source, seat), each stream in step order.

    A stream's moments are asked one after the other: each is a fresh seat, but its
    prompt begins with the previous one's (the same seat's view, grown), so a server that
    keeps a slot's prompt (llama-server, vLLM) reads only what is new, as in a game.
    """
    found: dict[tuple[str, int], list[list[Item]]] = {}
    for group in moments(items):
        found.setdefault((group[0].source, group[0].seat), []).append(group)
    return [sorted(stream, key=lambda g: g[0].step) for stream in found.values()]


async def sit(
    exam: Exam,
    contestants: Sequence[Contestant],
    out: Path,
    limits: Limits,
    *,
    lang: str,
    concurrency: int = 1,
    progress: Progress | None = None,
) -> list[Tally]:
    """Sit `exam` for every contestant, writing `out/<contestant>.answers.jsonl`.

    Raises:
        ArenaError: an answers file of another exam or contestant is in the way, or a
            contestant's endpoint or agent is down (before any of its items is asked).
    """
    runs = []
    for contestant in contestants:
        sitting = Sitting(
            exam_id=exam.header.exam_id,
            exam_sha256=exam.sha256,
            exam=str(exam.path),
            contestant=contestant.label,
            lang=lang,
        )
        path = answers_path(out, contestant.label)
        runs.append((contestant, path, start(path, sitting)))
    return list(
        await asyncio.gather(
            *(_sit_one(exam, c, p, done, limits, concurrency, progress) for c, p, done in runs)
        )
    )


async def _sit_one(
    exam: Exam,
    contestant: Contestant,
    path: Path,
    done: set[str],
    limits: Limits,
    concurrency: int,
    progress: Progress | None,
) -> Tally:
    """One contestant's sitting: its items not yet answered, `slots` streams at once."""
    todo = streams([i for i in exam.items if i.id not in done])
    started = time.perf_counter()
    written: list[ItemAnswer] = []
    try:
        if todo:
            await contestant.prepare(todo[0][0][0], exam.header.exam_id)
        gate = asyncio.Semaphore(contestant.slots or concurrency)
        total = len(exam.items)

        async def one(stream: list[list[Item]]) -> None:
            async with gate:
                for group in stream:
                    answers = await _ask(contestant, group, exam.header.exam_id, limits)
                    append(path, answers)
                    written.extend(answers)
                    if progress is not None:
                        progress(contestant.label, len(done) + len(written), total)

        await asyncio.gather(*(one(stream) for stream in todo))
    finally:
        await contestant.aclose()
    return _tally(contestant.label, path, written, len(done), time.perf_counter() - started)


async def _ask(
    contestant: Contestant, group: list[Item], exam_id: str, limits: Limits
) -> list[ItemAnswer]:
    """One moment's answers, from a seat built for it (its connection closed after)."""
    agent = contestant.seat_at(group[0], exam_id)
    try:
        return await ask_moment(agent, group, limits)
    finally:
        remote = trait(agent, RemoteAgent)
        if remote is not None:
            await remote.aclose()


def _tally(
    label: str, path: Path, answers: list[ItemAnswer], skipped: int, seconds: float
) -> Tally:
    calls = [c for a in answers for c in a.calls]
    return Tally(
        contestant=label,
        path=path,
        asked=len(answers),
        skipped=skipped,
        own=sum(a.own for a in answers),
        calls=len(calls),
        tokens=sum(c.usage.prompt_tokens + c.usage.completion_tokens for c in calls),
        cost_usd=sum(c.cost_usd for c in calls),
        seconds=seconds,
        derived=sum(a.derived for a in answers),
    )


def own_share(tally: Tally) -> str:
    """How many of the items put to the contestant it answered itself, in words.

    Role guesses read off its belief report are counted apart: the contestant was not
    asked them, so they are neither its own answers nor the arena's defaults.
    """
    put = tally.asked - tally.derived
    text = f"{tally.own} of {put} own ({tally.own / put:.0%})" if put else "none put to it"
    return text + (f", {tally.derived} role guesses read off its beliefs" if tally.derived else "")
