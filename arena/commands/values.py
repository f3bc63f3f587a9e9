"""A flag value the command line refuses, named by kind so the refusal is said in `--lang`.

A flag's type function raises `RefusedValue("step")`; the CLI's parser (`arena.cli`) says
"--until expects a step number, 0 or more, not '-5'" from the catalog's `cli.kind.step`
in the language `--lang` asks for. A type function that raises a plain
`argparse.ArgumentTypeError` is said in its own (English) words.
"""

from __future__ import annotations

import argparse

from arena.text import t


class RefusedValue(argparse.ArgumentTypeError):
    """A value that is not of `kind` (a key under the catalog's `cli.kind`)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        super().__init__(t(f"cli.kind.{kind}", "en"))
