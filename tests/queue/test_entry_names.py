"""A competitor is the tournament's entry name: the header keeps the name and the spec apart.

Before, a worker wrote each seat's spec as its agent, so a URL agent that moved to another
port split into two competitors, and two entries of one plug-in spec with different
`options` (two checkpoints of one policy) were rated as one, in self-play.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from arena.queue.jobs import MatchJob
from arena.queue.results import finished_replay
from arena.ratings.loader import load_games
from arena.ratings.report import build_report
from arena.storage.replay_file import SeatAgent, read_header
from tests.agents.remote.support import example_module, served
from tests.queue.conftest import QueueMaker, make_jobs, run_all

P = "py:tests.support.plugins"


def _standings(folder: Path) -> dict[str, int]:
    """Each rated competitor and its games, from the folder as the leaderboard reads it."""
    report = build_report(load_games(folder).games, bootstrap=0)
    return {s.agent: s.games for s in report.leaderboard.standings}


def _play(queue: QueueMaker, jobs: list[MatchJob], folder: Path) -> None:
    async def scenario() -> None:
        stats = await run_all(queue(5.0), jobs, folder)
        assert stats.done == len(jobs) and stats.failed == 0

    asyncio.run(scenario())


def test_two_checkpoints_of_one_plugin_spec_are_rated_apart(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    spec = f"{P}:make_anything"
    agents = {
        "ckpt_a": {"spec": spec, "options": {"checkpoint": "a.pt"}},
        "ckpt_b": {"spec": spec, "options": {"checkpoint": "b.pt"}},
    }
    jobs = make_jobs(agents=agents, boards=["std9"])
    _play(new_queue, jobs, tmp_path)
    for job in jobs:
        header = read_header(tmp_path / f"{job.game_id}.jsonl")
        assert [s.agent for s in header.seats] == list(job.seats)
        assert {s.spec for s in header.seats} == {spec}
        assert finished_replay(tmp_path / f"{job.game_id}.jsonl", job) == header
    assert set(_standings(tmp_path)) == {"ckpt_a", "ckpt_b"}


def test_a_url_agent_that_moves_port_stays_one_competitor(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    module = example_module()
    with served(module, seed=1) as first, served(module, seed=2) as second:
        assert first != second
        for name, url in (("t1", first), ("t2", second)):
            jobs = make_jobs(name, agents={"mine": url, "bot": "bot"}, boards=["std9"])
            _play(new_queue, jobs[:1], tmp_path)
    headers = [read_header(path) for path in sorted(tmp_path.glob("*.jsonl"))]
    mine = [s for h in headers for s in h.seats if s.agent == "mine"]
    assert {s.spec for s in mine} == {first, second}
    assert {s.model for s in mine} == {"example-random"}  # the name its `hello` gave
    assert all(s.spec is None for h in headers for s in h.seats if s.agent == "bot")
    standings = _standings(tmp_path)
    assert set(standings) == {"mine", "bot"} and standings["mine"] == 2


def test_a_seat_without_a_name_is_written_and_read_as_before() -> None:
    """No `spec` key unless the seat has a name apart from it; old files read the same."""
    plain = SeatAgent(seat=1, agent="http://127.0.0.1:9000/agent")
    assert json.loads(plain.model_dump_json()) == {
        "seat": 1, "agent": "http://127.0.0.1:9000/agent", "model": None, "prompt_version": None
    }  # fmt: skip
    assert plain.agent_spec == "http://127.0.0.1:9000/agent"
    named = SeatAgent(seat=1, agent="mine", spec="http://127.0.0.1:9000/agent")
    assert list(json.loads(named.model_dump_json())) == ["seat", "agent", "spec", "model",
                                                         "prompt_version"]  # fmt: skip
    assert SeatAgent.model_validate_json(named.model_dump_json()) == named
    assert named.agent_spec == "http://127.0.0.1:9000/agent"
