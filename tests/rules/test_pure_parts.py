"""Table-driven tests of the pure helpers: win conditions, order, tallies, config, viewers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arena.rules.boards import board
from arena.rules.config import GameConfig, resolve_rules
from arena.rules.errors import ConfigError
from arena.rules.order import after, around
from arena.rules.types import Direction, Role, Team, Winner
from arena.rules.visibility import (
    PUBLIC,
    REFEREE,
    GodViewer,
    PublicViewer,
    SeatViewer,
    TeamViewer,
    ToTeam,
    can_see,
    parse_viewer,
    to_seats,
)
from arena.rules.voting import leaders, tally
from arena.rules.win import winner

STD10 = board("std10").roles  # classic: seer witch hunter, 3 wolves, 4 villagers
SEATS = {role: [i + 1 for i, r in enumerate(STD10) if r is role] for role in set(STD10)}


def _dead(*groups: list[int]) -> set[int]:
    return {s for group in groups for s in group}


def test_side_win_needs_all_gods_or_three_of_four_villagers_on_the_10_player_board() -> None:
    rules = resolve_rules(board("std10"), "classic")
    v = SEATS[Role.VILLAGER]
    gods = SEATS[Role.SEER] + SEATS[Role.WITCH] + SEATS[Role.HUNTER]
    assert winner(STD10, _dead(v[:2]), rules) is None
    assert winner(STD10, _dead(v[:3]), rules) is Winner.WOLVES  # 003: 杀死4个民中的3个
    assert winner(STD10, _dead(gods), rules) is Winner.WOLVES
    assert winner(STD10, _dead(SEATS[Role.WEREWOLF]), rules) is Winner.GOOD
    assert winner(STD10, _dead(SEATS[Role.WEREWOLF], gods), rules) is Winner.GOOD  # no wolf left


def test_city_win_parity_versus_everyone() -> None:
    roles = board("std9").roles
    good = [i + 1 for i, r in enumerate(roles) if r not in (Role.WEREWOLF,)]
    parity = resolve_rules(board("std9"), "site")
    everyone = resolve_rules(board("std9"), "classic")
    assert winner(roles, set(good[:3]), parity) is Winner.WOLVES  # 3 wolves vs 3 others
    assert winner(roles, set(good[:3]), everyone) is None
    assert winner(roles, set(good), everyone) is Winner.WOLVES


def test_speaking_order() -> None:
    asc, desc = Direction.ASCENDING, Direction.DESCENDING
    assert around(12, 2, asc, {1, 3, 5, 8}) == (3, 5, 8, 1)  # 003 发言规则 (1) example
    assert around(12, 2, desc, {1, 3, 5, 8}) == (1, 8, 5, 3)
    assert after(6, 4, asc, range(1, 7)) == (5, 6, 1, 2, 3, 4)  # sheriff speaks last
    assert after(6, 4, desc, {1, 2, 4, 6}) == (2, 1, 6, 4)


def test_tally_weighs_the_sheriff_exactly() -> None:
    counts = tally({1: 5, 2: 6, 3: None, 4: 6, 5: 5}, {1: Fraction(3, 2)})
    assert counts == {5: Fraction(5, 2), 6: 2}
    assert leaders(counts) == (5,)
    assert leaders(tally({1: 5, 2: 6}, {})) == (5, 6)
    assert leaders({}) == ()


def test_presets_follow_their_seeds() -> None:
    assert resolve_rules(board("wwk_guard"), "tournament").explosions_to_swallow_badge == 2
    assert resolve_rules(board("std9"), "classic").explosions_to_swallow_badge == 1
    assert resolve_rules(board("wwk12"), "classic").explosions_to_swallow_badge == 2
    assert resolve_rules(board("std9"), "site").guard_and_save == "survives"
    assert GameConfig(board="yunv").rules.witch_self_save == "never"
    override = GameConfig(board="std9", overrides={"sheriff_vote_weight": 2})
    assert override.rules.sheriff_vote_weight == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"board": "chess"}, "unknown board 'chess'"),
        ({"board": "std9", "overrides": {"knife_speed": 1}}, "unknown rules knob 'knife_speed'"),
        ({"board": "std9", "overrides": {"exile_tie": "coin"}}, "exile_tie"),
        (
            {"board": "std9", "preset": "site", "overrides": {"sheriff_direction": "alternate"}},
            "^rules: sheriff_direction 'alternate' needs sheriff_order_anchor 'sheriff'",
        ),
    ],
)
def test_bad_config_is_a_config_error(kwargs, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        GameConfig(**kwargs)


def test_a_deal_must_match_the_board() -> None:
    with pytest.raises(ValueError, match="deal does not match board"):
        GameConfig(board="std9", deal=(Role.SEER,) * 9)


def test_visibility_table() -> None:
    wolves = ToTeam(team=Team.WOLF, seats=(3, 4))
    seat3, seat5 = SeatViewer(seat=3), SeatViewer(seat=5)
    assert all(can_see(v, PUBLIC) for v in (seat3, PublicViewer(), GodViewer()))
    assert can_see(seat3, wolves) and not can_see(seat5, wolves)
    assert can_see(TeamViewer(team=Team.WOLF), wolves) and not can_see(PublicViewer(), wolves)
    assert can_see(seat5, to_seats(5)) and not can_see(seat3, to_seats(5))
    assert can_see(GodViewer(), REFEREE) and not any(
        can_see(v, REFEREE) for v in (seat3, PublicViewer(), TeamViewer(team=Team.WOLF))
    )


def test_parse_viewer() -> None:
    assert parse_viewer("seat:7") == SeatViewer(seat=7)
    assert parse_viewer("wolves") == TeamViewer(team=Team.WOLF)
    for bad in ("seat:0", "seat:", "bob"):
        with pytest.raises(ValueError, match="unknown viewer"):
            parse_viewer(bad)
