"""A bad flag value is one line naming the flag, what it takes and what it got, in `--lang`.

argparse printed its whole usage first (eight lines for `arena play`) and spoke English
whatever `--lang` said; the unknown-knob error listed all ~935 characters of knobs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import display_in, main

HELP = {"en": "(see arena {c} --help)", "zh-Hans": "（见 arena {c} --help）"}


@pytest.mark.parametrize(
    ("argv", "lang", "line"),
    [
        (["play", "--lang", "fr"], "en", "arena play: error: --lang takes en, zh, zh-Hant, "
         "zh-Hans, not 'fr'"),
        (["play", "--preset", "nosuch"], "en", "arena play: error: --preset takes tournament, "
         "site, classic, not 'nosuch'"),
        (["play", "--seed", "-x"], "en", "arena play: error: --seed expects a whole number, "
         "not '-x'"),
        (["replay", "g.jsonl", "--until", "-5"], "en", "arena replay: error: --until expects "
         "a step number, 0 or more, not '-5'"),
        (["play", "--lang", "zh-Hans", "--preset", "nosuch"], "zh-Hans", "arena play：错误："
         "--preset 只接受 tournament, site, classic，不接受 'nosuch'"),
        (["play", "--seed", "-x", "--lang=zh-Hans"], "zh-Hans", "arena play：错误：--seed 需要"
         "整数，不是 '-x'"),
        (["replay", "g.jsonl", "--lang", "zh-Hans", "--until", "-5"], "zh-Hans", "arena "
         "replay：错误：--until 需要步数（0 或以上），不是 '-5'"),
        (["play", "--timeout", "0", "--lang", "zh-Hans"], "zh-Hans", "arena play：错误："
         "--timeout 需要大于 0 的数，不是 '0'"),
        (["play", "--seed"], "en", "arena play: error: --seed needs a value after it"),
    ],
)  # fmt: skip
def test_a_bad_value_is_one_line_in_the_language_asked_for(
    argv: list[str], lang: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == f"{line} {HELP[lang].format(c=argv[0])}\n".replace(" （", "（")


def test_a_dash_value_of_a_text_flag_says_how_to_pass_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--out", "-x.jsonl"])
    (line,) = capsys.readouterr().err.splitlines()
    assert "--out needs a value after it; a value that starts with - goes as --out=-x.jsonl" in line


@pytest.mark.parametrize(
    ("argv", "lang"),
    [
        ([], "en"), (["play", "--lang", "zh"], "zh-Hant"), (["--lang=zh-Hans"], "zh-Hans"),
        (["play", "--lang", "fr"], "en"), (["play", "--lang"], "en"),
    ],
)  # fmt: skip
def test_the_language_of_refusals_is_the_one_lang_names(argv: list[str], lang: str) -> None:
    assert display_in(argv) == lang


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["play", "--set", "sherif_vote_weight=2"], "arena: error: unknown rules knob "
         "'sherif_vote_weight'; the closest: sheriff_vote_weight, sheriff_pk_voters, "
         "sheriff_order_anchor"),
        (["play", "--set", "qqq=1", "--lang", "zh-Hans"], "arena：错误：没有规则选项 'qqq'"
         "（所有选项见 arena/rules/config.py 的 RuleSet）"),
    ],
)  # fmt: skip
def test_an_unknown_knob_names_the_closest_knobs_not_all_of_them(
    argv: list[str],
    line: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert capsys.readouterr().err == line + "\n"
    assert not (tmp_path / "replays").exists()
