"""Player text on a page: always plain text, never Markdown or HTML.

Speeches, whispers, model replies and anything read from a replay file are written by
whoever sits at the table. Streamlit's Markdown would turn `**`, `#`, `[x](url)`, `$math$`,
`:red[...]` and bare URLs into formatting and links, so player text is drawn only with
`st.text`. Control characters and bidi overrides (which reorder what a reader sees) are
shown as visible escapes first, the same way the terminal shows them.

Where a Markdown widget is unavoidable (alerts, captions with a bold part), `escape`
backslash-escapes every ASCII punctuation mark; that is only used for text the arena wrote
itself or for error messages, never for speech (it cannot stop bare-URL autolinks).
"""

from __future__ import annotations

import re
import unicodedata

import streamlit as st

NEWLINE_MARK = "⏎"
"""What a line break inside one transcript line is shown as (the line stays one line)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BREAKS = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


def _char(c: str) -> str:
    if c == "\t":
        return " "
    if c in _BIDI or unicodedata.category(c) in ("Cc", "Cs"):
        code = ord(c)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return c


def visible(text: str, *, one_line: bool = False) -> str:
    r"""`text` with control and bidi characters shown as `\xNN` / `\uNNNN` escapes.

    Line breaks stay line breaks, unless `one_line`, where each becomes `⏎`.
    """
    parts = [_BREAKS.sub(NEWLINE_MARK, text)] if one_line else _BREAKS.split(text)
    return "\n".join(p if p.isprintable() else "".join(map(_char, p)) for p in parts)


def escape(text: str) -> str:
    """`text` for a Markdown widget: punctuation backslash-escaped, controls made visible."""
    return _PUNCT.sub(r"\\\1", visible(text, one_line=True))


def plain(text: str, *, one_line: bool = False) -> None:
    """Draw untrusted `text` as plain text."""
    st.text(visible(text, one_line=one_line), width="stretch")


def error(message: str) -> None:
    """An error box whose message (which may quote a file or a URL) is not Markdown."""
    st.error(escape(message))
