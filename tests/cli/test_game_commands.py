from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main


def test_play_writes_a_valid_replay_and_prints_the_public_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["play", "--board", "std9", "--seed", "3", "--out", str(out), "--lang", "en"]) == 0
    printed = capsys.readouterr().out
    assert "Night 1" in printed and "win · replay written to" in printed
    assert "Roles:" not in printed.split("Game over")[0]  # the public never sees the deal
    assert main(["validate", str(out)]) == 0
    assert "intact" in capsys.readouterr().out


def test_replay_as_a_seat_until_a_step_shows_only_that_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    main(["play", "--board", "wwk_guard", "--seed", "2", "--out", str(out), "--quiet"])
    capsys.readouterr()
    assert main(["replay", str(out), "--as", "seat:1", "--until", "40", "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "#1 is the" in text
    assert "#2 is the" not in text
    assert "cut at step 40" in text


def test_boards_json_lists_every_board() -> None:
    import io
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["boards", "--json"]) == 0
    rows = json.loads(buffer.getvalue())
    ids = {row["id"] for row in rows}
    assert {"std9", "std10", "wwk12", "idiot12", "yunv", "wolfking_guard", "wwk_guard"} <= ids
    wwk = next(r for r in rows if r["id"] == "wwk_guard")
    assert wwk["name_zh"] == "白狼王守衛" and wwk["seats"] == 12
    assert wwk["roles"]["white_wolf_king"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--board", "nope"], "unknown board 'nope'"),
        (["play", "--set", "nonsense=1"], "unknown rules knob 'nonsense'"),
        (["play", "--set", "sheriff_vote_weight=lots"], "sheriff_vote_weight"),
        (["play", "--set", "novalue"], "expects KNOB=VALUE"),
        (["play", "--as", "seat:x"], "unknown viewer"),
        (["replay", "missing.jsonl"], "cannot read"),
    ],
)
def test_bad_input_is_one_clear_line_and_writes_nothing(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("arena: error:") and message in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "replays").exists()


def test_validate_reports_a_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("shopping list\n")
    assert main(["validate", str(path)]) == 1
    assert "BAD" in capsys.readouterr().out


def test_a_wrong_flag_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--bored", "std9"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --bored" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "usage", "hint"),
    [
        (["play", "--bord", "std9"], "usage: arena play ", "(did you mean --board?)"),
        (["replay", "x.jsonl", "--untill", "3"], "usage: arena replay ", "--until?"),
        (["tournament", "status", "t.yaml", "--jsn"], "usage: arena tournament status", ""),
    ],
)
def test_an_unknown_flag_shows_the_commands_usage_and_the_nearest_flag(
    capsys: pytest.CaptureFixture[str], argv: list[str], usage: str, hint: str
) -> None:
    """It used to show `arena [-h] [--version] COMMAND ...`, which lists no flag at all."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage) and hint in err.splitlines()[-1]
    assert err.splitlines()[-1].startswith(f"{usage.split()[1]} {usage.split()[2]}")


def test_beliefs_can_be_asked_after_every_speech(tmp_path: Path) -> None:
    from arena.storage.replay_file import read_replay

    daily, per_speech = tmp_path / "daily.jsonl", tmp_path / "speech.jsonl"
    common = ["play", "--board", "std9", "--seed", "3", "--quiet"]
    assert main([*common, "--out", str(daily)]) == 0
    assert main([*common, "--beliefs", "per_speech", "--out", str(per_speech)]) == 0
    by_day, by_speech = read_replay(daily).beliefs, read_replay(per_speech).beliefs
    assert by_day and len(by_speech) > len(by_day)
    assert all(set(r.wolf_probability) and r.seat not in r.wolf_probability for r in by_speech)


def _traditional(text: str) -> set[str]:
    from arena.text.hans import to_hans

    return {c for c in text if to_hans(c) != c}


def test_zh_hans_prints_one_script_bot_speech_included(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--lang zh-Hans`: the transcript, the bots' speeches and the summary in Simplified."""
    out = tmp_path / "g.jsonl"
    assert main(["play", "--seed", "3", "--lang", "zh-Hans", "--out", str(out)]) == 0
    played = capsys.readouterr().out
    assert "预言家" in played and "（竞选发言）：" in played and not _traditional(played)
    assert main(["replay", str(out), "--lang", "zh-Hans", "--as", "god"]) == 0
    replayed = capsys.readouterr().out
    assert "查验" in replayed and not _traditional(replayed)
    assert main(["replay", str(out), "--lang", "zh-Hant"]) == 0
    assert "預言家" in capsys.readouterr().out  # Traditional, as `zh` always was
    assert main(["boards", "--lang", "zh-Hans"]) == 0
    assert not _traditional(capsys.readouterr().out)


def test_the_leaderboard_table_aligns_chinese_names_by_display_width() -> None:
    from arena.commands.leaderboard_text import table
    from arena.text import width

    lines = table(["agent", "games"], [["human:林小明", "3"], ["bot", "12"]]).splitlines()
    assert len({width(line) for line in lines}) == 1, lines
