"""A folder's leaderboard continues from its saved state, and equals a run from scratch."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.agents.base import Agent
from arena.agents.bot.agent import BotAgent
from arena.cli import main
from arena.match import new_header, run_game
from arena.ratings import folder as module
from arena.ratings import verify
from arena.ratings.cache import FactsCache
from arena.ratings.folder import folder_report
from arena.ratings.loader import load_games
from arena.ratings.report import Report, ReportFold, build_report
from arena.rules.config import GameConfig
from arena.rules.roles import is_wolf
from arena.storage.replay_file import read_replay
from tests.support.forgery import write_signed

AGENTS = ("A", "B", "C")
PAIRS = [(w, g) for w in AGENTS for g in AGENTS if w != g]
BOOTSTRAP = 12
SOURCES = 12


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[list[str], list[bool]]]:
    """Twelve real bot games: their lines, and which seats are wolves.

    Each test game is a different one of them: the leaderboard counts copies of one game
    (the same body) once.
    """
    directory = tmp_path_factory.mktemp("sources")

    async def play() -> None:
        for i in range(SOURCES):
            agents: dict[int, Agent] = {s: BotAgent(seed=10 * i + s) for s in range(1, 10)}
            header = new_header(f"s{i}", GameConfig(board="std9"), i, agents)
            await run_game(header, agents, directory / f"s{i}.jsonl")

    asyncio.run(play())
    out = []
    for i in range(SOURCES):
        path = directory / f"s{i}.jsonl"
        roles = next(e.roles for e in read_replay(path).events if e.kind == "roles_dealt")
        out.append((path.read_text(encoding="utf-8").splitlines(), [is_wolf(r) for r in roles]))
    return out


def write_game(
    directory: Path,
    sources: Sequence[tuple[list[str], list[bool]]],
    index: int,
    minute: int,
    mixed: bool = False,
) -> Path:
    """Game `index` (source game `index` under its own id, start time and agents, signed)."""
    lines, wolves = sources[index % len(sources)]
    header = json.loads(lines[0])
    header["game_id"] = f"g{index:03d}"
    header["created_at"] = f"2026-11-01T{minute // 60:02d}:{minute % 60:02d}:00+00:00"
    wolf, good = PAIRS[index % len(PAIRS)]
    for seat in header["seats"]:
        seat["agent"] = wolf if wolves[seat["seat"] - 1] else good
    if mixed:  # one wolf seat to a third agent: not a pairing
        first_wolf = next(s for s in header["seats"] if wolves[s["seat"] - 1])
        first_wolf["agent"] = next(a for a in AGENTS if a not in (wolf, good))
    path = directory / f"g{index:03d}.jsonl"
    return write_signed(path, [json.dumps(header), *lines[1:]])


def from_scratch(directory: Path, seed: int = 0, bootstrap: int = BOOTSTRAP) -> Report:
    """`build_report(load_games(...))` without any cache: the reference."""
    found = load_games(directory, cache=False)
    return build_report(
        found.games,
        bootstrap=bootstrap,
        seed=seed,
        skipped=found.skipped,
        directory=str(directory),
    )


@pytest.fixture
def folded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many games each `ReportFold.extend` call of `folder_report` folds."""
    sizes: list[int] = []

    class Counting(ReportFold):
        def extend(self, games: Sequence[Any]) -> bool:
            sizes.append(len(games))
            return super().extend(games)

    monkeypatch.setattr(module, "ReportFold", Counting)
    return sizes


def report(directory: Path, seed: int = 0, bootstrap: int = BOOTSTRAP) -> Report:
    return folder_report(directory, bootstrap=bootstrap, seed=seed)[1]


def test_newer_games_extend_the_saved_state_to_the_result_from_scratch(
    sources: list[tuple[list[str], list[bool]]], tmp_path: Path, folded: list[int]
) -> None:
    for i in range(8):
        write_game(tmp_path, sources, i, minute=i)
    assert report(tmp_path) == from_scratch(tmp_path)
    assert folded == [8]
    assert report(tmp_path) == from_scratch(tmp_path)
    assert folded == [8], "an unchanged folder folds nothing"
    write_game(tmp_path, sources, 8, minute=8)
    assert report(tmp_path) == from_scratch(tmp_path)
    write_game(tmp_path, sources, 9, minute=9)
    write_game(tmp_path, sources, 10, minute=10)
    assert report(tmp_path) == from_scratch(tmp_path)
    assert folded == [8, 1, 2], "each run folds only the games after its saved state"
    assert report(tmp_path, seed=5) == from_scratch(tmp_path, seed=5)
    assert report(tmp_path, seed=5, bootstrap=3) == from_scratch(tmp_path, seed=5, bootstrap=3)
    assert folded == [8, 1, 2], "one state serves every seed and bootstrap size"


def test_an_older_game_or_an_edited_file_folds_from_a_checkpoint_or_from_scratch(
    sources: list[tuple[list[str], list[bool]]],
    tmp_path: Path,
    folded: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(module, "CHECKPOINT_STRIDE", 2)
    for i in range(6):
        write_game(tmp_path, sources, i, minute=10 * i)
    report(tmp_path)
    assert folded == [4, 2], "a checkpoint after 4 games, then all 6"
    write_game(tmp_path, sources, 6, minute=35)  # finished late: between games 3 and 4
    assert report(tmp_path) == from_scratch(tmp_path)
    assert folded[2:] == [2, 1], "continued from the checkpoint (4 games), not from scratch"
    write_game(tmp_path, sources, 7, minute=5)  # older than every checkpoint
    assert report(tmp_path) == from_scratch(tmp_path)
    assert sum(folded[4:]) == 8
    (tmp_path / "g001.jsonl").unlink()
    assert report(tmp_path) == from_scratch(tmp_path)
    write_game(tmp_path, sources, 4, minute=40, mixed=True)  # g004 rewritten in place
    assert report(tmp_path) == from_scratch(tmp_path)


def test_a_game_that_is_no_pairing_extends_the_state_like_any_other(
    sources: list[tuple[list[str], list[bool]]], tmp_path: Path, folded: list[int]
) -> None:
    for i in range(5):
        write_game(tmp_path, sources, i, minute=i)
    report(tmp_path)
    write_game(tmp_path, sources, 5, minute=5, mixed=True)
    assert report(tmp_path) == from_scratch(tmp_path)
    write_game(tmp_path, sources, 6, minute=6)
    assert report(tmp_path) == from_scratch(tmp_path)
    assert folded == [5, 1, 1]


def test_a_saved_state_that_cannot_be_read_is_rebuilt(
    sources: list[tuple[list[str], list[bool]]], tmp_path: Path
) -> None:
    for i in range(4):
        write_game(tmp_path, sources, i, minute=i)
    report(tmp_path)
    store = FactsCache.for_folder(tmp_path)
    store._db.execute('UPDATE states SET data = \'{"format": 1, "ratings": {}}\'')
    store.close()
    assert report(tmp_path) == from_scratch(tmp_path)


def test_a_tournament_filter_rates_its_own_games(
    sources: list[tuple[list[str], list[bool]]], tmp_path: Path
) -> None:
    for i in range(4):
        path = write_game(tmp_path, sources, i, minute=i)
        if i % 2:
            lines = path.read_text(encoding="utf-8").splitlines()
            header = json.loads(lines[0])
            header["tournament"] = "cup"
            write_signed(path, [json.dumps(header), *lines[1:]])
    everything = report(tmp_path)
    scan, cup = folder_report(tmp_path, tournament="cup", bootstrap=BOOTSTRAP)
    assert [Path(e.path).name for e in scan.rated] == ["g001.jsonl", "g003.jsonl"]
    assert cup.leaderboard.games == 2 and everything.leaderboard.games == 4
    found = load_games(tmp_path, tournament="cup", cache=False)
    assert cup == build_report(
        found.games, bootstrap=BOOTSTRAP, skipped=found.skipped, directory=str(tmp_path)
    )


def test_saved_states_are_bounded_per_kind_and_in_all(
    sources: list[tuple[list[str], list[bool]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arena.ratings import cache

    monkeypatch.setattr(cache, "KEPT_ALL_STATES", 5)
    monkeypatch.setattr(module, "CHECKPOINT_STRIDE", 1)
    for i in range(12):  # three new games a run: checkpoints at the two before the last
        write_game(tmp_path, sources, i, minute=i)
        if i % 3 == 2:
            report(tmp_path)
    store = FactsCache.for_folder(tmp_path)
    rows = store._db.execute("SELECT kind, games FROM states").fetchall()
    store.close()
    assert len(rows) == 5
    full = [games for kind, games in rows if kind == module.STATE_KIND]
    assert 0 < len(full) <= cache.KEPT_STATES and max(full) == 12
    assert report(tmp_path, seed=4) == from_scratch(tmp_path, seed=4)


def test_a_cache_without_a_rated_file_summary_is_one_line(
    sources: list[tuple[list[str], list[bool]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for i in range(3):
        write_game(tmp_path, sources, i, minute=i)
    report(tmp_path)
    store = FactsCache.for_folder(tmp_path)
    store._db.execute("UPDATE verdicts SET summary = NULL")
    store._db.execute("DELETE FROM states")  # nothing folded: every summary is read
    store.close()
    code = main(["leaderboard", str(tmp_path), "--bootstrap", "5", "--seed", "1"])
    err = capsys.readouterr().err
    assert code != 0 and "no summary in the facts cache" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["leaderboard", str(tmp_path), "--bootstrap", "5", "--no-cache"]) == 0


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_files_verified_in_worker_processes_rate_as_in_one(
    sources: list[tuple[list[str], list[bool]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
) -> None:
    """A cold folder verified in two processes (fork from the command line, spawn beside a
    dashboard's threads) gives the report of one process and of a run from scratch."""
    for i in range(SOURCES):
        write_game(tmp_path, sources, i, minute=i)
    (tmp_path / "broken.jsonl").write_text('{"type":"header"', encoding="utf-8")
    monkeypatch.setattr(verify, "PARALLEL_FILES", 4)
    monkeypatch.setattr(verify.threading, "active_count", lambda: 1 if method == "fork" else 2)
    started: list[str] = []
    real = verify.multiprocessing.get_context

    def context(name: str) -> Any:
        started.append(name)
        return real(name)

    monkeypatch.setattr(verify.multiprocessing, "get_context", context)
    scan, parallel = folder_report(tmp_path, bootstrap=BOOTSTRAP, workers=2, cache=False)
    assert started == [method]
    assert parallel == from_scratch(tmp_path)
    assert len(scan.rated) == SOURCES and scan.left_out() == {"unreadable": 1}
