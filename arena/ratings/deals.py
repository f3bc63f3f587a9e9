"""Games grouped by deal: the sufficient statistics of every verdict, as a fold.

The batch rating (`arena.ratings.strength`), the head-to-head scores and the win table
(`arena.ratings.pairs`) need no game but through its **row** — the board, who held the
wolf seats and who held the good seats (agents with their seat counts) — and its
outcome. So a `DealTable` keeps, per deal (`GameResult.deal`) and row, three counts:
games, wolf wins and draws (a lovers' win counts as a draw: neither team won). That is
all a resample needs: a resample reweights deals, never games within one.

The counts are integers, so adding games in any order, in one call or many, gives the
same table; `to_data` / `from_data` carry it between runs as JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arena.ratings.results import GameResult, winning_team
from arena.rules.types import Team

Lineup = tuple[tuple[str, int], ...]
"""One side of a game: (agent, seats held), sorted by agent."""
Row = tuple[str, Lineup, Lineup]
"""A game's row: (board, wolf side, good side)."""

GAMES, WOLF_WINS, DRAWS = 0, 1, 2
"""The counts kept per deal and row, in this order."""


def row_of(result: GameResult) -> Row:
    """The board and both sides' lineups of a game."""
    wolves = tuple(sorted(result.lineup(Team.WOLF).items()))
    good = tuple(sorted(result.lineup(Team.GOOD).items()))
    return result.board, wolves, good


def counts_of(result: GameResult) -> tuple[int, int, int]:
    """(1, wolves won, drawn) for one game; a lovers' win is a draw of the two teams."""
    winner = winning_team(result.winner)
    return 1, int(winner is Team.WOLF), int(winner is None)


def pairing(row: Row) -> tuple[str, str] | None:
    """(wolf agent, good agent) when one agent held every wolf seat and another every good one."""
    _, wolves, good = row
    if len(wolves) == 1 and len(good) == 1 and wolves[0][0] != good[0][0]:
        return wolves[0][0], good[0][0]
    return None


@dataclass(frozen=True, slots=True)
class DealArrays:
    """A `DealTable` as arrays: `counts[d, u, k]`, count `k` of row `rows[u]` in deal `deals[d]`."""

    deals: tuple[str, ...]
    """Sorted."""
    rows: tuple[Row, ...]
    """Sorted."""
    counts: NDArray[np.float64]

    @property
    def games(self) -> NDArray[np.float64]:
        """Games per deal and row (deals x rows)."""
        return self.counts[:, :, GAMES]

    @property
    def wolf_score(self) -> NDArray[np.float64]:
        """The wolves' score per deal and row: a win 1, a draw 1/2 (deals x rows)."""
        return self.counts[:, :, WOLF_WINS] + 0.5 * self.counts[:, :, DRAWS]


class DealTable:
    """Per deal and row: games, wolf wins, draws (mutable; a fold over games)."""

    def __init__(self) -> None:
        """No games yet."""
        self.deals: dict[str, dict[Row, list[int]]] = {}

    def add(self, results: Iterable[GameResult]) -> None:
        """Count `results` in (any order gives the same table)."""
        for result in results:
            cell = self.deals.setdefault(result.deal, {}).setdefault(row_of(result), [0, 0, 0])
            for k, value in enumerate(counts_of(result)):
                cell[k] += value

    def arrays(self) -> DealArrays:
        """The table as arrays, deals and rows sorted (so equal tables give equal arrays)."""
        deals = tuple(sorted(self.deals))
        rows = tuple(sorted({row for by_row in self.deals.values() for row in by_row}))
        index = {row: u for u, row in enumerate(rows)}
        counts = np.zeros((len(deals), len(rows), 3), dtype=np.float64)
        for d, deal in enumerate(deals):
            for row, cell in self.deals[deal].items():
                counts[d, index[row]] = cell
        return DealArrays(deals, rows, counts)

    def to_data(self) -> list[Any]:
        """The table as JSON-able data: `[deal, [[board, wolves, good, counts], ...]]` per deal."""
        return [
            [deal, [[b, _side(w), _side(g), cell] for (b, w, g), cell in by_row.items()]]
            for deal, by_row in self.deals.items()
        ]

    @classmethod
    def from_data(cls, data: list[Any]) -> DealTable:
        """The table `to_data` wrote (raises KeyError, TypeError or ValueError on other data)."""
        table = cls()
        for deal, rows in data:
            by_row = table.deals.setdefault(str(deal), {})
            for board, wolves, good, cell in rows:
                if len(cell) != 3:
                    raise ValueError(f"deal {deal}: {len(cell)} counts, not 3")
                by_row[(str(board), _lineup(wolves), _lineup(good))] = [int(c) for c in cell]
        return table


def _side(lineup: Lineup) -> list[list[Any]]:
    return [[agent, seats] for agent, seats in lineup]


def _lineup(data: list[Any]) -> Lineup:
    return tuple((str(agent), int(seats)) for agent, seats in data)
