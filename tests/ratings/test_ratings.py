import math

import pytest
from openskill.models import PlackettLuce

from arena.ratings.ratings import MU, SIGMA, TAU, fit, overall_lineup, rate
from arena.ratings.results import GameResult, SeatResult
from arena.rules.roles import team_of
from arena.rules.types import Role, Team, Winner
from tests.ratings.builders import planted_tournament, team_game


def test_planted_wolf_advantage_is_recovered_with_intervals() -> None:
    board = rate(planted_tournament(), bootstrap=50, seed=3)
    a = board.standing("A")
    others = [board.standing(x) for x in ("B", "C")]
    assert a is not None and a.wolf is not None and a.wolf.interval is not None
    assert all(o is not None and o.wolf is not None for o in others)
    other_wolf_mus = [o.wolf.mu for o in others if o is not None and o.wolf is not None]
    assert a.wolf.mu > max(other_wolf_mus)
    assert a.wolf.interval.low > max(other_wolf_mus)
    assert board.standings[0].agent == "A"
    assert a.wolf_wins.rate is not None and a.wolf_wins.rate > 0.7


def test_planted_advantage_does_not_leak_into_good_side_ordering() -> None:
    board = rate(planted_tournament(), bootstrap=0)
    goods = {s.agent: s.good for s in board.standings}
    assert all(g is not None and g.interval is None for g in goods.values())
    spread = [g.mu for g in goods.values() if g is not None]
    a = board.standing("A")
    assert a is not None and a.wolf is not None
    assert max(spread) - min(spread) < a.wolf.mu - min(spread)


def test_one_agent_per_side_is_exactly_openskill_one_vs_one() -> None:
    model = PlackettLuce(tau=TAU)
    x, y = model.rating(), model.rating()
    table = fit([overall_lineup(team_game("g1", "x", "y", Winner.WOLVES))])
    [[x2], [y2]] = model.rate([[x], [y]], ranks=[1, 2])
    assert table["x"][0] == pytest.approx(x2.mu)
    assert math.sqrt(table["x"][1]) == pytest.approx(x2.sigma)
    assert table["y"][0] == pytest.approx(y2.mu)


def test_draw_between_equals_leaves_means_and_counts_as_draw() -> None:
    board = rate([team_game("g1", "x", "y", Winner.DRAW)], bootstrap=0)
    x = board.standing("x")
    assert x is not None and x.wolf is not None
    assert x.overall.mu == pytest.approx(MU)
    assert x.overall.sigma < math.sqrt(SIGMA**2 + TAU**2)
    assert x.wolf_wins.wins == 0 and x.wolf_wins.draws == 1 and x.wolf_wins.rate == 0.0
    assert board.draws == 1 and board.wolf_side_wins.draws == 1


def test_self_play_says_nothing_about_the_overall_rating() -> None:
    board = rate([team_game("g1", "x", "x", Winner.WOLVES)], bootstrap=0)
    x = board.standing("x")
    assert x is not None and x.wolf is not None and x.good is not None
    assert x.overall.mu == pytest.approx(MU)
    assert x.wolf.mu > MU > x.good.mu
    assert x.wins.games == 2 and x.wins.wins == 1


def test_mixed_sides_weigh_agents_by_seat_share() -> None:
    roles = (Role.WEREWOLF,) * 3 + (Role.VILLAGER,) * 3
    agents = ("big", "big", "small", "g", "g", "g")
    seats = tuple(
        SeatResult(seat=i, agent=a, role=r, team=Team.WOLF if r is Role.WEREWOLF else Team.GOOD)
        for i, (a, r) in enumerate(zip(agents, roles, strict=True), start=1)
    )
    game = GameResult(
        game_id="g", created_at="t", board="std9", winner=Winner.WOLVES, days=1, seats=seats
    )
    table = fit([overall_lineup(game)])
    assert table["big"][0] > table["small"][0] > MU > table["g"][0]
    assert table["big"][0] - MU == pytest.approx(2 * (table["small"][0] - MU))


def test_role_win_rates_count_a_game_once_per_role() -> None:
    board = rate(
        [team_game("g1", "x", "y", Winner.WOLVES), team_game("g2", "y", "x", Winner.GOOD)],
        bootstrap=0,
    )
    x = board.standing("x")
    assert x is not None
    assert x.role_wins[Role.WEREWOLF].games == 1 and x.role_wins[Role.WEREWOLF].wins == 1
    assert x.role_wins[Role.VILLAGER].games == 1 and x.role_wins[Role.VILLAGER].wins == 1
    assert x.wins.games == 2 and x.wins.rate == 1.0
    interval = x.wins.interval
    assert interval is not None and 0.3 < interval.low < 0.4 and interval.high == 1.0


def test_bootstrap_is_reproducible_from_its_seed_and_order_free() -> None:
    games = planted_tournament(rounds=5)
    first = rate(games, bootstrap=20, seed=9)
    assert rate(list(reversed(games)), bootstrap=20, seed=9) == first
    assert rate(games, bootstrap=20, seed=10) != first


def test_bootstrap_in_worker_processes_gives_exactly_the_same_intervals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arena.ratings import ratings as module

    monkeypatch.setattr(module, "available", lambda: False)  # the scalar bootstrap
    monkeypatch.setattr(module, "PARALLEL_RESAMPLED", 0)  # in processes however small
    games = planted_tournament(rounds=5)
    fold = module.RatingFold(21, 3, workers=2)
    assert fold.extend(games) and fold.tables is not None
    assert fold.leaderboard(0.95) == rate(games, bootstrap=21, seed=3)


def test_no_games_gives_an_empty_board() -> None:
    board = rate([], bootstrap=10)
    assert board.games == 0 and board.standings == ()


@pytest.mark.parametrize(
    "kwargs", [{"bootstrap": -1}, {"confidence": 1.0}, {"confidence": 0}, {"workers": 0}]
)
def test_bad_arguments_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        rate([], **kwargs)  # type: ignore[arg-type]


def test_closed_form_duel_is_openskill_to_the_bit() -> None:
    import math
    import random as stdlib_random

    from arena.ratings.ratings import _MODEL, duel

    rng = stdlib_random.Random(11)
    for _ in range(3000):
        a = (rng.uniform(-10, 60), rng.uniform(1e-4, 90))
        b = (rng.uniform(-10, 60), rng.uniform(1e-4, 90))
        ranks = rng.choice([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]])
        teams = [[_MODEL.rating(mu=m, sigma=math.sqrt(v))] for m, v in (a, b)]
        expected = [(t[0].mu, t[0].sigma) for t in _MODEL.rate(teams, ranks=ranks)]
        assert duel(a, b, ranks) == expected


def test_the_pairing_fast_path_gives_the_general_path_bits() -> None:
    from arena.ratings import ratings as module

    games = [overall_lineup(g) for g in planted_tournament(rounds=10)]
    fast = fit(games)
    general: dict[str, tuple[float, float]] = {}
    for wolf, good, winner in games:
        module._play(general, ({**wolf, "_": 0.0}, good), module._ranks(winner))
        general.pop("_", None)
    assert general and fast == general


def pairing_games(n: int, seed: int = 5) -> list[GameResult]:
    import random as stdlib_random

    from tests.ratings.builders import STD9

    rng = stdlib_random.Random(seed)
    agents = ("A", "B", "C")
    games = []
    for i in range(n):
        wolves, good = rng.sample(agents, 2)
        seats = tuple(
            SeatResult(
                seat=s,
                agent=wolves if team_of(r) is Team.WOLF else good,
                role=r,
                team=team_of(r),
            )
            for s, r in enumerate(STD9, start=1)
        )
        winner = rng.choice([Winner.WOLVES, Winner.GOOD, Winner.GOOD, Winner.DRAW])
        games.append(
            GameResult(
                game_id=f"p{i:04d}",
                created_at="t",
                board="std9",
                winner=winner,
                days=3,
                seats=seats,
            )
        )
    return games


def test_vectorized_bootstrap_matches_one_resample_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arena.ratings import ratings as module

    games = pairing_games(120)
    fast = module.RatingFold(15, 4)
    assert fast.extend(games) and fast.pairs is not None
    monkeypatch.setattr(module, "available", lambda: False)
    slow = module.RatingFold(15, 4)
    assert slow.extend(games) and slow.tables is not None and slow.pairs is None
    for fast_mus, slow_tables in zip(fast.pairs, slow.tables, strict=True):
        slow_mus = module._mus(slow_tables)
        assert fast_mus.mus().keys() == slow_mus.keys()
        for key, values in slow_mus.items():
            assert len(fast_mus.mus()[key]) == len(values)
            assert all(
                math.isclose(a, b, rel_tol=1e-12)
                for a, b in zip(fast_mus.mus()[key], values, strict=True)
            )


def test_a_game_that_is_not_a_pairing_takes_the_scalar_bootstrap() -> None:
    from arena.ratings import ratings as module

    pairs = pairing_games(10)
    lineups = [overall_lineup(g) for g in pairs]
    mixed = [*lineups, ({"A": 0.5, "B": 0.5}, {"C": 1.0}, Winner.GOOD)]
    assert module.pairing_codes(lineups) is not None
    assert module.pairing_codes(mixed) is None
    base = team_game("z-late", "A", "B", Winner.GOOD)
    seats = tuple(
        s.model_copy(update={"agent": "C"}) if s.seat == 1 else s for s in base.seats
    )  # seat 1 to a third agent: not a pairing
    later = base.model_copy(update={"created_at": "u", "seats": seats})
    fold = module.RatingFold(8, 1)
    assert fold.extend(pairs) and fold.vector is True
    assert not fold.extend([later]), "a scalar game never joins vectorized resamples"
    assert fold.games == len(pairs)
    board = rate(pairing_games(60), bootstrap=30, seed=1)
    assert all(s.overall.interval is not None for s in board.standings)
