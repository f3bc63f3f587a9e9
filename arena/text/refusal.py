"""An error a person reads in their own language: the catalog's `error` area.

The CLI says every `ArenaError` in the language `--lang` asks for: one that names its
catalog entry (`ArenaError.keyed`) is said from that entry, in any language; one that
does not keeps its English message (the prefix, `cli.error`, is translated either way).
"""

from __future__ import annotations

import errno

from arena.errors import ArenaError
from arena.text.catalog import Lang, has, t

_OS_WHY = {errno.ENOENT: "missing", errno.EACCES: "denied", errno.EISDIR: "folder"}
"""Operating-system errors a person meets when naming a file, by their catalog word."""


def refusal(key: str, **values: object) -> ArenaError:
    """An `ArenaError` whose message is the catalog's `key` in English, said in any language."""
    return ArenaError(t(key, "en", **values)).keyed(key, **values)


def say_error(exc: ArenaError, lang: Lang) -> str:
    """`exc`'s message in `lang`: its catalog entry's, else its own (English) words.

    A value that is a kind of file the catalog names (`error.word`: `spec file`, …) is
    said in `lang` too; every other value (a path, a seat spec, a number) as given.
    """
    if exc.key is None or lang == "en":
        return str(exc)
    words = {
        k: t(f"error.word.{v}", lang) if isinstance(v, str) and has(f"error.word.{v}", lang) else v
        for k, v in exc.values.items()
    }
    return t(exc.key, lang, **words)


def cannot_read(where: object, exc: OSError) -> ArenaError:
    """`where` could not be opened or read, said in any language (`error.cannot_read`).

    The OS's own message is English (the C locale's); the common causes a person meets
    naming a file (no such file, no permission, a folder) have words of their own.
    """
    key = f"error.cannot_read.{_OS_WHY.get(exc.errno or 0, 'other')}"
    return refusal(key, where=where, why=exc.strerror or exc)
