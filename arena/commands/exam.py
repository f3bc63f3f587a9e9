"""`arena exam build|run|report`: single decisions at recorded moments, the same for everyone.

`build` cuts verified replays into an exam file and a key file kept apart; `run` has every
contestant answer every item through the seat contract games use; `report` scores the
answers against the key (`arena.exam`, docs/agents.md and docs/metrics.md: The exam).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from arena.agents.seats import MatchSpec, endpoint_settings, load_spec_file, with_endpoint_flags
from arena.commands.exam_report import report_parser
from arena.commands.play_options import add_model_options, endpoint_flags
from arena.errors import ArenaError
from arena.exam.build import build
from arena.exam.contestant import Contestant
from arena.exam.files import key_path, read_exam
from arena.exam.items import KINDS, Kind
from arena.exam.sitting import own_share, sit
from arena.match import Limits
from arena.text.script import CLI_CHOICES, agent_lang, game_lang, parse_display


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena exam build`, `arena exam run` and `arena exam report`."""
    exam = sub.add_parser("exam", help="cut replays into an exam; sit it; score it")
    steps = exam.add_subparsers(dest="step", required=True, metavar="STEP")
    _build_parser(steps)
    _run_parser(steps)
    report_parser(steps)


def _build_parser(steps: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cut = steps.add_parser("build", help="cut signed replays into an exam and its key file")
    cut.add_argument(
        "replays", nargs="+", type=Path, metavar="REPLAYS", help="replay files, or folders"
    )
    cut.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the exam file (FILE.jsonl); "
        "its key goes beside it (FILE.key.jsonl)",
    )  # fmt: skip
    cut.add_argument(
        "--kinds",
        type=parse_kinds,
        default=KINDS,
        metavar="KIND,…",
        help=f"the questions to ask: {', '.join(KINDS)} (default: all)",
    )
    cut.add_argument(
        "--per-game",
        type=parse_per_game,
        default=10,
        metavar="K",
        help="items drawn from each game, spread over kinds, roles and days, or all",
    )
    cut.add_argument("--seed", type=int, default=0, help="seeds the draw")
    cut.add_argument(
        "--jobs", type=_positive, default=None, metavar="N", help="worker processes "
        "(default: every core, from 64 files)",
    )  # fmt: skip
    cut.add_argument("--force", action="store_true", help="replace an existing exam file")
    cut.set_defaults(handler=_build)


def _run_parser(steps: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = steps.add_parser("run", help="have every contestant answer every item")
    run.add_argument("exam", type=Path, metavar="EXAM", help="an exam file")
    run.add_argument(
        "--seat",
        dest="seats",
        action="append",
        required=True,
        metavar="SPEC",
        help="a contestant, as a seat spec: bot, random, noisy:P:SPEC, py:MODULE:FACTORY, "
        "an installed agent, a URL, openai:MODEL, langchain:PROVIDER:MODEL (repeat it)",
    )
    run.add_argument(
        "--out", type=Path, default=None, metavar="DIR",
        help="the answers folder (default: exams/EXAM_ID); a sitting there resumes",
    )  # fmt: skip
    run.add_argument("--spec-file", type=Path, default=None, help="endpoints and options (YAML)")
    run.add_argument(
        "--lang", choices=CLI_CHOICES, default=None, help="the seats' language (default: the "
        "spec file's, else zh)",
    )  # fmt: skip
    run.add_argument(
        "--concurrency", type=_positive, default=1, metavar="N",
        help="moments asked at once of a contestant whose endpoint reports no slot count",
    )  # fmt: skip
    add_model_options(run, only=("--decision-timeout", "--timeout", "--max-tokens"))
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.set_defaults(handler=_run)


def parse_kinds(text: str) -> tuple[Kind, ...]:
    """`vote,belief` → the kinds in the order of `KINDS`."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    unknown = [w for w in words if w not in KINDS]
    if unknown or not words:
        raise argparse.ArgumentTypeError(
            f"unknown kind {unknown[0] if unknown else text!r}; use some of: {', '.join(KINDS)}"
        )
    return tuple(k for k in KINDS if k in words)


def parse_per_game(text: str) -> int | None:
    """`10` → 10, `all` → None."""
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"expects a number of items, 1 or more, or all; got {text!r}"
        )
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expects a whole number, 1 or more; got {text!r}")
    return value


def _build(args: argparse.Namespace) -> int:
    out: Path = args.out
    if not out.name.endswith(".jsonl"):
        raise ArenaError(f"--out {out}: name the exam file FILE.jsonl (its key: FILE.key.jsonl)")
    if not args.force and (out.exists() or key_path(out).exists()):
        raise ArenaError(f"{out} or its key exists: pass --force to replace them")
    built = build(
        args.replays, out, seed=args.seed, kinds=args.kinds, per_game=args.per_game, jobs=args.jobs
    )
    for refused in built.refused:
        print(f"skipped {refused.path}: {refused.reason}", file=sys.stderr)
    header = built.header
    print(
        f"{header.exam_id}: {header.items} items from {len(header.sources)} games "
        f"({len(built.refused)} files left out) → {out}; key → {built.key_path}"
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    spec = load_spec_file(args.spec_file) if args.spec_file is not None else MatchSpec()
    if args.lang is not None:
        display = parse_display(args.lang)
        spec = spec.model_copy(
            update={"lang": game_lang(display), "agent_lang": agent_lang(display)}
        )
    spec = with_endpoint_flags(spec, **endpoint_flags(args))
    if len(set(args.seats)) != len(args.seats):
        raise ArenaError("a contestant is named twice: give each --seat once")
    contestants = [Contestant(s, spec) for s in args.seats]
    exam = read_exam(args.exam)
    out = args.out or Path("exams") / exam.header.exam_id
    limits = Limits(call_timeout_s=_decision_limit(contestants, spec), beliefs="daily")
    progress = None if args.quiet else _progress
    tallies = asyncio.run(
        sit(exam, contestants, out, limits, lang=spec.lang, concurrency=args.concurrency,
            progress=progress)
    )  # fmt: skip
    for t in tallies:
        print(
            f"{t.contestant}: {t.asked} items answered ({t.skipped} before), {own_share(t)}, "
            f"{t.calls} calls, {t.tokens} tokens, ${t.cost_usd:.4f}, {t.seconds:.1f} s → {t.path}"
        )
    return 0


def _decision_limit(contestants: list[Contestant], spec: MatchSpec) -> float:
    """`arena play`'s limit: the longest model request's limit, and at least 60 s."""
    limits = [endpoint_settings(c.seat, spec).timeout_s for c in contestants if c.is_model]
    return max([60.0, *limits])


def _progress(contestant: str, done: int, total: int) -> None:
    if done == total or done % 25 == 0:
        print(f"{contestant}: {done}/{total}", file=sys.stderr, flush=True)
