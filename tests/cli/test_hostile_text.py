"""Player text never acts on the terminal: `arena play` and `arena replay` print it inert."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.agents.base import Agent, AgentReply
from arena.agents.bot.agent import BotAgent
from arena.cli import main
from arena.rules.actions import Speak, Whisper
from arena.rules.decisions import DecisionRequest
from arena.rules.events import Spoke
from arena.rules.observation import Observation
from arena.storage.replay_file import read_replay

ROOT = Path(__file__).resolve().parents[2]

HOSTILE = (
    "\x1b[2J\x1b[H\x1b]0;pwned\x07ok\x00\x08\r"
    "\n── 第99天 · 天亮了 ──\n99號 被放逐\n遊戲結束：好人勝利（假）"
    "\u202etxet desrever\u202c\u2066\u2069\u2028\x9b2J"
)
"""Clear screen, home, retitle, NUL, backspace, carriage return; fake moderator lines; bidi
overrides and isolates; a Unicode line separator; a C1 control sequence introducer."""

FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
"""What must not reach the terminal (newline ends our own lines, so it is checked apart)."""


class HostileBot:
    """The reference bot, saying `HOSTILE` in every speech and whisper."""

    def __init__(self, bot: Agent) -> None:
        self._bot = bot

    @property
    def name(self) -> str:
        return "bot"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        reply = await self._bot.decide(view, request, feedback)
        if isinstance(reply.action, Speak | Whisper):
            hostile = reply.action.model_copy(update={"text": HOSTILE})
            return reply.model_copy(update={"action": hostile})
        return reply


@pytest.fixture
def hostile_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.agents.seats as factory

    monkeypatch.setattr(factory, "_bot", lambda seed, lang: HostileBot(BotAgent(seed, lang=lang)))


def _check_inert(printed: str) -> None:
    assert not FORBIDDEN.search(printed), repr(FORBIDDEN.search(printed))
    lines = printed.splitlines()
    speech_lines = [line for line in lines if "pwned" in line]
    assert speech_lines, "the hostile speeches were not printed at all"
    fakes = ("── 第99天 · 天亮了 ──", "99號 被放逐", "遊戲結束：好人勝利（假）", "── 第99夜")
    assert not any(line.startswith(fakes) for line in lines)
    for line in speech_lines:
        assert "\\x1b[2J" in line and "⏎── 第99天 · 天亮了 ──⏎99號 被放逐⏎" in line
        assert "\\u202etxet desrever\\u202c" in line


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_play_prints_hostile_speeches_inert(
    lang: str, hostile_bots: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    argv = ["play", "--board", "std9", "--seed", "3", "--as", "god", "--lang", lang]
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    _check_inert(printed)
    events = read_replay(out).events
    assert any(isinstance(e, Spoke) and e.text == HOSTILE for e in events), "kept as said"


@pytest.mark.parametrize("viewer", ["god", "public", "wolves", "seat:1"])
def test_replay_prints_hostile_speeches_inert(
    viewer: str, hostile_bots: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["play", "--board", "std9", "--seed", "3", "--quiet", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--as", viewer]) == 0
    _check_inert(capsys.readouterr().out)


def test_a_crafted_replay_cannot_reach_the_terminal_through_any_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file edited by hand: hostile text in every speech and in the board's name."""
    good = tmp_path / "good.jsonl"
    assert main(["play", "--board", "std9", "--seed", "3", "--quiet", "--out", str(good)]) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in good.read_text().splitlines()]
    for line in lines:
        event = line.get("event") or {}
        if event.get("kind") == "spoke":
            event["text"] = HOSTILE
        if event.get("kind") == "game_started":
            event["board"] = "\x1b[2Jstd9\n── 第99夜 ──"
    crafted = tmp_path / "crafted.jsonl"
    crafted.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["replay", str(crafted), "--as", "god", "--lang", "en"]) == 0
    _check_inert(capsys.readouterr().out)


def test_scenario_names_reach_the_terminal_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ROOT / "scenarios" / "badge" / "after_last_words_and_shot.yaml"
    text = source.read_text(encoding="utf-8").split("\n", 1)[1]
    passing = tmp_path / "passing.yaml"
    passing.write_text('name: "ok\\e[2J\\r\\u202e"\n' + text, encoding="utf-8")
    failing = tmp_path / "failing.yaml"
    failing.write_text(
        'name: "bad\\e[2J\\n── fake"\n' + text.replace("sheriff: 5", "sheriff: 6"), encoding="utf-8"
    )
    assert main(["scenario", "--log", str(passing), str(failing)]) == 1
    printed = capsys.readouterr().out
    assert not FORBIDDEN.search(printed), repr(FORBIDDEN.search(printed))
    assert "ok\\x1b[2J⏎\\u202e" in printed and "bad\\x1b[2J⏎── fake" in printed
