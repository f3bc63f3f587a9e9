"""What a newcomer meets at the command line: replay files, bad flags, help, languages."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
import yaml

from arena import __version__
from arena.cli import main, parser

PLAY = ["play", "--board", "std9", "--seed", "3", "--quiet", "--lang", "en"]


def _replays(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jsonl"))


def test_the_default_replay_name_never_replaces_an_earlier_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(PLAY) == 0
    assert main(PLAY) == 0
    first, second = _replays(tmp_path / "replays")
    assert first.name.startswith("std9-3-") and second.name.startswith("std9-3-")
    assert first.read_text() and second.read_text()
    printed = capsys.readouterr().out
    assert f"replay written to replays/{first.name}" in printed
    assert f"replay written to replays/{second.name}" in printed


def test_a_named_replay_is_replaced_only_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    out.write_text("an earlier game\n")
    assert main([*PLAY, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"arena: error: {out} exists: pass --force to replace it, or name another --out"
    assert out.read_text() == "an earlier game\n"
    assert main([*PLAY, "--out", str(out), "--force"]) == 0
    assert out.read_text().startswith('{"')


def test_out_may_be_a_folder(tmp_path: Path) -> None:
    existing = tmp_path / "games"
    existing.mkdir()
    assert main([*PLAY, "--out", str(existing)]) == 0
    assert main([*PLAY, "--out", str(existing)]) == 0
    assert len(_replays(existing)) == 2
    assert main([*PLAY, "--out", f"{tmp_path / 'new'}/"]) == 0
    assert len(_replays(tmp_path / "new")) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--seat", "1-6=bot", "--seat", "5-8=random"], "seat 5 is named twice"),
        (["play", "--seat", "6-3=bot"], "write the range 6-3 as 3-6"),
        (["play", "--seat", "1-3,3=bot"], "names a seat twice"),
        (["play", "--as", "seat:99"], "this game has seats 1-12"),
    ],
)
def test_bad_play_flags_are_one_line_and_write_nothing(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("arena: error:") and message in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "replays").exists()


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("replay") / "game.jsonl"
    assert main(["play", "--board", "std9", "--seed", "2", "--quiet", "--out", str(out)]) == 0
    return out


def test_replay_as_a_seat_the_game_does_not_have_is_an_error(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(replay_file), "--as", "seat:99"]) == 2
    assert capsys.readouterr().err.strip() == "arena: error: --as seat:99: this game has seats 1-9"


def test_a_negative_step_is_refused(replay_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(replay_file), "--until", "-5"])
    assert exit_.value.code == 2
    (err,) = capsys.readouterr().err.strip().splitlines()
    assert err.startswith("arena replay: error: --until expects a step number, 0 or more, not")


def test_replay_cut_note_is_in_the_transcript_language(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(replay_file), "--as", "god", "--until", "30"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("（截至第30步，共")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"arena {__version__}"


def _parsers(top: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(top.prog, top)]
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found += _parsers(child)
    return found


def test_every_option_of_every_command_has_help_with_its_default() -> None:
    missing, no_default = [], []
    for prog, p in _parsers(parser()):
        for action in p._actions:
            if isinstance(
                action, argparse._HelpAction | argparse._SubParsersAction | argparse._VersionAction
            ):
                continue
            name = f"{prog} {'/'.join(action.option_strings) or action.dest}"
            if not action.help:
                missing.append(name)
            shown = p.formatter_class(prog)._get_help_string(action) or ""  # type: ignore[attr-defined]
            has_default = action.default is not None and action.default is not False
            if has_default and action.default != [] and "default" not in shown:
                no_default.append(name)
    assert not missing, f"options without help: {missing}"
    assert not no_default, f"options whose default is not shown: {no_default}"


def test_help_lists_human_among_seat_kinds_and_names_only_real_commands() -> None:
    top = parser()
    commands = {prog.removeprefix("arena ") for prog, _ in _parsers(top)}
    texts = []
    for _, p in _parsers(top):
        texts.append(p.format_help())
    help_text = "\n".join(texts)
    assert "bot, random, human, openai:MODEL" in help_text
    mentioned = set(re.findall(r"`arena ([a-z]+(?: [a-z]+)?)", help_text))
    assert mentioned, "the help names no commands at all"
    assert {m for m in mentioned if m not in commands and m.split()[0] not in commands} == set()


def _spec(tmp_path: Path, lang: str) -> Path:
    path = tmp_path / f"{lang}.yaml"
    path.write_text(yaml.safe_dump({"lang": lang}))
    return path


def test_the_spec_language_applies_when_no_lang_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.jsonl"
    argv = ["play", "--board", "std9", "--spec", str(_spec(tmp_path, "en")), "--out", str(out)]
    assert main(argv) == 0
    assert "Night 1" in capsys.readouterr().out


def test_an_explicit_lang_wins_over_the_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.rules.events import Spoke
    from arena.storage.replay_file import read_replay

    out = tmp_path / "a.jsonl"
    spec = _spec(tmp_path, "zh")
    argv = ["play", "--board", "std9", "--spec", str(spec), "--lang", "en", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "Night 1" in printed and "第1夜" not in printed
    speeches = [e.text for e in read_replay(out).events if isinstance(e, Spoke)]
    assert speeches and not any(re.search("[\u4e00-\u9fff]", text) for text in speeches)


_LATIN = re.compile(r"[A-Za-z_]+")


def test_chinese_output_has_no_raw_english_identifiers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for board, seed in [("std9", 3), ("wwk_guard", 1), ("yunv", 2)]:
        out = tmp_path / f"{board}.jsonl"
        argv = ["play", "--board", board, "--seed", str(seed), "--as", "god", "--out", str(out)]
        assert main([*argv, "--lang", "zh"]) == 0
        *lines, result = capsys.readouterr().out.splitlines()
        assert result.startswith(("好人勝利 · 回放已寫入 ", "狼人勝利 · 回放已寫入 ", "和局 · "))
        latin = {w for line in lines for w in _LATIN.findall(line)} - {"PK"}
        assert not latin, f"{board}: {sorted(latin)[:10]}"


def test_boards_speak_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["boards"]) == 0
    zh = capsys.readouterr().out.splitlines()
    assert zh[0].split()[:4] == ["std9", "9人標準屠城局", "9人", "屠城"]
    assert not any(" seats " in line or " city " in line for line in zh)
    assert main(["boards", "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "9-player standard (city)" in en and "Villager×3, Werewolf×3" in en


def test_force_replaces_nothing_when_the_game_cannot_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    spec = tmp_path / "refused.yaml"  # nothing listens on port 9: the preflight fails
    endpoint = {"base_url": "http://127.0.0.1:9/v1", "retries": 0}
    spec.write_text(yaml.safe_dump({"seats": ["1=openai:m"], "endpoints": {"openai": endpoint}}))
    out = tmp_path / "game.jsonl"
    out.write_text("an earlier game\n")
    assert main([*PLAY, "--spec", str(spec), "--out", str(out), "--force"]) == 2
    assert "unreachable" in capsys.readouterr().err
    assert out.read_text() == "an earlier game\n"
    fresh = tmp_path / "fresh.jsonl"
    assert main([*PLAY, "--spec", str(spec), "--out", str(fresh)]) == 2
    assert not fresh.exists()
