from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import pytest

from arena.agents.random_agent import RandomAgent
from arena.match import new_header, run_game
from arena.replay_check import check_replay
from arena.rules.config import GameConfig
from arena.storage.replay_file import SCHEMA_VERSION, ReplayError, read_header, read_replay


def _game(tmp_path: Path, board: str = "wwk_guard", seed: int = 5) -> Path:
    config = GameConfig(board=board)
    agents = {s: RandomAgent(s) for s in range(1, config.board_spec.seats + 1)}
    path = tmp_path / "game.jsonl"
    asyncio.run(run_game(new_header("g", config, seed, agents), agents, path))
    return path


def test_header_is_readable_alone_and_carries_the_result(tmp_path: Path) -> None:
    path = _game(tmp_path)
    header = read_header(path)
    assert header.schema_version == SCHEMA_VERSION == 2
    assert header.config.board == "wwk_guard" and header.seed == 5
    assert header.result is not None and header.result.winner in ("good", "wolves")
    assert [s.agent for s in header.seats] == ["random"] * 12


def test_a_finished_replay_validates(tmp_path: Path) -> None:
    report = check_replay(_game(tmp_path))
    assert report.ok and report.finished, report.message


def test_a_tampered_event_is_reported_with_its_line(tmp_path: Path) -> None:
    path = _game(tmp_path)
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"kind":"seer_checked"' in line)
    flip = {'"is_wolf":false': '"is_wolf":true', '"is_wolf":true': '"is_wolf":false'}
    for before, after in flip.items():
        if before in lines[number]:
            lines[number] = lines[number].replace(before, after)
            break
    path.write_text("\n".join(lines) + "\n")
    report = check_replay(path)
    assert not report.ok
    assert report.line == number + 1
    assert "altered" in report.message


def test_a_truncated_replay_is_reported(tmp_path: Path) -> None:
    path = _game(tmp_path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    report = check_replay(path)
    assert not report.ok and "truncated" in report.message


def test_a_torn_line_names_its_line(tmp_path: Path) -> None:
    path = _game(tmp_path)
    lines = path.read_text().splitlines()
    lines[10] = lines[10][:20]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=r":11: not JSON"):
        read_replay(path)
    assert check_replay(path).line == 11


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty file"),
        ("hello world\n", "not a Werewolf Arena replay"),
        ('{"type": "event"}\n', "no header line"),
        ('{"type": "header", "schema_version": 99}\n', "schema version 99 is not supported"),
        ('{"type": "header", "schema_version": 1, "game_id": "x"}\n', "bad header"),
    ],
)
def test_foreign_files_get_a_clear_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "foreign.jsonl"
    path.write_text(content)
    with pytest.raises(ReplayError, match=message):
        read_header(path)
    assert not check_replay(path).ok


def test_an_answer_the_referee_never_asked_for_is_rejected(tmp_path: Path) -> None:
    path = _game(tmp_path)
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"type":"answer"' in line)
    obj = json.loads(lines[number])
    obj["seat"] = 99
    lines[number] = json.dumps(obj)
    path.write_text("\n".join(lines) + "\n")
    report = check_replay(path)
    assert not report.ok and "matches no request" in report.message


class _Watcher(RandomAgent):
    """A random seat named as an outsider would be, noting the running file's mode."""

    name = "py:somebody.agents:make_agent"

    def __init__(self, seed: int, path: Path) -> None:
        super().__init__(seed)
        self.path = path
        self.modes: set[int] = set()

    async def decide(self, view, request, feedback=None):  # type: ignore[no-untyped-def]
        self.modes.add(stat.S_IMODE(self.path.stat().st_mode))
        return await super().decide(view, request, feedback)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_running_game_with_an_outsider_is_the_owners_alone(tmp_path: Path) -> None:
    config = GameConfig(board="std9")
    path = tmp_path / "live" / "game.jsonl"
    path.parent.mkdir()
    path.write_text("")  # left wide open by an older run: the writer narrows it
    path.chmod(0o644)
    watcher = _Watcher(1, path)
    agents = {s: RandomAgent(s) for s in range(2, 10)} | {1: watcher}
    header = new_header("g", config, 5, agents)
    asyncio.run(run_game(header, agents, path))
    assert watcher.modes == {0o600}, "roles and seed are in it while it runs"
    insiders = _game(tmp_path, "std9")
    assert stat.S_IMODE(path.stat().st_mode) == stat.S_IMODE(insiders.stat().st_mode)
    assert check_replay(path).ok
