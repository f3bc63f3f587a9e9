"""`noisy:P:SPEC` in tournament files and on the queue's workers."""

import asyncio
from pathlib import Path

import pytest

from arena.agents.noisy import Noisy
from arena.queue.memory_queue import MemoryQueue
from arena.queue.seating import build_seats, check_spec, is_model, to_match_spec
from arena.rules.errors import ConfigError
from arena.storage.replay_file import read_replay
from arena.tournament import TournamentSpec, load_spec, schedule
from tests.queue.conftest import make_jobs, run_all


def test_a_tournament_seats_noisy_agents_under_their_names(tmp_path: Path) -> None:
    jobs = make_jobs(agents={"a": "noisy:0.3:bot", "b": "delay:1:noisy:0.30:random"})
    built = build_seats(jobs[0])
    assert {agent.name for agent in built.values()} == {"noisy:0.3:bot", "noisy:0.30:random"}
    assert any(isinstance(agent, Noisy) for agent in built.values())
    asyncio.run(run_all(MemoryQueue(), jobs, tmp_path))
    for job in jobs:
        header = read_replay(tmp_path / f"{job.game_id}.jsonl").header
        assert header.result is not None and not header.result.void
        assert {(s.agent, s.spec) for s in header.seats} == {
            ("a", "noisy:0.3:bot"),
            ("b", "delay:1:noisy:0.30:random"),
        }


def test_a_noisy_model_keeps_its_endpoint_and_settings() -> None:
    s = TournamentSpec.model_validate(
        {
            "name": "t",
            "agents": {
                "m": {"spec": "noisy:0.2:openai:qwen", "timeout_s": 30, "temperature": 0},
                "n": "noisy:0.5:bot",
            },
            "concurrency": {"openai": 2},
        }
    )
    assert s.agents["m"].endpoint_label == "openai" and s.agents["n"].endpoint_label is None
    assert is_model(s.agents["m"]) and not is_model(s.agents["n"])
    seat, match, _ = to_match_spec(s.agents["m"])
    assert seat.label == "noisy:0.2:openai:qwen"
    assert match.endpoints["openai:qwen"].timeout_s == 30
    assert all(job.concurrency == {"openai": 2} for job in schedule(s))


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("noisy:1.5:bot", "must be a number from 0 to 1"),
        ("noisy:x:bot", "must be a number from 0 to 1"),
        ("noisy:0.3:", "name the agent after the share"),
        ("noisy:0.3:human", "a person's answers are not noisy"),
        ("noisy:0.3:delay:5:bot", "write delay:MS:noisy:P:SPEC"),
        ("noisy:0.3:langchain:x", "unknown agent spec 'langchain:x'"),
        ("delay:5:noisy:2:bot", "must be a number from 0 to 1"),
    ],
)
def test_bad_noisy_entries_are_one_line(tmp_path: Path, spec: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        check_spec(spec)
    path = tmp_path / "t.yaml"
    path.write_text(f"name: t\nagents: {{a: '{spec}', b: bot}}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_spec(path)
    assert "agents.a: " in str(caught.value) and says in str(caught.value)
    assert "\n" not in str(caught.value)
