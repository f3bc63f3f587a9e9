"""The referee's draws are fixed forever, and old files keep their legacy draw."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random

import pytest

from arena.rules import events as ev
from arena.rules.boards import BOARDS
from arena.rules.config import GameConfig
from arena.rules.draw import CURRENT_DRAW, PythonRandomDraw, Sha256Draw, new_draw
from arena.rules.referee import Referee

RULES = Path(__file__).resolve().parents[2] / "arena" / "rules"


def test_sha256_words_are_pinned() -> None:
    draw = Sha256Draw(1)
    assert [draw.word() for _ in range(3)] == [
        615732713391867781,
        13286436344044177816,
        5583113174265563117,
    ]


def test_sha256_draws_are_pinned() -> None:
    draw = Sha256Draw(1)
    assert [draw.below(10) for _ in range(8)] == [1, 6, 7, 4, 0, 1, 8, 1]
    assert Sha256Draw(42).shuffled(list(range(10))) == [8, 7, 5, 6, 2, 4, 3, 9, 0, 1]
    draw = Sha256Draw(-7)
    assert draw.sample("abcdefgh", 3) == ["e", "b", "a"]
    assert draw.pick((1, 2, 3)) == 1
    draw = Sha256Draw(2**70)
    assert (draw.below(3), draw.below(2**64)) == (0, 4522640916159573674)


def test_below_rejects_rather_than_biasing() -> None:
    # With n = 3 * 2**62, words at or above 2**64 - 2**62 would make 0 twice as likely as
    # the rest; seed 0's first word is such a word, so below() must skip it.
    n = 3 * 2**62
    words = Sha256Draw(0)
    first, second = words.word(), words.word()
    assert first >= 2**64 - 2**62 > second
    assert Sha256Draw(0).below(n) == second % n


@pytest.mark.parametrize("bad", [0, -1, 2**64 + 1])
def test_below_refuses_an_empty_or_too_wide_range(bad: int) -> None:
    with pytest.raises(ValueError):
        Sha256Draw(1).below(bad)


def test_shuffle_and_sample_are_permutations() -> None:
    draw = Sha256Draw(9)
    items = list(range(12))
    assert sorted(draw.shuffled(items)) == items
    picked = draw.sample(items, 5)
    assert len(set(picked)) == 5 and set(picked) <= set(items)
    assert items == list(range(12))


def test_the_deal_is_the_first_draw_of_the_seed() -> None:
    for board in BOARDS.values():
        referee = Referee(GameConfig(board=board.id), 123)
        dealt = next(e for e in referee.events if isinstance(e, ev.RolesDealt))
        assert list(dealt.roles) == Sha256Draw(123).shuffled(board.roles)


def test_legacy_draw_makes_the_calls_old_files_were_dealt_with() -> None:
    legacy, rng = PythonRandomDraw(11), Random(11)
    roles = list(range(12))
    expected = roles[:]
    rng.shuffle(expected)
    assert legacy.shuffled(roles) == expected
    assert legacy.pick((1, 2, 3)) == rng.choice((1, 2, 3))
    assert legacy.sample((4, 5, 6, 7), 3) == rng.sample((4, 5, 6, 7), 3)
    assert legacy.below(12) + 1 == rng.randint(1, 12)


def test_new_draw_names_its_algorithm() -> None:
    assert isinstance(new_draw(CURRENT_DRAW, 1), Sha256Draw)
    assert isinstance(new_draw("python_random", 1), PythonRandomDraw)
    assert Referee(GameConfig(board="std9"), 1).draw == CURRENT_DRAW


def test_no_rules_module_but_draw_imports_random() -> None:
    """New rules code must draw through `Table.draw`, never through `random` directly."""
    offenders = []
    for path in sorted(RULES.glob("*.py")):
        if path.name == "draw.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == "random" or n.startswith("random.") for n in names):
                offenders.append(path.name)
    assert offenders == []
