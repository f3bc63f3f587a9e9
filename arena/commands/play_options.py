"""`arena play`'s options, a group each: the game, its seats, the model seats, the output.

The game the options compose is `arena.commands.game`'s; here is only what each flag
means, its default, and the parsers of its values (`parse_knobs`, `positive`).
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Collection
from pathlib import Path
from typing import Any, NamedTuple

from arena.commands.seen import VIEWERS
from arena.commands.values import RefusedValue
from arena.errors import clip
from arena.rules.config import RuleSet
from arena.rules.errors import ConfigError
from arena.text import Lang, t
from arena.text.script import CLI_CHOICES
from arena.userfile import parse_yaml

SEAT_KINDS = (
    "bot, random, human, openai:MODEL, langchain:PROVIDER:MODEL, py:MODULE:FACTORY, "
    "an installed agent's name, an http(s):// URL, or noisy:P:AGENT (P of it at random)"
)
"""The agents a `--seat` spec may name (`arena.agents.seats` parses them)."""


def add_play_options(play: argparse.ArgumentParser) -> None:
    """Every option of `arena play`, in the order `--help` lists them."""
    add_game_options(play)
    add_seat_options(play)
    add_model_options(play)
    add_output_options(play)


def add_game_options(play: argparse.ArgumentParser) -> None:
    """Which game: the board, its rules and the seed."""
    play.add_argument(
        "--board",
        default="wwk_guard",
        help="board id or a board file (.yaml); `arena boards` lists both and where the "
        "examples and their README are",
    )
    play.add_argument(
        "--preset",
        choices=["tournament", "site", "classic"],
        default=None,
        help="rules preset (default: the board's own)",
    )
    play.add_argument(
        "--set",
        dest="knobs",
        action="append",
        default=[],
        metavar="KNOB=VALUE",
        help="override one rules knob, e.g. --set sheriff_vote_weight=2 (repeatable)",
    )
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the deal, speaking orders, lots and bots (default: 1, or a secret "
        "random one when a person plays)",
    )


def add_seat_options(play: argparse.ArgumentParser) -> None:
    """Who plays: the seats, a spec file, and the belief reports asked of them."""
    play.add_argument(
        "--seat",
        dest="seats",
        action="append",
        default=[],
        metavar="SEATS=AGENT",
        help=f"who plays which seats (repeatable; a seat may be named once): {SEAT_KINDS}, "
        "e.g. 1-6=openai:gpt-4.1-mini (default: bot in every seat not named); these "
        "replace the spec file's seats seat by seat",
    )
    play.add_argument(
        "--spec-file",
        "--spec",
        dest="spec",
        type=Path,
        default=None,
        metavar="FILE",
        help="a YAML match spec (seats, language, endpoints), as `arena agent check` and "
        "`arena exam run` take it (--spec is the same); --seat and --lang given on the "
        "command line win over it",
    )
    play.add_argument(
        "--beliefs",
        choices=["off", "daily", "per_speech"],
        default="daily",
        help="when seats report private wolf probabilities (per_speech measures persuasion)",
    )


class ModelFlag(NamedTuple):
    """An endpoint setting given on the command line, over every endpoint of the spec."""

    flag: str
    setting: str
    """Its name in a spec file's endpoint, and the flag's `dest` (`with_endpoint_flags`)."""
    kind: type[float] | type[int]
    help: str


MODEL_FLAGS: tuple[ModelFlag, ...] = (
    ModelFlag(
        "--decision-timeout",
        "decision_timeout_s",
        float,
        "every seat, whatever its kind: seconds one decision may take, waiting for a free "
        "server slot not counted (default: the spec's, else 60, or a model endpoint's longer "
        "request limit)",
    ),
    ModelFlag(
        "--timeout",
        "timeout_s",
        float,
        "model seats: seconds one request may take (default: 300, or the spec's timeout_s)",
    ),
    ModelFlag(
        "--probe-timeout",
        "probe_timeout_s",
        float,
        "model seats: seconds the pre-game probe may take (default: 4 × the request limit, "
        "or the spec's probe_timeout_s)",
    ),
    ModelFlag(
        "--max-tokens",
        "max_tokens",
        int,
        "model seats: the reply's token limit (default: the server's, or the spec's)",
    ),
    ModelFlag(
        "--history-tokens",
        "history_tokens",
        int,
        "model seats: conversation budget before older days are condensed (default 24000)",
    ),
)
"""The model seats' flags of `arena play` (and some of `arena exam run`), in `--help` order."""


def add_model_options(parser: argparse.ArgumentParser, only: Collection[str] = ()) -> None:
    """The model seats' endpoint settings, over every endpoint of the spec.

    `only` names the flags a command takes, when not all of `MODEL_FLAGS`.
    """
    for f in MODEL_FLAGS:
        if not only or f.flag in only:
            metavar = "S" if f.kind is float else "N"
            parser.add_argument(
                f.flag,
                dest=f.setting,
                type=positive(f.kind),
                default=None,
                metavar=metavar,
                help=f.help,
            )


def add_output_options(play: argparse.ArgumentParser) -> None:
    """Where the replay goes, and what is printed, in which language, as whom."""
    play.add_argument(
        "--out",
        default=None,
        metavar="FILE|DIR",
        help="replay file, or a folder (an existing one, or a path ending in /) to put the "
        "default-named file in (default: replays/BOARD-SEED-TIME.jsonl); an existing file "
        "is never replaced without --force",
    )
    play.add_argument("--force", action="store_true", help="replace an existing --out file")
    play.add_argument("--as", dest="viewer", default="public", help=f"print as {VIEWERS}")
    play.add_argument(
        "--lang",
        choices=CLI_CHOICES,
        default=None,
        help="language of the transcript and of the model and human seats: en, zh-Hant "
        "(zh) or zh-Hans, which prints everything in Simplified characters (default: the "
        "spec's lang, else zh-Hant; given here, it wins over the spec)",
    )
    play.add_argument("--quiet", action="store_true", help="print only the result line")


def endpoint_flags(args: argparse.Namespace) -> dict[str, float | int | None]:
    """The model options given, as `arena.agents.seats.with_endpoint_flags` takes them."""
    return {f.setting: getattr(args, f.setting) for f in MODEL_FLAGS if hasattr(args, f.setting)}


def parse_knobs(items: list[str], lang: Lang = "en") -> dict[str, Any]:
    """Parse `KNOB=VALUE` overrides; values are YAML scalars (`2`, `true`, `survives`).

    An unknown knob is refused naming the (up to three) knobs closest to it, in `lang`:
    the whole list would be a screenful, and a typo is one or two letters off.

    Raises:
        ConfigError: a malformed item or an unknown knob.
    """
    overrides: dict[str, Any] = {}
    for item in items:
        knob, sep, value = item.partition("=")
        if not sep or not knob:
            raise ConfigError(f"--set expects KNOB=VALUE, got {clip(repr(item))}")
        if knob not in RuleSet.model_fields:
            near = difflib.get_close_matches(knob, list(RuleSet.model_fields), n=3, cutoff=0.5)
            key = "cli.unknown_knob" if near else "cli.unknown_knob_far"
            raise ConfigError(t(key, lang, knob=clip(repr(knob)), near=", ".join(near)))
        overrides[knob] = parse_yaml(value, f"--set {knob}", error=ConfigError)
    return overrides


def positive(kind: type[float] | type[int]) -> Any:
    """An argparse type: a positive number of `kind` (refused as `cli.kind.positive_*`)."""
    name = "positive_whole" if kind is int else "positive_number"

    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise RefusedValue(name) from None
        if value <= 0:
            raise RefusedValue(name)
        return value

    return parse
