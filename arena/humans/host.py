"""Hosting a game with people (created by `lobby.create_game`) to an ordinary replay.

`host_game` plays it: people's seats are `BrowserSeat`s,
the others bots, random players or model seats. After every answer the host publishes,
for each human seat, the new events of that seat's `observe` projection, and the public
status (who is speaking). The seed is drawn secretly when the game starts and stays in
the replay file, which is written outside the replay folder while the game runs (so no
page can open it) and moved in when the game ends.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

from arena.agents.base import Agent
from arena.humans.access import seen_line
from arena.humans.desk import Desk, Status, Table
from arena.humans.seat import BrowserSeat
from arena.match import Limits, new_header, play, result_of, secret_seed
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind
from arena.rules.errors import ArenaError
from arena.rules.observation import Projector
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import ReplayWriter
from arena.transcript import Lang


def live_folder(replays: Path) -> Path:
    """Where running games are written: beside the replay folder, never inside it.

    A page can open any file inside the replay folder by name, and a running game's file
    holds the seed and every role.
    """
    folder = replays.resolve()
    return folder.parent / f".{folder.name}-live"


def _bot(seed: int, lang: Lang) -> Agent:
    from arena.agents.bot import BotAgent

    agent: Agent = BotAgent(seed, lang=lang)
    return agent


def seat_agents(
    desk: Desk, table: Table, config: GameConfig, seed: int, poll_s: float
) -> dict[int, Agent]:
    """One agent per seat of `table`."""
    from arena.agents.random_agent import RandomAgent

    agents: dict[int, Agent] = {}
    for seat, plan in sorted(table.seats.items()):
        if plan.kind == "human":
            agents[seat] = BrowserSeat(
                desk,
                table.game_id,
                seat,
                plan.name or f"seat{seat}",
                _bot(seed * 1000 + seat, table.lang),
                decision_timeout_s=table.decision_timeout_s,
                speech_timeout_s=table.speech_timeout_s,
                handover_after=table.handover_after,
                poll_s=poll_s,
            )
        elif plan.kind == "random":
            agents[seat] = RandomAgent(seed * 1000 + seat)
        elif plan.kind == "model":
            from arena.agents.factory import MatchSpec, build_agents, parse_seat_spec

            spec = parse_seat_spec(f"{seat}={plan.name}", len(table.seats))
            agents.update(build_agents(spec, config, seed, MatchSpec(lang=table.lang)))
        else:
            agents[seat] = _bot(seed * 1000 + seat, table.lang)
    return agents


class Publisher:
    """Publishes each human seat's new visible events and the public status."""

    def __init__(self, desk: Desk, game_id: str, referee: Referee, seats: list[int]) -> None:
        self.desk = desk
        self.game_id = game_id
        self.referee = referee
        self._views = {s: Projector(referee.events, SeatViewer(seat=s)) for s in seats}
        self._sent = dict.fromkeys(seats, 0)

    def push(self, _events: int = 0) -> None:
        """Publish what happened since the last push."""
        for seat, projector in self._views.items():
            seen = projector.observe().seen
            self.desk.append_view(
                self.game_id, seat, [seen_line(s.seq, s.event) for s in seen[self._sent[seat] :]]
            )
            self._sent[seat] = len(seen)
        pending = [] if self.referee.finished else self.referee.pending()
        speaking = next((r.seat for r in pending if r.kind is DecisionKind.SPEECH), None)
        self.desk.set_status(
            self.game_id,
            Status(state="running", speaking=speaking, events=len(self.referee.events)),
        )


async def host_game(
    desk: Desk,
    game_id: str,
    replays: Path,
    live: Path,
    *,
    seed: int | None = None,
    poll_s: float = 0.1,
) -> Path:
    """Play a created game to the end; returns the finished replay's path.

    Raises:
        ArenaError: an unknown game.
    """
    table = desk.table(game_id)
    if table is None:
        raise ArenaError(f"no game {game_id}")
    config = GameConfig(board=table.board, preset=table.preset)
    seed = secret_seed() if seed is None else seed
    agents = seat_agents(desk, table, config, seed, poll_s)
    humans = sorted(s for s, a in agents.items() if isinstance(a, BrowserSeat))
    header = new_header(game_id, config, seed, agents)
    running = live / f"{game_id}.jsonl"
    writer = ReplayWriter(running, header)
    referee = Referee(config, seed)
    publisher = Publisher(desk, game_id, referee, humans)
    publisher.push()
    longest = max(table.decision_timeout_s, table.speech_timeout_s)
    limits = Limits(call_timeout_s=longest + 60.0, beliefs="off")
    try:
        await play(referee, agents, writer=writer, limits=limits, on_event=publisher.push)
    except BaseException as exc:
        writer.close()
        desk.set_status(game_id, Status(state="failed", error=str(exc) or type(exc).__name__))
        raise
    publisher.push()
    handovers = tuple(
        a.handover for a in agents.values() if isinstance(a, BrowserSeat) and a.handover
    )
    writer.header = writer.header.model_copy(update={"handovers": handovers})
    writer.finish(result_of(referee))
    replays.mkdir(parents=True, exist_ok=True)
    final = replays / running.name
    running.replace(final)
    desk.set_status(
        game_id,
        Status(
            state="finished",
            events=len(referee.events),
            winner=str(referee.winner),
            replay=final.name,
        ),
    )
    return final


def host_in_thread(desk: Desk, game_id: str, replays: Path, live: Path) -> threading.Thread:
    """Host the game in a background thread of this process (single-machine play)."""

    def run() -> None:
        try:
            asyncio.run(host_game(desk, game_id, replays, live))
        except Exception:  # recorded in the game's status by host_game
            logging.getLogger(__name__).exception("game %s failed", game_id)

    thread = threading.Thread(
        target=run,
        name=f"host-{game_id}",
        daemon=True,
    )
    thread.start()
    return thread
