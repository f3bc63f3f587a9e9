"""Hand-built replays and results for the ratings tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.llm.types import ModelCallRecord, Usage
from arena.ratings.results import GameResult, SeatResult
from arena.records import BeliefReport
from arena.rules.actions import Claims, Pass
from arena.rules.config import GameConfig
from arena.rules.events import (
    Event,
    PhaseStarted,
    PlayerExiled,
    RolesDealt,
    Spoke,
    VoteCast,
    WolfWhispered,
)
from arena.rules.referee import Answer
from arena.rules.roles import team_of
from arena.rules.types import Phase, Role, SeatId, SpeechContext, Team, Winner
from arena.rules.visibility import PUBLIC, REFEREE
from arena.storage.replay_file import Replay, ReplayHeader, ReplayResult, SeatAgent

W, SEER, WITCH, HUNTER, V = Role.WEREWOLF, Role.SEER, Role.WITCH, Role.HUNTER, Role.VILLAGER
STD9: tuple[Role, ...] = (W, W, W, SEER, WITCH, HUNTER, V, V, V)
"""Seats 1-3 are wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers."""


def deal(roles: Sequence[Role] = STD9) -> RolesDealt:
    return RolesDealt(visibility=REFEREE, roles=tuple(roles))


def phase(p: Phase, day: int) -> PhaseStarted:
    return PhaseStarted(visibility=PUBLIC, phase=p, day=day)


def speech(
    seat: SeatId, text: str = "", role: Role | None = None, context: SpeechContext = "day"
) -> Spoke:
    return Spoke(
        visibility=PUBLIC,
        seat=seat,
        text=text or f"{seat}號發言",
        claims=Claims(role=role),
        context=context,
    )


def vote(voter: SeatId, target: SeatId | None, ballot: str = "exile") -> VoteCast:
    return VoteCast.model_validate(
        {"visibility": PUBLIC, "ballot": ballot, "voter": voter, "target": target, "weight": 1.0}
    )


def exiled(seat: SeatId) -> PlayerExiled:
    return PlayerExiled(visibility=PUBLIC, seat=seat)


def whisper(seat: SeatId, text: str) -> WolfWhispered:
    return WolfWhispered(visibility=REFEREE, seat=seat, text=text, round=1)


def belief(seat: SeatId, after_seq: int, probs: dict[int, float], day: int = 1) -> BeliefReport:
    return BeliefReport(seat=seat, day=day, after_seq=after_seq, wolf_probability=probs)


def answer(seat: SeatId, step: int, defaulted: str | None = None) -> Answer:
    return Answer(step=step, seat=seat, action=Pass(), defaulted=defaulted)


def call(
    seat: SeatId,
    step: int,
    attempt: int = 1,
    tokens: tuple[int, int] = (0, 0),
    cost: float = 0.0,
    model: str = "m1",
) -> ModelCallRecord:
    return ModelCallRecord(
        seat=seat,
        step=step,
        attempt=attempt,
        model=model,
        prompt_id="p@1",
        messages=(),
        tools=(),
        reply=None,
        usage=Usage(prompt_tokens=tokens[0], completion_tokens=tokens[1]),
        cost_usd=cost,
    )


def make_replay(
    events: Sequence[Event],
    *,
    agents: Sequence[str] = ("a",) * 9,
    winner: Winner | None = Winner.GOOD,
    answers: Sequence[Answer] = (),
    traces: Sequence[ModelCallRecord] = (),
    beliefs: Sequence[BeliefReport] = (),
    game_id: str = "t1",
) -> Replay:
    """A replay around `events` (which should start with `deal()`)."""
    result = (
        None
        if winner is None
        else ReplayResult(winner=winner, reason="test", days=1, events=len(events))
    )
    header = ReplayHeader(
        game_id=game_id,
        created_at="2025-01-01T00:00:00+00:00",
        config=GameConfig(board="std9"),
        seed=0,
        seats=tuple(SeatAgent(seat=i, agent=a) for i, a in enumerate(agents, start=1)),
        result=result,
    )
    return Replay(
        header=header,
        events=tuple(events),
        answers=tuple(answers),
        traces=tuple(traces),
        beliefs=tuple(beliefs),
        event_lines=tuple(range(2, len(events) + 2)),
    )


def team_game(
    game_id: str, wolves: str, good: str, winner: Winner, roles: Sequence[Role] = STD9
) -> GameResult:
    """A result where agent `wolves` holds every wolf seat and `good` every good seat."""
    seats = tuple(
        SeatResult(
            seat=i, agent=wolves if team_of(r) is Team.WOLF else good, role=r, team=team_of(r)
        )
        for i, r in enumerate(roles, start=1)
    )
    return GameResult(
        game_id=game_id,
        created_at="2025-01-01T00:00:00+00:00",
        board="std9",
        winner=winner,
        days=3,
        seats=seats,
    )


def planted_tournament(
    agents: Sequence[str] = ("A", "B", "C"), rounds: int = 100, seed: int = 2024
) -> list[GameResult]:
    """Every ordered pairing `rounds` times; `A` wins as wolves with p=0.75, others 0.5."""
    rng = random.Random(seed)
    games: list[GameResult] = []
    for r in range(rounds):
        for wolves in agents:
            for good in agents:
                if wolves == good:
                    continue
                p = 0.75 if wolves == "A" else 0.5
                winner = Winner.WOLVES if rng.random() < p else Winner.GOOD
                games.append(team_game(f"g{len(games):05d}-{r}", wolves, good, winner))
    return games


def three_agent_game() -> GameResult:
    """Six seats: `big` holds 2 of the 3 wolf seats, `small` the third, `g` every good seat."""
    roles = (Role.WEREWOLF,) * 3 + (Role.VILLAGER,) * 3
    agents = ("big", "big", "small", "g", "g", "g")
    seats = tuple(
        SeatResult(seat=i, agent=a, role=r, team=Team.WOLF if r is Role.WEREWOLF else Team.GOOD)
        for i, (a, r) in enumerate(zip(agents, roles, strict=True), start=1)
    )
    return GameResult(
        game_id="g", created_at="t", board="std9", winner=Winner.WOLVES, days=1, seats=seats
    )
