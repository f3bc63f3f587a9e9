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

import streamlit as st

from arena.text import inert

from .i18n import Lang, t
from .i18n import text as words

_BREAKS = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


def visible(text: str, *, one_line: bool = False) -> str:
    r"""`text` with control and bidi characters shown as `\xNN` / `\uNNNN` escapes.

    The terminal's rule (`arena.text.inert`), line by line: line breaks stay line breaks,
    unless `one_line`, where each becomes `⏎` as on the terminal.
    """
    if one_line:
        return inert(text)
    return "\n".join(inert(part) for part in _BREAKS.split(text))


def escape(text: str) -> str:
    """`text` for a Markdown widget: punctuation backslash-escaped, controls made visible."""
    return _PUNCT.sub(r"\\\1", visible(text, one_line=True))


def plain(text: str, *, one_line: bool = False) -> None:
    """Draw untrusted `text` as plain text."""
    st.text(visible(text, one_line=one_line), width="stretch")


def error(message: str) -> None:
    """An error box whose message (which may quote a file or a URL) is not Markdown."""
    st.error(escape(message))


def no_games(lang: Lang) -> None:
    """The one line a page shows when the replay folder holds no game, and where to play one.

    An empty folder is where every new user starts: the Replays table and the player's
    picker are empty then, and a blank page reads as broken.
    """
    st.info(t("no_games", lang), icon="📭")
    st.page_link(
        "screens/play.py",
        label=words("play.title", lang),
        icon="🎲",
        query_params={"lang": lang},
    )
