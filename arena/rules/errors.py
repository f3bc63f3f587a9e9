"""The referee's errors. Each message is one line that names what was wrong."""

from __future__ import annotations


class ArenaError(Exception):
    """Base of every error the arena raises on purpose (CLI prints these as one line)."""


class ConfigError(ArenaError):
    """An unknown board, role or rules knob, or an inconsistent game configuration."""


class InvalidActionError(ArenaError):
    """An answer that is not an action at all: malformed JSON, wrong fields or types."""


class IllegalActionError(ArenaError):
    """A well-formed action the rules do not allow now: wrong seat, phase, or target."""
