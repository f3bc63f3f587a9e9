"""Every try of a model call is traced, the tries the provider retried included.

A request that hangs past its timeout or gets an HTTP 500 is sent again by the retry
layer; the seat's trace keeps one record per try (the failed ones marked `retried`, with
why and how long), so a game's calls and time include them, as its cost would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.agents.model.agent import LLMAgent
from arena.call_view import replay_calls
from arena.ratings.facts import all_calls, usage_tallies
from tests.llm.helpers import langchain_model, openai_model
from tests.support.seats import play_game
from tests.support.stub_policy import Hang, HttpError, first, random_legal
from tests.support.stub_server import StubServer

BUILD = {"openai": openai_model, "langchain": langchain_model}


@pytest.mark.parametrize("provider", BUILD)
def test_a_hung_and_a_failed_try_before_an_answer_leave_their_own_records(
    provider: str, tmp_path: Path
) -> None:
    policy = first([Hang(3.0), HttpError(500, None, "boom")], then=random_legal(seed=1))
    with StubServer(policy) as server:
        model = BUILD[provider](server.url, "m", retries=2, timeout_s=0.5)
        referee, replay = play_game({1: LLMAgent(model, lang="en")}, tmp_path / "g.jsonl")
    assert referee.finished
    traces = [t for t in replay.traces if t.seat == 1]
    hung, failed, answered = traces[0], traces[1], traces[2]
    assert hung.retried and hung.reply is None and "timed out; retried" in (hung.error or "")
    assert hung.latency_ms >= 400  # the client's timeout, not the time to a refusal
    assert failed.retried and "HTTP 500; retried" in (failed.error or "")
    assert not answered.retried and answered.error is None and answered.parsed_action
    assert hung.step == failed.step == answered.step and hung.attempt == answered.attempt == 1
    assert [t.call for t in traces[:3]] == [0, 1, 2]
    assert sum(t.retried for t in traces) == 2
    whole = replay_calls(replay)
    assert whole[1].messages == whole[0].messages == whole[2].messages  # the same request
    usage = usage_tallies(all_calls(replay))[1].usage  # the leaderboard's calls and cost
    answered_calls = [c for c in all_calls(replay) if c.seat == 1 and not c.retried]
    assert usage.calls == len(answered_calls) + 2
