"""`arena play`, `arena replay`, `arena validate`, `arena boards`: one game at a time."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from arena.agents.base import Agent
from arena.agents.factory import (
    MatchSpec,
    aclose_models,
    build_agents,
    load_spec_file,
    parse_seats,
    preflight,
)
from arena.agents.human import TerminalHuman
from arena.match import Limits, new_game_id, new_header, run_game, secret_seed
from arena.replay_check import check_replay
from arena.rules.boards import BOARDS, Board
from arena.rules.config import GameConfig, RuleSet
from arena.rules.errors import ArenaError, ConfigError
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.roles import spec
from arena.rules.visibility import PublicViewer, SeatViewer, Viewer, parse_viewer
from arena.storage.replay_file import read_replay
from arena.transcript import Lang, render


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the single-game commands."""
    play = sub.add_parser("play", help="play one game and print its transcript")
    play.add_argument("--board", default="wwk_guard", help="board id (see `arena boards`)")
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
        help="override one rules knob, e.g. --set sheriff_vote_weight=2",
    )
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the deal's seed (default: 1, or a secret random one when a person plays)",
    )
    play.add_argument(
        "--seat",
        dest="seats",
        action="append",
        default=[],
        metavar="SEATS=AGENT",
        help="who plays which seats: bot, random, openai:MODEL or langchain:PROVIDER:MODEL, "
        "e.g. 1-6=openai:gpt-4.1-mini (default: bot)",
    )
    play.add_argument(
        "--spec", type=Path, default=None, help="a YAML match spec (seats, language, endpoints)"
    )
    play.add_argument(
        "--beliefs",
        choices=["off", "daily", "per_speech"],
        default="daily",
        help="when seats report private wolf probabilities (per_speech measures persuasion)",
    )
    play.add_argument("--out", type=Path, default=None, help="replay file (default: replays/)")
    play.add_argument(
        "--as",
        dest="viewer",
        default="public",
        help="print the game as god, public, wolves or seat:N",
    )
    play.add_argument("--lang", choices=["zh", "en"], default="zh")
    play.add_argument("--quiet", action="store_true", help="print only the result line")
    play.set_defaults(handler=_play)

    replay = sub.add_parser("replay", help="print a replay as one viewer saw it")
    replay.add_argument("file", type=Path)
    replay.add_argument(
        "--as", dest="viewer", default="public", help="god, public, wolves or seat:N"
    )
    replay.add_argument(
        "--until",
        type=int,
        default=None,
        metavar="STEP",
        help="stop before event STEP (what the viewer knew at that moment)",
    )
    replay.add_argument("--lang", choices=["zh", "en"], default="zh")
    replay.set_defaults(handler=_replay)

    validate = sub.add_parser("validate", help="re-run a replay's answers and compare the log")
    validate.add_argument("files", type=Path, nargs="+")
    validate.set_defaults(handler=_validate)

    boards = sub.add_parser("boards", help="list the boards")
    boards.add_argument("--json", action="store_true", help="machine-readable output")
    boards.set_defaults(handler=_boards)


def parse_knobs(items: list[str]) -> dict[str, Any]:
    """Parse `KNOB=VALUE` overrides; values are YAML scalars (`2`, `true`, `survives`).

    Raises:
        ConfigError: a malformed item or an unknown knob.
    """
    overrides: dict[str, Any] = {}
    for item in items:
        knob, sep, value = item.partition("=")
        if not sep or not knob:
            raise ConfigError(f"--set expects KNOB=VALUE, got {item!r}")
        if knob not in RuleSet.model_fields:
            raise ConfigError(
                f"unknown rules knob {knob!r}; known knobs: {', '.join(RuleSet.model_fields)}"
            )
        overrides[knob] = yaml.safe_load(value)
    return overrides


def _viewer(text: str) -> Viewer:
    try:
        return parse_viewer(text)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None


def _play(args: argparse.Namespace) -> int:
    config = GameConfig(board=args.board, preset=args.preset, overrides=parse_knobs(args.knobs))
    viewer = _viewer(args.viewer)
    spec = load_spec_file(args.spec) if args.spec is not None else MatchSpec(lang=args.lang)
    seats = parse_seats([*spec.seats, *args.seats], config.board_spec.seats)
    human_seat = next((s for s, seat in seats.items() if seat.kind == "human"), None)
    seed = args.seed if args.seed is not None else (1 if human_seat is None else secret_seed())
    agents = build_agents(seats, config, seed, spec)
    game_id = new_game_id(config.board)
    path = args.out or Path("replays") / f"{game_id}.jsonl"
    limits = Limits(call_timeout_s=3600.0 if human_seat else 60.0, beliefs=args.beliefs)
    try:
        referee = asyncio.run(_play_game(game_id, config, seed, agents, path, limits))
    except KeyboardInterrupt:
        print(f"\n(stopped; the game so far is in {path})", file=sys.stderr)
        return 130
    human = agents.get(human_seat) if human_seat is not None else None
    if isinstance(human, TerminalHuman):
        human.catch_up(observe(referee.events, SeatViewer(seat=human_seat or 0)))
    elif not args.quiet:
        _print(observe(referee.events, viewer).seen, args.lang)
    revealed = f" · seed {seed}" if human_seat is not None else ""  # secret until the end
    print(f"{referee.winner} win · replay written to {path}{revealed}")
    return 0


async def _play_game(
    game_id: str,
    config: GameConfig,
    seed: int,
    agents: dict[int, Agent],
    path: Path,
    limits: Limits,
) -> Referee:
    """Check every model endpoint before the game starts, then play it."""
    try:
        endpoints = await preflight(agents)
        header = new_header(game_id, config, seed, agents, endpoints=endpoints)
        return await run_game(header, agents, path, limits=limits)
    finally:
        await aclose_models(agents)


def _print(seen: Any, lang: Lang) -> None:
    for item in seen:
        line = render(item.event, lang)
        if line is not None:
            print(line)


def _replay(args: argparse.Namespace) -> int:
    viewer = _viewer(args.viewer)
    replay = read_replay(args.file)
    observation = observe(replay.events, viewer, until=args.until)
    _print(observation.seen, args.lang)
    if (
        args.until is not None
        and args.until < len(replay.events)
        and not isinstance(viewer, PublicViewer)
    ):
        print(f"(cut at step {args.until} of {len(replay.events)})")
    return 0


def _validate(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.files:
        report = check_replay(path)
        where = f"{report.path}:{report.line}" if report.line else report.path
        print(f"{'ok ' if report.ok else 'BAD'} {where}: {report.message}")
        bad += not report.ok
    return 1 if bad else 0


def _boards(args: argparse.Namespace) -> int:
    if args.json:
        json.dump(
            [_board_row(b) for b in BOARDS.values()], sys.stdout, ensure_ascii=False, indent=2
        )
        print()
        return 0
    for b in BOARDS.values():
        roles = "、".join(
            f"{spec(r).zh}×{n}" if n > 1 else spec(r).zh for r, n in b.role_counts().items()
        )
        print(f"{b.id:<15} {b.zh:<12} {b.seats:>2} seats  {b.win:<5} {b.preset:<10} {roles}")
    return 0


def _board_row(b: Board) -> dict[str, Any]:
    return {
        "id": b.id,
        "name_zh": b.zh,
        "name_en": b.en,
        "seats": b.seats,
        "win": b.win,
        "preset": b.preset,
        "roles": {r.value: n for r, n in b.role_counts().items()},
        "night_order": list(b.night_order),
        "source": b.source,
    }
