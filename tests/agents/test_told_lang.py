"""Plug-ins and remote agents are told the game's language as the game was given it.

A plug-in got `lang='zh'` for a game played in Simplified characters (`--lang zh-Hans`),
and a remote agent no language at all (issue 31).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.agents.remote.protocol import Start
from arena.cli import main
from arena.rules.events import Spoke
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import example_module, served
from tests.support import plugins

PROTOCOL_JSON = (
    Path(__file__).resolve().parents[2] / "arena" / "agents" / "remote" / "protocol.json"
)


@pytest.mark.parametrize(
    ("given", "told"), [("en", "en"), ("zh", "zh"), ("zh-Hant", "zh"), ("zh-Hans", "zh-Hans")]
)
def test_a_plugin_factory_is_given_the_games_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, told: str
) -> None:
    plugins.Seeded.made.clear()
    seat = "3=py:tests.support.plugins:make_anything"
    args = ["play", "--seat", seat, "--lang", given, "--quiet", "--out", str(tmp_path / "g.jsonl")]
    assert main(args) == 0, capsys.readouterr().err
    assert [made["lang"] for made in plugins.Seeded.made] == [told]


def test_a_remote_agent_is_told_the_language_in_start_and_speaks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.jsonl"
    with served(example_module()) as url:
        args = ["play", "--board", "wwk_guard", "--seat", f"3,5={url}", "--lang", "zh-Hans"]
        assert main([*args, "--seed", "2", "--quiet", "--out", str(out)]) == 0, (
            capsys.readouterr().err
        )
    said = [e.text for e in read_replay(out).events if isinstance(e, Spoke) and e.seat in (3, 5)]
    assert said and all("号发言" in text for text in said)  # the example's Simplified words


def test_start_requires_the_language_in_the_published_schema() -> None:
    schema = json.loads(PROTOCOL_JSON.read_text(encoding="utf-8"))["$defs"]["Start"]
    assert "lang" in schema["required"]
    assert schema["properties"]["lang"]["enum"] == ["en", "zh", "zh-Hans"]
    assert "revision 3" in schema["properties"]["lang"]["description"]
    start = Start(nonce="n", game_id="g", seat=1, secret="0" * 64, limit_ms=1, overage_ms=0,
                  lang="zh-Hans")  # fmt: skip
    assert json.loads(start.model_dump_json())["lang"] == "zh-Hans"
