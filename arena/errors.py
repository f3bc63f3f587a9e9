"""The root of the arena's errors, below every layer.

`ArenaError` is what the CLI, the dashboard and the worker print as one line instead of a
traceback. It lives apart from the rules' own errors (`arena.rules.errors`, which derive
from it) so that a layer that knows nothing of the game, the provider adapters of
`arena.llm`, can raise it without importing the rules. Every module imports it, and the
message helpers `clip` and `one_line`, from here: nothing re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Self

from pydantic import ValidationError


class ArenaError(Exception):
    """Base of every error the arena raises on purpose (CLI prints these as one line).

    The message (`str`) is English. An error a person may meet at the command line also
    names its display-text catalog entry (`keyed`), so that the CLI says it in the
    language `--lang` asks for (`arena.text.say_error`); its English is that entry's
    English (`arena.text.refusal` builds it from the catalog, and a layer below the
    catalog writes the same words, a test holding them equal).
    """

    key: str | None = None
    """The catalog entry that says this error in another language, if any."""
    values: Mapping[str, object] = MappingProxyType({})
    """The entry's placeholders."""

    def keyed(self, key: str, **values: object) -> Self:
        """This error, said in other languages by the catalog's `key` with `values`."""
        self.key, self.values = key, values
        return self


CLIP = 200
"""The most characters of user input an error message repeats (`clip`)."""


def clip(text: str, limit: int = CLIP, *, flat: bool = False) -> str:
    """`text` cut to `limit` characters, the cut marked by an ellipsis.

    Every message that repeats what a user, a server or a model wrote (a file's value, a
    key, an HTTP error body, a refusal reason) goes through here: a message stays one short
    line however large the input, and printing it costs nothing. `flat` first folds every
    run of whitespace, newlines included, into one space (a server's multi-line error
    body, a reason quoted on a report's line).
    """
    if flat:
        text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(exc: ValidationError, *, skip: int = 0, default: str = "") -> str:
    """Pydantic's first complaint as `where: message`, clipped (the rest are dropped).

    `where` is the error's location, dotted, without its first `skip` parts (the wrapper
    a caller validated through), else `default`; without either the message stands alone.
    Pydantic's "Value error, " prefix (a validator's own `ValueError`) is dropped, and a
    message that already starts with its location is not prefixed twice.
    """
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"][skip:]) or default
    message = str(first["msg"]).removeprefix("Value error, ")
    if not where or message.startswith(f"{where}.") or message.startswith(f"{where}:"):
        return clip(message)
    return clip(f"{where}: {message}")
