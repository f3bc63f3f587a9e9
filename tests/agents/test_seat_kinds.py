"""Every seat kind the seat specs name is parsed and built as its own kind of seat.

`SeatSpec.kind` (`AgentKind`) is the closed list of what can play a seat. A kind added to
it needs its spec parsed (`arena.agents.seats._agent_spec`) and its seat built
(`build_agents`), whose last branch builds a model seat for any kind it does not name: a
kind forgotten there would sit a chat model silently. docs/architecture.md sends whoever
adds a kind here; a kind with no sample below fails the first test.
"""

from __future__ import annotations

from typing import get_args

import pytest

from arena.agents.bot.agent import BotAgent
from arena.agents.model.agent import LLMAgent
from arena.agents.plugin_seat import PluginAgent
from arena.agents.random_agent import RandomAgent
from arena.agents.remote.client import RemoteAgent
from arena.agents.seats import AgentKind, MatchSpec, build_agents, to_seat_spec
from arena.agents.terminal import TerminalHuman
from arena.llm.langchain_provider import LangChainChatModel
from arena.llm.openai_provider import OpenAIChatModel
from arena.rules.config import GameConfig

SAMPLES: dict[str, tuple[str, type]] = {
    "bot": ("bot", BotAgent),
    "random": ("random", RandomAgent),
    "human": ("human:ann", TerminalHuman),
    "openai": ("openai:gpt-4.1-mini", OpenAIChatModel),
    "langchain": ("langchain:openai:gpt-4.1", LangChainChatModel),
    "remote": ("http://127.0.0.1:9/agent", RemoteAgent),
    "plugin": ("py:tests.exam.agents:bot_twin", PluginAgent),
}
"""A spec of each kind, and the class of the seat it builds (a model seat's chat model)."""


def test_every_seat_kind_has_a_sample() -> None:
    assert set(SAMPLES) == set(get_args(AgentKind))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_seat_kind_parses_to_itself_and_builds_its_own_seat(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    text, built = SAMPLES[kind]
    spec = to_seat_spec(text)
    assert (spec.kind, spec.label) == (kind, text)
    agents = build_agents({1: spec}, GameConfig(board="std9"), seed=1, spec=MatchSpec(lang="en"))
    seat = agents[1]
    if isinstance(seat, LLMAgent):
        seat = seat.chat
    assert isinstance(seat, built)
