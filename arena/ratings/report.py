"""The leaderboard report: ratings, metrics and costs together, and its flat exports.

`build_report` is what `arena leaderboard` and the dashboard's Leaderboard page show.
`agent_rows` flattens it to one row per agent (the CSV file, a dataframe); `to_json`
keeps every count behind every number.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from arena.ratings.board import Leaderboard, Rating, Standing, WinRate
from arena.ratings.fold import RatingFold
from arena.ratings.form import Skill
from arena.ratings.loader import SkippedFile
from arena.ratings.metrics import AgentMetrics, MetricsFold, ModelUsage
from arena.ratings.ratings import check_arguments
from arena.ratings.results import rating_order
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary, Tallies
from arena.rules.types import Role

Cell = str | int | float | None
Row = dict[str, Cell]


class Report(FrozenModel):
    """Everything the leaderboard shows about a set of games."""

    directory: str | None
    leaderboard: Leaderboard
    agents: tuple[AgentMetrics, ...]
    """Deception, reliability and cost metrics, one per agent, sorted by agent."""
    models: tuple[ModelUsage, ...]
    skipped: tuple[SkippedFile, ...]

    def metrics_of(self, agent: str) -> AgentMetrics | None:
        """The metrics of `agent`, if it played."""
        return next((m for m in self.agents if m.agent == agent), None)


def build_report(
    games: Sequence[GameSummary],
    *,
    bootstrap: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    skipped: Sequence[SkippedFile] = (),
    directory: str | None = None,
) -> Report:
    """Rate `games` and total their metrics (see `rate` for the arguments).

    Games are folded in rating order (start time, then id), whatever order they come in,
    so a report does not depend on how a folder lists its files.

    Raises:
        ValueError: a negative `bootstrap` or a `confidence` outside (0, 1).
    """
    check_arguments(bootstrap, confidence)
    fold = ReportFold()
    fold.extend(games)
    return fold.report(bootstrap, seed, confidence, skipped=skipped, directory=directory)


STATE_FORMAT = 2
"""The layout of `ReportFold.to_json`; a saved state of another layout is not read."""


class ReportFold:
    """A report's state over the games folded so far: ratings and metrics (mutable).

    `extend` takes games that all come after the ones folded so far (in rating order)
    and gives the same state as folding every game at once; `to_json` / `from_json`
    save and restore it, which is what lets a folder's leaderboard continue from its
    cached state when games are added (`arena.ratings.folder`). The state does not
    depend on the bootstrap: its size and seed are arguments of `report`.
    """

    def __init__(self) -> None:
        """No games yet."""
        self.ratings = RatingFold()
        self.metrics = MetricsFold()

    @property
    def games(self) -> int:
        """Games folded so far."""
        return self.ratings.games

    def extend(self, games: Sequence[GameSummary]) -> bool:
        """Fold `games` after the ones folded so far.

        Returns False, changing nothing, if they do not all come later (see
        `RatingFold.extend`).
        """
        ordered = sorted(games, key=lambda g: rating_order(g.result))
        if not self.ratings.extend([g.result for g in ordered]):
            return False
        self.metrics.extend(ordered)
        return True

    def report(
        self,
        bootstrap: int = 200,
        seed: int = 0,
        confidence: float = 0.95,
        *,
        skipped: Sequence[SkippedFile] = (),
        directory: str | None = None,
    ) -> Report:
        """The report of the games folded so far, with a `bootstrap`-resample deal bootstrap."""
        return Report(
            directory=directory,
            leaderboard=self.ratings.leaderboard(bootstrap, seed, confidence),
            agents=self.metrics.agents(),
            models=self.metrics.models(),
            skipped=tuple(skipped),
        )

    def to_json(self) -> str:
        """The state as JSON text."""
        data = {
            "format": STATE_FORMAT,
            "ratings": self.ratings.to_data(),
            "metrics": self.metrics.to_data(),
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> ReportFold:
        """The state `to_json` wrote.

        Raises:
            ValueError: text that `to_json` of this version did not write.
        """
        try:
            data = json.loads(text)
            if data.get("format") != STATE_FORMAT:
                raise ValueError(f"state format {data.get('format')!r}, not {STATE_FORMAT}")
            fold = cls()
            fold.ratings = RatingFold.from_data(data["ratings"])
            fold.metrics = MetricsFold.from_data(data["metrics"])
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a saved report state: {type(exc).__name__}: {exc}") from None
        return fold


def _rating(prefix: str, rating: Rating | None) -> Row:
    interval = rating.interval if rating is not None else None
    return {
        prefix: rating.elo if rating is not None else None,
        f"{prefix}_low": interval.low if interval is not None else None,
        f"{prefix}_high": interval.high if interval is not None else None,
    }


def _form(skill: Skill) -> Row:
    return {"form_mu": skill.mu, "form_sigma": skill.sigma}


def _wins(prefix: str, wins: WinRate) -> Row:
    interval = wins.interval
    return {
        f"{prefix}_games": wins.games,
        f"{prefix}_rate": wins.rate,
        f"{prefix}_low": interval.low if interval is not None else None,
        f"{prefix}_high": interval.high if interval is not None else None,
    }


def _metrics(m: AgentMetrics) -> Row:
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
        "fallback_rate": total.fallbacks.value,
        "retry_rate": total.retries.value,
        "model_calls": total.usage.calls,
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


def to_csv(report: Report) -> str:
    """`agent_rows` as CSV text with a header line."""
    rows = agent_rows(report)
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()


def to_json(report: Report) -> str:
    """The whole report as JSON: every count behind every rate, and the skipped files."""
    return report.model_dump_json(indent=2)
