"""Hosting a game with people (created by `lobby.create_game`) to an ordinary replay.

`host_game` plays it: people's seats are `BrowserSeat`s, the others bots, random players,
model seats or remote agents (a "model" seat named by a URL). Before the game, the seats
are prepared as `arena play`'s are (`arena.prepare.prepare_game`: model seats' endpoints
probed, remote agents greeted): one that cannot play fails the game in one line (its
status `failed`, shown on the Play page) before any event, instead of a game played on
defaults. After every answer the host publishes, for each human seat, the new events of that
seat's `observe` projection, the public projection (view `PUBLIC_SEAT`, for spectators), and
the public status (who is speaking), held to the game's `Pace` (`arena.humans.pace`). The
seed is drawn secretly when the game starts and stays in the replay file, which is written
outside the replay folder while the game runs (so no page can open it) and moved in when the
game ends.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

from arena.agents.base import Agent
from arena.agents.browser import BrowserSeat
from arena.errors import ArenaError
from arena.humans.pace import Pacer, paced
from arena.match import Limits, play, result_of, secret_seed
from arena.prepare import GamePlan, Prepared, prepare_game
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind
from arena.rules.observation import Projector, observe
from arena.rules.referee import Referee
from arena.rules.visibility import PublicViewer, SeatViewer
from arena.storage.desk import PUBLIC_SEAT, Desk, Status, Table, view_line
from arena.storage.replay_file import ReplayWriter
from arena.text.script import Display, agent_lang, display_of


def live_folder(replays: Path) -> Path:
    """Where running games are written: beside the replay folder, never inside it.

    A page can open any file inside the replay folder by name, and a running game's file
    holds the seed and every role.
    """
    folder = replays.resolve()
    return folder.parent / f".{folder.name}-live"


def seat_agents(
    desk: Desk, table: Table, config: GameConfig, seed: int, poll_s: float
) -> dict[int, Agent]:
    """One agent per seat of `table`, built from specs by `arena.agents.seats`.

    A person's seat is a `BrowserSeat` over the bot that takes the seat over after too
    many timeouts; model seats with one spec share one chat model.
    """
    from arena.agents.seats import MatchSpec, build_agents, parse_seats

    kinds = {"model": None, "random": "random", "bot": "bot", "human": "bot"}
    specs = [f"{n}={kinds[p.kind] or p.name}" for n, p in sorted(table.seats.items())]
    wanted = parse_seats((), len(table.seats), overrides=specs)
    match = MatchSpec(lang=table.lang, agent_lang=agent_lang(shown_in(table)))
    agents = build_agents(wanted, config, seed, match, beliefs="off", game_id=table.game_id)
    for seat, plan in table.seats.items():
        if plan.kind == "human":
            agents[seat] = BrowserSeat(
                desk,
                table.game_id,
                seat,
                plan.name or f"seat{seat}",
                agents[seat],
                decision_timeout_s=table.decision_timeout_s,
                speech_timeout_s=table.speech_timeout_s,
                handover_after=table.handover_after,
                window_s=table.pace.window_s,
                poll_s=poll_s,
            )
    return dict(sorted(agents.items()))


def shown_in(table: Table) -> Display:
    """The script the game is shown and recorded in: the card's, else its language's.

    A game created from a 简体 page is `zh-Hans`: its header says so (`arena replay`
    prints it in Simplified) and the seats that write their own words are told it, as
    `arena play --lang zh-Hans` does.
    """
    return table.display or display_of(table.lang)


def has_models(table: Table) -> bool:
    """Whether any seat is played by a model (whose endpoint the preflight probes)."""
    return any(plan.kind == "model" for plan in table.seats.values())


class Publisher:
    """Publishes each human seat's new visible events and the public status.

    While the pacer holds what followed a night (`Pacer.held`), nothing is published:
    the lines wait, and go out together when the hold ends (`Pacer.on_release`).
    """

    def __init__(
        self, desk: Desk, game_id: str, referee: Referee, seats: list[int], pacer: Pacer
    ) -> None:
        self.desk = desk
        self.game_id = game_id
        self.referee = referee
        self.pacer = pacer
        self._views = {s: Projector(referee.events, SeatViewer(seat=s)) for s in seats}
        self._public = Projector(referee.events, PublicViewer())
        self._sent = dict.fromkeys(seats, 0)
        self._public_sent = 0
        pacer.on_release = self.publish

    def push(self, _events: int = 0) -> None:
        """Note the new batch for the pacer, then publish unless a night's dawn is held."""
        self.pacer.batch(() if self.referee.finished else self.referee.pending())
        if not self.pacer.held():
            self.publish()

    def publish(self) -> None:
        """Publish what happened since the last publication."""
        for seat, projector in self._views.items():
            seen = projector.observe().seen
            self.desk.append_view(
                self.game_id, seat, [view_line(s.seq, s.event) for s in seen[self._sent[seat] :]]
            )
            self._sent[seat] = len(seen)
        shown = self._public.observe().seen  # spectators (the Live page): public view only
        lines = [view_line(s.seq, s.event) for s in shown[self._public_sent :]]
        self.desk.append_view(self.game_id, PUBLIC_SEAT, lines)
        self._public_sent = len(shown)
        pending = [] if self.referee.finished else self.referee.pending()
        speaking = next((r.seat for r in pending if r.kind is DecisionKind.SPEECH), None)
        public = len(shown)
        self.desk.set_status(
            self.game_id, Status(state="running", speaking=speaking, events=public)
        )


async def host_game(
    desk: Desk,
    game_id: str,
    replays: Path,
    live: Path,
    *,
    seed: int | None = None,
    poll_s: float = 0.1,
    pacer: Pacer | None = None,
) -> Path:
    """Seat, check and play a created game to the end; returns the replay's path.

    One pass down and back: the seats are built from the card (`seat_agents`), prepared
    as every game's are (`arena.prepare.prepare_game`: the model seats' endpoints probed
    and remote agents greeted, the game's status `checking` meanwhile), played, and the
    replay moved into the folder. `pacer` defaults to the game card's `Pace` on the real
    clock.

    Raises:
        ArenaError: an unknown game, or a seat that cannot play (before the game starts;
            the game's status says why).
    """
    table = desk.table(game_id)
    if table is None:
        raise ArenaError(f"no game {game_id}")
    config = GameConfig(board=table.board, preset=table.preset)
    seed = secret_seed() if seed is None else seed
    try:
        agents = seat_agents(desk, table, config, seed, poll_s)
        if has_models(table):
            desk.set_status(game_id, Status(state="checking"))
        plan = GamePlan(game_id, config, seed, {"lang": shown_in(table)})
        async with prepare_game(plan, agents) as game:
            return await _host(desk, table, game, replays, live, pacer)
    except ArenaError as exc:  # the seats or the preflight: before the game's first event
        if desk.status(game_id).state in ("waiting", "checking"):
            desk.set_status(game_id, Status(state="failed", error=str(exc)))
        raise


async def _host(
    desk: Desk, table: Table, game: Prepared, replays: Path, live: Path, pacer: Pacer | None
) -> Path:
    """Play the prepared game, publishing each seat's view, to its replay in `replays`."""
    game_id = table.game_id
    people = {s: a for s, a in game.agents.items() if isinstance(a, BrowserSeat)}
    running = live / f"{game_id}.jsonl"
    writer = ReplayWriter(running, game.header)
    referee = Referee(game.header.config, game.header.seed)
    pacer = pacer or Pacer(table.pace)
    publisher = Publisher(desk, game_id, referee, sorted(people), pacer)
    publisher.push()
    longest = max(table.decision_timeout_s, table.speech_timeout_s) + table.pace.longest_hold_s
    limits = Limits(call_timeout_s=longest + 60.0, beliefs="off")
    seated = {seat: paced(agent, pacer) for seat, agent in game.agents.items()}
    try:
        await play(referee, seated, writer=writer, limits=limits, on_event=publisher.push)
    except BaseException as exc:
        writer.close()
        desk.set_status(game_id, Status(state="failed", error=str(exc) or type(exc).__name__))
        raise
    publisher.publish()  # the game is over: nothing is held any longer
    handovers = tuple(a.handover for a in people.values() if a.handover)
    writer.header = writer.header.model_copy(update={"handovers": handovers})
    writer.finish(result_of(referee))
    replays.mkdir(parents=True, exist_ok=True)
    final = replays / running.name
    running.replace(final)
    desk.set_status(
        game_id,
        Status(
            state="finished",
            events=len(observe(referee.events, PublicViewer()).seen),
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
        except ArenaError as exc:  # one line, also in the game's status (e.g. the preflight)
            logging.getLogger(__name__).warning("game %s stopped: %s", game_id, exc)
        except Exception:  # recorded in the game's status by host_game
            logging.getLogger(__name__).exception("game %s failed", game_id)

    thread = threading.Thread(
        target=run,
        name=f"host-{game_id}",
        daemon=True,
    )
    thread.start()
    return thread
