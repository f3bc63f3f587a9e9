"""The dashboard's words live in the one catalog (`arena.text`), in every language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from arena.dashboard.i18n import LANGS, Lang, parse_lang, t, viewpoint_label, viewpoints
from arena.text import LANGS as CATALOG_LANGS
from arena.text import keys
from arena.text.hans import to_hans

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"


def used_keys() -> tuple[set[str], set[str]]:
    """(whole keys, f-string key prefixes) passed to `t(...)` / `text(...)` in the dashboard."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in DASHBOARD.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in {"t", "text"} or not node.args:
                continue
            scope = "dashboard." if node.func.id == "t" else ""
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                whole.add(scope + arg.value)
            elif isinstance(arg, ast.JoinedStr) and isinstance(arg.values[0], ast.Constant):
                prefixes.add(scope + str(arg.values[0].value))
    return whole, prefixes


def test_every_word_the_dashboard_asks_for_is_in_every_language() -> None:
    whole, prefixes = used_keys()
    assert len(whole) > 60 and prefixes, "the scan found the calls"
    for lang in CATALOG_LANGS:
        have = keys(lang)
        assert not whole - have, (lang, sorted(whole - have))
        for prefix in prefixes:
            assert any(k.startswith(prefix) for k in have), (lang, prefix)


def test_every_closed_set_the_dashboard_labels_has_its_words() -> None:
    import typing

    from arena.rules import events as ev

    for ballot in typing.get_args(ev.Ballot):
        for lang in LANGS:
            assert t(f"ballot_{ballot}", lang)
    for kind in ("prev", "next"):
        for moment in ("speech", "vote", "death"):
            assert t(f"{kind}_{moment}", "zh-Hant")


@pytest.mark.parametrize("lang", LANGS)
def test_viewpoints_have_names_in_every_language(lang: Lang) -> None:
    names = [viewpoint_label(v, lang) for v in viewpoints(12)]
    assert len(set(names)) == len(names) and "seat:3" not in names


def test_simplified_is_derived_and_traditional_is_as_written() -> None:
    assert t("replays", "zh-Hant") == "對局回放"
    assert t("replays", "zh-Hans") == "对局回放" == to_hans("對局回放")
    assert t("replays", "en") == "Replays"
    assert [parse_lang(x) for x in ("zh", "zh-CN", "zh-TW", "zh-hk", "en", "fr", None)] == [
        "zh-Hans", "zh-Hans", "zh-Hant", "zh-Hant", "en", "en", "en",
    ]  # fmt: skip
