"""The script a reader reads Chinese in: one script per page, per terminal.

The catalog's Chinese is written once, in Traditional characters (the rules seeds'
script), and so are the bots' speeches; a Simplified reader gets every Chinese line
converted (`arena.text.hans`, OpenCC's tables): Taiwan's words for the mainland's
(資料夾 → 文件夹, 連結 → 链接), then character by character. That holds for the arena's
own words, bot and model speech, a person's speech, the transcript. Converting a
person's own words changes no meaning (a Simplified text is left as it is), and leaving
them would mix two scripts on one page or terminal. What is stored (replays, prompts)
is never converted.

Display languages (`--lang` on the CLI, `?lang=` on the dashboard): `en`, `zh-Hans`
(简体), `zh-Hant` (繁體); on the CLI a bare `zh` is Traditional, as it always was.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Literal, TextIO

from arena.text.catalog import Lang
from arena.text.hans import to_hans

Display = Literal["en", "zh-Hans", "zh-Hant"]
"""A display language: English, Simplified or Traditional Chinese."""
DISPLAYS: tuple[Display, ...] = ("en", "zh-Hans", "zh-Hant")
_CLI: dict[str, Display] = {"en": "en", "zh": "zh-Hant", "zh-Hant": "zh-Hant", "zh-Hans": "zh-Hans"}
CLI_CHOICES = tuple(_CLI)
"""What `--lang` takes on the command line (`zh` is `zh-Hant`)."""

AgentLang = Literal["en", "zh", "zh-Hans"]
"""The language an agent the arena does not run (a plug-in, a remote agent) is told: `en`,
`zh` (Chinese in Traditional characters, the arena's own: `--lang zh` or `zh-Hant`, and
the default), or `zh-Hans` (Simplified: the people at the table read Simplified, so an
agent that writes its own speeches should too). `zh` keeps the meaning it always had."""


def parse_display(raw: str) -> Display:
    """The display language a `--lang` value names (`zh`: Traditional, as before)."""
    return _CLI.get(raw, "en")


def game_lang(display: Display) -> Lang:
    """The language the arena writes in for `display`, before any conversion."""
    return "en" if display == "en" else "zh"


def agent_lang(display: Display) -> AgentLang:
    """What agents are told for a game shown in `display` (`AgentLang`)."""
    return "zh-Hans" if display == "zh-Hans" else game_lang(display)


def told_display(told: AgentLang) -> Display:
    """The display language of a game whose agents are told `told` (`zh`: Traditional)."""
    return "zh-Hans" if told == "zh-Hans" else display_of(told_game_lang(told))


def told_game_lang(told: AgentLang) -> Lang:
    """The language the arena writes in for a game whose agents are told `told`."""
    return "en" if told == "en" else "zh"


def display_of(lang: Lang) -> Display:
    """The display language of text written in `lang` (Chinese is written Traditional)."""
    return "en" if lang == "en" else "zh-Hant"


def in_script(text: str, display: Display) -> str:
    """`text` in `display`'s script: Simplified for `zh-Hans`, else unchanged."""
    return to_hans(text) if display == "zh-Hans" else text


class HansStream(io.TextIOBase):
    """A text stream that writes everything through to `inner` in Simplified characters."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        """Write `text` converted; the count is of the characters given, as `write` promises."""
        self.inner.write(to_hans(text))
        return len(text)

    def flush(self) -> None:
        """Flush the wrapped stream."""
        self.inner.flush()

    def isatty(self) -> bool:
        """Whether the wrapped stream is a terminal."""
        return self.inner.isatty()

    def fileno(self) -> int:
        """The wrapped stream's descriptor."""
        return self.inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The wrapped stream's encoding."""
        return getattr(self.inner, "encoding", "utf-8")


@contextlib.contextmanager
def printed_in(display: Display) -> Iterator[None]:
    """Within the block, standard output and error are in `display`'s script.

    Everything a command prints (the transcript, a terminal seat's menus and prompts, the
    summary, progress lines) goes through `sys.stdout` or `sys.stderr`, so a Simplified
    terminal is converted in one place rather than at every print.
    """
    if display != "zh-Hans":
        yield
        return
    with (
        contextlib.redirect_stdout(HansStream(sys.stdout)),
        contextlib.redirect_stderr(HansStream(sys.stderr)),
    ):
        yield
