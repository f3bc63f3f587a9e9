"""`arena exam build`: cut verified replays into an exam file and its key file.

Each replay is verified and re-run (`arena.exam.sources`), its moments are matched to the
kinds asked (`arena.exam.moments`), and a seeded draw picks up to `per_game` of them
(`arena.exam.draw`). Each item's view is the seat's `observe` projection of the re-run log,
cut where the request was issued; its request is the referee's own. The truth at each
moment, and what re-runs each game up to its last item, go to the key file alone.

Many files are cut in worker processes (verifying is CPU-bound); the output depends only
on the files' contents, the seed, the kinds and `per_game`, not on their order or on the
number of workers.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from arena.errors import ArenaError
from arena.exam.draw import draw
from arena.exam.files import key_path
from arena.exam.items import (
    FORMAT,
    ExamHeader,
    Item,
    KeyHeader,
    KeyItem,
    KeySource,
    Kind,
    SourceGame,
    item_id,
)
from arena.exam.moments import Candidate, candidates
from arena.exam.sources import Refused, VerifiedGame, replay_files, verify
from arena.rules.observation import observe
from arena.rules.visibility import SeatViewer
from arena.storage.seal import arena_key

PARALLEL_FILES = 64
"""From this many files the cutting runs in worker processes."""


class Cut(NamedTuple):
    """One game's share of an exam, as the lines it adds (strings: cheap to pass back)."""

    path: str
    sha256: str
    play: str
    game_id: str
    items: tuple[str, ...]
    truths: tuple[str, ...]
    source: str


class Built(NamedTuple):
    """What a build wrote, and the files it left out."""

    header: ExamHeader
    key_path: Path
    refused: list[Refused]


def cut_file(path: Path, seed: int, kinds: tuple[Kind, ...], per_game: int | None) -> Cut | Refused:
    """Verify `path` and cut its items (a worker process's whole job for one file)."""
    found = verify(path, arena_key())
    if isinstance(found, Refused):
        return found
    chosen = draw(list(candidates(found.moments)), per_game, seed, found.sha256, kinds)
    chosen.sort(key=lambda c: (c.moment.request.step, c.moment.request.seat, kinds.index(c.kind)))
    made = [(_item(found, c), c) for c in chosen]
    made = [(i, c) for i, c in made if i.asked or i.kind not in ("belief", "role")]  # none left
    items = [i for i, _ in made]
    truths = [KeyItem(item=i.id, roles=c.moment.roles, wolves=c.moment.wolves) for i, c in made]
    last = max((c.moment.request.step for c in chosen), default=-1)
    header = found.replay.header
    source = KeySource(
        sha256=found.sha256,
        config=header.config,
        seed=header.seed,
        draw=header.draw,
        answers=tuple(a for a in found.replay.answers if a.step < last),
    )
    return Cut(
        str(path),
        found.sha256,
        found.play,
        header.game_id,
        tuple(i.model_dump_json() for i in items),
        tuple(t.model_dump_json() for t in truths),
        source.model_dump_json(),
    )


def _item(game: VerifiedGame, candidate: Candidate) -> Item:
    """The item of `candidate`: the seat's view cut at the moment, and the question."""
    moment, kind = candidate
    request = moment.request
    view = observe(game.replay.events, SeatViewer(seat=request.seat), until=moment.until)
    known = view.knowledge
    asked: tuple[int, ...] = ()
    if kind == "belief":
        asked = tuple(s for s in known.present() if s != request.seat)
    elif kind == "role":
        asked = tuple(s for s in range(1, known.seats + 1) if s not in known.roles)
    assert known.own_role is not None
    header = game.replay.header
    return Item(
        id=item_id(game.sha256, request.seat, request.step, kind),
        source=game.sha256,
        game_id=header.game_id,
        config=header.config.model_copy(update={"deal": None}),
        seat=request.seat,
        step=request.step,
        until=moment.until,
        day=request.day,
        role=known.own_role,
        kind=kind,
        request=request if kind in ("vote", "seer", "knife", "speech") else None,
        asked=asked,
        view=view,
    )


def cut_all(
    files: Sequence[Path], seed: int, kinds: tuple[Kind, ...], per_game: int | None, jobs: int
) -> Iterator[Cut | Refused]:
    """`cut_file` of every file, in order; in `jobs` worker processes for many files."""
    if jobs <= 1 or len(files) < PARALLEL_FILES:
        yield from (cut_file(f, seed, kinds, per_game) for f in files)
        return
    method = "fork" if threading.active_count() == 1 and sys.platform != "win32" else "spawn"
    chunk = max(1, min(16, len(files) // (jobs * 8)))
    n = len(files)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method)) as pool:
        yield from pool.map(
            cut_file, files, [seed] * n, [kinds] * n, [per_game] * n, chunksize=chunk
        )


def build(
    paths: Sequence[Path],
    out: Path,
    *,
    seed: int = 0,
    kinds: tuple[Kind, ...],
    per_game: int | None,
    jobs: int | None = None,
) -> Built:
    """Cut the replays under `paths` into `out` and its key file (`key_path(out)`).

    Raises:
        ArenaError: no verified game, or no item in any of them.
    """
    files, refused = replay_files(paths)
    cuts: dict[str, Cut] = {}
    for result in cut_all(files, seed, kinds, per_game, jobs or os.cpu_count() or 1):
        if isinstance(result, Refused):
            refused.append(result)
        else:
            _keep(cuts, result, refused)
    games = sorted((c for c in cuts.values() if c.items), key=lambda c: c.sha256)
    if not cuts:
        raise ArenaError("no verified game to cut an exam from")
    if not games:
        raise ArenaError(f"none of the {len(cuts)} verified games has a moment of {kinds}")
    header = _header(games, seed, kinds, per_game)
    text = _lines([header.model_dump_json(), *(i for g in games for i in g.items)])
    out.write_text(text, encoding="utf-8")
    key = KeyHeader(exam_id=header.exam_id, exam_sha256=hashlib.sha256(text.encode()).hexdigest())
    key_lines = [key.model_dump_json(), *(g.source for g in games)]
    key_lines += [t for g in games for t in g.truths]
    target = key_path(out)
    target.write_text(_lines(key_lines), encoding="utf-8")
    return Built(header, target, refused)


def _keep(cuts: dict[str, Cut], cut: Cut, refused: list[Refused]) -> None:
    """Add `cut`; of two copies of one game, the file with the smaller hash stays."""
    other = cuts.get(cut.play)
    if other is not None:
        kept, dropped = sorted((other, cut), key=lambda c: c.sha256)
        refused.append(Refused(dropped.path, f"duplicate: the same game as {kept.path}"))
        cut = kept
    cuts[cut.play] = cut


def _header(
    games: Sequence[Cut], seed: int, kinds: tuple[Kind, ...], per: int | None
) -> ExamHeader:
    sources = tuple(SourceGame(sha256=g.sha256, game_id=g.game_id) for g in games)
    per_game = 0 if per is None else per
    identity = json.dumps([FORMAT, seed, list(kinds), per_game, [g.sha256 for g in games]])
    exam_id = "exam-" + hashlib.sha256(identity.encode()).hexdigest()[:16]
    count = sum(len(g.items) for g in games)
    return ExamHeader(
        exam_id=exam_id, seed=seed, kinds=kinds, per_game=per_game, sources=sources, items=count
    )


def _lines(lines: Sequence[str]) -> str:
    return "".join(line + "\n" for line in lines)
