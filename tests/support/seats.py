"""Helpers for model-seat tests over real HTTP: the game's question, games, request checks.

`QUESTION` is a vote question as a game asks it (the legal answers listed in the last user
message) and `ACT` the game's one tool; `answer_of` reads a reply the way `LLMAgent` does.
`check_extensions` asserts the request bodies a stub server recorded form, per seat, one
append-only conversation.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.agents.base import Agent
from arena.agents.model.library import load_library
from arena.agents.model.options import options_text
from arena.agents.model.parsing import parse_answer
from arena.agents.model.probe import VOTE, probe_tool
from arena.agents.preflight import aclose_models
from arena.agents.random_agent import RandomAgent
from arena.llm.types import ChatMessage, ModelReply
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.actions import Action
from arena.rules.config import GameConfig
from arena.rules.referee import Referee
from arena.rules.types import Role
from arena.storage.replay_file import Replay, read_replay

ACT = probe_tool()
"""The `act` tool of a 12-seat board."""
_LIB = load_library("en")
QUESTION = [
    ChatMessage(role="system", content="You are seat #4. Answer by calling `act`."),
    ChatMessage(
        role="user",
        content="\n".join(
            ["Vote now.", _LIB.label("answers"), *options_text(VOTE, _LIB.tools, "1|2|…|12")]
        ),
    ),
]
"""A vote between seats 2 and 7 (or pass), as a game words it."""

CONFIG = GameConfig(
    board="std9",
    deal=(
        Role.VILLAGER,
        Role.WITCH,
        Role.WEREWOLF,
        Role.SEER,
        Role.WEREWOLF,
        Role.HUNTER,
        Role.VILLAGER,
        Role.WEREWOLF,
        Role.VILLAGER,
    ),
)
"""A 9-seat game whose seat 4 is the seer (its first decision takes a seat)."""
NOTED = {"role": "assistant", "content": _LIB.label("noted")}
LIMITS = Limits(beliefs="off", call_timeout_s=10.0)
"""No belief questions (games stay short), and a call limit no stub answer comes near."""


def raw_answer(reply: ModelReply) -> str:
    """The answer as `LLMAgent` reads it: the first tool call's arguments, else the text."""
    return reply.tool_calls[0].arguments if reply.tool_calls else reply.text


def answer_of(reply: ModelReply) -> Action | None:
    """The action a reply to `QUESTION` gives (lenient parse, as a seat would)."""
    return parse_answer(raw_answer(reply), VOTE).action


def play_game(
    agents: Mapping[int, Agent],
    path: Path,
    *,
    limits: Limits = LIMITS,
    config: GameConfig = CONFIG,
    seed: int = 3,
    endpoints: dict[str, Any] | None = None,
) -> tuple[Referee, Replay]:
    """Play one game (random agents in seats not given) and read its replay back."""
    table: dict[int, Agent] = {s: RandomAgent(s) for s in range(1, config.board_spec.seats + 1)}
    table |= dict(agents)

    async def go() -> Referee:
        header = new_header("g", config, seed, table, endpoints=endpoints or {})
        try:
            return await run_game(header, table, path, limits=limits)
        finally:
            await aclose_models(table)

    referee = asyncio.run(go())
    replay = read_replay(path)
    assert replay.header.result is not None
    return referee, replay


def defaults(referee: Referee, seat: int) -> list[ev.ActionDefaulted]:
    """The defaults the referee applied to `seat`."""
    return [e for e in referee.events if isinstance(e, ev.ActionDefaulted) and e.seat == seat]


def messages_of(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every message of every recorded request."""
    return [m for body in bodies for m in body.get("messages") or []]


def is_condensation(messages: list[dict[str, Any]]) -> bool:
    """Whether a request is a condensation point: [system, summary, "Noted.", …]."""
    return len(messages) >= 3 and messages[1]["role"] == "user" and messages[2] == NOTED


def check_extensions(bodies: list[dict[str, Any]]) -> dict[str, int]:
    """Assert each seat's requests extend its previous one; condensations per seat.

    Seats are told apart by their system message. A request keeps every message of the
    previous one byte for byte, except that the previous last user message may have been
    continued by appending text (a question that got no answer); a condensation point
    (`is_condensation`) starts a new chain.
    """
    last: dict[str, list[dict[str, Any]]] = {}
    condensed: dict[str, int] = {}
    for body in bodies:
        messages = body["messages"]
        seat = messages[0]["content"]
        previous = last.get(seat)
        last[seat] = messages
        condensed.setdefault(seat, 0)
        if previous is None:
            continue
        if is_condensation(messages) and not _extends(previous, messages):
            condensed[seat] += 1
            continue
        _assert_extends(previous, messages)
    return condensed


def _extends(previous: list[dict[str, Any]], messages: list[dict[str, Any]]) -> bool:
    try:
        _assert_extends(previous, messages)
    except AssertionError:
        return False
    return True


def _assert_extends(previous: list[dict[str, Any]], messages: list[dict[str, Any]]) -> None:
    head, tail = previous[:-1], previous[-1]
    assert len(messages) >= len(previous), (len(previous), len(messages))
    assert _dumps(messages[: len(head)]) == _dumps(head)
    now = messages[len(head)]
    assert now["role"] == tail["role"]
    assert now["content"].startswith(tail["content"]), (tail["content"], now["content"])
    assert now["content"] == tail["content"] or tail["role"] == "user"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)
