"""The text form: the chat a model seat would be sent, from the seat's own view."""

import numpy as np

import arena.rl
from arena.agents.model.conversation import decision_question
from arena.agents.model.library import load_library
from arena.rl.environment import seat_of
from arena.rules.observation import observe
from arena.rules.visibility import SeatViewer


def test_text_mode_gives_each_seat_its_model_turn() -> None:
    env = arena.rl.env(board="std9", seed=3, lang="en", text=True)
    env.reset()
    asked = 0
    for agent in env.agent_iter(60):
        obs, _, done, _, info = env.last()
        if done:
            env.step(None)
            continue
        seat = seat_of(agent)
        request = env.referee.request_for(seat)
        view = observe(env.referee.events, SeatViewer(seat=seat))
        question = decision_question(view, request, load_library("en"))
        assert info["text"].endswith(question)
        chat = env.chat(agent)
        assert chat is not None and chat.messages[0].role == "system"
        assert chat.messages[-1].content == info["text"]
        asked += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert asked > 30


def test_without_text_mode_infos_stay_empty() -> None:
    env = arena.rl.env(board="std9", seed=3)
    env.reset()
    assert env.last()[4] == {}
    assert env.chat(env.agent_selection) is None
