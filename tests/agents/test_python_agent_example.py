"""The copyable plug-in of docs/agents.md plays, and the page shows the file as it is."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from arena.agents.plugin import plugin_agent
from arena.match import new_header, run_game
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.storage.replay_file import read_replay

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "agents" / "python_agent.py"


def test_the_docs_show_the_example_file_whole() -> None:
    page = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    section = page.split("## A Python class", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None and block[1] == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_plays_half_the_table_without_a_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    spec = "py:python_agent:make_agent"
    agents: dict = {
        s: plugin_agent(spec, seat=s, seed=s, options={"words": "Seat {seat} lies."})
        for s in range(1, 7)
    }
    agents |= {
        s: plugin_agent("py:tests.support.plugins:Polite", seat=s, seed=s) for s in range(7, 13)
    }
    path = tmp_path / "game.jsonl"
    asyncio.run(run_game(new_header("g", GameConfig(board="wwk_guard"), 11, agents), agents, path))
    replay = read_replay(path)
    assert check_replay(path).ok and replay.header.result is not None
    assert not any(isinstance(e, ev.ActionDefaulted) for e in replay.events)
    spoken = [e for e in replay.events if isinstance(e, ev.Spoke) and e.seat <= 6]
    assert any(e.text.endswith(" lies.") and e.claims.suspects for e in spoken)
    assert {b.seat for b in replay.beliefs} <= set(range(1, 7)) and replay.beliefs
    assert replay.header.seats[0].model == "suspicion-1"
