from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.agents.bot import BotAgent
from arena.agents.human import TerminalHuman, parse_command
from arena.match import Limits, new_header, run_game
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.actions import (
    CheckClaim,
    ChooseOrder,
    Claims,
    Pass,
    RecommendExile,
    SelfExplode,
    Speak,
    Vote,
)
from arena.rules.config import GameConfig
from arena.rules.errors import InvalidActionError
from arena.rules.types import Direction, Role


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("vote 3", Vote(target=3)),
        ("abstain", Pass()),
        ("explode", SelfExplode()),
        ("explode 5", SelfExplode(target=5)),
        ("order desc 4", ChooseOrder(direction=Direction.DESCENDING, start=4)),
        ("recommend 3 8", RecommendExile(targets=(3, 8))),
        (
            "speak 3號查殺 | claim=seer check=3:wolf suspect=3,5",
            Speak(
                text="3號查殺",
                claims=Claims(
                    role=Role.SEER, checks=(CheckClaim(seat=3, is_wolf=True),), suspects=(3, 5)
                ),
            ),
        ),
    ],
)
def test_commands_become_actions(line: str, action: object) -> None:
    assert parse_command(line) == action


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("dance", "unknown command"),
        ("vote", "needs a seat number"),
        ("vote three", "needs a seat number"),
        ("speak hi | claim=king", "role"),
        ("speak hi | mood=happy", "unknown speech tag"),
        ("order sideways", "direction"),
    ],
)
def test_bad_commands_are_invalid_with_a_reason(line: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_command(line)


def test_a_human_seat_plays_a_whole_game_seeing_only_its_view(tmp_path: Path) -> None:
    """A scripted 'person' types a bad command once, then the first legal option each time."""
    shown: list[str] = []
    typed: list[str] = []

    def read(prompt: str) -> str:
        shown.append(prompt)
        options = prompt.split(": ", 1)[1].split(" | ")
        first = options[0].strip().removesuffix("\n>").strip()
        action, _, seats = first.partition(" [")
        seat = seats.rstrip("]").split()[0] if seats else ""
        line = (
            "nonsense"
            if not typed
            else {
                "speak": "speak 我是好人",
                "whisper": "whisper 刀3",
                "choose_order": "order asc",
                "recommend_exile": f"recommend {seat}",
                "self_explode": "pass",
            }.get(action, f"{action} {seat}".strip())
        )
        typed.append(line)
        return line

    config = GameConfig(board="std9")
    agents = {s: BotAgent(s) for s in range(1, 10)}
    agents[4] = TerminalHuman(lang="en", read=read, write=shown.append)
    path = tmp_path / "human.jsonl"
    referee = asyncio.run(
        run_game(new_header("h", config, 3, agents), agents, path, limits=Limits(retries=2))
    )
    assert referee.finished and check_replay(path).ok
    assert typed[0] == "nonsense" and any("unknown command" in line for line in shown)
    assert not any(isinstance(e, ev.ActionDefaulted) for e in referee.events)
    others = [s for s in range(1, 10) if s != 4]
    own_role = referee.state.role(4)
    text = "\n".join(shown)
    assert f"#4 is the {own_role.value.replace('_', ' ').capitalize()}" in text
    assert not any(f"#{s} is the" in text for s in others)  # no other card before the end
