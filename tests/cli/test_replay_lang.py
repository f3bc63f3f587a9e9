"""`arena replay` prints a game in its own language and script unless `--lang` says otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.text.hans import to_hans

GOLDEN = Path(__file__).parents[1] / "golden"
KNIFE_FIRST = GOLDEN / "idiot12-default-1.jsonl"
"""A Chinese golden game the wolves won by 狼刀在先, written before headers recorded a language."""


def _traditional(text: str) -> bool:
    return to_hans(text) != text


def _played(tmp_path: Path, lang: str, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / f"{lang}.jsonl"
    assert main(["play", "--seed", "3", "--quiet", "--lang", lang, "--out", str(out)]) == 0
    capsys.readouterr()
    return out


@pytest.mark.parametrize(
    ("lang", "word"), [("zh-Hans", "预言家"), ("zh-Hant", "預言家"), ("en", "Seer")]
)
def test_a_replay_without_lang_is_printed_in_the_games_own_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, word: str
) -> None:
    path = _played(tmp_path, lang, capsys)
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["lang"] == lang
    assert main(["replay", str(path)]) == 0
    shown = capsys.readouterr().out
    assert word in shown
    if lang == "zh-Hans":
        assert not _traditional(shown)


def test_lang_still_chooses_over_the_games_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _played(tmp_path, "zh-Hans", capsys)
    assert main(["replay", str(path), "--lang", "en"]) == 0
    shown = capsys.readouterr().out
    assert "Seer" in shown and "预言家" not in shown


def test_a_file_without_a_recorded_language_reads_in_traditional_chinese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "lang" not in json.loads(KNIFE_FIRST.read_text(encoding="utf-8").splitlines()[0])
    assert main(["replay", str(KNIFE_FIRST)]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-2] == "遊戲結束：狼人勝利（狼刀在先）"


def test_a_chinese_game_in_english_ends_in_english_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(KNIFE_FIRST), "--lang", "en"]) == 0
    shown = capsys.readouterr().out
    assert "Game over: wolves win (the knife landed first)" in shown
    assert "狼刀" not in shown


def test_the_god_transcript_says_a_self_explosion_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It printed "#10 self-explodes!" and then "(#10 exploded)"."""
    assert main(["replay", str(GOLDEN / "animal_dream-default-87.jsonl"), "--as", "god",
                 "--lang", "en"]) == 0  # fmt: skip
    shown = capsys.readouterr().out
    assert shown.count("#10 self-explodes!") == 1
    assert "(#10 exploded)" not in shown
