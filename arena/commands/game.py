"""`arena play`: one game, composed from its options, played, and reported."""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import os
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from arena.agents.base import DECISION_TIMEOUT_S, Agent
from arena.agents.model.agent import Beliefs
from arena.agents.seats import (
    MatchSpec,
    SeatSpec,
    build_agents,
    check_options,
    endpoint_settings,
    load_spec_file,
    parse_seats,
    with_endpoint_flags,
)
from arena.agents.slots import hold_slots
from arena.agents.terminal import TerminalHuman
from arena.board_file import board_ref
from arena.commands.play_options import add_play_options, endpoint_flags, parse_knobs
from arena.commands.seen import print_seen, viewer_of
from arena.commands.summary import seat_lines
from arena.humans.host import live_folder
from arena.match import Limits, new_game_id, run_game, secret_seed
from arena.prepare import GamePlan, prepare_game
from arena.queue.seating import MODEL_KINDS
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import INSIDER_AGENTS, read_replay
from arena.text import Lang, game_lang, inert, parse_display, printed_in, refusal, t
from arena.text.script import Display, agent_lang, display_of
from arena.transcript import render


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena play` (its options: `arena.commands.play_options`)."""
    play = sub.add_parser("play", help="play one game and print its transcript")
    add_play_options(play)
    play.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    spec = load_spec_file(args.spec) if args.spec is not None else MatchSpec()
    display = parse_display(args.lang) if args.lang is not None else display_of(spec.lang)
    with printed_in(display):
        told = {"lang": game_lang(display), "agent_lang": agent_lang(display)}
        return _play_in(args, spec.model_copy(update=told), display)


def _play_in(args: argparse.Namespace, spec: MatchSpec, display: Display) -> int:
    """`arena play` with the spec's language settled (the output is in `display`'s script).

    The header records `display`, so `arena replay` prints the game in its own script.
    """
    config = GameConfig(
        board=board_ref(args.board),
        preset=args.preset,
        overrides=parse_knobs(args.knobs, "en" if args.lang is None else spec.lang),
    )
    viewer = viewer_of(args.viewer, config.board_spec.seats)
    spec = with_endpoint_flags(spec, **endpoint_flags(args))
    seats = parse_seats(spec.seats, config.board_spec.seats, overrides=args.seats)
    check_options(seats, spec)
    human_seat = next((s for s, seat in seats.items() if seat.kind == "human"), None)
    seed = args.seed if args.seed is not None else (1 if human_seat is None else secret_seed())
    game_id = new_game_id(config.board_id)
    limits, slots = _limits(seats, spec, args.beliefs, people=human_seat is not None)
    if human_seat is None and spec.decision_timeout_s is None:  # one clock for every seat
        spec = spec.model_copy(update={"decision_timeout_s": limits.call_timeout_s})
    agents = build_agents(seats, config, seed, spec, beliefs=args.beliefs, game_id=game_id)
    shown_seed = seed if human_seat is None else None  # a person's seed stays secret
    path = replay_path(args.out, config.board_id, shown_seed, force=args.force)
    running = running_path(path) if has_outsiders(seats) else path
    models = any(s.kind in MODEL_KINDS for s in seats.values())
    progress = Progress(sys.stderr, spec.lang) if models and not args.quiet else None
    plan = GamePlan(game_id, config, seed, {"lang": display})
    try:
        referee = asyncio.run(_play_game(plan, agents, running, limits, progress, slots))
        if running != path:
            running.replace(path)  # finished: now the replay folder may show it whole
    except KeyboardInterrupt:
        print(f"\n(stopped; the game so far is in {running})", file=sys.stderr)
        return 130
    finally:
        if path.exists() and path.stat().st_size == 0:
            path.unlink()  # reserved, then nothing written: the game never started
    human = agents.get(human_seat) if human_seat is not None else None
    if isinstance(human, TerminalHuman):
        human.catch_up(observe(referee.events, SeatViewer(seat=human_seat or 0)))
    elif not args.quiet:
        print_seen(observe(referee.events, viewer).seen, spec.lang)
    return _report(referee, path, spec.lang, None if shown_seed is not None else seed)


def _limits(
    seats: Mapping[int, SeatSpec], spec: MatchSpec, beliefs: Beliefs, *, people: bool
) -> tuple[Limits, dict[int, int | None]]:
    """The game's limits, and each model seat's configured endpoint slots.

    A decision may take an hour when a person plays (the terminal waits for them), else
    `--decision-timeout` (the spec's `decision_timeout_s`) when given, else the longest
    request limit of the model seats' endpoints, at least `DECISION_TIMEOUT_S`.
    """
    settings = {
        seat: endpoint_settings(seat_spec, spec)
        for seat, seat_spec in seats.items()
        if seat_spec.kind in MODEL_KINDS
    }
    longest = max((e.timeout_s for e in settings.values()), default=60.0)
    decision_s = 3600.0 if people else spec.decision_timeout_s or max(DECISION_TIMEOUT_S, longest)
    limits = Limits(call_timeout_s=decision_s, beliefs=beliefs)
    return limits, {seat: e.slots for seat, e in settings.items()}


def _report(referee: Referee, path: Path, lang: Lang, secret: int | None) -> int:
    """The closing lines: each model seat's play, then the result (and a secret seed)."""
    replay = read_replay(path, torn_tail="drop")
    header = replay.header
    for seat_line in seat_lines(referee.answers, header.seats, lang, replay.traces, replay.events):
        print(inert(seat_line))
    if header.result is not None and header.result.void:
        print(inert(t("cli.voided", lang, reason=header.result.reason, path=path)))
        return 1
    outcome = t(f"outcome.{referee.winner}", lang)
    line = t("cli.played", lang, outcome=outcome, path=path)
    revealed = t("cli.seed", lang, seed=secret) if secret is not None else ""
    print(inert(line + revealed))  # the seed is secret until the end
    return 0


def has_outsiders(seats: Mapping[int, SeatSpec]) -> bool:
    """Whether a person or an outside agent plays: then the game runs outside the folder."""
    return any(spec.kind not in INSIDER_AGENTS for spec in seats.values())


def running_path(path: Path) -> Path:
    """Where a game with outsiders is written while it runs: `live_folder` of its folder.

    The replay folder is what the dashboard lists and opens (god view included), and a
    running game's file holds the seed and every role; it moves in when the game ends.
    """
    folder = live_folder(path.parent)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / path.name


class Progress:
    """A slow game's heartbeat on stderr: one line per phase, with the answers so far."""

    def __init__(self, out: TextIO, lang: Lang) -> None:
        self.out = out
        self.lang: Lang = lang
        self.phases = 0

    def __call__(self, referee: Referee) -> None:
        """Print a line for each phase started since the last call."""
        phases = [e for e in referee.events if isinstance(e, ev.PhaseStarted)]
        for phase in phases[self.phases :]:
            name = render(phase, self.lang) or str(phase.phase)
            line = t(
                "cli.progress", self.lang, phase=name.strip("─ "), answers=len(referee.answers)
            )
            print(line, file=self.out, flush=True)
        self.phases = len(phases)


def replay_path(out: str | None, board: str, seed: int | None, *, force: bool = False) -> Path:
    """Where `arena play` writes its replay; the file is created (empty) to reserve it.

    `out` may name a file, or a folder (an existing one, or a path written with a trailing
    slash) for the default name `BOARD-SEED-YYYYMMDD-HHMMSS.jsonl` (without the seed when
    it is secret), numbered `-2`, `-3` … when taken. A default name never replaces a
    file; a named file only with `force`.

    Raises:
        ArenaError: `out` exists and `force` is not set, or cannot be created.
    """
    if out is not None and not Path(out).is_dir() and not out.endswith(("/", os.sep)):
        try:
            return _reserve(Path(out), force=force)
        except FileExistsError:
            raise refusal("error.out_exists", out=out) from None
    folder = Path("replays" if out is None else out)
    stamp = f"{datetime.now(UTC):%Y%m%d-%H%M%S}"
    stem = f"{board}-{seed}-{stamp}" if seed is not None else f"{board}-{stamp}"
    for n in itertools.count(1):
        try:
            return _reserve(folder / (stem + (f"-{n}" if n > 1 else "") + ".jsonl"))
        except FileExistsError:
            continue
    raise AssertionError("unreachable")


def _reserve(path: Path, *, force: bool = False) -> Path:
    """Create `path` empty, exclusively, so no other game takes it.

    With `force` an existing file is left as it is until the game starts writing (a game
    that fails before its first event replaces nothing).

    Raises:
        FileExistsError: `path` exists and `force` is not set.
        ArenaError: `path` cannot be created (a folder is in the way, no permission).
    """
    if path.is_dir():
        raise refusal("error.write_folder", path=path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not (force and path.exists()):
            with path.open("x", encoding="utf-8"):
                pass
    except FileExistsError:
        raise
    except OSError as exc:
        raise refusal("error.write", path=path, why=exc.strerror) from None
    return path


async def _play_game(
    plan: GamePlan,
    agents: dict[int, Agent],
    path: Path,
    limits: Limits,
    progress: Progress | None = None,
    slots: Mapping[int, int | None] | None = None,
) -> Referee:
    """Prepare the game (`arena.prepare`: every model endpoint checked first), then play it.

    Model seats' calls hold one of their endpoint's slots (`slots` configured per seat,
    else the server's own count) before each decision's clock starts, so a seat waiting
    behind the others on a server with fewer slots than seats is not timed out for it.
    """
    hold = functools.partial(hold_slots, configured=slots)
    async with prepare_game(plan, agents, hold=hold) as game:
        return await run_game(game.header, game.agents, path, limits=limits, progress=progress)
