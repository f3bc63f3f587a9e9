"""The arena's errors. Each message is one short line that names what was wrong."""

from __future__ import annotations

from pydantic import ValidationError

from arena.errors import CLIP, ArenaError, clip

__all__ = [
    "CLIP",
    "ArenaError",
    "ConfigError",
    "IllegalActionError",
    "InvalidActionError",
    "clip",
    "one_line",
]


class ConfigError(ArenaError):
    """An unknown board, role or rules knob, or an inconsistent game configuration."""


class InvalidActionError(ArenaError):
    """An answer that is not an action at all: malformed JSON, wrong fields or types."""


class IllegalActionError(ArenaError):
    """A well-formed action the rules do not allow now: wrong seat, phase, or target."""


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
