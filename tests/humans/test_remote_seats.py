"""A remote agent beside a person on the Play page: preflight, play, one-line failure."""

from __future__ import annotations

import asyncio
import random
import socket
from pathlib import Path

import pytest

from arena.errors import ArenaError
from arena.humans.host import host_game
from arena.humans.lobby import create_game
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.storage.desk import MemoryDesk, SeatPlan
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import example_process
from tests.humans.test_hosted_game import NO_PACE, SEED, person, plans


def with_agent(url: str) -> dict[int, SeatPlan]:
    seats = plans({2: "ann"})
    seats[4] = seats[6] = SeatPlan(kind="model", name=url)
    return seats


def test_the_example_agent_plays_beside_a_person(tmp_path: Path) -> None:
    with example_process() as url:
        desk = MemoryDesk()
        game, tokens = create_game(desk, "std9", with_agent(url), lang="en", pace=NO_PACE)

        async def main() -> Path:
            path, _ = await asyncio.gather(
                host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005),
                person(desk, game, 2, tokens[2], random.Random(2), []),
            )
            return path

        path = asyncio.run(main())
    assert check_replay(path).ok
    replay = read_replay(path)
    assert [s.agent for s in replay.header.seats if s.seat in (4, 6)] == [url, url]
    assert {t.seat for t in replay.traces} == {4, 6}
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat in (4, 6)]
    assert replay.header.game_id == game


def test_a_down_agent_fails_the_game_in_one_line_before_it_starts(tmp_path: Path) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{free.getsockname()[1]}/agent"
    desk = MemoryDesk()
    game, _ = create_game(desk, "std9", with_agent(url), lang="en", pace=NO_PACE)
    with pytest.raises(ArenaError) as caught:
        asyncio.run(host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED))
    message = f"seats 4,6: remote agent {url} is down: connection refused"
    assert str(caught.value) == message
    status = desk.status(game)
    assert status.state == "failed" and status.error == message
    assert not list(tmp_path.rglob("*.jsonl"))


@pytest.mark.parametrize("name", ["http://", "https://h:port/agent", "http://h/a b"])
def test_a_malformed_agent_url_is_refused_at_creation(name: str) -> None:
    with pytest.raises(ArenaError, match="remote agent's http"):
        create_game(MemoryDesk(), "std9", with_agent(name), lang="en", pace=NO_PACE)
