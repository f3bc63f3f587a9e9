"""Untrusted text made inert for a terminal.

Player speech, wolf whispers, model error text and anything read back from a replay file
may hold bytes a terminal acts on: escape sequences (clearing the screen, moving the
cursor, retitling the window), NUL, BEL, carriage returns that overwrite a line, and
Unicode bidi overrides that reorder what the reader sees. A line break inside a speech
would also start a line that looks like the moderator's. `inert` shows each of these as a
visible escape instead, so one transcript line stays one line that reads as written.
"""

from __future__ import annotations

import re
import unicodedata

NEWLINE_MARK = "⏎"
"""What a line break inside untrusted text is shown as (the text stays on its line)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode bidirectional marks, embeddings, overrides and isolates (UAX #9)."""

_BREAKS = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def inert(text: str) -> str:
    r"""`text` with every line break shown as `⏎` and every control character escaped.

    C0 and C1 controls, DEL, bidi controls and lone surrogates (which a terminal's encoder
    would refuse) become `\xNN` or `\uNNNN`; a tab becomes a space. Printable text
    (Chinese, emoji, combining marks, joiners) is unchanged.
    """
    text = _BREAKS.sub(NEWLINE_MARK, text)
    if text.isprintable():
        return text
    return "".join(_char(c) for c in text)


def inert_lines(text: str) -> str:
    """A block of our own lines (a table, a report) with each line made `inert`.

    Only a newline separates lines here: any other break inside a cell is untrusted text.
    """
    return "\n".join(inert(line) for line in text.split("\n"))


def _char(c: str) -> str:
    if c == "\t":
        return " "
    if c in _BIDI or unicodedata.category(c) in ("Cc", "Cs"):
        code = ord(c)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return c


def width(text: str) -> int:
    """Terminal columns `text` takes: wide and full-width characters (CJK) take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def ljust(text: str, columns: int) -> str:
    """`text` padded with spaces on the right to `columns` terminal columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """`text` padded with spaces on the left to `columns` terminal columns."""
    return " " * max(0, columns - width(text)) + text
