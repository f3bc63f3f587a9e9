"""The dashboard's languages and words: English, Simplified and Traditional Chinese.

Every word comes from the one display-text catalog (`arena.text`; the dashboard's own
words are its `dashboard` section), so a missing translation is a test failure there.
The catalog's Chinese is written once, in Traditional characters (the rules seeds'
script). Simplified Chinese is derived from it (`arena.text.hans`: the mainland's words
for Taiwan's, then character by character), so there is one text to maintain. A
Simplified page shows every Chinese line in Simplified characters, speeches included
(`arena.text.script`): one script per page.

Languages in the URL (`?lang=`): `en`, `zh-Hans` (简体), `zh-Hant` (繁體); a bare `zh`
(and `zh-CN`, `zh-SG`) means Simplified, `zh-TW`, `zh-HK`, `zh-MO` mean Traditional.
"""

from __future__ import annotations

from arena import text as catalog
from arena import transcript
from arena.rules import events as ev
from arena.rules.visibility import Viewer, parse_viewer
from arena.text.hans import to_hans
from arena.text.script import DISPLAYS, Display

Lang = Display
"""A display language of the dashboard: the CLI's `--lang` (`arena.text.script.Display`)."""
LANGS: tuple[Lang, ...] = DISPLAYS
LANG_NAMES: dict[Lang, str] = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}
_ALIASES: dict[str, Lang] = {
    "en": "en", "zh": "zh-Hans", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans",
    "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
}  # fmt: skip


def parse_lang(raw: str | None) -> Lang:
    """The language a URL's `lang` value names (English for anything unknown)."""
    return _ALIASES.get((raw or "en").lower(), "en")


def game_lang(lang: Lang) -> transcript.Lang:
    """The language `arena.transcript` renders in for `lang` (before any conversion)."""
    return "en" if lang == "en" else "zh"


def localize(zh_hant: str, lang: Lang) -> str:
    """Arena-written Chinese text in the script `lang` asks for."""
    return to_hans(zh_hant) if lang == "zh-Hans" else zh_hant


def text(key: str, lang: Lang, **values: object) -> str:
    """The catalog text `key` (`arena.text`) in `lang`, with its `{fields}` filled.

    Raises:
        MissingText: the catalog has no such key (a bug, caught by the tests).
    """
    return localize(catalog.t(key, game_lang(lang), **values), lang)


def t(key: str, lang: Lang, **values: object) -> str:
    """The dashboard's own word `key` (catalog section `dashboard`) in `lang`."""
    return text(f"dashboard.{key}", lang, **values)


def winner_label(winner: str, lang: Lang) -> str:
    """A winner value (`good`, `wolves`, `draw`, or the listing's `unfinished`) in `lang`."""
    if winner == "unfinished":
        return t("win_unfinished", lang)
    return text(f"winner.{winner}", lang) if catalog.has(f"winner.{winner}", "en") else winner


def reason_label(reason: str, lang: Lang) -> str:
    """A game-end reason as the referee recorded it (English), in `lang`."""
    return localize(transcript.reason_text(reason, game_lang(lang)), lang)


def context_label(context: str, lang: Lang) -> str:
    """What kind of speech a `SpeechContext` is (`campaign`, `last words`, …)."""
    return text(f"speech.{context}", lang)


def render(event: ev.Event, lang: Lang) -> str | None:
    """`arena.transcript.render` in `lang`, every character in the page's script.

    A Simplified page converts the whole line, the speaker's words included (bot and model
    speech is written in Traditional characters; a Simplified text is left as it is), so
    a page is in one script (`arena.text.script`).
    """
    line = transcript.render(event, game_lang(lang))
    return None if line is None else localize(line, lang)


def viewpoints(seats: int) -> list[str]:
    """Every viewpoint of a game with `seats` seats, as `parse_viewer` spells them."""
    return ["god", "public", "wolves", *(f"seat:{n}" for n in range(1, seats + 1))]


def viewpoint_label(key: str, lang: Lang) -> str:
    """A viewpoint's display name."""
    kind, _, n = key.partition(":")
    return t(kind, lang, n=n) if kind in {"god", "public", "wolves", "seat"} else key


def viewer_of(key: str) -> Viewer:
    """The `Viewer` a viewpoint key names.

    Raises:
        ValueError: the key names no viewer.
    """
    return parse_viewer(key)
