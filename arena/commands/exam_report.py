"""`arena exam report DIR|ANSWERS… [--exam F] [--key F] [--judge SPEC] [--csv F] [--json F]`.

Prints each contestant's figure per kind with its interval, then the paired differences;
`--csv` writes every row (all items, by role, by day) and, beside it, the pairs
(`F.pairs.csv`); `--json` the whole report (`arena.exam.report.ExamReport`). The judges'
verdicts on speeches are kept in the answers folder (`judgments.jsonl`) and asked only once.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
from collections.abc import Sequence
from pathlib import Path

from arena.agents.seats import MatchSpec, load_spec_file
from arena.errors import ArenaError
from arena.exam.contestant import Contestant
from arena.exam.judge import judge_speeches
from arena.exam.judgments import append_judgments, read_judgments
from arena.exam.report import ExamReport, Pair, Row, report
from arena.exam.results import load
from arena.rules.errors import IllegalActionError

FIGURE = {
    "vote": "vote on a wolf",
    "belief": "Brier",
    "role": "cards right",
    "seer": "check on a wolf",
    "knife": "knife on a god",
    "speech": "suspicion",
    "decisions": "hits (vote+seer+knife)",
}
"""What each kind's figure is, as the table heads it."""


def report_parser(steps: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena exam report`."""
    rep = steps.add_parser("report", help="score the answers against the key")
    rep.add_argument(
        "answers", nargs="+", type=Path, metavar="DIR|ANSWERS",
        help="an answers folder (arena exam run --out), or answers files",
    )  # fmt: skip
    rep.add_argument("--exam", type=Path, default=None, help="the exam file (default: as sat)")
    rep.add_argument(
        "--key", type=Path, default=None, help="the key file (default: beside the exam)"
    )
    rep.add_argument(
        "--judge", dest="judges", action="append", default=None, metavar="SPEC",
        help="a judge of speeches, any seat spec that reports beliefs (repeat it; default: bot)",
    )  # fmt: skip
    rep.add_argument("--spec-file", type=Path, default=None, help="judges' endpoints (YAML)")
    rep.add_argument(
        "--bootstrap", type=_resamples, default=1000, metavar="N",
        help="resamples of games for the intervals (0: none)",
    )  # fmt: skip
    rep.add_argument("--seed", type=int, default=0, help="seeds the resamples")
    rep.add_argument("--csv", type=Path, default=None, help="write the rows (and F.pairs.csv)")
    rep.add_argument("--json", type=Path, default=None, help="write the whole report")
    rep.set_defaults(handler=_report)


def _resamples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expects a number of resamples, 0 or more: {text!r}")
    return value


def _report(args: argparse.Namespace) -> int:
    spec = load_spec_file(args.spec_file) if args.spec_file is not None else MatchSpec()
    judges = [Contestant(j, spec) for j in dict.fromkeys(args.judges or ["bot"])]
    found = load(args.answers, args.exam, args.key)
    folder = args.answers[0] if args.answers[0].is_dir() else args.answers[0].parent
    verdicts = read_judgments(folder)
    try:
        new = asyncio.run(judge_speeches(found.exam, found.key, found.sittings, judges, verdicts))
    except IllegalActionError as exc:
        raise ArenaError(f"{args.key or 'the key'}: {exc}") from None
    append_judgments(folder, new)
    verdicts = {**verdicts, **{(j.judge, j.contestant, j.item): j for j in new}}
    done = report(
        found.exam, found.key, found.sittings, judges=[j.label for j in judges],
        verdicts=verdicts, bootstrap=args.bootstrap, seed=args.seed,
    )  # fmt: skip
    for line in table(done):
        print(line)
    if args.csv is not None:
        write_csv(args.csv, done)
    if args.json is not None:
        args.json.write_text(done.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return 0


def _number(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _interval(low: float | None, high: float | None, signed: bool = False) -> str:
    if low is None or high is None:
        return ""
    return f"[{_number(low, signed)}, {_number(high, signed)}]"


def table(done: ExamReport) -> list[str]:
    """The report as text: the headline rows, then the pairs.

    The columns are as wide as their longest entry: a long figure name or contestant spec
    (`noisy:0.3:openai:qwen2.5-coder-0.5b`) is neither cut nor pushes its row out of line.
    """
    rows = [r for r in done.rows if r.group == "all"]
    widths = (
        max([len("kind"), *(len(r.kind) for r in rows)]),
        max([len("figure"), *(len(_figure(r)) for r in rows)]),
        max([len("contestant"), *(len(r.contestant) for r in rows)]),
    )
    kind, figure, contestant = widths
    lines = [
        f"{done.exam_id}: {done.items} items from {done.games} games; judges of speeches: "
        f"{', '.join(done.judges)}; intervals: 95 %, {done.bootstrap} resamples of games "
        f"(seed {done.seed})",
        "",
        f"{'kind':{kind}} {'figure':{figure}} {'contestant':{contestant}} {'items':>5} "
        f"{'own':>5} {'value':>7}  interval",
    ]
    lines += [_row_line(row, widths) for row in rows]
    if done.pairs:
        lines += ["", "paired, a - b over the items both answered (per pair):"]
        lines += [_pair_line(p) for p in done.pairs]
    return lines


def _figure(row: Row) -> str:
    return f"{FIGURE[row.kind]} ({row.better})"


def _row_line(row: Row, widths: tuple[int, int, int]) -> str:
    kind, figure, contestant = widths
    extra = f"  AUROC {_number(row.auroc)}" if row.auroc is not None else ""
    extra += "".join(f"  {k} {v:.2f}" for k, v in row.extra.items())
    return (
        f"{row.kind:{kind}} {_figure(row):{figure}} {row.contestant:{contestant}} "
        f"{row.items:5d} {row.own:5.0%} {_number(row.value):>7}  "
        f"{_interval(row.low, row.high)}{extra}"
    )


def _pair_line(pair: Pair) -> str:
    verdict = "separated" if pair.separated else "not separated"
    return (
        f"{pair.kind:9} {pair.a} - {pair.b}: {_number(pair.difference, True)} "
        f"{_interval(pair.low, pair.high, True)} over {pair.items} items of {pair.games} "
        f"games, {verdict} ({pair.better} is better)"
    )


def write_csv(path: Path, done: ExamReport) -> None:
    """Every row to `path`; the pairs to `path` with `.pairs.csv` for its suffix."""
    rows = [r.model_dump(mode="json") for r in done.rows]
    for row in rows:
        row.update({f"extra_{k}": v for k, v in row.pop("extra").items()})
    _write(path, rows)
    _write(path.with_suffix(".pairs.csv"), [p.model_dump(mode="json") for p in done.pairs])


def _write(path: Path, rows: Sequence[dict[str, object]]) -> None:
    fields = list(dict.fromkeys(k for row in rows for k in row))
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
