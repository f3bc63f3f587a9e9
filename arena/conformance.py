"""`arena agent check`: a few short seeded games with one agent, and what it did in them.

The agent under test plays one seat (a different one each game) against bots. Every call
of its `decide` is timed and classified:

- **accepted**: an action the referee takes (legal for the request);
- **refused**: no action, a malformed one, something that is not an `AgentReply`, or an
  illegal action — the runner asks again with the error as feedback;
- **timeout**: no answer within the time limit (asked again too);
- **crash**: `decide` raised (a plug-in's exception reaches the runner as an answer
  starting with "the agent raised").

Each game's end is told to the agent as a game tells it (`Learner.game_over`; a remote
agent's `end`), and the report says, per game, whether it took it (`told`), failed to
(`failed: why`: a remote agent that answered other than HTTP 2xx, a plug-in that raised),
or has no `game_over` (`not a Learner`); the end is no part of the verdict.

A decision that gets no accepted answer within the runner's tries is **defaulted** (an
`ActionDefaulted` event). The agent is conformant when nothing crashed, nothing was
defaulted, and refusals and timeouts together are at most `max_refused` of its calls
(5 % by default: a model seat's occasional slip is tolerated, a habit is not). A game
stops at the agent's first default (the void rule with a threshold of one), and no further
game is played after it: the verdict is already known.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from arena.agents.base import Agent, AgentReply, Learner, TimeLimited
from arena.agents.remote.client import RemoteAgent
from arena.agents.traits import Wrapper, trait
from arena.match import Limits, new_header, run_game
from arena.ratings.stats import quantile
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError
from arena.rules.events import ActionDefaulted, RolesDealt
from arena.rules.observation import Observation
from arena.rules.outcome import GameOver
from arena.rules.types import SeatId

Verdict = Literal["accepted", "refused", "timeout", "crash"]

CRASH_PREFIX = "the agent raised"
"""How a plug-in's exception reaches the runner (`arena.agents.plugin.PluginAgent`)."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call of the agent's `decide`."""

    latency_s: float
    verdict: Verdict
    detail: str | None = None
    """Why it was not accepted."""


class Probe(Wrapper):
    """The agent under test, timing and classifying every `decide` call.

    What else the seat is (`model`, `chat`, `believe`, `slot`, `decision_timeout_s`, …) is
    the agent's own, found through the wrapper (`arena.agents.traits.trait`), so the runner
    treats it exactly as it treats the agent.
    """

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner)
        self.calls: list[Call] = []
        self.end = "not told"
        """How the agent took the game's end."""

    async def game_over(self, view: Observation, end: GameOver) -> None:
        """Tell the agent the end, as a game does, and note how it took it."""
        learner = trait(self.inner, Learner)
        if learner is None:
            self.end = "not a Learner (no game_over)"
            return
        try:
            await learner.game_over(view, end)
        except Exception as exc:
            self.end = f"failed: {type(exc).__name__}: {exc}"
            raise
        self.end = f"told (side {end.side}, reward {end.reward:+g})"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """The agent's answer, recorded."""
        start = time.perf_counter()
        try:
            reply = await self.inner.decide(view, request, feedback)
        except asyncio.CancelledError:
            self._record(start, "timeout", "no answer within the time limit")
            raise
        except Exception as exc:
            self._record(start, "crash", f"{type(exc).__name__}: {exc}")
            raise
        self._record(start, *_classify(reply, request))
        return reply

    def _record(self, start: float, verdict: Verdict, detail: str | None) -> None:
        self.calls.append(Call(time.perf_counter() - start, verdict, detail))


def _classify(reply: object, request: DecisionRequest) -> tuple[Verdict, str | None]:
    if not isinstance(reply, AgentReply):
        return "refused", f"returned {type(reply).__name__}, not an AgentReply"
    if reply.action is None:
        error = reply.error or "no action in the reply"
        return ("crash" if error.startswith(CRASH_PREFIX) else "refused"), error
    try:
        check_legal(request, reply.action)
    except IllegalActionError as exc:
        return "refused", str(exc)
    return "accepted", None


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of the check."""

    seed: int
    seat: SeatId
    role: str
    result: str
    """The winner, or why the game stopped."""
    decisions: int
    defaults: tuple[str, ...]
    """The reasons of the agent's defaulted decisions."""
    replay: Path | None
    end: str = "not told"
    """How the agent took the game's end (`Probe.game_over`)."""


@dataclass(slots=True)
class Report:
    """What the agent did over the check's games, and the verdict."""

    spec: str
    board: str
    timeout_s: float
    """The agent's limit per decision (its own, else the check's)."""
    max_refused: float
    games: list[GameLine] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    overage_s: float = 0.0
    """A remote agent's overage budget per game, beyond its limit per decision."""

    def count(self, verdict: Verdict) -> int:
        """Calls with `verdict`."""
        return sum(1 for c in self.calls if c.verdict == verdict)

    @property
    def defaults(self) -> int:
        """Decisions of the agent the arena defaulted."""
        return sum(len(g.defaults) for g in self.games)

    @property
    def refused_share(self) -> float:
        """Refused and timed-out calls over all calls."""
        bad = self.count("refused") + self.count("timeout")
        return bad / len(self.calls) if self.calls else 0.0

    @property
    def problems(self) -> list[str]:
        """Why the agent is not conformant (empty: it is)."""
        found = []
        if self.count("crash"):
            found.append(f"crashes: {self.count('crash')}")
        if self.defaults:
            found.append(f"decisions defaulted: {self.defaults}")
        if self.refused_share > self.max_refused:
            found.append(
                f"{self.refused_share:.1%} of answers refused or late "
                f"(at most {self.max_refused:.1%} allowed)"
            )
        if not self.calls:
            found.append("it was never asked anything")
        return found

    @property
    def conformant(self) -> bool:
        """No crash, no default, refusals within the threshold."""
        return not self.problems

    def latency_ms(self) -> dict[str, float]:
        """p50, p95 and max of the calls' latencies, in milliseconds."""
        values = [c.latency_s * 1000 for c in self.calls]
        if not values:
            return {"p50": 0.0, "p95": 0.0, "max": 0.0}
        return {"p50": quantile(values, 0.5), "p95": quantile(values, 0.95), "max": max(values)}

    def to_json(self) -> dict[str, Any]:
        """The report as plain data (`--json`)."""
        return {
            "spec": self.spec,
            "board": self.board,
            "conformant": self.conformant,
            "problems": self.problems,
            "calls": len(self.calls),
            **{v: self.count(v) for v in ("accepted", "refused", "timeout", "crash")},
            "defaulted": self.defaults,
            "refused_share": round(self.refused_share, 4),
            "latency_ms": {k: round(v, 3) for k, v in self.latency_ms().items()},
            "timeout_s": self.timeout_s,
            "overage_s": self.overage_s,
            "games": [
                {
                    "seed": g.seed,
                    "seat": g.seat,
                    "role": g.role,
                    "result": g.result,
                    "decisions": g.decisions,
                    "defaults": list(g.defaults),
                    "replay": None if g.replay is None else str(g.replay),
                    "end": g.end,
                }
                for g in self.games
            ],
            "examples": self.examples(),
        }

    def examples(self, limit: int = 5) -> list[str]:
        """The first few distinct reasons an answer was not accepted."""
        seen: list[str] = []
        for call in self.calls:
            text = f"{call.verdict}: {call.detail}"
            if call.verdict != "accepted" and text not in seen:
                seen.append(text)
        return seen[:limit]


def _limit(agent: Agent, timeout_s: float) -> tuple[float, float]:
    """The agent's limit per decision, and its overage budget per game.

    A remote agent's own limit and budget (its backstop, a second later, is no limit of
    its own); any other seat's own limit (`TimeLimited`), else the check's `timeout_s`.
    """
    remote = trait(agent, RemoteAgent)
    if remote is not None:
        return remote.limit_s, remote.overage_s
    timed = trait(agent, TimeLimited)
    own = timed.decision_timeout_s if timed is not None else None
    return (own if isinstance(own, int | float) and own > 0 else timeout_s), 0.0


SeatFactory = Callable[[SeatId, int], Agent]
"""`(seat, game seed) -> Agent`: builds a seat's agent for one game."""


async def check_agent(
    spec: str,
    make: SeatFactory,
    bots: SeatFactory,
    config: GameConfig,
    *,
    games: int,
    seed: int,
    timeout_s: float,
    max_refused: float = 0.05,
    replays: Path | None = None,
    before: Callable[[dict[SeatId, Agent]], Any] | None = None,
) -> Report:
    """Play up to `games` games, the agent in seat `g % seats + 1` of game `g`, seed `seed + g`.

    `before(agents)` runs before each game (the endpoint preflight, which may raise).
    """
    report = Report(spec, config.board_id, timeout_s, max_refused)
    limits = Limits(
        call_timeout_s=timeout_s, void_after_defaults=1, void_default_share=0.0, beliefs="off"
    )
    seats = config.board_spec.seats
    for game in range(games):
        seat, game_seed = game % seats + 1, seed + game
        probe = Probe(make(seat, game_seed))
        report.timeout_s, report.overage_s = _limit(probe, timeout_s)
        agents: dict[SeatId, Agent] = {s: bots(s, game_seed) for s in range(1, seats + 1)}
        agents[seat] = probe
        if before is not None:
            await before(agents)
        path = None if replays is None else replays / f"check-{game_seed}-seat{seat}.jsonl"
        header = new_header(f"check-{game_seed}", config, game_seed, agents)
        referee = await run_game(header, agents, path, limits=limits)
        report.calls.extend(probe.calls)
        dealt = next(e for e in referee.events if isinstance(e, RolesDealt))
        defaults = tuple(
            e.reason for e in referee.events if isinstance(e, ActionDefaulted) and e.seat == seat
        )
        result = str(referee.winner) if referee.finished else "stopped at the first default"
        decided = sum(1 for a in referee.answers if a.seat == seat)
        role = str(dealt.roles[seat - 1])
        line = GameLine(game_seed, seat, role, result, decided, defaults, path, probe.end)
        report.games.append(line)
        if defaults:
            break
    return report
