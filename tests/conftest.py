"""Shared fixtures: seeded random games driven synchronously through the referee."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from arena.agents.random_agent import random_action
from arena.board_file import example_boards
from arena.rules.boards import BOARDS, Board
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.referee import Referee

Hook = Callable[[Referee, DecisionRequest], None]

TEST_KEY = "werewolf-arena-tests-" + "0" * 43
"""The arena key every test signs and checks under (never the user's own key)."""


@pytest.fixture(autouse=True, scope="session")
def arena_key_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Sign with `TEST_KEY`, and keep any key file out of the user's home.

    Session-wide, so module fixtures that write replays sign under it too; subprocesses
    (the CLI, the dashboard's server) inherit the environment.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_KEY", TEST_KEY)
        patch.delenv("ARENA_KEY_FILE", raising=False)
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        yield


FIXTURE_MARKS = {
    "prefix": "redis",
    "live_game": "redis",
    "llama_url": "real_model",
}
"""Fixtures that need a service, and the marker a test that uses one gets.

`make check` deselects the markers (no Redis, no browser, no real model, no long runs);
a test that takes one of these fixtures is marked by that alone, so a new one cannot slip
into the fast tier and fail there for want of a server.
"""


ONE_WORKER = ("browser", "real_model")
"""Tests that start heavy servers of their own (Streamlit and chromium per module,
llama-server per session) run on one xdist worker (`--dist loadgroup`), one at a time:
each server starts once, and their time limits, set for one game on the machine, never
race each other for the cores."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by the service fixtures it uses (`FIXTURE_MARKS`), and group the
    heavy ones (`ONE_WORKER`); first, so that `-m` and xdist's grouping see the marks."""
    for item in items:
        used = getattr(item, "fixturenames", ())
        for fixture, mark in FIXTURE_MARKS.items():
            if fixture in used:
                item.add_marker(mark)
        if any(item.get_closest_marker(m) for m in ONE_WORKER):
            item.add_marker(pytest.mark.xdist_group("servers"))
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS))


BROWSER_RERUNS = 2
"""Runs again of a failed browser test. A real chromium driving a real Streamlit server
waits on pages that draw in several reruns; on a loaded two-core machine a clean-clone CI
run lost a different Play-page test to a slow page twice in a row, each passing alone.
The reruns are reported in pytest's summary (`R`), so a test that fails for real still
fails, and one that needs its reruns is seen."""


EXAMPLE_BOARDS: dict[str, Board] = example_boards()
"""The example board files (arena/boards/), custom boards that users play or copy."""
BOARD_REFS: dict[str, str | Board] = {**{b: b for b in BOARDS}, **EXAMPLE_BOARDS}
"""Every board a test should play: the built-in ones by id, the example files whole."""


def play_random(config: GameConfig, seed: int, on_request: Hook | None = None) -> Referee:
    """Play a whole game with seeded random legal answers, calling `on_request` per request."""
    rng = random.Random(seed)
    referee = Referee(config, seed)
    asked = 0
    while not referee.finished:
        for request in referee.pending():
            if on_request is not None:
                on_request(referee, request)
            referee.submit(request.seat, random_action(request, rng))
            asked += 1
            assert asked < 20_000, "the game does not terminate"
    return referee
