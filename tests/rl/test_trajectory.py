"""`arena export trajectories`: the lines are what the policy saw and did at the table."""

import asyncio
import json
from pathlib import Path

import numpy as np
import pytest

from arena.agents.random_agent import RandomAgent
from arena.cli import main
from arena.match import new_header, run_game
from arena.rl.agent import PolicyAgent, random_policy
from arena.rl.reward import seat_rewards
from arena.rl.trajectory import dense
from arena.rules.config import GameConfig

BOARD = "wwk_guard"


def _game(tmp_path: Path, seed: int, seen: list) -> tuple[Path, object]:
    policy = random_policy(seed)

    def recording(obs: dict) -> int:
        index = policy(obs)
        seen.append((obs["observation"].copy(), obs["action_mask"].copy(), index))
        return index

    config = GameConfig(board=BOARD)
    agents: dict = {s: RandomAgent(s) for s in range(1, 13)}
    agents[3] = PolicyAgent(recording)
    path = tmp_path / f"game{seed}.jsonl"
    referee = asyncio.run(run_game(new_header(f"rl{seed}", config, seed, agents), agents, path))
    return path, referee


def test_export_gives_back_what_the_policy_saw_and_did(tmp_path: Path, capsys) -> None:
    seen: list = []
    path, referee = _game(tmp_path, 5, seen)
    out = tmp_path / "seat3.jsonl"
    assert main(["export", "trajectories", str(path), "--as", "3", "--out", str(out)]) == 0
    lines = [json.loads(t) for t in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(seen) > 5
    for line, (vector, mask, index) in zip(lines, seen, strict=True):
        assert line["seat"] == 3
        assert np.array_equal(dense(line["observation"]), vector)
        assert line["legal"] == np.flatnonzero(mask).tolist()
        assert line["action"] == line["nearest"] == index
        assert line["options"] and line["answer"]["kind"]
    assert [line["done"] for line in lines] == [False] * (len(lines) - 1) + [True]
    assert lines[-1]["reward"] == seat_rewards(referee.state)[3] != 0
    assert sum(line["reward"] for line in lines[:-1]) == 0
    assert "wrote" in capsys.readouterr().err


def test_export_all_seats_of_a_directory(tmp_path: Path, capsys) -> None:
    for seed in (1, 2):
        _game(tmp_path, seed, [])
    (tmp_path / "notes.jsonl").write_text("not a replay\n", encoding="utf-8")
    assert main(["export", "trajectories", str(tmp_path), "--as", "all"]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(t) for t in captured.out.splitlines()]
    assert {line["seat"] for line in lines} == set(range(1, 13))
    assert len({line["game_id"] for line in lines}) == 2
    assert sum(line["done"] for line in lines) == 24
    assert "skipped" in captured.err and "notes.jsonl" in captured.err
    assert "from 2 games" in captured.err


@pytest.mark.parametrize("bad", ["0", "seat:x", "wolves"])
def test_a_bad_seat_is_one_line(tmp_path: Path, capsys, bad: str) -> None:
    assert main(["export", "trajectories", str(tmp_path), "--as", bad]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--as" in err


def test_a_missing_file_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["export", "trajectories", str(tmp_path / "nope.jsonl"), "--as", "1"]) == 2
    assert "no such replay" in capsys.readouterr().err


def test_an_old_replay_with_contradicting_claims_still_exports(tmp_path: Path, capsys) -> None:
    """Claims were not checked before: such a speech is taken as recorded (`arena validate` too)."""
    path, _ = _game(tmp_path, 3, [])
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, text in enumerate(lines):
        entry = json.loads(text)
        action = entry.get("action") if entry.get("type") == "answer" else None
        if isinstance(action, dict) and action.get("kind") == "speak":
            seat = entry["seat"]
            action["claims"] = {"suspects": [seat], "trusts": [seat]}
            lines[i] = json.dumps(entry, ensure_ascii=False)
            break
    else:
        raise AssertionError("no speech in the replay")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "all.jsonl"
    assert main(["export", "trajectories", str(path), "--as", "all", "--out", str(out)]) == 0
    assert "skipped" not in capsys.readouterr().err
    assert out.read_text(encoding="utf-8").count("\n") > 100
