"""Model seats in a tournament, against the local OpenAI-compatible stub server (loopback)."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path
from typing import Any

import pytest

from arena.agents.model.library import load_library
from arena.commands.tournament import check_endpoints
from arena.queue.jobs import GameState
from arena.queue.memory_queue import MemoryQueue
from arena.queue.results import replay_path
from arena.storage.replay_file import read_replay
from tests.queue.conftest import make_jobs, run_all
from tests.support.stub_server import StubServer


def test_model_seats_share_an_endpoint_are_probed_priced_and_limited(tmp_path: Path) -> None:
    with StubServer() as server:
        jobs = make_jobs(
            agents={
                "stub": {
                    "spec": "openai:stub",
                    "base_url": server.url,
                    "price": {"input": 1.0, "output": 2.0, "cached_input": 0.5},
                },
                "bot": "random",
            },
            boards=["std9"],
            games_per_pairing=1,
            concurrency={server.url: 2},
            limits={"beliefs": "off", "call_timeout_s": 30},
        )[:1]
        queue = MemoryQueue()
        stats = asyncio.run(run_all(queue, jobs, tmp_path))
        [status] = asyncio.run(queue.statuses([jobs[0].game_id]))
    assert (stats.done, stats.failed) == (1, 0), stats.errors
    assert status.state is GameState.DONE and status.result is not None
    replay = read_replay(replay_path(tmp_path, jobs[0].game_id))
    assert list(replay.header.endpoints) and replay.traces
    model_seats = {s.seat for s in replay.header.seats if s.agent_spec == "openai:stub"}
    assert {t.seat for t in replay.traces} <= model_seats
    spent = status.result.spend["stub"]
    prompt = sum(t.usage.prompt_tokens for t in replay.traces)
    cached = sum(t.usage.cached_tokens for t in replay.traces)
    completion = sum(t.usage.completion_tokens for t in replay.traces)
    assert spent.tokens == prompt + completion > 0
    assert 0 < cached < prompt
    usd = ((prompt - cached) * 1.0 + cached * 0.5 + completion * 2.0) / 1e6
    assert spent.usd == pytest.approx(usd)


def stub_requests(
    server: StubServer, entry: dict[str, Any], tmp_path: Path
) -> list[dict[str, Any]]:
    """The request bodies contestant `stub` (`entry`) sent in one std9 game against random."""
    jobs = make_jobs(
        agents={"stub": entry, "bot": "random"},
        boards=["std9"],
        games_per_pairing=1,
        limits={"beliefs": "off", "call_timeout_s": 30},
    )[:1]
    stats = asyncio.run(run_all(MemoryQueue(), jobs, tmp_path))
    assert (stats.done, stats.failed) == (1, 0), stats.errors
    return server.requests_for("stub")


def test_tournament_seats_leave_the_slot_to_the_server(tmp_path: Path) -> None:
    """Games played at once share the server: pinned, their seats would share slots."""
    with StubServer(slots=12) as server:
        sent = stub_requests(server, {"spec": "openai:stub", "base_url": server.url}, tmp_path)
    assert sent and all("id_slot" not in body for body in sent)


def test_a_contestant_sets_its_request_limit_reply_tokens_and_temperature(tmp_path: Path) -> None:
    with StubServer() as server:
        entry = {
            "spec": "openai:stub",
            "base_url": server.url,
            "timeout_s": 45,
            "reply_tokens": 64,
            "temperature": 0,
        }
        sent = stub_requests(server, entry, tmp_path)
    assert sent and all(b["max_tokens"] == 64 and b["temperature"] == 0 for b in sent)


def test_a_contestant_sets_its_history_budget(tmp_path: Path) -> None:
    """`history_tokens`, as a spec file's endpoint sets it: a small budget condenses early.

    Condensing replaces older turns by a summary that the chat acknowledges; with the
    default budget a std9 game against the stub never condenses.
    """
    noted = load_library("zh").label("noted")
    with StubServer() as server:
        entry = {"spec": "openai:stub", "base_url": server.url, "history_tokens": 1500}
        sent = stub_requests(server, entry, tmp_path)
    assert any(m["content"] == noted for body in sent for m in body["messages"])


def test_the_check_before_a_tournament_closes_what_it_opened(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`arena tournament run` probes every endpoint in one event loop and plays in the next.

    The probe's connection pools, left to the garbage collector, were closed in the next
    loop and printed "Task exception was never retrieved … Event loop is closed" with a
    traceback in the middle of a real two-model tournament.
    """

    async def collect_in_a_new_loop() -> None:
        gc.collect()
        await asyncio.sleep(0.2)

    with StubServer() as server:
        entry = {"spec": "openai:stub", "base_url": server.url}
        jobs = make_jobs(agents={"stub": entry, "bot": "random"}, boards=["std9"])[:1]
        asyncio.run(check_endpoints(jobs))
        assert server.requests_for("stub")  # the probe did talk to it
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            asyncio.run(collect_in_a_new_loop())
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == []
