"""The root of the arena's errors, below every layer.

`ArenaError` is what the CLI, the dashboard and the worker print as one line instead of a
traceback. It lives apart from the rules' own errors (`arena.rules.errors`, which derive
from it and re-export it) so that a layer that knows nothing of the game, the provider
adapters of `arena.llm`, can raise it without importing the rules.
"""

from __future__ import annotations


class ArenaError(Exception):
    """Base of every error the arena raises on purpose (CLI prints these as one line)."""
