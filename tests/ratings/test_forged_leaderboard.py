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


def test_a_chinese_leaderboard_marks_unsigned_agents_in_its_own_words(folder: Path) -> None:
    """The 简体 page showed `random (unsigned)` and a toggle in Taiwan's words (簽章)."""
    from arena.dashboard.i18n import t
    from arena.dashboard.standings import with_unsigned_mark
    from arena.ratings.folder import folder_report

    _scan, report = folder_report(folder, bootstrap=0, include_unsigned=True, cache=False)
    names = {s.agent for s in report.leaderboard.standings}
    assert names == {"random", "random" + UNSIGNED}
    shown = with_unsigned_mark(report, "zh-Hans")
    assert {s.agent for s in shown.leaderboard.standings} == {"random", "random（未签名）"}
    assert UNSIGNED + '"' not in shown.model_dump_json()  # pairs, rows: every name
    assert with_unsigned_mark(report, "en") == report
    toggle = t("include_unsigned", "zh-Hans")
    assert not any(c.isascii() and c.isalpha() for c in toggle)
    assert "签名" in toggle and "签章" not in toggle
