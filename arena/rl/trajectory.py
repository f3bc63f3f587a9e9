"""Per-seat trajectories from finished replays, in the environment's terms, for offline RL.

A replay is re-run on its recorded answers (`play_answers`'s walk, step by step); at each
decision of a chosen seat the seat's observation vector and action mask are folded exactly
as `WerewolfEnv` would show them, and the recorded answer is mapped to its action index.
One JSON line per decision (`TrajectoryLine`; docs/agents.md has the format):

- `game_id`, `board`, `seed`, `seat`, `step`, `decision`, `day`, `night`: where it was;
- `observation`: the vector, sparse: `index` and `value` of its non-zero entries
  (`size` entries in all; `dense` rebuilds it);
- `legal`: the indices the mask allows; `options`: the request's legal options as the
  referee states them (action kinds and target seats);
- `action`: the answer's index, or null when no index says it exactly (a free speech
  claiming several things, a wolf's free whisper); `nearest`: the same, except that a
  speech gets the template of its first claim (check, role, suspect, trust);
  `answer`: the answer as recorded;
  `defaulted`: why the arena applied the default instead of an agent's answer, or null;
- `reward`, `done`: 0 and false, except on the seat's last decision of the game, which
  carries the seat's reward (`arena.rl.reward`) and `done: true`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from arena.rl.codec import legal_mask, to_index
from arena.rl.observation import SIZE, Tracker
from arena.rl.reward import seat_rewards
from arena.rules.actions import Action
from arena.rules.decisions import ActionOption
from arena.rules.errors import IllegalActionError
from arena.rules.referee import Referee
from arena.rules.types import Role, SeatId
from arena.storage.replay_file import Replay, ReplayError


class SparseVector(BaseModel):
    """A vector by its non-zero entries."""

    model_config = ConfigDict(frozen=True)

    size: int
    index: list[int]
    value: list[int]


class TrajectoryLine(BaseModel):
    """One decision of one seat (one JSON line of `arena export trajectories`)."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    board: str
    seed: int
    seat: SeatId
    step: int
    decision: str
    day: int
    night: bool
    observation: SparseVector
    legal: list[int]
    options: tuple[ActionOption, ...]
    action: int | None
    nearest: int | None
    answer: Action
    defaulted: str | None
    reward: float
    done: bool


def dense(observation: SparseVector | dict[str, Any]) -> npt.NDArray[np.int8]:
    """The full observation vector of a line's `observation` (parsed or as JSON)."""
    sparse = SparseVector.model_validate(observation)
    vector = np.zeros(sparse.size, dtype=np.int8)
    vector[sparse.index] = sparse.value
    return vector


def trajectories(replay: Replay, seats: Iterable[SeatId] | None = None) -> list[TrajectoryLine]:
    """Every decision of `seats` (all seats when None) in a finished replay, in log order.

    Raises:
        ReplayError: the game is unfinished or voided, or its answers do not re-run.
    """
    header = replay.header
    if header.result is None or header.result.winner is None:
        raise ReplayError(f"game {header.game_id}: unfinished or voided (no winner)")
    config = header.config
    spec = config.board_spec
    wanted = set(seats) if seats is not None else set(range(1, spec.seats + 1))
    claimable = tuple(r for r in Role if r in set(spec.roles))
    referee = Referee(config, header.seed, draw=header.draw)
    tracker = Tracker(sorted(wanted))
    lines: list[TrajectoryLine] = []
    for answer in replay.answers:
        request = referee.asked(answer)
        if request is None:
            raise ReplayError(
                f"game {header.game_id}: answer of seat {answer.seat} at step {answer.step} "
                "matches no open request"
            )
        if answer.seat in wanted:
            tracker.feed(referee.events)
            vector = tracker.vector(answer.seat, request)
            nonzero = np.flatnonzero(vector)
            lines.append(
                TrajectoryLine(
                    game_id=header.game_id,
                    board=spec.id,
                    seed=header.seed,
                    seat=answer.seat,
                    step=answer.step,
                    decision=request.kind,
                    day=request.day,
                    night=request.night,
                    observation=SparseVector(
                        size=SIZE, index=nonzero.tolist(), value=vector[nonzero].tolist()
                    ),
                    legal=np.flatnonzero(legal_mask(request, spec.seats, claimable)).tolist(),
                    options=request.options,
                    action=to_index(answer.action),
                    nearest=to_index(answer.action, nearest=True),
                    answer=answer.action,
                    defaulted=answer.defaulted,
                    reward=0.0,
                    done=False,
                )
            )
        try:
            referee.submit(answer.seat, answer.action, defaulted=answer.defaulted, recorded=True)
        except IllegalActionError as exc:
            raise ReplayError(f"game {header.game_id}: {exc}") from None
    if not referee.finished:
        raise ReplayError(f"game {header.game_id}: its answers do not finish the game")
    return _with_rewards(lines, seat_rewards(referee.state))


def _with_rewards(
    lines: list[TrajectoryLine], rewards: dict[SeatId, float]
) -> list[TrajectoryLine]:
    last = {line.seat: i for i, line in enumerate(lines)}
    for seat, i in last.items():
        lines[i] = lines[i].model_copy(update={"reward": rewards[seat], "done": True})
    return lines


def jsonl(lines: Iterable[TrajectoryLine]) -> Iterator[str]:
    """The lines as JSON text (one object per line, no newline)."""
    for line in lines:
        yield json.dumps(line.model_dump(mode="json"), ensure_ascii=False)
