from __future__ import annotations

import asyncio
from pathlib import Path

from arena.agents.base import AgentReply
from arena.agents.bot.agent import BotAgent
from arena.agents.random_agent import RandomAgent
from arena.match import Limits, new_header, resume_game, run_game
from arena.records import BeliefReport
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.actions import Vote
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.observation import Observation
from arena.storage.replay_file import read_replay

CONFIG = GameConfig(board="wwk_guard")
FAST = Limits(call_timeout_s=0.05, retries=2)


class Faulty:
    """An agent that fails in a chosen way on every request."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.calls = 0

    @property
    def name(self) -> str:
        return f"faulty-{self.mode}"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        self.calls += 1
        if self.mode == "hang":
            await asyncio.sleep(10)
        if self.mode == "raise":
            raise InvalidActionError("malformed tool call: not JSON")
        if self.mode == "illegal":
            return AgentReply(action=Vote(target=99))
        if self.mode == "crash":  # a bug in the agent, not an `ArenaError`
            raise ZeroDivisionError("division by zero")
        if self.mode == "garbage":
            return "vote 3"  # type: ignore[return-value]
        return AgentReply(action=None, error="the model answered without a tool call")


def _agents(faulty_seat: int, mode: str) -> dict:
    agents: dict = {s: RandomAgent(s) for s in range(1, 13)}
    agents[faulty_seat] = Faulty(mode)
    return agents


def test_each_kind_of_bad_answer_ends_in_a_recorded_default(tmp_path: Path) -> None:
    for mode in ("hang", "raise", "illegal", "empty", "crash", "garbage"):
        agents = _agents(3, mode)
        path = tmp_path / f"{mode}.jsonl"
        referee = asyncio.run(
            run_game(new_header(mode, CONFIG, 4, agents), agents, path, limits=FAST)
        )
        assert referee.finished
        defaults = [e for e in referee.events if isinstance(e, ev.ActionDefaulted)]
        assert defaults and all(e.seat == 3 for e in defaults)
        assert "after 3 tries" in defaults[0].reason
        assert agents[3].calls == 3 * len(defaults)
        assert check_replay(path).ok


def test_a_killed_game_resumes_to_the_same_log(tmp_path: Path) -> None:
    agents = {s: RandomAgent(s) for s in range(1, 13)}
    whole = tmp_path / "whole.jsonl"
    asyncio.run(run_game(new_header("g", CONFIG, 8, agents), agents, whole))
    lines = whole.read_text().splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(lines[: len(lines) // 3]) + lines[len(lines) // 3][:15])
    fresh = {s: RandomAgent(s) for s in range(1, 13)}
    # the fresh agents' random streams differ from the originals from here on, so compare
    # the prefix that was recorded and check the resumed file as a whole
    referee = asyncio.run(resume_game(partial, fresh))
    assert referee.finished
    recorded = read_replay(whole).events
    resumed = read_replay(partial).events
    prefix = sum(1 for line in lines[: len(lines) // 3] if '"type":"event"' in line)
    assert [e.model_dump() for e in resumed[:prefix]] == [e.model_dump() for e in recorded[:prefix]]
    report = check_replay(partial)
    assert report.ok and report.finished, report.message


def test_a_killed_bot_game_resumes_to_the_identical_log(tmp_path: Path) -> None:
    """Bots are stateless (every choice keyed by seed and decision), so a resumed game
    plays on exactly as the uninterrupted one did: same events, same speeches."""

    def bots() -> dict:
        return {s: BotAgent(seed=100 + s) for s in range(1, 13)}

    whole = tmp_path / "whole.jsonl"
    agents = bots()
    asyncio.run(run_game(new_header("g", CONFIG, 8, agents), agents, whole))
    lines = whole.read_text().splitlines(keepends=True)
    for cut in (len(lines) // 4, len(lines) // 2, len(lines) - 5):
        partial = tmp_path / f"partial-{cut}.jsonl"
        partial.write_text("".join(lines[:cut]) + lines[cut][:15])
        referee = asyncio.run(resume_game(partial, bots()))
        assert referee.finished
        assert [e.model_dump() for e in read_replay(partial).events] == [
            e.model_dump() for e in read_replay(whole).events
        ]


class BadBeliever(RandomAgent):
    """Plays randomly; its belief reports raise, are garbage, or name another seat."""

    def __init__(self, seed: int, mode: str) -> None:
        super().__init__(seed)
        self.seat = seed
        self.mode = mode
        self.asked = 0

    async def believe(self, view: Observation) -> object:
        self.asked += 1
        if self.mode == "crash":
            raise RuntimeError("belief model not loaded")
        if self.mode == "garbage":
            return {"3": 0.5}
        return BeliefReport(seat=self.seat + 1, day=0, after_seq=0, wolf_probability={2: 0.5})


def test_a_belief_question_that_fails_is_skipped_not_fatal(tmp_path: Path) -> None:
    for mode in ("crash", "garbage", "other-seat"):
        agents = {s: BadBeliever(s, mode) for s in range(1, 13)}
        path = tmp_path / f"{mode}.jsonl"
        referee = asyncio.run(run_game(new_header(mode, CONFIG, 4, agents), agents, path))
        assert referee.finished and sum(a.asked for a in agents.values()) > 0
        assert read_replay(path).beliefs == ()


class SlowBeliever(RandomAgent):
    """Plays at once, with its own 0.05 s limit; its belief reports never come."""

    decision_timeout_s = 0.05

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.cut = 0

    async def believe(self, view: Observation) -> BeliefReport:
        try:
            await asyncio.sleep(3600)
        finally:
            self.cut += 1
        raise AssertionError("unreachable")

    def pending_traces(self) -> tuple[()]:
        return ()


def test_a_seat_s_own_limit_holds_its_belief_questions_too() -> None:
    """A seat that answers its decisions at once but never its belief questions."""
    agents = {s: SlowBeliever(s) for s in range(1, 13)}
    limits = Limits(call_timeout_s=3600)
    referee = asyncio.run(
        run_game(new_header("slow", CONFIG, 4, agents), agents, None, limits=limits)
    )
    assert referee.finished and sum(a.cut for a in agents.values()) > 0
