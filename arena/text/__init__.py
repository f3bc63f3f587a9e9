"""Every word the arena shows a person, in each language, and how player text is shown.

`t(key, lang, **values)` looks up one display text in the catalog (`en.yaml`, `zh.yaml`
beside this module, shipped in the wheel) and fills its `{fields}`. A key missing from any
language is a test failure (`tests/text/`), never a raw identifier on screen.

`inert(text)` makes untrusted text (player speech, anything read from a replay file) safe
to write to a terminal; `printed_in(display)` prints a block in the reader's script
(`arena.text.script`: Simplified Chinese converted from the Traditional catalog). Model
prompts are versioned data of their own (`prompts/`).
"""

from arena.text.catalog import LANGS, Lang, MissingText, has, keys, t
from arena.text.refusal import cannot_read, refusal, say_error
from arena.text.script import Display, game_lang, in_script, parse_display, printed_in
from arena.text.terminal import inert, inert_lines, ljust, rjust, width

__all__ = [
    "LANGS",
    "Display",
    "Lang",
    "MissingText",
    "cannot_read",
    "game_lang",
    "has",
    "in_script",
    "inert",
    "inert_lines",
    "keys",
    "ljust",
    "parse_display",
    "printed_in",
    "refusal",
    "rjust",
    "say_error",
    "t",
    "width",
]
