"""A plug-in seated beside a person in a Play-page game (its seat kind is `model`)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from arena.errors import ArenaError
from arena.humans.host import host_game
from arena.humans.lobby import create_game
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.storage.desk import MemoryDesk, SeatPlan
from arena.storage.replay_file import read_replay
from tests.humans.test_hosted_game import NO_PACE, SEED, person, plans

EXAMPLE = Path(__file__).parents[2] / "examples" / "agents"
SPEC = "py:python_agent:make_agent"


def test_a_plugin_plays_beside_a_person(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE))
    seats = plans({2: "ann"})
    seats[4] = seats[6] = SeatPlan(kind="model", name=SPEC)
    desk = MemoryDesk()
    game, tokens = create_game(desk, "std9", seats, lang="en", pace=NO_PACE)

    async def main() -> Path:
        path, _ = await asyncio.gather(
            host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005),
            person(desk, game, 2, tokens[2], random.Random(2), []),
        )
        return path

    path = asyncio.run(main())
    assert check_replay(path).ok
    replay = read_replay(path)
    assert [s.agent for s in replay.header.seats if s.seat in (4, 6)] == [SPEC, SPEC]
    defaulted = {e.seat for e in replay.events if isinstance(e, ev.ActionDefaulted)}
    assert not defaulted & {4, 6}
    assert [a for a in replay.answers if a.seat in (4, 6)]


def test_a_plugin_that_cannot_be_made_fails_the_game_before_it_starts(tmp_path: Path) -> None:
    seats = plans({2: "ann"})
    seats[4] = SeatPlan(kind="model", name="py:no_such_module_xyz:make")
    desk = MemoryDesk()
    game, _ = create_game(desk, "std9", seats, lang="en", pace=NO_PACE)
    with pytest.raises(ArenaError, match="no module named 'no_such_module_xyz'"):
        asyncio.run(host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED))
    assert desk.status(game).state == "failed"
    assert not list(tmp_path.rglob("*.jsonl"))
