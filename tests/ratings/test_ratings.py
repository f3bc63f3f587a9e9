"""The headline rating: a batch Bradley-Terry fit over all games, with a deal bootstrap."""

from __future__ import annotations

import pytest

from arena.ratings.ratings import rate
from arena.ratings.strength import CENTRE
from arena.rules.types import Role, Winner
from tests.ratings.builders import planted_tournament, team_game, three_agent_game


def test_planted_wolf_advantage_is_recovered_with_intervals() -> None:
    board = rate(planted_tournament(), bootstrap=50, seed=3)
    a = board.standing("A")
    assert a is not None and a.wolf is not None and a.wolf.interval is not None
    others = [board.standing(x) for x in ("B", "C")]
    other_wolves = [o.wolf.elo for o in others if o is not None and o.wolf is not None]
    assert len(other_wolves) == 2
    assert a.wolf.interval.low > max(other_wolves)
    assert board.standings[0].agent == "A"
    assert a.wolf_wins.rate is not None and a.wolf_wins.rate > 0.7
    for other in ("B", "C"):
        pair = board.pair("A", other)
        assert pair is not None and pair.first == "A" and pair.separated is True
        assert pair.needed is None, "a separated pair needs no more games"
    even = board.pair("B", "C")
    assert even is not None and even.separated is False
    assert even.needed is not None and even.needed.more_deals is not None


def test_planted_advantage_does_not_leak_into_good_side_ordering() -> None:
    board = rate(planted_tournament(), bootstrap=0)
    goods = [s.good.elo for s in board.standings if s.good is not None]
    a = board.standing("A")
    assert a is not None and a.wolf is not None and len(goods) == 3
    assert max(goods) - min(goods) < a.wolf.elo - CENTRE


def test_ratings_are_centred_and_independent_of_the_order_of_games() -> None:
    games = planted_tournament(rounds=20)
    board = rate(games, bootstrap=30, seed=9)
    assert sum(s.rating.elo for s in board.standings) / 3 == pytest.approx(CENTRE)
    times = [
        g.model_copy(update={"created_at": f"2025-02-{i % 28 + 1:02d}"})
        for i, g in enumerate(reversed(games))
    ]
    moved = rate(times, bootstrap=30, seed=9)
    for s in board.standings:
        other = moved.standing(s.agent)
        assert other is not None and other.rating == s.rating and other.wolf == s.wolf
    assert moved.pairs == board.pairs
    assert [s.form for s in moved.standings] != [s.form for s in board.standings], (
        "the recent form, not the rating, follows the order the games started"
    )


def test_a_draw_is_half_a_win() -> None:
    board = rate(
        [team_game("g1", "x", "y", Winner.DRAW), team_game("g2", "y", "x", Winner.DRAW)],
        bootstrap=0,
    )
    x, y = board.standing("x"), board.standing("y")
    assert x is not None and y is not None
    assert x.rating.elo == pytest.approx(CENTRE) == pytest.approx(y.rating.elo)
    assert x.wolf_wins.draws == 1 and x.wolf_wins.rate == 0.0 and board.draws == 2
    assert board.boards["std9"].elo == pytest.approx(0.0, abs=1e-6)
    lovers = rate([team_game("g1", "x", "y", Winner.LOVERS)], bootstrap=0)
    draw = rate([team_game("g1", "x", "y", Winner.DRAW)], bootstrap=0)
    assert [s.rating for s in lovers.standings] == [s.rating for s in draw.standings]


def test_self_play_says_nothing_about_the_overall_rating() -> None:
    board = rate([team_game("g1", "x", "x", Winner.WOLVES)], bootstrap=0)
    x = board.standing("x")
    assert x is not None and x.wolf is not None and x.good is not None
    assert x.rating.elo == pytest.approx(CENTRE)
    assert board.boards["std9"].elo > 0, "the wolves' win is the board's, not x's"
    assert x.wins.games == 2 and x.wins.wins == 1


def test_an_unbeaten_agent_with_two_games_stays_finite_and_uncertain() -> None:
    games = [team_game("g1", "x", "y", Winner.WOLVES), team_game("g2", "y", "x", Winner.GOOD)]
    many = [
        team_game(f"m{i}", "y", "z", Winner.WOLVES if i % 2 else Winner.GOOD) for i in range(40)
    ]
    board = rate([*games, *many], bootstrap=200, seed=1)
    x, z = board.standing("x"), board.standing("z")
    assert x is not None and z is not None and x.rating.interval is not None
    assert CENTRE < x.rating.elo < CENTRE + 1000
    assert z.rating.interval is not None
    wide = x.rating.interval.high - x.rating.interval.low
    assert wide > 2 * (z.rating.interval.high - z.rating.interval.low)


def test_mixed_sides_weigh_agents_by_seat_share() -> None:
    game = three_agent_game()
    board = rate([game], bootstrap=0)
    big, small, good = (board.standing(a) for a in ("big", "small", "g"))
    assert big is not None and small is not None and good is not None
    assert big.rating.elo > small.rating.elo > good.rating.elo
    assert board.cells == (), "a game of three agents is no pairing"


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


def test_bootstrap_is_reproducible_from_its_seed() -> None:
    games = planted_tournament(rounds=5)
    first = rate(games, bootstrap=20, seed=9)
    assert rate(list(reversed(games)), bootstrap=20, seed=9) == first
    assert rate(games, bootstrap=20, seed=10) != first


def test_without_a_bootstrap_there_are_points_but_no_verdicts() -> None:
    board = rate(planted_tournament(rounds=5), bootstrap=0)
    assert all(s.rating.interval is None for s in board.standings)
    assert board.pairs and all(p.separated is None and p.needed is None for p in board.pairs)


def test_no_games_gives_an_empty_board() -> None:
    board = rate([], bootstrap=10)
    assert board.games == 0 and board.standings == () and board.pairs == ()


@pytest.mark.parametrize("kwargs", [{"bootstrap": -1}, {"confidence": 1.0}, {"confidence": 0}])
def test_bad_arguments_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        rate([], **kwargs)  # type: ignore[arg-type]


def test_games_needed_follow_the_interval_the_pair_is_shown_with() -> None:
    """Two deals of one even result each resample to almost one outcome: the bootstrap's
    spread is near 0 while the shown (floored) interval is hundreds of points wide. The
    projection must read the interval a person sees, or it promises a verdict in a few
    deals at a difference that the interval says is nothing (a real tournament printed
    "+4 [-461, +469] not separated; ~11 more deals")."""
    games = [
        team_game("g1", "x", "y", Winner.GOOD),
        team_game("g2", "y", "x", Winner.GOOD),
        team_game("g3", "x", "y", Winner.WOLVES),
    ]
    board = rate(games, bootstrap=200, seed=1)
    pair = board.pair("x", "y") or board.pair("y", "x")
    assert pair is not None and pair.interval is not None and pair.separated is False
    assert pair.needed is not None and pair.needed.more_deals is not None
    se = (pair.interval.high - pair.interval.low) / (2 * 1.959964)
    planned = pair.deals + pair.needed.more_deals
    assert abs(pair.difference) / (se * (pair.deals / planned) ** 0.5) == pytest.approx(
        1.959964 + 0.841621, rel=0.05
    )  # at the planned size, the shown interval shrunk as 1/sqrt(n) finds d with power 80 %
