"""`arena play`, `arena replay`, `arena validate`, `arena boards`: one game at a time."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from arena.agents.base import Agent
from arena.agents.seats import (
    MatchSpec,
    SeatSpec,
    aclose_models,
    build_agents,
    check_options,
    endpoint_settings,
    load_spec_file,
    parse_seats,
    preflight,
    with_endpoint_flags,
)
from arena.agents.terminal import TerminalHuman
from arena.board_file import EXAMPLES, board_ref, example_boards, load_board_file
from arena.call_view import print_calls, replay_calls
from arena.commands.summary import seat_lines
from arena.humans.host import live_folder
from arena.match import Limits, new_game_id, new_header, run_game, secret_seed
from arena.queue.seating import hold_slots
from arena.replay_check import check_read, check_replay
from arena.rules import events as ev
from arena.rules.boards import BOARDS, Board
from arena.rules.config import GameConfig, RuleSet
from arena.rules.errors import ArenaError, ConfigError, clip
from arena.rules.observation import Seen, observe
from arena.rules.referee import Referee
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, Viewer, parse_viewer
from arena.storage.replay_file import (
    INSIDER_AGENTS,
    Replay,
    read_replay,
    replay_status,
)
from arena.storage.seal import arena_key
from arena.text import Lang, game_lang, inert, ljust, parse_display, printed_in, t, width
from arena.text.script import CLI_CHOICES, display_of
from arena.transcript import render, role_name
from arena.userfile import parse_yaml

SEAT_KINDS = (
    "bot, random, human, openai:MODEL, langchain:PROVIDER:MODEL, py:MODULE:FACTORY, "
    "an installed agent's name, or an http(s):// URL"
)
"""The agents a `--seat` spec may name (`arena.agents.seats` parses them)."""

VIEWERS = "god, public, wolves or seat:N"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the single-game commands."""
    play = sub.add_parser("play", help="play one game and print its transcript")
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
        "--spec",
        type=Path,
        default=None,
        help="a YAML match spec (seats, language, endpoints); --seat and --lang given on "
        "the command line win over it",
    )
    play.add_argument(
        "--beliefs",
        choices=["off", "daily", "per_speech"],
        default="daily",
        help="when seats report private wolf probabilities (per_speech measures persuasion)",
    )
    play.add_argument(
        "--decision-timeout",
        type=_positive(float),
        default=None,
        metavar="S",
        help="model seats: seconds one decision may take, waiting for a free server slot "
        "not counted (default: the spec's, else the longest request limit, at least 60)",
    )
    play.add_argument(
        "--timeout",
        type=_positive(float),
        default=None,
        metavar="S",
        help="model seats: seconds one request may take (default: 300, or the spec's timeout_s)",
    )
    play.add_argument(
        "--probe-timeout",
        type=_positive(float),
        default=None,
        metavar="S",
        help="model seats: seconds the pre-game probe may take (default: 4 × the request "
        "limit, or the spec's probe_timeout_s)",
    )
    play.add_argument(
        "--max-tokens",
        type=_positive(int),
        default=None,
        metavar="N",
        help="model seats: the reply's token limit (default: the server's, or the spec's)",
    )
    play.add_argument(
        "--history-tokens",
        type=_positive(int),
        default=None,
        metavar="N",
        help="model seats: conversation budget before older days are condensed (default 24000)",
    )
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
    play.set_defaults(handler=_play)

    replay = sub.add_parser("replay", help="print a replay as one viewer saw it")
    replay.add_argument("file", type=Path, help="a replay file (.jsonl)")
    replay.add_argument(
        "--as",
        dest="viewer",
        default=None,
        help=f"print as {VIEWERS} (default: public; with --calls, god)",
    )
    replay.add_argument(
        "--until",
        type=_step,
        default=None,
        metavar="STEP",
        help="stop before event STEP, 0 or more (what the viewer knew at that moment; "
        "default: the whole game)",
    )
    replay.add_argument(
        "--lang",
        choices=CLI_CHOICES,
        default="zh",
        help="language of the transcript: en, zh-Hant (zh, the default) or zh-Hans (Simplified)",
    )
    replay.add_argument(
        "--calls",
        nargs="?",
        const="brief",
        choices=["brief", "full"],
        default=None,
        help="print the model calls instead of the transcript: each request's messages as "
        "sent, the tools offered (name and size; their whole schemas with --calls=full), "
        "the reply, parsed action, error, usage and cost; every seat's (god view, the "
        "default here) or with --as seat:N only that seat's own",
    )
    replay.set_defaults(handler=_replay)

    validate = sub.add_parser("validate", help="re-run a replay's answers and compare the log")
    validate.add_argument("files", type=Path, nargs="+", metavar="FILE", help="replay files")
    validate.set_defaults(handler=_validate)

    boards = sub.add_parser("boards", help="list the boards")
    boards.add_argument(
        "files",
        type=Path,
        nargs="*",
        metavar="FILE",
        help="board files to check and list after the built-in and example boards",
    )
    boards.add_argument("--json", action="store_true", help="machine-readable output")
    boards.add_argument(
        "--lang", choices=CLI_CHOICES, default="zh", help="language of the table (default: zh)"
    )
    boards.set_defaults(handler=_boards)


def _step(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expects a step number, 0 or more; got {text!r}")
    return value


def parse_knobs(items: list[str]) -> dict[str, Any]:
    """Parse `KNOB=VALUE` overrides; values are YAML scalars (`2`, `true`, `survives`).

    Raises:
        ConfigError: a malformed item or an unknown knob.
    """
    overrides: dict[str, Any] = {}
    for item in items:
        knob, sep, value = item.partition("=")
        if not sep or not knob:
            raise ConfigError(f"--set expects KNOB=VALUE, got {clip(repr(item))}")
        if knob not in RuleSet.model_fields:
            raise ConfigError(
                f"unknown rules knob {clip(repr(knob))}; "
                f"known knobs: {', '.join(RuleSet.model_fields)}"
            )
        overrides[knob] = parse_yaml(value, f"--set {knob}", error=ConfigError)
    return overrides


def _viewer(text: str, seats: int) -> Viewer:
    try:
        viewer = parse_viewer(text)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    if isinstance(viewer, SeatViewer) and viewer.seat > seats:
        raise ArenaError(f"--as {text}: this game has seats 1-{seats}")
    return viewer


def _play(args: argparse.Namespace) -> int:
    spec = load_spec_file(args.spec) if args.spec is not None else MatchSpec()
    display = parse_display(args.lang) if args.lang is not None else display_of(spec.lang)
    with printed_in(display):
        return _play_in(args, spec.model_copy(update={"lang": game_lang(display)}))


def _play_in(args: argparse.Namespace, spec: MatchSpec) -> int:
    """`arena play` with the spec's language settled (the output is in its script)."""
    config = GameConfig(
        board=board_ref(args.board), preset=args.preset, overrides=parse_knobs(args.knobs)
    )
    viewer = _viewer(args.viewer, config.board_spec.seats)
    spec = with_endpoint_flags(
        spec,
        timeout_s=args.timeout,
        probe_timeout_s=args.probe_timeout,
        decision_timeout_s=args.decision_timeout,
        max_tokens=args.max_tokens,
        history_tokens=args.history_tokens,
    )
    seats = parse_seats(spec.seats, config.board_spec.seats, overrides=args.seats)
    check_options(seats, spec)
    human_seat = next((s for s, seat in seats.items() if seat.kind == "human"), None)
    seed = args.seed if args.seed is not None else (1 if human_seat is None else secret_seed())
    game_id = new_game_id(config.board_id)
    agents = build_agents(seats, config, seed, spec, beliefs=args.beliefs, game_id=game_id)
    settings = {
        seat: endpoint_settings(seat_spec, spec)
        for seat, seat_spec in seats.items()
        if seat_spec.kind in ("openai", "langchain")
    }
    longest = max((e.timeout_s for e in settings.values()), default=60.0)
    decision_s = 3600.0 if human_seat else max(60.0, longest)
    limits = Limits(call_timeout_s=decision_s, beliefs=args.beliefs)
    slots = {seat: e.slots for seat, e in settings.items()}
    shown_seed = seed if human_seat is None else None  # a person's seed stays secret
    path = replay_path(args.out, config.board_id, shown_seed, force=args.force)
    running = running_path(path) if has_outsiders(seats) else path
    models = any(s.kind in ("openai", "langchain") for s in seats.values())
    progress = Progress(sys.stderr, spec.lang) if models and not args.quiet else None
    try:
        referee = asyncio.run(
            _play_game(game_id, config, seed, agents, running, limits, progress, slots)
        )
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
        _print(observe(referee.events, viewer).seen, spec.lang)
    replay = read_replay(path, torn_tail="drop")
    header = replay.header
    for seat_line in seat_lines(referee.answers, header.seats, spec.lang, replay.traces):
        print(inert(seat_line))
    if header.result is not None and header.result.void:
        print(inert(t("cli.voided", spec.lang, reason=header.result.reason, path=path)))
        return 1
    outcome = t(f"outcome.{referee.winner}", spec.lang)
    line = t("cli.played", spec.lang, outcome=outcome, path=path)
    revealed = t("cli.seed", spec.lang, seed=seed) if human_seat is not None else ""
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


def _positive(kind: type[float] | type[int]) -> Any:
    """An argparse type: a positive number of `kind`."""

    def parse(text: str) -> float | int:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return parse


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
            raise ArenaError(
                f"{out} exists: pass --force to replace it, or name another --out"
            ) from None
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
        raise ArenaError(f"cannot write the replay to {path}: it is a folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not (force and path.exists()):
            with path.open("x", encoding="utf-8"):
                pass
    except FileExistsError:
        raise
    except OSError as exc:
        raise ArenaError(f"cannot write the replay to {path}: {exc.strerror}") from None
    return path


async def _play_game(
    game_id: str,
    config: GameConfig,
    seed: int,
    agents: dict[int, Agent],
    path: Path,
    limits: Limits,
    progress: Progress | None = None,
    slots: Mapping[int, int | None] | None = None,
) -> Referee:
    """Check every model endpoint before the game starts, then play it.

    Model seats' calls hold one of their endpoint's slots (`slots` configured per seat,
    else the server's own count) before each decision's clock starts, so a seat waiting
    behind the others on a server with fewer slots than seats is not timed out for it.
    """
    try:
        endpoints = await preflight(agents)
        header = new_header(game_id, config, seed, agents, endpoints=endpoints)
        gated = hold_slots(agents, endpoints, slots)
        return await run_game(header, gated, path, limits=limits, progress=progress)
    finally:
        await aclose_models(agents)


def _print(seen: Iterable[Seen], lang: Lang) -> None:
    """Print each visible event's line, inert: player text never acts on the terminal."""
    for item in seen:
        line = render(item.event, lang)
        if line is not None:
            print(inert(line))


def _replay(args: argparse.Namespace) -> int:
    display = parse_display(args.lang)
    with printed_in(display):
        return _replay_in(args, game_lang(display))


def _replay_in(args: argparse.Namespace, lang: Lang) -> int:
    """`arena replay` in `lang` (the output is in the display language's script)."""
    as_text = args.viewer or ("god" if args.calls else "public")
    if args.calls is not None:
        _calls_allowed(as_text, args.until)
    replay = read_replay(args.file, torn_tail="drop")
    viewer = _viewer(as_text, len(replay.header.seats) or replay.header.config.board_spec.seats)
    doubt = _doubt(replay, args.file)
    if doubt == "unsigned":
        print(t("cli.unsigned", lang))
    elif doubt is not None:
        print(inert(t("cli.unverified", lang, reason=doubt)))
    if args.calls is not None:
        calls = replay_calls(replay)
        if isinstance(viewer, SeatViewer):
            calls = [c for c in calls if c.seat == viewer.seat]
        if not print_calls(calls, lang, full=args.calls == "full"):
            print(t("cli.no_calls", lang))
    else:
        observation = observe(replay.events, viewer, until=args.until)
        _print(observation.seen, lang)
        if (
            args.until is not None
            and args.until < len(replay.events)
            and not isinstance(viewer, PublicViewer)
        ):
            print(t("cli.cut", lang, step=args.until, total=len(replay.events)))
    status = replay_status(replay)
    if status.torn_line is not None:
        print(t("cli.torn", lang, line=status.torn_line, events=status.events))
    elif status.state == "truncated":
        print(t("cli.truncated", lang, events=status.events, expected=status.expected))
    elif status.state == "unfinished":
        print(t("cli.unfinished", lang, events=status.events))
    return 0


def _doubt(replay: Replay, path: Path) -> str | None:
    """Why a finished game does not verify (`arena validate`'s check), or None.

    `unsigned` for a file without a signature, else the reason it fails. An unfinished
    game is neither signed nor complete yet: the note after its transcript
    says so instead.
    """
    if replay_status(replay).state != "finished":
        return None
    report = check_read(replay, path, arena_key())
    if not report.ok:
        return report.message
    return None if report.signature == "signed" else "unsigned"


def _calls_allowed(as_text: str, until: int | None) -> None:
    """Refuse `--calls` where it would show more than the viewer saw, or cannot apply.

    A request holds its seat's private prompt (role, checks, wolf whispers) and the
    model's own reasoning, so the calls are god-view data; a seat's own calls are exactly
    what that seat was sent and answered, so `--as seat:N` shows those. Traces are placed
    by request, not by event, so `--until` does not cut them.
    """
    viewer = _viewer(as_text, seats=10**6)  # the seat's range is checked once the file is read
    if not isinstance(viewer, GodViewer | SeatViewer):
        raise ArenaError(
            f"--calls shows model calls to god (the default) or one seat (--as seat:N), not "
            f"to --as {as_text}: a request holds its seat's private prompt"
        )
    if until is not None:
        raise ArenaError("--calls prints every call of the file; --until cuts the transcript only")


def _validate(args: argparse.Namespace) -> int:
    """One line per file: `ok` or `BAD`, the log's verdict, then the signature's."""
    bad = 0
    key = arena_key()
    for path in args.files:
        report = check_replay(path, key)
        where = f"{report.path}:{report.line}" if report.line else report.path
        message = report.message
        if report.signature_message not in message:
            message += f"; {report.signature_message}"
        print(inert(f"{'ok ' if report.ok else 'BAD'} {where}: {message}"))
        bad += not report.ok
    return 1 if bad else 0


def _boards(args: argparse.Namespace) -> int:
    """The built-in boards, then the bundled examples, then the files named.

    The examples come under a line saying where they are (to copy one); each file named is
    checked, and a bad one is the command's one-line error.
    """
    examples = list(example_boards().values())
    files = [load_board_file(path) for path in args.files]
    if args.json:
        data = [_board_row(b) for b in [*BOARDS.values(), *examples, *files]]
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    display = parse_display(args.lang)
    lang = game_lang(display)
    sections = [
        ([], list(BOARDS.values())),
        (["", t("board.examples", lang, path=str(EXAMPLES))], examples),
        ([""], files),
    ]
    lines = [[_board_cells(b, lang) for b in listed] for _, listed in sections]
    every = [row for rows in lines for row in rows]
    widths = [max(width(row[i]) for row in every) for i in range(len(every[0]) - 1)]
    with printed_in(display):
        for (heading, listed), rows in zip(sections, lines, strict=True):
            if listed:
                for line in heading:
                    print(line)
                for row in rows:
                    cells = [*(ljust(c, w) for c, w in zip(row, widths, strict=False)), row[-1]]
                    print("  ".join(cells))
    return 0


def _board_cells(b: Board, lang: Lang) -> tuple[str, ...]:
    """One board's line of `arena boards`: id, name, seats, win, preset, cards."""
    return (
        b.id,
        b.zh if lang == "zh" else b.en,
        t("board.seats", lang, n=b.seats),
        t(f"win_mode.{b.win}", lang),
        b.preset,
        t("seat.sep", lang).join(
            t("board.role_count", lang, role=role_name(r, lang), n=n)
            if n > 1
            else role_name(r, lang)
            for r, n in b.role_counts().items()
        ),
    )


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
        "first_night_order": list(b.first_night_order or b.night_order),
        "source": b.source,
        "settings": b.settings,
    }
