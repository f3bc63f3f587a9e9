"""Custom boards: the written form, the combinations the rules refuse, the default order."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from arena.rules.boards import BOARDS, NightStep
from arena.rules.composition import (
    CANONICAL_FIRST_NIGHT,
    CANONICAL_ORDER,
    STEPS,
    check_board,
    default_orders,
)
from arena.rules.config import GameConfig
from arena.rules.custom import parse_board
from arena.rules.errors import ConfigError
from arena.rules.types import Role, Winner
from arena.rules.win import third_side, winner
from tests.conftest import EXAMPLE_BOARDS, play_random

GOOD: dict[str, Any] = {
    "id": "mine",
    "zh": "我的局",
    "en": "My board",
    "roles": {"seer": 1, "witch": 1, "guard": 1, "villager": 3, "werewolf": 3},
    "win": "side",
    "preset": "classic",
}


def _with(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


def test_every_built_in_board_passes_the_checks() -> None:
    for b in BOARDS.values():
        check_board(b)


def test_every_night_step_has_a_place_and_a_canonical_position() -> None:
    """A step added to `NightStep` must be placed here, or custom boards cannot deal it."""
    steps = set(get_args(NightStep))
    assert set(STEPS) == steps
    assert set(CANONICAL_ORDER) | set(CANONICAL_FIRST_NIGHT) == steps
    assert len(set(CANONICAL_ORDER)) == len(CANONICAL_ORDER)


def test_a_good_board_has_counts_in_role_order_and_the_canonical_night() -> None:
    roles = {"werewolf": 3, "villager": 3, "guard": 1, "witch": 1, "預言家": 1}
    b = parse_board(_with(roles=roles))
    gods = (Role.SEER, Role.WITCH, Role.GUARD)
    assert b.roles == (*[Role.VILLAGER] * 3, *[Role.WEREWOLF] * 3, *gods)
    assert b.night_order == ("guard", "wolves", "seer", "witch")  # 000:25-31
    assert b.first_night_order is None and b.seats == 9 and b.preset == "classic"


def test_the_default_order_merges_001_roles_into_000s_table() -> None:
    roles = [Role.NIGHTMARE, Role.DREAMWEAVER, Role.WITCH, Role.HUNTER, Role.WEREWOLF]
    assert default_orders(roles) == (
        ("nightmare", "dreamweaver", "wolves", "witch", "hunter_status"),
        None,
    )
    later, first = default_orders([Role.GARGOYLE, Role.WEREWOLF, Role.SEER, Role.GRAVEKEEPER])
    assert later == ("gargoyle_check", "wolves", "gargoyle_knife", "seer", "gravekeeper")
    assert first == ("gargoyle", "wolves", "seer", "gravekeeper", "gargoyle_check")


def test_settings_and_win_reach_the_rules() -> None:
    b = parse_board(_with(win="city", settings={"sheriff": False, "city_win": "parity"}))
    rules = GameConfig(board=b).rules
    assert (rules.win, rules.sheriff, rules.city_win, rules.knife_first) == (
        "city",
        False,
        "parity",
        True,  # the classic preset's own knob, under the board's settings
    )
    assert GameConfig(board=b, overrides={"sheriff": True}).rules.sheriff  # a game's override wins


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"roles": {"seeer": 1, "villager": 4, "werewolf": 2}},
            "roles: unknown role 'seeer'; did you mean 'seer'?",
        ),
        (
            {"roles": {"seer": 1, "villager": 6}},
            "no wolves: deal at least one wolf-side card (werewolf, wolf_king, …)",
        ),
        (
            {"roles": {"gargoyle": 1, "seer": 1, "villager": 5}},
            "no wolf pack: the gargoyle plays alone; deal at least one werewolf "
            "(or another wolf who wakes with the pack)",
        ),
        (
            {"roles": {"werewolf": 4, "wolf_king": 1, "white_wolf_king": 1}},
            "no good seats: deal at least one good card (villager, seer, …)",
        ),
        (
            {"roles": {"seer": 1, "villager": 3, "werewolf": 1}},
            "too few seats: 5 cards; a board needs at least 6",
        ),
        (
            {"roles": {"seer": 2, "villager": 4, "werewolf": 2}},
            "2 seer cards: seer is a unique role (only villager and werewolf may be dealt more "
            "than once)",
        ),
        (
            {"roles": {"seer": 1, "werewolf": 3, "witch": 1, "guard": 1}},
            "win: side needs at least one god and one villager (屠邊: the wolves win as soon as "
            "either group is gone); use win: city",
        ),
        (
            {"night_order": ["guard", "wolves", "witch"]},
            "night_order: no 'seer' step, but seer is dealt: its night action would never happen",
        ),
        (
            {"night_order": ["wolves", "guard", "seer", "witch"]},
            "night_order: 'guard' must come before 'wolves'",
        ),
        (
            {"night_order": ["guard", "witch", "wolves", "seer"]},
            "night_order: 'witch' must come after 'wolves'",
        ),
        (
            {"night_order": ["guard", "wolves", "seer", "wich"]},
            "night_order: unknown step 'wich'; did you mean 'witch'?",
        ),
        (
            {"night_order": ["guard", "wolves", "seer", "seer", "witch"]},
            "night_order: step 'seer' is listed twice",
        ),
        ({"settings": {"sherif": False}}, "settings: unknown setting 'sherif'; did you mean"),
        ({"settings": {"sheriff": "maybe"}}, "settings.sheriff: Input should be a valid boolean"),
        ({"settings": {"win": "city"}}, "settings.win: set it with the board's own win: field"),
        (
            {"settings": {"side_villagers_needed": 4}},
            "side_villagers_needed 4: only 3 villagers are dealt",
        ),
        ({"id": "std9"}, "id: 'std9' is a built-in board's id; choose another"),
        ({"id": "My Board"}, "id: 'My Board' is not a board id"),
        ({"win": "town"}, "win: 'town' is not one of city, side"),
        ({"preset": "house"}, "preset: 'house' is not one of tournament, site, classic"),
        ({"roles": {"seer": 0, "villager": 5, "werewolf": 2}}, "roles.seer: a count is a whole"),
        ({"roles": ["seer", "werewolf"]}, "roles: map each role to its count"),
        ({"colour": "red"}, "unknown field 'colour'"),
        (
            {"roles": {"cupid": 2, "seer": 1, "villager": 3, "werewolf": 2}},
            "2 cupid cards: cupid is a unique role",
        ),
        (
            {
                "roles": {"cupid": 1, "seer": 1, "villager": 3, "werewolf": 2},
                "night_order": ["wolves", "seer"],
            },
            "night_order: no 'cupid' step on night 1, but cupid is dealt",
        ),
    ],
)
def test_each_refusal_is_one_line_naming_the_problem(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_board(_with(**changes))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_board_carried_whole_is_checked_again() -> None:
    """A replay header or a job edited by hand cannot smuggle in a board the rules refuse."""
    good = parse_board(GOOD)
    data = GameConfig(board=good).model_dump(mode="json")
    assert GameConfig.model_validate(data).board == good
    data["board"]["roles"] = ["seer"] * 2 + ["villager"] * 4 + ["werewolf"] * 2
    with pytest.raises(ConfigError, match="2 seer cards"):
        GameConfig.model_validate(data)
    data["board"] = {**GameConfig(board=good).model_dump(mode="json")["board"], "id": "std9"}
    with pytest.raises(ValueError, match="has a built-in board's id"):
        GameConfig.model_validate(data)


def test_the_example_boards_play_to_the_end() -> None:
    assert EXAMPLE_BOARDS, "arena/boards/ holds the files users play or copy"
    for b in EXAMPLE_BOARDS.values():
        referee = play_random(GameConfig(board=b), seed=1)
        assert referee.finished and referee.winner is not None


def test_a_wolf_and_good_couple_is_a_third_side() -> None:
    """人狼戀 (docs/roles.md): the couple and cupid win once nobody else is alive."""
    roles = (Role.CUPID, Role.SEER, Role.VILLAGER, Role.VILLAGER, Role.WEREWOLF, Role.WEREWOLF)
    rules = GameConfig(
        board=parse_board(
            _with(
                roles={"cupid": 1, "seer": 1, "villager": 2, "werewolf": 2},
                win="city",
                preset="tournament",
            )
        )
    ).rules
    mixed = (3, 5)
    assert third_side(roles, mixed) == (3, 5, 1) and third_side(roles, (3, 4)) == ()
    assert winner(roles, {2, 4, 6}, rules, mixed) is Winner.LOVERS
    assert winner(roles, {1, 2, 4, 6}, rules, mixed) is Winner.LOVERS  # cupid dead or alive
    assert winner(roles, {2, 6}, rules, mixed) is None  # seat 4 is still in the way
    assert winner(roles, {3, 5, 6}, rules, mixed) is Winner.GOOD  # every wolf dead
    assert winner(roles, {2, 4}, rules, None) is Winner.WOLVES  # 2 wolves vs 2 others
    assert winner(roles, {2, 4}, rules, mixed) is None  # the wolf lover is not a wolf here
    assert winner(roles, {2, 3, 4, 5}, rules, (3, 4)) is Winner.WOLVES  # a good couple gone
