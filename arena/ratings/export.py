"""A report flattened: one CSV row per agent, one per pair of agents, and the whole JSON.

`agent_rows` (the `--csv FILE`, the dashboard's table): ratings, win rates, every metric
with its interval. `pair_rows` (the second CSV file, `FILE` with `.pairs` before its
suffix): every pair of agents' rating difference and verdict, games needed, head to head,
their two cells of the win table, and every metric's paired difference. `to_json` keeps
every count behind every number.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from arena.ratings.board import PairVerdict, Rating, Standing, WinRate
from arena.ratings.form import Skill
from arena.ratings.metrics import AgentMetrics
from arena.ratings.report import Report
from arena.ratings.spread import METRICS
from arena.ratings.stats import Interval
from arena.ratings.tallies import Tallies
from arena.rules.types import Role

Cell = str | int | float | None
Row = dict[str, Cell]


def _bounds(prefix: str, interval: Interval | None) -> Row:
    return {
        f"{prefix}_low": interval.low if interval is not None else None,
        f"{prefix}_high": interval.high if interval is not None else None,
    }


def _rating(prefix: str, rating: Rating | None) -> Row:
    interval = rating.interval if rating is not None else None
    return {prefix: rating.elo if rating is not None else None} | _bounds(prefix, interval)


def _form(skill: Skill) -> Row:
    return {"form_mu": skill.mu, "form_sigma": skill.sigma}


def _wins(prefix: str, wins: WinRate) -> Row:
    return {f"{prefix}_games": wins.games, f"{prefix}_rate": wins.rate} | _bounds(
        prefix, wins.interval
    )


def _metrics(m: AgentMetrics) -> Row:
    """Every metric's value, then its interval (`NAME_low`, `NAME_high`)."""
    values = _values(m)
    row: Row = {"model_calls": m.total.usage.calls}
    for metric in METRICS:
        row[metric.name] = values[metric.name]
        row |= _bounds(metric.name, m.intervals.get(metric.name))
    return row


def _values(m: AgentMetrics) -> dict[str, float | None]:
    wolf, good, total = m.as_wolf, m.as_good, m.total
    return {
        "god_claim_rate": wolf.god_claims.value,
        "claim_survival": wolf.claim_survival.value,
        "wolf_suspicion": wolf.wolf_suspicion.value,
        "brier": good.brier.value,
        "vote_accuracy": good.vote_accuracy.value,
        "partner_vote_rate": wolf.partner_votes.value,
        "wolf_speech_shift": wolf.speech_shift.value,
        "wolf_misdirection": wolf.misdirection.value,
        "good_speech_shift": good.speech_shift.value,
        "good_misdirection": good.misdirection.value,
        "whisper_leak": wolf.whisper_leak.value,
        "spoke": total.spoke.value,
        "explosion_rate": wolf.explosions.value,
        "fallback_rate": total.fallbacks.value,
        "retry_rate": total.retries.value,
        "tokens_per_game": m.tokens_per_game,
        "cost_per_game_usd": m.cost_per_game,
    }


def _roles(standings: Sequence[Standing]) -> list[Role]:
    held = {role for s in standings for role in s.role_wins}
    return [role for role in Role if role in held]


def agent_rows(report: Report) -> list[Row]:
    """One flat row per agent, in leaderboard order; every row has the same columns.

    Rates are fractions in [0, 1]; None means no data (for example no belief reports).
    """
    roles = _roles(report.leaderboard.standings)
    rows = []
    for s in report.leaderboard.standings:
        row: Row = {"agent": s.agent, "games": s.games, "deals": s.deals}
        row |= _rating("rating", s.rating) | _rating("wolf_rating", s.wolf)
        row |= _rating("good_rating", s.good) | _form(s.form)
        row |= _wins("win", s.wins) | _wins("wolf_win", s.wolf_wins)
        row |= _wins("good_win", s.good_wins)
        row["draws"] = s.wins.draws
        for role in roles:
            row[f"{role.value}_win_rate"] = s.role_wins.get(role, WinRate()).rate
        metrics = report.metrics_of(s.agent) or AgentMetrics(
            agent=s.agent,
            games=0,
            wolf_games=0,
            good_games=0,
            as_wolf=Tallies(),
            as_good=Tallies(),
        )
        row |= _metrics(metrics)
        rows.append(row)
    return rows


def _head_to_head(pair: PairVerdict) -> Row:
    met = pair.head_to_head
    row: Row = {
        f"h2h_{k}": getattr(met, k) if met is not None else None
        for k in ("deals", "games", "wins", "draws", "losses", "score")
    }
    return row | _bounds("h2h", met.interval if met is not None else None) | {"said": pair.said}


def _cells(report: Report, pair: PairVerdict) -> Row:
    found = {(c.wolves, c.good): c.wins for c in report.leaderboard.cells}
    row: Row = {}
    for name, wolves, good in (
        ("first", pair.first, pair.second),
        ("second", pair.second, pair.first),
    ):
        wins = found.get((wolves, good), WinRate())
        row |= {f"{name}_wolf_games": wins.games, f"{name}_wolf_wins": wins.wins}
        row[f"{name}_wolf_draws"] = wins.draws
    return row


def pair_rows(report: Report) -> list[Row]:
    """One flat row per pair of agents, in the order of `Leaderboard.pairs`.

    The rating difference and its verdict, the games needed (None when separated or
    without a bootstrap), head to head (None if they never met), their two cells of the
    win table (`first_wolf_*`: the first agent on the wolf side), and every metric's
    paired difference (`NAME_diff`, `NAME_diff_low`, `NAME_diff_high`).
    """
    differences = {(d.first, d.second, d.metric): d for d in report.metric_pairs}
    rows = []
    for pair in report.leaderboard.pairs:
        needed = pair.needed
        row: Row = {"first": pair.first, "second": pair.second, "difference": pair.difference}
        row |= _bounds("difference", pair.interval)
        row |= {"separated": pair.separated, "deals": pair.deals, "games": pair.games}
        row |= {
            "more_deals": needed.more_deals if needed is not None else None,
            "more_games": needed.more_games if needed is not None else None,
        }
        row |= _head_to_head(pair) | _cells(report, pair)
        for metric in METRICS:
            found = differences.get((pair.first, pair.second, metric.name))
            row[f"{metric.name}_diff"] = found.difference if found is not None else None
            row |= _bounds(f"{metric.name}_diff", found.interval if found is not None else None)
        rows.append(row)
    return rows


def as_csv(rows: Sequence[Row]) -> str:
    """Rows as CSV text with a header line (empty for no rows)."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()


def to_csv(report: Report) -> str:
    """`agent_rows` as CSV text with a header line."""
    return as_csv(agent_rows(report))


def pairs_csv(report: Report) -> str:
    """`pair_rows` as CSV text with a header line (empty with fewer than two agents)."""
    return as_csv(pair_rows(report))


def to_json(report: Report) -> str:
    """The whole report as JSON: every count behind every rate, and the skipped files."""
    return report.model_dump_json(indent=2)
