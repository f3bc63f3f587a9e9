"""The shared action tables: what the random agent and the RL codec both build from."""

from __future__ import annotations

import pytest

from arena.rules.actions import (
    ACTION_ADAPTER,
    PLAIN_ACTIONS,
    SEAT_ACTIONS,
    Kill,
    to_seat_action,
)
from arena.rules.errors import InvalidActionError


def test_a_plain_action_is_its_kind_alone() -> None:
    for kind, action in PLAIN_ACTIONS.items():
        assert action == ACTION_ADAPTER.validate_python({"kind": kind})


def test_the_seat_actions_are_the_one_seat_models_in_kind_order() -> None:
    # Derived from the models; pinned here because the RL codec gives each one an index
    # block in this order (trade also needs a gift, take_card's target is a card).
    assert SEAT_ACTIONS == (
        "vote",
        "shoot",
        "pass_badge",
        "protect",
        "kill",
        "poison",
        "inspect",
        "charm",
        "dream",
        "duel",
        "fear",
        "hunt",
        "block",
        "mask",
        "admire",
        "confuse",
    )


def test_every_seat_action_takes_exactly_one_seat() -> None:
    for kind in SEAT_ACTIONS:
        action = to_seat_action(kind, 4)
        assert action.kind == kind and action.model_dump() == {"kind": kind, "target": 4}
    assert to_seat_action("kill", 3) == Kill(target=3)


@pytest.mark.parametrize("kind", ["swap", "speak", "pass", "take_card"])
def test_other_kinds_are_refused(kind) -> None:
    with pytest.raises(InvalidActionError, match="is not aimed at one seat"):
        to_seat_action(kind, 3)
