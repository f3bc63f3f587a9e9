"""Model seats in a game with people get `arena play`'s preflight (stub model server)."""

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
from tests.support.stub_policy import no_tool_call, random_legal
from tests.support.stub_server import StubServer


@pytest.fixture
def openai_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    return monkeypatch


def with_model(model: str) -> dict[int, SeatPlan]:
    seats = plans({2: "ann"})
    seats[4] = seats[6] = SeatPlan(kind="model", name=f"openai:{model}")
    return seats


def test_a_model_seat_that_can_play_is_probed_then_plays(
    tmp_path: Path, openai_env: pytest.MonkeyPatch
) -> None:
    with StubServer(models={"good": random_legal(7)}) as server:
        openai_env.setenv("OPENAI_BASE_URL", server.url)
        desk = MemoryDesk()
        game, tokens = create_game(desk, "std9", with_model("good"), lang="en", pace=NO_PACE)

        async def main() -> Path:
            path, _ = await asyncio.gather(
                host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005),
                person(desk, game, 2, tokens[2], random.Random(2), []),
            )
            return path

        path = asyncio.run(main())
    assert check_replay(path).ok
    replay = read_replay(path)
    header = replay.header
    played = [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert not [e for e in played if e.seat in (4, 6)], "the model seats played, not defaults"
    assert [s.agent for s in header.seats if s.seat in (4, 6)] == ["openai:good"] * 2
    (record,) = header.endpoints.values()  # one endpoint, probed once for both seats
    assert record["mode"]


def test_a_hopeless_model_endpoint_fails_the_game_in_one_line_before_it_starts(
    tmp_path: Path, openai_env: pytest.MonkeyPatch
) -> None:
    with StubServer(models={"prose": no_tool_call}) as server:
        openai_env.setenv("OPENAI_BASE_URL", server.url)
        desk = MemoryDesk()
        game, tokens = create_game(desk, "std9", with_model("prose"), lang="en", pace=NO_PACE)
        with pytest.raises(ArenaError) as caught:
            asyncio.run(host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED))
        asked = len(server.requests_for("prose"))
    message = str(caught.value)
    assert "cannot play" in message and "\n" not in message and "seats 4,6" in message
    assert asked >= 3, "the same probe as `arena play`: a refused answer is asked again"
    status = desk.status(game)
    assert status.state == "failed" and status.error == message
    assert desk.view(game, 2) == [] and desk.pending(game, 2) is None, "no game was started"
    assert not list(tmp_path.rglob("*.jsonl")), "no replay of a game that never began"


def test_an_unreachable_endpoint_fails_the_same_way(
    tmp_path: Path, openai_env: pytest.MonkeyPatch
) -> None:
    openai_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens there
    desk = MemoryDesk()
    game, _ = create_game(desk, "std9", with_model("m"), lang="en", pace=NO_PACE)
    with pytest.raises(ArenaError, match="unreachable"):
        asyncio.run(host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED))
    assert desk.status(game).state == "failed"


@pytest.mark.parametrize("name", ["", "gpt-4.1", "bot", "openai:", "langchain:anthropic"])
def test_a_model_seat_must_name_a_model(name: str) -> None:
    seats = plans({2: "ann"})
    seats[4] = SeatPlan(kind="model", name=name)
    with pytest.raises(ArenaError, match=r"^seat 4: a model seat needs openai:MODEL"):
        create_game(MemoryDesk(), "std9", seats)


def test_a_game_without_model_seats_probes_nothing(tmp_path: Path) -> None:
    desk = MemoryDesk()
    game, tokens = create_game(desk, "std9", plans({2: "ann"}), lang="en", pace=NO_PACE)

    async def main() -> Path:
        path, _ = await asyncio.gather(
            host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005),
            person(desk, game, 2, tokens[2], random.Random(2), []),
        )
        return path

    replay = read_replay(asyncio.run(main()))
    assert not replay.header.endpoints
    assert not any(isinstance(e, ev.ActionDefaulted) for e in replay.events)
