"""One clock for every seat kind (issue 31): one default, one way to set it, printed.

Before, `arena agent check URL --timeout 1` passed an agent taking 1.5 s ("limit 71 s":
a remote seat kept its own 10 s and 60 s of overage), `arena play --decision-timeout`
reached only model seats, and the docs gave three defaults.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from arena.agents.base import DECISION_TIMEOUT_S
from arena.agents.remote.client import RemoteAgent
from arena.agents.seats import MatchSpec, build_agents, parse_seats
from arena.cli import main
from arena.match import Limits
from arena.queue.jobs import AgentEntry, MatchJob
from arena.queue.seating import build_seats
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import example_module, served
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubServer

P = "py:tests.support.plugins"


def slow_example(delay_s: float) -> Any:
    """The example remote agent, answering every decision after `delay_s`."""
    module = example_module()
    choose = module.choose

    def slow(decide: dict[str, Any], rng: Any) -> dict[str, Any]:
        time.sleep(delay_s)
        return choose(decide, rng)

    module.choose = slow
    return module


def test_the_check_holds_a_remote_agent_to_its_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    with served(slow_example(1.5)) as url:
        code = main(["agent", "check", url, "--games", "1", "--timeout", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and not report["conformant"]
    assert report["timeout_s"] == 1 and report["overage_s"] == 0
    assert report["defaulted"] == 1 and report["accepted"] == 0
    assert "no answer within 1 s" in report["examples"][0]


def test_the_check_prints_the_limit_a_remote_agent_plays_under(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with served(example_module()) as url:
        assert main(["agent", "check", url, "--games", "1"]) == 0
        assert f"(limit {DECISION_TIMEOUT_S:g} s)" in capsys.readouterr().out
        assert main(["agent", "check", url, "--games", "1", "--timeout", "7"]) == 0
        assert "(limit 7 s)" in capsys.readouterr().out


def test_every_seat_kind_has_one_default() -> None:
    seats = parse_seats(["1=http://127.0.0.1:9/agent", f"2={P}:Polite"], 12)
    built = build_agents(
        {s: seats[s] for s in (1, 2)}, GameConfig(board="wwk_guard"), 1, MatchSpec()
    )
    remote = built[1]
    assert isinstance(remote, RemoteAgent)
    assert remote.limit_s == Limits().call_timeout_s == DECISION_TIMEOUT_S
    assert remote.overage_s == 0.0  # an overage budget only when one is given
    timed = MatchSpec(decision_timeout_s=4)
    again = build_agents({s: seats[s] for s in (1, 2)}, GameConfig(board="wwk_guard"), 1, timed)
    assert again[1].limit_s == 4 and again[2].decision_timeout_s == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["url", "plugin"])
def test_play_s_decision_timeout_reaches_every_seat_kind(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "g.jsonl"
    with served(slow_example(1.0)) as url:
        seat = url if kind == "url" else f"{P}:Hanging"
        argv = ["play", "--seat", f"3={seat}", "--decision-timeout", "0.3", "--out", str(out)]
        main([*argv, "--quiet", "--lang", "en"])
    replay = read_replay(out)
    defaults = [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat == 3]
    assert defaults and "no answer within 0.3 s" in defaults[0].reason


def test_a_tournament_sets_every_seat_kind_s_clock_the_same_way() -> None:
    """`limits.call_timeout_s` for every agent; an entry's own `decision_timeout_s` wins."""
    agents = {
        "far": AgentEntry(spec="http://127.0.0.1:9/agent"),
        "near": AgentEntry(spec="http://127.0.0.1:9/agent", decision_timeout_s=3),
        "mine": AgentEntry(spec=f"{P}:Polite", decision_timeout_s=2),
        "yours": AgentEntry(spec=f"{P}:Polite"),
    }
    job = MatchJob(
        game_id="t-00001",
        tournament="t",
        index=1,
        config=GameConfig(board="std9"),
        seed=1,
        seats=("far", "near", "mine", "yours", *["far"] * 5),
        agents=agents,
        limits=Limits(call_timeout_s=7),
    )
    built = build_seats(job)
    assert built[1].limit_s == 7 and built[2].limit_s == 3  # type: ignore[attr-defined]
    assert built[3].decision_timeout_s == 2 and built[4].decision_timeout_s == 7  # type: ignore[attr-defined]


def test_play_gives_a_url_seat_the_limit_a_model_endpoint_gives_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model endpoint whose requests may take 120 s makes the game's limit 120 s: every
    seat without a limit of its own plays under it, a URL seat too (it kept 60 s)."""
    module = example_module()
    limits: list[int] = []
    choose = module.choose

    def noting(decide: dict[str, Any], rng: Any) -> dict[str, Any]:
        limits.append(decide["limit_ms"])
        return choose(decide, rng)

    module.choose = noting
    monkeypatch.setenv("OPENAI_API_KEY", "stub")
    spec, out = tmp_path / "m.yaml", tmp_path / "g.jsonl"
    with StubServer(models={"m": random_legal(3)}) as server, served(module) as url:
        spec.write_text(f"endpoints:\n  openai: {{base_url: '{server.url}', timeout_s: 120}}\n")
        argv = ["play", "--spec-file", str(spec), "--seat", "1=openai:m", "--seat", f"3={url}"]
        assert main([*argv, "--out", str(out), "--quiet", "--lang", "en"]) == 0
    assert limits and set(limits) == {120_000}
