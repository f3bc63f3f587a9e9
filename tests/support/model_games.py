"""Short games with one model seat on a real server, and what that seat was asked.

Shared by the real-model tests (tests/realmodel) and `benchmarks/model_roles.py`.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from pathlib import Path

from arena.agents.preflight import aclose_models, preflight
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats
from arena.match import Limits, new_header, run_game
from arena.rules.boards import BOARDS
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind
from arena.rules.referee import Answer, Referee
from arena.rules.types import Role
from arena.storage.replay_file import Replay

SHORT = {"max_days": 2, "speech_chars": 240, "sheriff_speech_chars": 240, "last_words_chars": 160}
"""Two days and short speeches: a game a small model on two cores plays in minutes."""


def seat_one_holds(board: str, role: Role, seed: int) -> GameConfig:
    """A short game of `board` whose seat 1 holds `role` (the other cards shuffled by seed)."""
    others = list(BOARDS[board].roles)
    others.remove(role)
    random.Random(seed).shuffle(others)
    return GameConfig(board=board, deal=(role, *others), overrides=SHORT)


PROVIDERS = ("langchain", "openai")
"""The providers a model seat talks through (`openai:MODEL`, `langchain:openai:MODEL`)."""


def play_model_seat(
    url: str,
    path: Path,
    provider: str,
    lang: str,
    seed: int,
    config: GameConfig,
    model: str = "smollm2",
    seats: str = "1",
) -> None:
    """Play one game with `model` (through `provider`) in `seats` and bots elsewhere.

    Timeouts are generous (a 135M model on two loaded cores takes up to minutes a reply);
    replies are capped at 200 tokens and the history at 2,500, so a game fits in CI.
    """
    options = {"api_key": "not-needed"} if provider == "langchain" else {}
    settings = EndpointSettings(
        base_url=url, timeout_s=240, retries=1, max_tokens=200,
        decision_timeout_s=300, history_tokens=2500, options=options,
    )  # fmt: skip
    spec = MatchSpec(lang=lang, endpoints={provider: settings})
    table = BOARDS[config.board].seats if isinstance(config.board, str) else config.board.seats
    seat = f"openai:{model}" if provider == "openai" else f"langchain:openai:{model}"
    agents = build_agents(parse_seats([f"{seats}={seat}"], table), config, seed, spec)

    async def go() -> None:
        try:
            endpoints = await preflight(agents, timeout_s=900)
            header = new_header("real", config, seed, agents, endpoints=endpoints)
            limits = Limits(call_timeout_s=300, beliefs="daily")
            await run_game(header, agents, path, limits=limits)
        finally:
            await aclose_models(agents)

    asyncio.run(go())


def answers_by_kind(
    replay: Replay, config: GameConfig, seat: int
) -> dict[DecisionKind, list[Answer]]:
    """`seat`'s accepted answers grouped by the kind of decision each answered.

    The replay stores answers, not requests: the referee is re-run on them to learn what
    each answer was asked (as validation does).
    """
    referee = Referee(config, replay.header.seed, draw=replay.header.draw)
    asked: dict[DecisionKind, list[Answer]] = defaultdict(list)
    for answer in replay.answers:
        request = referee.request_for(answer.seat)
        if request is None:
            raise ValueError(f"answer at step {answer.step} matches no open request")
        if answer.seat == seat:
            asked[request.kind].append(answer)
        referee.submit(answer.seat, answer.action, defaulted=answer.defaulted)
    return dict(asked)
