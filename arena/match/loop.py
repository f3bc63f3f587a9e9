"""The match loop: asks the referee's pending decisions of their agents, concurrently.

A batch of simultaneous requests (votes, the night's independent actions) is sent to all
its agents at once, so a game's wall time is its chain of sequential steps, not the sum
of all calls. Each answer is checked with the rules; a late, malformed or illegal answer
is asked again with the error (`Limits.retries` times), then the request's documented
default is applied and recorded as an `ActionDefaulted` event (`arena.match.asking`). A
game never stalls: past the game's time limit every remaining decision is defaulted
without asking. Belief rounds ride along (`arena.match.beliefs`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from arena.agents.base import Accountable, Agent
from arena.agents.traits import ModelSeat, trait
from arena.match.asking import decide, now
from arena.match.beliefs import belief_due, collect_beliefs, folded_belief, folding
from arena.match.limits import GameVoided, Limits, Tally
from arena.rules.observation import Projector
from arena.rules.referee import Referee
from arena.rules.types import SeatId
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import ReplayWriter


class Recorder:
    """Mirrors the referee's new events and answers into a replay writer."""

    def __init__(self, referee: Referee, writer: ReplayWriter | None) -> None:
        self.referee = referee
        self.writer = writer
        self.events_written = 0
        self.answers_written = 0

    def flush(self) -> None:
        """Write what the referee produced since the last flush."""
        if self.writer is None:
            return
        for answer in self.referee.answers[self.answers_written :]:
            self.writer.answer(answer)
        for seq in range(self.events_written, len(self.referee.events)):
            self.writer.event(seq, self.referee.events[seq])
        self.answers_written = len(self.referee.answers)
        self.events_written = len(self.referee.events)


async def play(
    referee: Referee,
    agents: Mapping[SeatId, Agent],
    *,
    writer: ReplayWriter | None = None,
    limits: Limits = Limits(),
    on_event: Callable[[int], None] | None = None,
) -> Referee:
    """Drive `referee` to the end with `agents`, recording into `writer`."""
    recorder = Recorder(referee, writer)
    recorder.flush()
    views = {s: Projector(referee.events, SeatViewer(seat=s)) for s in agents}
    deadline = now() + limits.game_timeout_s
    tally = Tally(limits, {}, {})
    accountable = {s for s, a in agents.items() if _accountable(a)}
    owed: set[SeatId] = set()
    """Seats whose daily belief report is to come with their exile vote."""
    while not referee.finished:
        tasks = [
            asyncio.create_task(
                decide(agents[r.seat], views[r.seat].observe(), r, limits, deadline)
            )
            for r in referee.pending()
        ]
        try:
            for finished in asyncio.as_completed(tasks):
                outcome, replies = await finished
                if writer is not None:
                    for reply in replies:
                        for call in reply.calls:
                            writer.trace(call)
                if outcome.seat in owed:
                    owed.discard(outcome.seat)
                    await folded_belief(outcome, replies, agents, views, writer, limits, deadline)
                before = len(referee.events)
                referee.submit(outcome.seat, outcome.action, defaulted=outcome.defaulted)
                recorder.flush()
                void = tally.count(outcome) if outcome.seat in accountable else None
                if void is not None:
                    raise GameVoided(void)
                if belief_due(referee, before, limits):
                    owed = folding(referee, agents) if limits.beliefs == "daily" else set()
                    await collect_beliefs(
                        referee, agents, views, writer, limits, deadline, skip=owed
                    )
                if on_event is not None:
                    on_event(len(referee.events))
        finally:
            for task in tasks:  # a stopped game stops asking its agents (no-op when done)
                task.cancel()
    return referee


def _accountable(agent: Agent) -> bool:
    """Whether the void rule counts `agent`'s defaults: a model seat's, or a plug-in's."""
    if trait(agent, ModelSeat) is not None:
        return True
    declared = trait(agent, Accountable)
    return declared is not None and bool(declared.accountable)
