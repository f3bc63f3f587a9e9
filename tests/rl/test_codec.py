"""Every index the mask allows is a legal answer; indices and actions map both ways."""

import numpy as np
import pytest

import arena.rl
from arena.board_file import example_boards
from arena.rl.codec import ACTION_COUNT, BLOCKS, describe, legal_mask, to_action, to_index
from arena.rl.environment import WerewolfEnv, seat_of
from arena.rules.actions import Claims, Speak, Vote, Whisper
from arena.rules.boards import BOARDS
from arena.rules.decisions import check_legal
from arena.rules.errors import IllegalActionError
from arena.rules.types import Role
from arena.text import Lang
from tests.rl.play import play


def _every_masked_index_is_legal(env: WerewolfEnv, agent: str) -> None:
    request = env.referee.request_for(seat_of(agent))
    assert request is not None
    mask = env.observe(agent)["action_mask"]
    legal = np.flatnonzero(mask)
    assert len(legal) > 0
    for index in legal:
        action = to_action(int(index), request, env.lang)
        check_legal(request, action)
        assert to_index(action) == index, describe(int(index))


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("board", [*BOARDS, *example_boards()])
def test_every_masked_index_decodes_to_a_legal_action(board: str, lang: Lang) -> None:
    """What lets the environment hand its answers to `Referee.submit_legal` unchecked."""
    play(arena.rl.env(board=board, lang=lang), 5, probe=_every_masked_index_is_legal)


def test_every_option_kind_has_a_block() -> None:
    from typing import get_args

    from arena.rules.actions import ActionKind

    assert set(BLOCKS) == set(get_args(ActionKind))
    assert sum(size for _, size in BLOCKS.values()) == ACTION_COUNT


def test_speech_templates_say_their_claims() -> None:
    env = arena.rl.env(board="std9", seed=0, lang="en")
    env.reset()
    while env.referee.request_for(seat_of(env.agent_selection)).kind != "speech":
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    request = env.referee.request_for(seat_of(env.agent_selection))
    start, _ = BLOCKS["speak"]
    seer_says_3_is_wolf = start + 1 + len(Role) + 20 + 2
    action = to_action(seer_says_3_is_wolf, request, "en")
    assert isinstance(action, Speak)
    assert action.claims.role is Role.SEER and action.claims.checks[0].seat == 3
    assert action.claims.checks[0].is_wolf and "#3 is a wolf" in action.text


def test_free_speech_maps_to_a_template_only_when_one_says_it() -> None:
    assert to_index(Speak(text="hello")) == BLOCKS["speak"][0]
    assert to_index(Speak(text="x", claims=Claims(suspects=(4,)))) is not None
    assert to_index(Speak(text="x", claims=Claims(suspects=(4, 5)))) is None
    both = Claims(role=Role.WITCH, suspects=(4, 5))
    assert to_index(Speak(text="x", claims=both), nearest=True) == to_index(
        Speak(text="x", claims=Claims(role=Role.WITCH))
    )
    assert to_index(Whisper(text="knife 3, please")) is None
    assert to_index(Vote(target=3)) == BLOCKS["vote"][0] + 2


def test_out_of_range_index_is_refused() -> None:
    from arena.rl.codec import block_of

    with pytest.raises(IllegalActionError):
        block_of(ACTION_COUNT)


def test_mask_never_offers_naming_oneself_in_a_speech() -> None:
    env = arena.rl.env(board="std9", seed=0)
    env.reset()
    while env.referee.request_for(seat_of(env.agent_selection)).kind != "speech":
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    seat = seat_of(env.agent_selection)
    request = env.referee.request_for(seat)
    mask = legal_mask(request, 9)
    start, _ = BLOCKS["speak"]
    suspect_self = start + 1 + len(Role) + 40 + seat - 1
    assert mask[suspect_self] == 0 and mask[suspect_self + 1 if seat < 9 else suspect_self - 1] == 1
