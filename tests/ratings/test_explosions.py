"""Each agent's self-explosion rate on the leaderboard, beside the others' on the same deals.

A model steered into exploding at its first chance drew every game of two tournaments and
nothing was rated (issue 30); the rate at which an agent's wolves explode is now a metric
of its own, in the table, its CSV and the paired differences.
"""

import csv
import io

from arena.commands.leaderboard_text import render
from arena.ratings.export import to_csv
from arena.ratings.facts import summarize
from arena.ratings.report import build_report
from arena.ratings.stats import Ratio
from arena.rules.events import Event, SelfExploded
from arena.rules.types import Phase
from arena.rules.visibility import PUBLIC
from tests.ratings.builders import deal, make_replay, phase, speech


def _game(exploder: int | None) -> list[Event]:
    """Day 1's speeches; the wolf at `exploder` self-explodes after its own."""
    events: list[Event] = [deal(), phase(Phase.SPEECHES, 1)]
    for seat in range(1, 10):
        events.append(speech(seat, f"seat {seat} speaks its own mind"))
        if seat == exploder:
            events.append(SelfExploded(visibility=PUBLIC, seat=seat))
            break
    return events


def test_a_wolf_that_explodes_is_counted_per_wolf_game() -> None:
    summary = summarize(make_replay(_game(2)))
    tallies = {s.seat: s.tallies for s in summary.seats}
    assert tallies[2].explosions == Ratio(num=1, den=1)
    assert tallies[1].explosions == Ratio(num=0, den=1)
    assert tallies[5].explosions == Ratio()  # a good seat has no explosion rate


def test_the_leaderboard_shows_each_agents_explosion_rate_beside_the_others() -> None:
    boom, bot = ("boom",) * 3, ("bot",) * 6
    games = [
        summarize(make_replay(_game(1), agents=boom + bot, game_id=f"w{n}")) for n in range(4)
    ] + [
        summarize(make_replay(_game(None), agents=("bot",) * 3 + ("boom",) * 6, game_id=f"g{n}"))
        for n in range(4)
    ]
    report = build_report(games, bootstrap=20, seed=1)
    rows = {r["agent"]: r for r in csv.DictReader(io.StringIO(to_csv(report)))}
    assert float(rows["boom"]["explosion_rate"]) == 1 / 3  # one wolf of three, every game
    assert float(rows["bot"]["explosion_rate"]) == 0.0
    (line,) = [ln for ln in render(report).splitlines() if ln.startswith("self-explodes (w)")]
    assert "33%" in line and "0%" in line
    pairs = [d for d in report.metric_pairs if d.metric == "explosion_rate"]
    assert pairs and {abs(d.difference) for d in pairs} == {1 / 3}
