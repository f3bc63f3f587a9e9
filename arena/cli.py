"""`arena`: the command line. Each area registers its subcommands from `arena.commands`.

Every deliberate failure (unknown board, bad flag value, corrupt file, unreachable
service) is an `ArenaError`: one line on stderr naming what was wrong, exit code 2, and
nothing written half-way.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from arena import __version__
from arena.errors import ArenaError, clip

MAX_MESSAGE = 2000
"""The most characters of an error the CLI prints: a net under the sources' own clipping
(`arena.errors.clip`), far above the longest honest message (a list of knobs)."""
COMMAND_MODULES = (
    "arena.commands.game",
    "arena.commands.replay",
    "arena.commands.boards",
    "arena.commands.scenario",
    "arena.commands.dashboard",
    "arena.commands.tournament",
    "arena.commands.leaderboard",
    "arena.commands.export",
    "arena.commands.exam",
    "arena.commands.agent",
)
"""Modules that add subcommands, in help order."""


class HelpFormatter(argparse.HelpFormatter):
    """Shows each option's default, unless its help already says it or there is none."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or not action.option_strings or _no_default(default):
            return text
        return f"{text} (default: {default})"


def _no_default(value: object) -> bool:
    return value is None or value is False or value == [] or value == argparse.SUPPRESS


class ArgumentParser(argparse.ArgumentParser):
    """`argparse` with `HelpFormatter` for the parser and every subcommand's parser."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def parser() -> argparse.ArgumentParser:
    """The full argument parser."""
    top = ArgumentParser(
        prog="arena", description="Werewolf Arena: language models playing Werewolf (狼人杀)."
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    _remember_parsers(top)
    return top


def _remember_parsers(given: argparse.ArgumentParser) -> None:
    """Each (sub)command's parser becomes its own `parser` default, innermost last.

    An unknown flag is found by the subcommand's parser but reported by the top one, with
    the top one's usage (`arena [-h] [--version] COMMAND`): `main` reports it with the
    subcommand's usage instead, the one that lists the flags it takes.
    """
    given.set_defaults(parser=given)
    for action in given._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _remember_parsers(child)


def _refuse(command: argparse.ArgumentParser, extra: list[str]) -> NoReturn:
    """Exit 2 naming the unknown arguments, with the nearest flag the command takes."""
    message = f"unrecognized arguments: {' '.join(extra)}"
    flags = [f for a in command._actions for f in a.option_strings if f.startswith("--")]
    for word in extra:
        if word.startswith("--"):
            near = difflib.get_close_matches(word.split("=", 1)[0], flags, n=1)
            if near:
                message += f" (did you mean {near[0]}?)"
                break
    command.error(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    top = parser()
    args, extra = top.parse_known_args(argv)
    if extra:
        _refuse(args.parser, extra)
    try:
        code = args.handler(args)
    except ArenaError as exc:  # clipped again: a message must never flood the terminal
        print(f"arena: error: {clip(str(exc), MAX_MESSAGE)}", file=sys.stderr)
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
