import pytest

from arena.text import inert

HOSTILE = (
    "\x1b[2J\x1b[Hhi\x00\x07\x08\r\n── Day 9 ──\u202eevil\u202c\u2066x\u2069\u2028\x9b31m\x7f\ud800"
)


def test_inert_text_has_no_control_bidi_or_line_breaks() -> None:
    out = inert(HOSTILE)
    assert out.isprintable()
    assert "\x1b" not in out and "\n" not in out and "\r" not in out
    assert out == (
        "\\x1b[2J\\x1b[Hhi\\x00\\x07\\x08⏎── Day 9 ──\\u202eevil\\u202c\\u2066x\\u2069⏎"
        "\\x9b31m\\x7f\\ud800"
    )
    out.encode("utf-8")  # a lone surrogate would make print() raise


@pytest.mark.parametrize(
    "text",
    [
        "我是預言家，3號查殺！",
        "Hello, #3 — trust me 👍🏽",
        "👨‍👩‍👧 family",
        "café (e\u0301)",
        "全形　空格",
    ],
)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert inert(text) == text


def test_a_tab_is_a_space() -> None:
    assert inert("a\tb") == "a b"


def test_inert_lines_keeps_our_newlines_and_no_other_break() -> None:
    from arena.text import inert_lines

    assert inert_lines("a\u2028b\nc\x1b") == "a⏎b\nc\\x1b"
