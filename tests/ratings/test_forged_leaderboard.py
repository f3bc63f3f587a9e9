"""The leaderboard rates only games whose signature verifies, each game once (by content)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.ratings.loader import UNSIGNED, load_games
from tests.support.forgery import forged_set, play

GOLDEN = Path(__file__).parent.parent / "golden"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real game, its forgeries, and an old unsigned game (another one)."""
    root = tmp_path_factory.mktemp("arena")
    original = play(root / "a-original.jsonl", "std9-real", seed=11)
    forged_set(original, root / "forged")
    shutil.copyfile(GOLDEN / "std9-default-1.jsonl", root / "old.jsonl")
    return root


def test_only_the_signed_original_is_rated_and_the_rest_is_counted(folder: Path) -> None:
    found = load_games(folder, cache=False)
    assert [g.result.game_id for g in found.games] == ["std9-real"]
    reasons = {Path(s.path).name: s.reason for s in found.skipped}
    assert reasons == {
        "new_id.jsonl": "bad_signature",
        "agents.jsonl": "bad_signature",
        "our_key_id.jsonl": "bad_signature",
        "resigned.jsonl": "bad_signature",
        "copy.jsonl": "duplicate",
        "stripped.jsonl": "unsigned",
        "old.jsonl": "unsigned",
    }
    assert found.left_out() == {"bad_signature": 4, "unsigned": 2, "duplicate": 1}


def test_unsigned_games_are_rated_apart_when_asked_and_copies_still_once(folder: Path) -> None:
    found = load_games(folder, include_unsigned=True, cache=False)
    agents = sorted({s.agent for g in found.games for s in g.result.seats})
    assert agents == ["random", "random" + UNSIGNED]
    reasons = {Path(s.path).name: s.reason for s in found.skipped}
    # the stripped copy names gpt-9 but is the original's body: a duplicate, never rated
    assert reasons["stripped.jsonl"] == "duplicate" and "old.jsonl" not in reasons
    assert not any("gpt-9" in a for a in agents)


def test_the_command_says_what_it_left_out_and_why(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", str(folder), "--bootstrap", "0", "--no-cache"]) == 0
    captured = capsys.readouterr()
    first = captured.out.splitlines()[0]
    assert first.startswith("Rated 1 verified games;")
    assert "4 bad signature" in first and "2 unsigned" in first and "1 duplicate" in first
    assert "gpt-9" not in captured.out
    assert "agents.jsonl: bad signature: the content changed after it was signed" in captured.err
    assert main(["leaderboard", str(folder), "--include-unsigned", "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "(1 of them unsigned, rated apart as 'AGENT (unsigned)')" in out
    assert "random (unsigned)" in out
