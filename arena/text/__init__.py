"""Every word the arena shows a person, in each language, and how player text is shown.

`t(key, lang, **values)` looks up one display text in the catalog (`en.yaml`, `zh.yaml`
beside this module, shipped in the wheel) and fills its `{fields}`. A key missing from any
language is a test failure (`tests/text/`), never a raw identifier on screen.

`inert(text)` makes untrusted text (player speech, anything read from a replay file) safe
to write to a terminal. Model prompts are versioned data of their own (`prompts/`).
"""

from arena.text.catalog import LANGS, Lang, MissingText, has, keys, t
from arena.text.terminal import inert, inert_lines

__all__ = ["LANGS", "Lang", "MissingText", "has", "inert", "inert_lines", "keys", "t"]
