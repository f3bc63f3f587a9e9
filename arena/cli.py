"""`arena`: the command line. Each area registers its subcommands from `arena.commands`.

Every deliberate failure (unknown board, bad flag value, corrupt file, unreachable
service) is an `ArenaError`: one line on stderr naming what was wrong, exit code 2, and
nothing written half-way.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from arena.rules.errors import ArenaError

COMMAND_MODULES = (
    "arena.commands.game",
    "arena.commands.scenario",
    "arena.commands.dashboard",
    "arena.commands.tournament",
    "arena.commands.leaderboard",
)
"""Modules that add subcommands, in help order."""


def parser() -> argparse.ArgumentParser:
    """The full argument parser."""
    top = argparse.ArgumentParser(
        prog="arena", description="Werewolf Arena: language models playing Werewolf (狼人杀)."
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        code = args.handler(args)
    except ArenaError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `arena replay … | head` closed our stdout: not an error
        sys.stderr.close()
        return 0
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
