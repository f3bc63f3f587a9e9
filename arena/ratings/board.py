"""The leaderboard's models: ratings, win rates, pair verdicts, head to head, the win table.

What `rate` returns (`Leaderboard`) and every part of it, frozen pydantic models that a
report's JSON carries whole. The numbers are defined in docs/metrics.md; how they are
computed lives in `arena.ratings.strength` (the batch fit), `arena.ratings.verdict` (its
bootstrap) and `arena.ratings.pairs` (head to head, games needed).

Field names the dashboard and `arena tournament status` read: `Standing.rating` (the
headline), `Standing.wolf` / `Standing.good` (side ratings), `Standing.form` (openskill,
recent form), `Leaderboard.pairs` (`PairVerdict`: `difference`, `interval`, `separated`,
`needed`, `head_to_head`), `Leaderboard.cells` (the wolf-agent x good-agent table) and
`Leaderboard.boards` (each board's side advantage).
"""

from __future__ import annotations

from pydantic import computed_field

from arena.ratings.form import Skill
from arena.ratings.stats import FrozenModel, Interval, Summed, wilson
from arena.rules.types import Role


class WinRate(Summed):
    """Wins out of games, with draws counted apart (a draw is not a win)."""

    wins: int = 0
    draws: int = 0
    games: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rate(self) -> float | None:
        """`wins / games` (None without games)."""
        return self.wins / self.games if self.games else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def interval(self) -> Interval | None:
        """The Wilson 95% interval of `rate` (games taken as independent)."""
        return wilson(self.wins, self.games)


def one_game(outcome: float) -> WinRate:
    """A game's `WinRate`: its outcome 1 (a win), 0.5 (a draw) or 0 (a loss)."""
    return WinRate(wins=int(outcome == 1.0), draws=int(outcome == 0.5), games=1)


class Rating(FrozenModel):
    """A strength of the batch fit on the Elo scale (`arena.ratings.strength`).

    An agent's rating is centred: the agents' mean is 1500, in the point fit and in every
    resample. A board's side advantage is not centred (0: an even board).
    """

    elo: float
    interval: Interval | None
    """The deal bootstrap's expanded percentile interval (None without a bootstrap, or
    with fewer than 2 deals)."""
    games: int
    deals: int


class HeadToHead(FrozenModel):
    """The first agent's games against the second, scored per deal.

    A game between them is one where one of them held every wolf seat and the other every
    good seat. The first agent's score in a game is 1 for a win, 1/2 for a draw, 0 for a
    loss; its deal score is the mean over the deal's games between them (both mirrored
    games, usually), and `score` the mean of its deal scores.
    """

    deals: int
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    interval: Interval | None
    """Expanded percentile interval of `score` over the deal bootstrap (per pair)."""


class Needed(FrozenModel):
    """About how many more deals would separate a pair, at the effect observed so far.

    `more_deals = n ((z_(1-alpha/2) + z_power) se / |d|)^2 - n` (rounded up), with `n` the
    deals either agent played, `d` the rating difference and `se` the standard error its
    shown interval implies (half its width over `z_(1-alpha/2)`; for the first few deals
    that interval is floored by the model's own): the size at which a two-sided test of
    level alpha finds the difference with probability `power`, if the per-deal variance
    stays what it was. None when `d` is 0.
    """

    power: float
    more_deals: int | None
    more_games: int | None
    """`more_deals` times the pair's games per deal so far."""


class PairVerdict(FrozenModel):
    """Two agents' ratings compared: the higher-rated one first."""

    first: str
    second: str
    difference: float
    """`first`'s rating minus `second`'s, in Elo points (>= 0)."""
    interval: Interval | None
    """The difference's interval: per pair (each pair's own 95 %, not simultaneous)."""
    separated: bool | None
    """Whether `interval` excludes 0 (None without a bootstrap)."""
    deals: int
    """Deals in which either agent played."""
    games: int
    needed: Needed | None
    """For a pair not separated (None when separated or without a bootstrap)."""
    head_to_head: HeadToHead | None
    """None if they never met in a game of one against the other."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def said(self) -> str | None:
        """The head to head in words.

        `bot beats noisy:0.3:bot 62% ± 9% over 40 deals (80 games)`: the better scorer
        first, its score, the interval's half-width, and what the score stands on.
        """
        met = self.head_to_head
        if met is None:
            return None
        score, first, second = met.score, self.first, self.second
        if score < 0.5:
            score, first, second = 1 - score, second, first
        verb = "beats" if score > 0.5 else "and"
        tail = " are even" if verb == "and" else ""
        half = (
            "" if met.interval is None else f" ± {50 * (met.interval.high - met.interval.low):.0f}%"
        )
        size = f"over {met.deals} deal{'s' * (met.deals != 1)} ({met.games} games)"
        return f"{first} {verb} {second}{tail} {100 * score:.0f}%{half} {size}"


class Cell(FrozenModel):
    """One pairing of the win table: `wolves` held every wolf seat, `good` every good seat."""

    wolves: str
    good: str
    wins: WinRate
    """The wolves' wins (Wilson interval: a cell's games are on different deals)."""


class Standing(FrozenModel):
    """One agent's line of the leaderboard."""

    agent: str
    games: int
    deals: int
    rating: Rating
    """The headline: the batch fit's strength, one per agent."""
    wolf: Rating | None
    """As the wolf side (None if the agent never played wolves); compare with wolf sides."""
    good: Rating | None
    form: Skill
    """Recent form: openskill's rating in the order the games started (not a verdict)."""
    wins: WinRate
    """Over the agent's side appearances: a game in which it sat on both sides counts twice."""
    wolf_wins: WinRate
    good_wins: WinRate
    role_wins: dict[Role, WinRate]
    """Per role the agent held (a game counts once per role, however many seats)."""


class Leaderboard(FrozenModel):
    """Ratings and win rates of every agent over a set of games, best `rating` first."""

    games: int
    deals: int
    draws: int
    wolf_side_wins: WinRate
    """How often the wolves won across all games: the boards' side balance."""
    boards: dict[str, Rating]
    """Each board's side advantage for the wolves, in Elo points (not centred)."""
    bootstrap: int
    seed: int
    confidence: float
    standings: tuple[Standing, ...]
    pairs: tuple[PairVerdict, ...] = ()
    """Every two agents, in standings order."""
    cells: tuple[Cell, ...] = ()
    """Every (wolf agent, good agent) pairing that was played, sorted."""

    def standing(self, agent: str) -> Standing | None:
        """The line of `agent`, if it played."""
        return next((s for s in self.standings if s.agent == agent), None)

    def pair(self, a: str, b: str) -> PairVerdict | None:
        """The verdict on `a` and `b`, in either order."""
        return next((p for p in self.pairs if {p.first, p.second} == {a, b}), None)
