"""What `arena tournament run|status` print: progress, failures, spend, and the summary.

Every line is computed from the queue's statuses and the replay folder: a game whose
finished replay is in the folder counts as done whatever the server says, and one the
server no longer knows is `lost` when this machine's receipt says it was submitted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from arena.commands.receipts import submitted_ids
from arena.queue.jobs import (
    FINAL_STATES,
    GameState,
    GameStatus,
    MatchJob,
    Spend,
    quarantined,
    spend_of,
    with_games,
)
from arena.queue.redis_queue import RedisQueue
from arena.queue.results import Collected, finished_replay, replay_path
from arena.rules.roles import is_wolf
from arena.storage.replay_file import read_replay

BAR_WIDTH = 30


def progress_lines(
    statuses: Sequence[GameStatus], spend: dict[str, Spend], *, finished_on_disk: int = 0
) -> list[str]:
    """A progress bar, the counts by state, spend per agent, and the failures."""
    counts = Counter(s.state for s in statuses)
    counts[GameState.DONE] += finished_on_disk
    total = len(statuses) + finished_on_disk
    final = sum(counts[s] for s in FINAL_STATES)
    filled = BAR_WIDTH * final // total if total else BAR_WIDTH
    lines = [
        f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {final}/{total}  "
        + "  ".join(f"{state.value} {counts[state]}" for state in GameState if counts[state])
    ]
    if counts[GameState.LOST]:
        lines.append(
            f"  lost {counts[GameState.LOST]}: submitted, but the server no longer knows them "
            "(restarted without its data?); `arena tournament submit` queues them again"
        )
    for name, used in sorted(spend.items()):
        if used.tokens or used.usd:
            lines.append(f"  {name}: {used.tokens:,} tokens, ${used.usd:.4f}")
    for name, used in sorted(spend.items()):
        paused = quarantined(name, used)
        if paused is not None:
            lines.append(f"  {paused}: its remaining games are skipped")
    for s in statuses:
        if s.state is GameState.FAILED:
            lines.append(f"  failed {s.game_id} after {s.attempts} attempts: {s.error}")
        elif s.state is GameState.SKIPPED and s.result is not None:
            lines.append(f"  skipped {s.game_id}: {s.result.reason}")
    return lines


def summary_lines(
    jobs: Sequence[MatchJob], statuses: Sequence[GameStatus], replays: Path, rate_hint: str
) -> list[str]:
    """The end-of-tournament summary: who won how often, by side, and how to rate it."""
    tally: dict[str, Counter[str]] = {}
    sides: Counter[str] = Counter()
    days = 0
    for job, status in zip(jobs, statuses, strict=True):
        outcome = _outcome(job, status, replays)
        if outcome is None:
            continue
        winner, game_days = outcome
        sides[winner] += 1
        days += game_days
        roles = job.config.deal or ()
        played = {
            (name, "wolves" if seat <= len(roles) and is_wolf(roles[seat - 1]) else "good")
            for seat, name in enumerate(job.seats, start=1)
        }
        for name, side in played:
            counts = tally.setdefault(name, Counter())
            counts[f"{side} games"] += 1
            counts[f"{side} wins"] += winner == side
            counts["draws"] += winner == "draw"
    games = sum(sides.values())
    if not games:
        return ["Summary: no game finished yet"]
    lines = [
        f"Summary: {games} games finished; wolves won {sides['wolves']}, good {sides['good']}, "
        f"draws {sides['draw']}; {days / games:.1f} days on average"
    ]
    for name, c in sorted(tally.items()):
        lines.append(
            f"  {name}: won {c['wolves wins'] + c['good wins']} of "
            f"{c['wolves games'] + c['good games']} (as wolves {c['wolves wins']}/"
            f"{c['wolves games']}, as good {c['good wins']}/{c['good games']}; "
            f"draws {c['draws']})"
        )
    lines.append(f"ratings with intervals: {rate_hint}")
    return lines


def _outcome(job: MatchJob, status: GameStatus, replays: Path) -> tuple[str, int] | None:
    result = status.result
    if result is not None and result.winner is not None:
        return str(result.winner), result.days
    header = finished_replay(replay_path(replays, job.game_id), job)
    if header is None or header.result is None:
        return None
    return str(header.result.winner), header.result.days


def collect_lines(collected: Collected) -> str:
    """What `collect` wrote into the replay folder, and each replay it refused."""
    lines = [f"collected {len(collected.written)} finished replays from Redis"]
    lines += [f"  not collected: {line}" for line in collected.refused]
    return "\n".join(lines)


def status_from_disk(jobs: list[MatchJob], replays: Path) -> tuple[list[str], list[GameStatus]]:
    """Progress lines and statuses from the replay folder alone (no queue to ask)."""
    statuses: list[GameStatus] = []
    spend: dict[str, Spend] = {}
    for job in jobs:
        path = replay_path(replays, job.game_id)
        if finished_replay(path, job) is None:
            state = GameState.RUNNING if path.exists() else GameState.UNKNOWN
            statuses.append(GameStatus(game_id=job.game_id, state=state))
            continue
        statuses.append(GameStatus(game_id=job.game_id, state=GameState.DONE))
        replay = read_replay(path)
        result = replay.header.result
        void = result.reason if result is not None and result.void else None
        for agent, used in with_games(spend_of(replay.traces, job), job, void).items():
            spend[agent] = spend.get(agent, Spend()) + used
    return progress_lines(statuses, spend), statuses


async def status_from_redis(
    url: str, prefix: str, name: str, jobs: list[MatchJob], replays: Path
) -> tuple[list[str], list[GameStatus]]:
    """Progress lines and statuses from the queue, the folder and this machine's receipts."""
    queue = await RedisQueue.connect(url, prefix=prefix)
    try:
        statuses = await queue.statuses([job.game_id for job in jobs])
        spend = await queue.spend(name)
        lost_at = await queue.lost_at()
    finally:
        await queue.close()
    submitted = submitted_ids(replays, prefix, name)
    statuses = [
        _known_here(status, job, replays, submitted)
        for status, job in zip(statuses, jobs, strict=True)
    ]
    lines = progress_lines(statuses, spend)
    unknown = sum(s.state is GameState.UNKNOWN for s in statuses)
    if lost_at is not None and unknown:
        lines.append(
            f"  note: a worker saw Redis lose its data at {lost_at}; {unknown} games it does "
            "not know may have been lost (no receipt of their submission here)"
        )
    return lines, statuses


def _known_here(
    status: GameStatus, job: MatchJob, replays: Path, submitted: set[str]
) -> GameStatus:
    """A game the server does not know: done if its replay is here, lost if queued from here."""
    if status.state is not GameState.UNKNOWN:
        return status
    if finished_replay(replay_path(replays, job.game_id), job) is not None:
        return status.model_copy(update={"state": GameState.DONE})
    if job.game_id in submitted:
        return status.model_copy(update={"state": GameState.LOST})
    return status
