"""Model seats play on a real server: SmolLM2-135M behind llama.cpp, OpenAI and LangChain.

A 135M model plays badly; these tests assert mechanics, never strategy: the endpoint is
probed with the game's real request shapes and answers in mode `json_legal` (the server
enforces each request's legal answers with a grammar), at least 90 % of the model's
decisions are its own (not the referee's defaults) over an English and a Chinese game
per provider, every request of the seat extends the previous one, and the replays
validate. The games are short (`max_days`) with small speeches, so they fit in CI on two
cores.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.agents.factory import EndpointSettings, MatchSpec, build_agents, parse_seats, preflight
from arena.call_view import replay_calls
from arena.match import Limits, new_header, run_game
from arena.replay_check import check_replay
from arena.rules.config import GameConfig
from arena.storage.replay_file import read_replay

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(2400)]

CONFIG = GameConfig(
    board="std9",
    overrides={
        "max_days": 2,
        "speech_chars": 240,
        "sheriff_speech_chars": 240,
        "last_words_chars": 160,
    },
)
SPECS = {"openai": "openai:smollm2", "langchain": "langchain:openai:smollm2"}


@pytest.mark.parametrize("provider", sorted(SPECS))
def test_a_real_model_plays_its_own_decisions(
    llama_url: str, tmp_path: Path, provider: str
) -> None:
    own, decisions = 0, 0
    for lang, seed in (("en", 11), ("zh", 12)):
        mine, taken = _play(llama_url, tmp_path / f"real-{lang}.jsonl", provider, lang, seed)
        own, decisions = own + mine, decisions + taken
    print(f"{provider}: {own} of {decisions} decisions the model's own")
    assert decisions >= 8
    assert own >= 0.9 * decisions, f"{provider}: {own} of {decisions} decisions own"


def _play(url: str, path: Path, provider: str, lang: str, seed: int) -> tuple[int, int]:
    """Play one game; (decisions the model made, decisions it was asked)."""
    options = {"api_key": "not-needed"} if provider == "langchain" else {}
    settings = EndpointSettings(
        base_url=url, timeout_s=240, retries=1, max_tokens=200,
        decision_timeout_s=300, history_tokens=2500, options=options,
    )  # fmt: skip
    spec = MatchSpec(lang=lang, endpoints={provider: settings})
    agents = build_agents(parse_seats([f"1={SPECS[provider]}"], 9), CONFIG, seed, spec)

    async def go() -> None:
        endpoints = await preflight(agents, timeout_s=900)
        header = new_header("real", CONFIG, seed, agents, endpoints=endpoints)
        await run_game(header, agents, path, limits=Limits(call_timeout_s=300, beliefs="daily"))

    asyncio.run(go())
    replay = read_replay(path)
    assert replay.header.result is not None and not replay.header.result.void
    (endpoint,) = replay.header.endpoints.values()
    assert (endpoint["mode"], endpoint["legal_format"]) == ("json_legal", "json_object")
    calls = [c for c in replay_calls(replay) if c.seat == 1]
    for before, after in zip(calls, calls[1:], strict=False):
        first = after.messages[2].content if len(after.messages) >= 3 else ""
        if after.base == 0 and first in ("Noted.", "收到。"):
            continue
        shared = before.messages[:-1]
        assert after.messages[: len(shared)] == shared
        assert after.messages[len(shared)].content.startswith(before.messages[-1].content)
    report = check_replay(path)
    assert report.ok, report.message
    mine = [a for a in replay.answers if a.seat == 1]
    own = [a for a in mine if a.defaulted is None]
    why = [a.defaulted for a in mine if a.defaulted]
    print(f"{provider}/{lang} seed {seed}: {len(own)} of {len(mine)} decisions own {why}")
    return len(own), len(mine)
