"""Recent form: openskill's sequential team ratings (not the verdict), exact to openskill."""

from __future__ import annotations

import math
import random

import pytest
from openskill.models import PlackettLuce

from arena.ratings import form as module
from arena.ratings.form import _MODEL, MU, SIGMA, TAU, duel, fit, overall_lineup
from arena.ratings.ratings import rate
from arena.rules.types import Winner
from tests.ratings.builders import planted_tournament, team_game, three_agent_game


def test_one_agent_per_side_is_exactly_openskill_one_vs_one() -> None:
    model = PlackettLuce(tau=TAU)
    x, y = model.rating(), model.rating()
    table = fit([overall_lineup(team_game("g1", "x", "y", Winner.WOLVES))])
    [[x2], [y2]] = model.rate([[x], [y]], ranks=[1, 2])
    assert table["x"][0] == pytest.approx(x2.mu)
    assert math.sqrt(table["x"][1]) == pytest.approx(x2.sigma)
    assert table["y"][0] == pytest.approx(y2.mu)


def test_draw_between_equals_leaves_the_means() -> None:
    board = rate([team_game("g1", "x", "y", Winner.DRAW)], bootstrap=0)
    x = board.standing("x")
    assert x is not None
    assert x.form.mu == pytest.approx(MU)
    assert x.form.sigma < math.sqrt(SIGMA**2 + TAU**2)


def test_self_play_says_nothing_about_the_form() -> None:
    board = rate([team_game("g1", "x", "x", Winner.WOLVES)], bootstrap=0)
    x = board.standing("x")
    assert x is not None and x.form.mu == pytest.approx(MU)


def test_mixed_sides_weigh_agents_by_seat_share() -> None:
    game = three_agent_game()
    table = fit([overall_lineup(game)])
    assert table["big"][0] > table["small"][0] > MU > table["g"][0]
    assert table["big"][0] - MU == pytest.approx(2 * (table["small"][0] - MU))


def test_the_form_follows_the_order_the_games_started() -> None:
    games = [
        team_game(f"g{i}", "x", "y", Winner.WOLVES if i < 5 else Winner.GOOD) for i in range(10)
    ]
    late = [
        g.model_copy(update={"created_at": f"2025-01-0{1 + (i >= 5)}"}) for i, g in enumerate(games)
    ]
    early = [
        g.model_copy(update={"created_at": f"2025-01-0{1 + (i < 5)}"}) for i, g in enumerate(games)
    ]
    x_late, x_early = rate(late, bootstrap=0).standing("x"), rate(early, bootstrap=0).standing("x")
    assert x_late is not None and x_early is not None
    assert x_late.form.mu < x_early.form.mu, "x won its first five games: its form fell after"


def test_closed_form_duel_is_openskill_to_the_bit() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        a = (rng.uniform(-10, 60), rng.uniform(1e-4, 90))
        b = (rng.uniform(-10, 60), rng.uniform(1e-4, 90))
        ranks = rng.choice([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]])
        teams = [[_MODEL.rating(mu=m, sigma=math.sqrt(v))] for m, v in (a, b)]
        expected = [(t[0].mu, t[0].sigma) for t in _MODEL.rate(teams, ranks=ranks)]
        assert duel(a, b, ranks) == expected


def test_the_pairing_fast_path_gives_the_general_path_bits() -> None:
    games = [overall_lineup(g) for g in planted_tournament(rounds=10)]
    fast = fit(games)
    general: dict[str, tuple[float, float]] = {}
    for wolf, good, winner in games:
        module._play(general, ({**wolf, "_": 0.0}, good), module._RANKS[winner])
        general.pop("_", None)
    assert general and fast == general
