"""Rewards by side: the winners +1, everyone else -1, a draw 0; the three exceptions."""

from types import MappingProxyType

from arena.rl.reward import seat_rewards
from arena.rules.state import GameState
from arena.rules.types import Role, Winner

V, W, S, C = Role.VILLAGER, Role.WEREWOLF, Role.SEER, Role.CUPID
ROLES = (W, W, S, V, V, C)


def state(winner: Winner | None, **kw: object) -> GameState:
    return GameState(seats=6, roles=ROLES, winner=winner, **kw)  # type: ignore[arg-type]


def test_good_win_pays_every_good_seat_dead_or_alive() -> None:
    rewards = seat_rewards(state(Winner.GOOD, dead=frozenset({3})))
    assert rewards == {1: -1.0, 2: -1.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 1.0}


def test_wolf_win_and_draw() -> None:
    assert seat_rewards(state(Winner.WOLVES))[1] == 1.0
    assert seat_rewards(state(Winner.WOLVES))[4] == -1.0
    assert set(seat_rewards(state(Winner.DRAW)).values()) == {0.0}
    assert set(seat_rewards(state(None)).values()) == {0.0}


def test_lovers_of_both_sides_play_with_cupid_for_themselves() -> None:
    lovers = state(Winner.LOVERS, lovers=(1, 4))
    assert seat_rewards(lovers) == {1: 1.0, 2: -1.0, 3: -1.0, 4: 1.0, 5: -1.0, 6: 1.0}
    good = seat_rewards(state(Winner.GOOD, lovers=(1, 4)))
    assert good[1] == good[4] == good[6] == -1.0 and good[3] == 1.0


def test_an_admirer_of_a_wolf_plays_for_the_wolves() -> None:
    admirer = state(Winner.WOLVES, admirers=MappingProxyType({5: True, 4: False}))
    rewards = seat_rewards(admirer)
    assert rewards[5] == 1.0 and rewards[4] == -1.0
