"""A plug-in built on the bot needs `arena.api` alone (issue 31: it needed internal names).

`examples/agents/wrapped_bot.py` — a noisy bot and a bot with a vote of its own — imports
nothing of the arena but `arena.api`, and plays a whole game as plug-ins.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from arena.cli import main
from arena.rules import events as ev
from arena.storage.replay_file import read_replay

EXAMPLE = Path(__file__).parents[2] / "examples" / "agents" / "wrapped_bot.py"


def test_the_example_imports_only_arena_api() -> None:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    modules = {
        name
        for node in ast.walk(tree)
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import)
            else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        )
    }  # fmt: skip
    assert {m for m in modules if m.split(".")[0] == "arena"} == {"arena.api"}


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_a_noisy_bot_and_a_voting_bot_play_from_arena_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    out = tmp_path / "g.jsonl"
    seats = ["--seat", "1-3=py:wrapped_bot:noisy_bot", "--seat", "4-6=py:wrapped_bot:voting_bot"]
    args = ["play", "--board", "std9", "--seed", "5", *seats, "--lang", lang, "--quiet"]
    assert main([*args, "--out", str(out)]) == 0, capsys.readouterr().err
    replay = read_replay(out)
    assert replay.header.result is not None and not replay.header.result.void
    assert [s.model for s in replay.header.seats[:6]] == ["noisy-bot"] * 3 + ["voting-bot"] * 3
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat <= 6]
    assert {b.seat for b in replay.beliefs} & {1, 2, 3, 4, 5, 6}  # the bot's reports, passed on
