"""Issue 9, hostile text: player text reaches the page as plain text, never Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from arena.dashboard.plain import escape, visible
from tests.dashboard.conftest import MARKED
from tests.dashboard.games import APP, HOSTILE, make_hostile, page_text

HOSTILE_FILE = "hostile.jsonl"
MARKDOWN_KINDS = ("markdown", "caption", "info", "error", "success", "warning", "title",
                  "subheader", "header")  # fmt: skip


@pytest.fixture
def hostile(replay_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    make_hostile(replay_dir / MARKED, tmp_path / HOSTILE_FILE)
    monkeypatch.setenv("ARENA_REPLAYS", str(tmp_path))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("screens/player.py")
    at.query_params.update(game=HOSTILE_FILE, view="god", step="end")
    at.run()
    assert not at.exception
    return at


def test_visible_escapes_controls_and_bidi_but_keeps_the_text() -> None:
    shown = visible(HOSTILE)
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b[2J\\x07" in shown and "\\u202eevil" in shown
    assert "**bold** # heading [link](http://evil.example) <b>tag</b>" in shown
    assert "\n── Night 9 ──" in shown
    assert visible(HOSTILE, one_line=True).count("\n") == 0
    assert escape("**x** [a](b) $y$") == r"\*\*x\*\* \[a\]\(b\) \$y\$"
    assert visible("第1天 狼人殺 🐺") == "第1天 狼人殺 🐺"


def test_a_hostile_speech_is_plain_text_in_every_place_it_is_shown(hostile: AppTest) -> None:
    plain_texts = [t.value for t in hostile.text]
    bubble = visible(HOSTILE)
    assert any(bubble in v for v in plain_texts), "the speech bubble shows the text as written"
    line = visible(HOSTILE, one_line=True)
    assert any(line in v for v in plain_texts), "the transcript line shows it on one line"
    for kind in MARKDOWN_KINDS:
        for element in hostile.get(kind):
            body = getattr(element, "value", "") or ""
            assert "evil.example" not in body and "<b>" not in body and "$x^2$" not in body, kind
    text = page_text(hostile)
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text


def test_a_hostile_game_link_is_shown_as_text_in_the_error(
    replay_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_REPLAYS", str(replay_dir))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("screens/player.py")
    at.query_params.update(game="[click me](http://evil.example).jsonl")
    at.run()
    message = at.error[0].value
    assert r"\[click me\]\(http" in message, "escaped, so Markdown draws no link"
