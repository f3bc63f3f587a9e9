"""A command's own errors follow `--lang` too, not only a bad flag value (issue 33).

`arena replay missing.jsonl --lang zh-Hans` said "arena：错误：…: cannot read: No such
file or directory": the prefix in Chinese, the error in English.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.board_file import board_ref
from arena.cli import main
from arena.errors import ArenaError
from arena.rules.boards import board
from arena.text import t
from arena.userfile import read_yaml

GOLDEN = Path(__file__).parents[1] / "golden" / "idiot12-default-1.jsonl"


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    return line


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["replay", "{tmp}/missing.jsonl"], "{tmp}/missing.jsonl：无法读取：没有这个文件"),
        (["replay", "{tmp}"], "{tmp}：无法读取：这是文件夹，不是文件"),
        (["replay", str(GOLDEN), "--as", "seat:40"], "--as seat:40：这局只有 1-12 号座位"),
        (["replay", str(GOLDEN), "--as", "bob"], "没有视角 'bob'；可用 god（上帝）、public（公开）"
         "、wolves（狼人）或 seat:N（N号座位）"),
        (["replay", str(GOLDEN), "--calls", "--until", "3"], "--calls 会印出文件中的每一次模型"
         "呼叫；--until 只截断对局记录"),
        (["play", "--seat", "13=bot"], "座位设置 '13=bot' 有误：座位须在 1-12 之间"),
        (["play", "--seat", "3-1=bot"], "座位设置 '3-1=bot' 有误：范围 3-1 请写成 1-3"),
        (["play", "--spec-file", "{tmp}/nope.yaml"], "{tmp}/nope.yaml：没有这个规格档"),
        (["play", "--board", "{tmp}/nope.yaml"], "{tmp}/nope.yaml：没有这个板子文件"),
        (["play", "--out", "{tmp}/taken.jsonl"], "{tmp}/taken.jsonl 已存在：加 --force 取代它，"
         "或用 --out 换个名字"),
    ],
)  # fmt: skip
def test_a_commands_error_is_said_in_lang(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken.jsonl").write_text("", encoding="utf-8")
    words = [w.format(tmp=tmp_path) for w in argv]
    assert (
        _error([*words, "--lang", "zh-Hans"], capsys) == f"arena：错误：{said.format(tmp=tmp_path)}"
    )
    english = _error(words, capsys)
    assert english.startswith("arena: error: ") and english.isascii()


def test_an_unknown_board_is_said_in_lang(capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(["play", "--board", "nosuch", "--lang", "zh"], capsys)
    assert line.startswith("arena：錯誤：沒有板子 'nosuch'；已知的板子：std9, ")
    assert "（或一個板子檔案，.yaml）；範例板子：classic_elder12" in line


def _raised(call: object) -> ArenaError:
    with pytest.raises(ArenaError) as caught:
        call()  # type: ignore[operator]
    return caught.value


@pytest.mark.parametrize(
    "call",
    [
        lambda: board("nosuch"),
        lambda: board_ref("nosuch"),
        lambda: read_yaml(Path("/nonexistent/x.yaml"), what="spec file"),
        lambda: read_yaml(Path("/"), what="board file"),
    ],
)
def test_an_error_below_the_catalog_says_its_entrys_english(call: object) -> None:
    """Layers below `arena.text` write their English by hand: it must be the entry's."""
    exc = _raised(call)
    assert exc.key is not None
    assert str(exc) == t(exc.key, "en", **exc.values)
