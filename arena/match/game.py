"""A whole game to its replay file: a new one (`run_game`), or one resumed (`resume_game`).

Every event, answer and model call is appended to the replay file as it happens, so a
game killed mid-way resumes from its partial file. Once the replay is finished, every seat
that learns is told how the game ended (`arena.match.ending`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from arena.agents.base import Agent
from arena.agents.traits import HandsOver, trait
from arena.errors import ArenaError
from arena.match.ending import tell_end
from arena.match.header import result_of
from arena.match.limits import GameVoided, Limits
from arena.match.loop import play
from arena.rules.config import GameConfig
from arena.rules.referee import Referee, play_answers
from arena.rules.types import SeatId
from arena.storage.replay_file import ReplayHeader, ReplayWriter, read_replay


async def run_game(
    header: ReplayHeader,
    agents: Mapping[SeatId, Agent],
    path: Path | None,
    *,
    limits: Limits = Limits(),
    progress: Callable[[Referee], None] | None = None,
) -> Referee:
    """Play a new game, writing its replay to `path` (None: keep it in memory only).

    `progress` is called with the referee after every answer (a slow game's heartbeat).
    """
    _check_seats(header.config, agents)
    writer = ReplayWriter(path, header) if path is not None else None
    referee = Referee(header.config, header.seed, draw=header.draw)
    void = await _play_or_void(referee, agents, writer, limits, progress)
    if writer is not None:
        _note_handovers(writer, agents)
        writer.finish(result_of(referee, void))
    await tell_end(referee, agents, void, limits.call_timeout_s)
    return referee


def _note_handovers(writer: ReplayWriter, agents: Mapping[SeatId, Agent]) -> None:
    """Add to the header the seats whose agents handed them over (`agent.handover`).

    A person's seat played by a bot, or by the arena's defaults once the terminal closed,
    is recorded, so ratings do not count it as the person's (`arena.ratings.results`).
    """
    found = [trait(agent, HandsOver) for _, agent in sorted(agents.items())]
    new = tuple(h.handover for h in found if h is not None and h.handover is not None)
    known = {h.seat for h in writer.header.handovers}
    fresh = tuple(h for h in new if h.seat not in known)
    if fresh:
        handovers = writer.header.handovers + fresh
        writer.header = writer.header.model_copy(update={"handovers": handovers})


async def _play_or_void(
    referee: Referee,
    agents: Mapping[SeatId, Agent],
    writer: ReplayWriter | None,
    limits: Limits,
    progress: Callable[[Referee], None] | None = None,
) -> str | None:
    """Play to the end; the void reason if the game was voided instead."""
    tick = None if progress is None else (lambda _: progress(referee))
    try:
        await play(referee, agents, writer=writer, limits=limits, on_event=tick)
    except GameVoided as voided:
        return voided.reason
    return None


async def resume_game(
    path: Path, agents: Mapping[SeatId, Agent], *, limits: Limits = Limits()
) -> Referee:
    """Continue a game from its partial replay: re-run the recorded answers, then play on.

    The file is rewritten from what re-running produced (so a torn last line from a crash
    is dropped) before play continues.
    """
    replay = read_replay(_drop_torn_tail(path))
    _check_seats(replay.header.config, agents)
    header = replay.header
    referee = play_answers(header.config, header.seed, replay.answers, draw=header.draw)
    writer = ReplayWriter(path, replay.header.model_copy(update={"result": None}))
    for trace in replay.traces:
        writer.trace(trace)
    void = await _play_or_void(referee, agents, writer, limits)
    _note_handovers(writer, agents)
    writer.finish(result_of(referee, void))
    await tell_end(referee, agents, void, limits.call_timeout_s)
    return referee


def _drop_torn_tail(path: Path) -> Path:
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
    return path


def _check_seats(config: GameConfig, agents: Mapping[SeatId, Agent]) -> None:
    seats = set(range(1, config.board_spec.seats + 1))
    if set(agents) != seats:
        missing = sorted(seats - set(agents))
        extra = sorted(set(agents) - seats)
        raise ArenaError(
            f"agents must cover seats 1-{len(seats)}: missing {missing}, extra {extra}"
        )
