"""PettingZoo's own checks on every built-in board, and seeding."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import arena.rl
from arena.board_file import EXAMPLES, example_boards
from arena.rules.boards import BOARDS
from arena.rules.config import GameConfig
from arena.rules.errors import ConfigError, IllegalActionError
from arena.rules.referee import Referee
from tests.rl.play import play, replay_actions


@pytest.mark.parametrize("board", list(BOARDS))
def test_api_test_passes_on_every_board(board: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # the Dict observation warns, as PettingZoo's own classic envs do
        api_test(arena.rl.env(board=board, seed=3), num_cycles=400)


@pytest.mark.parametrize("board", list(example_boards()))
def test_api_test_passes_on_every_example_board(board: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(arena.rl.env(board=board, seed=3), num_cycles=400)


def test_a_board_file_and_a_custom_board(tmp_path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        (EXAMPLES / "cupid12.yaml").read_text(encoding="utf-8").replace("id: cupid12", "id: mine")
    )
    env = arena.rl.env(board=str(path), seed=1)
    assert env.config.board_id == "mine"
    play(env, 1)
    custom = arena.rl.env(board=example_boards()["classic_thief_elder12"], seed=2)
    play(custom, 2)
    assert custom.referee.finished


@pytest.mark.parametrize("preset", ["tournament", "site", "classic"])
def test_api_test_passes_on_every_preset(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(arena.rl.env(board="wwk_guard", seed=5, preset=preset), num_cycles=400)


@pytest.mark.parametrize("board", ["std9", "mist_raven", "secret_admirer"])
def test_pettingzoo_seed_test(board: str) -> None:
    seed_test(lambda: arena.rl.env(board=board, seed=0), num_cycles=300)


def test_same_seed_same_actions_same_game() -> None:
    first = arena.rl.env(board="wolfking_magician")
    actions = play(first, seed=11)
    events = list(first.referee.events)
    second = arena.rl.env(board="wolfking_magician")
    list(replay_actions(second, 11, actions))
    assert second.referee.events == events
    assert second.referee.winner is first.referee.winner


def test_reset_with_a_seed_deals_the_referees_game_of_that_seed() -> None:
    env = arena.rl.env(board="wwk12")
    env.reset(seed=42)
    referee = Referee(GameConfig(board="wwk12"), 42)
    assert env.referee.state.roles == referee.state.roles


def test_reset_without_a_seed_deals_the_next_seed() -> None:
    env = arena.rl.env(board="std9", seed=7)
    env.reset()
    env.reset()
    assert env.game_seed == 8
    env.reset(seed=100)
    env.reset()
    assert env.game_seed == 101


def test_an_action_outside_the_mask_raises_and_changes_nothing() -> None:
    env = arena.rl.env(board="std9", seed=1)
    env.reset()
    obs, *_ = env.last()
    illegal = int(obs["action_mask"].argmin())
    assert obs["action_mask"][illegal] == 0
    before, selected = len(env.referee.answers), env.agent_selection
    with pytest.raises(IllegalActionError, match="choose among the action mask"):
        env.step(illegal)
    assert len(env.referee.answers) == before
    assert env.agent_selection == selected


def test_an_action_outside_the_mask_never_reaches_the_referee(monkeypatch) -> None:
    """The referee takes the environment's answers unchecked: the mask is the only check."""
    env = arena.rl.env(board="std9", seed=1)
    env.reset()

    def reached(*args: object, **kwargs: object) -> None:
        raise AssertionError("the referee was handed an action outside the mask")

    monkeypatch.setattr(env.referee, "submit", reached)
    monkeypatch.setattr(env.referee, "submit_legal", reached)
    for _ in range(30):
        obs, *_ = env.last()
        for illegal in (*np.flatnonzero(obs["action_mask"] == 0)[:40], -1, len(obs["action_mask"])):
            with pytest.raises(IllegalActionError, match="choose among the action mask"):
                env.step(int(illegal))
        monkeypatch.undo()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        monkeypatch.setattr(env.referee, "submit", reached)
        monkeypatch.setattr(env.referee, "submit_legal", reached)


def test_unknown_board_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        arena.rl.env(board="nope")


def test_rewards_are_paid_once_at_the_end() -> None:
    env = arena.rl.env(board="std9", seed=2)
    totals: dict[str, float] = {}
    env.reset()
    for agent in env.agent_iter():
        obs, reward, done, _, _ = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if done:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert set(totals.values()) <= {1.0, -1.0, 0.0}
    assert sorted(set(totals.values())) == [-1.0, 1.0]


def test_render_gives_the_public_transcript() -> None:
    env = arena.rl.env(board="std9", seed=1, lang="en", render_mode="ansi")
    play(env, 1)
    text = env.render()
    assert isinstance(text, str) and "#1" in text
    assert arena.rl.env(board="std9").render() is None


@pytest.mark.parametrize("preset", ["tournament", "site", "classic"])
def test_every_board_plays_under_every_preset(preset: str) -> None:
    for board in [*BOARDS, *example_boards()]:
        env = arena.rl.env(board=board, preset=preset)
        play(env, 6)
        assert env.referee.finished and not env.agents
