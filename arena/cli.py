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
from typing import Any, NoReturn

from arena import __version__
from arena.commands.values import RefusedValue
from arena.errors import ArenaError, clip
from arena.text import Display, game_lang, in_script, say_error, t
from arena.text.script import CLI_CHOICES, parse_display

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
    """`argparse` with `HelpFormatter`, and a bad value refused in one line in `display`.

    argparse refuses a bad value (`--lang fr`, `--seed x`) by printing its whole usage
    first, eight lines for `arena play`, in English: here it is one line naming the flag,
    what it takes and what it got, in the language `--lang` asks for (`display`, set by
    `main`). An unknown flag still shows the usage (`_refuse`): there it lists the flags.
    """

    display: Display = "en"
    words: list[str] = []  # noqa: RUF012  (the arguments being parsed, set per parse)

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def say(self, key: str, **values: object) -> str:
        """The catalog's `key` in this parser's language and script."""
        return in_script(t(key, game_lang(self.display), **values), self.display)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:  # noqa: D102
        self.words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:  # noqa: D102
        self.exit(2, self.say("cli.error_line", prog=self.prog, message=message) + "\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(str, action.choices))
            flag = _flag(action)
            said = self.say("cli.bad_choice", flag=flag, choices=choices, value=repr(value))
            raise argparse.ArgumentError(None, said)

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as exc:
            raise argparse.ArgumentError(None, self._refusal(action, arg_string, exc)) from None

    def _refusal(self, action: argparse.Action, value: str, exc: argparse.ArgumentError) -> str:
        flag, cause = _flag(action), exc.__context__
        if isinstance(cause, RefusedValue):
            kind = self.say(f"cli.kind.{cause.kind}")
        elif action.type in (int, float):
            kind = self.say(f"cli.kind.{'whole' if action.type is int else 'number'}")
        else:
            return self.say("cli.refused", flag=flag, reason=exc.message)
        return self.say("cli.bad_value", flag=flag, kind=kind, value=repr(value))

    def _match_argument(self, action: argparse.Action, arg_strings_pattern: str) -> int:
        try:
            return super()._match_argument(action, arg_strings_pattern)
        except argparse.ArgumentError:
            if action.nargs not in (None, 1):
                raise
            given = _after(self.words, action.option_strings)
            if given is None:
                said = self.say("cli.needs_value", flag=_flag(action))
                raise argparse.ArgumentError(None, said) from None
            self._get_value(action, given)  # refused as that flag's value, if it is not one
            said = self.say("cli.needs_value_dash", flag=_flag(action), value=given)
            raise argparse.ArgumentError(None, said) from None


def _flag(action: argparse.Action) -> str:
    """How a person names `action`: its long flag, else its name (`file`)."""
    longs = [f for f in action.option_strings if f.startswith("--")]
    return longs[0] if longs else (action.metavar or action.dest).__str__()


def _after(words: list[str], flags: Sequence[str]) -> str | None:
    """The word after the last of `flags` in `words` (what a person meant as its value)."""
    spots = [i for i, w in enumerate(words) if w in flags]
    return words[spots[-1] + 1] if spots and spots[-1] + 1 < len(words) else None


def display_in(argv: Sequence[str]) -> Display:
    """The language `--lang` asks for in `argv` (English when absent or not a language)."""
    words = list(argv)
    for i, word in enumerate(words):
        raw = word.partition("=")[2] if word.startswith("--lang=") else None
        if word == "--lang" and i + 1 < len(words):
            raw = words[i + 1]
        if raw in CLI_CHOICES:
            return parse_display(raw)
    return "en"


def parser(display: Display = "en") -> argparse.ArgumentParser:
    """The full argument parser; it refuses a bad value in `display`."""
    top = ArgumentParser(
        prog="arena", description="Werewolf Arena: language models playing Werewolf (狼人杀)."
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    _remember_parsers(top, display)
    return top


def _remember_parsers(given: argparse.ArgumentParser, display: Display) -> None:
    """Each (sub)command's parser becomes its own `parser` default, innermost last.

    An unknown flag is found by the subcommand's parser but reported by the top one, with
    the top one's usage (`arena [-h] [--version] COMMAND`): `main` reports it with the
    subcommand's usage instead, the one that lists the flags it takes.
    """
    given.set_defaults(parser=given)
    if isinstance(given, ArgumentParser):
        given.display = display
    for action in given._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _remember_parsers(child, display)


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
    command.print_usage(sys.stderr)
    command.exit(2, f"{command.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    display = display_in(words)
    top = parser(display)
    args, extra = top.parse_known_args(words)
    if extra:
        _refuse(args.parser, extra)
    try:
        code = args.handler(args)
    except ArenaError as exc:  # clipped again: a message must never flood the terminal
        said = clip(say_error(exc, game_lang(display)), MAX_MESSAGE)
        message = t("cli.error", game_lang(display), prog="arena", message=said)
        print(in_script(message, display), file=sys.stderr)
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
