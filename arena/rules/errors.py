"""The rules' errors. Each message is one short line that names what was wrong.

They derive from `arena.errors.ArenaError`, the root, which every module imports from
`arena.errors` itself, with the message helpers `clip` and `one_line`: this module does
not re-export them, so each has one place to be imported from.
"""

from __future__ import annotations

from arena.errors import ArenaError

__all__ = [
    "ConfigError",
    "IllegalActionError",
    "InvalidActionError",
]


class ConfigError(ArenaError):
    """An unknown board, role or rules knob, or an inconsistent game configuration."""


class InvalidActionError(ArenaError):
    """An answer that is not an action at all: malformed JSON, wrong fields or types."""


class IllegalActionError(ArenaError):
    """A well-formed action the rules do not allow now: wrong seat, phase, or target."""
