"""A model seat reads its game's script: a `zh-Hans` game's seats read Simplified characters.

`arena play --lang zh-Hans` converted only what it printed, so its model seats were
prompted in Traditional characters (`你正在玩狼人殺…`), and so were a `zh-Hans`
tournament's (issue 30). The requests are the bodies the stub server received over HTTP;
the oracle is a short list of characters whose Simplified form differs, written out here
rather than taken from the converter under test.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.queue.memory_queue import MemoryQueue
from arena.queue.results import replay_path
from arena.rules.events import Spoke
from arena.storage.replay_file import read_replay
from tests.queue.conftest import make_jobs, run_all
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubServer

TRADITIONAL_ONLY = frozenset("殺說號預發獵選擇這個請為輪們對會時無與驗藥衛騎聽場亂歸")
"""Traditional characters each written otherwise in Simplified (杀 说 号 预 发 猎 选 择 …)."""

SPEECH = "我是预言家，3號是狼，请相信我"
"""The model's every speech: Simplified with one Traditional character, kept as written."""


def _read(bodies: list[dict[str, Any]]) -> str:
    """Everything the seats were given to read: system and user messages."""
    return "\n".join(
        str(m.get("content") or "")
        for body in bodies
        for m in body["messages"]
        if m.get("role") in ("system", "user")
    )


def _play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> tuple[str, Path]:
    monkeypatch.setenv("OPENAI_API_KEY", "stub")
    out = tmp_path / f"{lang}.jsonl"
    with StubServer(models={"stub": random_legal(4, text=lambda: SPEECH)}) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        argv = ["play", "--board", "wwk_guard", "--seat", "1-3=openai:stub", "--seed", "3"]
        assert main([*argv, "--lang", lang, "--quiet", "--out", str(out)]) == 0
        return _read(server.requests_for("stub")), out


def test_a_simplified_game_prompts_its_model_seats_in_simplified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, out = _play(tmp_path, monkeypatch, "zh-Hans")
    assert "狼人杀" in read and "号" in read  # Chinese, in Simplified characters
    assert not TRADITIONAL_ONLY & set(read), sorted(TRADITIONAL_ONLY & set(read))
    replay = read_replay(out)
    said = [e.text for e in replay.events if isinstance(e, Spoke) and e.seat in (1, 2, 3)]
    assert said and set(said) == {SPEECH}  # what a seat says is stored as written
    assert all(t.prompt_id.startswith("werewolf-zh-Hans@") for t in replay.traces)


def test_a_traditional_game_still_prompts_in_traditional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, _ = _play(tmp_path, monkeypatch, "zh-Hant")
    assert "狼人殺" in read and {"說", "號"} <= set(read)


def test_a_simplified_tournament_prompts_its_model_seats_in_simplified(tmp_path: Path) -> None:
    with StubServer(models={"stub": random_legal(2)}) as server:
        jobs = make_jobs(
            agents={"stub": {"spec": "openai:stub", "base_url": server.url}, "bot": "bot"},
            boards=["std9"],
            games_per_pairing=1,
            limits={"beliefs": "off", "call_timeout_s": 30},
            lang="zh-Hans",
        )[:1]
        stats = asyncio.run(run_all(MemoryQueue(), jobs, tmp_path))
        read = _read(server.requests_for("stub"))
    assert (stats.done, stats.failed) == (1, 0), stats.errors
    assert "狼人杀" in read
    assert not TRADITIONAL_ONLY & set(read), sorted(TRADITIONAL_ONLY & set(read))
    assert read_replay(replay_path(tmp_path, jobs[0].game_id)).header.lang == "zh-Hans"
