"""Starting a game with people for the Play page, and what its pages link to.

The Play page only draws and sends: it hands the creator's choices to `start_game`, which
writes the card (`lobby.create_game`), hosts the game in this process or queues it for a
worker, waits for a model seat's preflight, and returns the join links. The links are
absolute (`join_url`): built from the page's own address, or from a configured public
address (`ARENA_PUBLIC_URL`) for a dashboard behind a proxy, so a creator sends them as
they are. Games hosted by this process are listed (`HostedGames`) for the Live page,
which shows their public view only (`public_view`).
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlencode, urlsplit, urlunsplit

from arena.errors import ArenaError
from arena.humans.lobby import create_game
from arena.rules.boards import Board
from arena.rules.observation import Observation
from arena.rules.visibility import PublicViewer
from arena.storage.desk import PUBLIC_SEAT, Desk, Pace, SeatPlan, Status, read_view
from arena.transcript import Lang

PREFLIGHT_LIMIT_S = 150.0
"""The wait for a model seat's preflight (its probes time out sooner)."""


@dataclass(frozen=True, slots=True)
class JoinLink:
    """One person's secret link: their seat, their name, and the query that opens it."""

    seat: int
    name: str
    query: str


@dataclass(frozen=True, slots=True)
class Started:
    """A game the Play page started: its id and links, or the one-line reason it cannot."""

    game_id: str | None
    links: tuple[JoinLink, ...] = ()
    error: str | None = None
    stage: Literal["create", "start"] = "start"
    """Where it failed: the card was refused (`create`), or the preflight (`start`)."""


class HostedGames:
    """The ids of the games this process hosts, newest first (shared by every page)."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._lock = threading.Lock()

    def add(self, game_id: str) -> None:
        """Note a game hosted here."""
        with self._lock:
            self._ids.insert(0, game_id)

    def ids(self) -> tuple[str, ...]:
        """Every game hosted here, newest first."""
        with self._lock:
            return tuple(self._ids)


def start_game(
    desk: Desk,
    board: str | Board,
    seats: Mapping[int, tuple[str, str]],
    *,
    preset: str | None,
    lang: Lang,
    limits: tuple[float, float],
    pace: Pace,
    where: Literal["here", "worker"],
    page_lang: str,
    replays: Path,
    hosted: HostedGames,
    sleep: Callable[[float], None] = time.sleep,
) -> Started:
    """Create the game, host it here or queue it for a worker; its join links.

    `seats` maps each seat to its kind and the name typed for it (a person's default name
    is `seatN`). A game hosted here with model seats is returned once their endpoints
    passed the preflight; one that failed it carries the reason instead of links.
    A Chinese game created from a 简体 page (`page_lang` `zh-Hans`) is a `zh-Hans` game:
    recorded so, and its model seats and agents told so (`Table.display`).
    """
    plans = {
        n: SeatPlan.model_validate(
            {"kind": kind, "name": name.strip() or (f"seat{n}" if kind == "human" else "")}
        )
        for n, (kind, name) in seats.items()
    }
    try:
        game_id, tokens = create_game(
            desk, board, plans, preset=preset, lang=lang,
            display="zh-Hans" if lang == "zh" and page_lang == "zh-Hans" else None,
            decision_timeout_s=limits[0], speech_timeout_s=limits[1], pace=pace,
        )  # fmt: skip
    except ArenaError as exc:
        return Started(None, error=str(exc), stage="create")
    if where == "worker":
        desk.enqueue(game_id)
    else:
        from arena.humans.host import host_in_thread, live_folder

        host_in_thread(desk, game_id, replays, live_folder(replays))
        hosted.add(game_id)
        if any(plan.kind == "model" for plan in plans.values()):
            status = wait_for_preflight(desk, game_id, sleep=sleep)
            if status.state == "failed":
                return Started(game_id, error=status.error or "")
    links = tuple(
        JoinLink(n, plans[n].name, join_query(game_id, n, page_lang, token))
        for n, token in tokens.items()
    )
    return Started(game_id, links)


def wait_for_preflight(
    desk: Desk,
    game_id: str,
    limit_s: float = PREFLIGHT_LIMIT_S,
    sleep: Callable[[float], None] = time.sleep,
) -> Status:
    """Wait while the host probes the model seats (bounded); the game's status then."""
    deadline = time.monotonic() + limit_s
    status = desk.status(game_id)
    while status.state in ("waiting", "checking") and time.monotonic() < deadline:
        sleep(0.2)
        status = desk.status(game_id)
    return status


def join_query(game_id: str, seat: int, lang: str, token: str) -> str:
    """The query of a seat's join link: `game=…&seat=N&lang=L&token=T`."""
    return urlencode({"game": game_id, "seat": seat, "lang": lang, "token": token})


def join_url(base: str, query: str) -> str:
    """The absolute link to the Play page with `query`, from the dashboard's address.

    `base` is a configured public address (`https://host/arena`) or the address the
    creator's own page was opened at (any page of the dashboard: its path's last part is
    the page and is replaced by `play`).
    """
    parts = urlsplit(base.strip())
    path = parts.path
    if not path.endswith("/"):
        path = path.rsplit("/", 1)[0] + "/"
    return urlunsplit((parts.scheme, parts.netloc, f"{path}play", query, ""))


def is_local_only(url: str) -> bool:
    """Whether a link built on `url` opens only on the machine that made it.

    True for a loopback host (`127.0.0.1`, `localhost`, `::1`), the unspecified address
    (`0.0.0.0`, which a browser cannot reach from elsewhere) and an address with no host
    at all: a join link built on one does not open on anyone else's device.
    """
    host = (urlsplit(url.strip()).hostname or "").lower()
    if host in ("", "localhost") or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def public_view(desk: Desk, game_id: str) -> Observation:
    """What a spectator of a hosted game sees: the public projection, as published."""
    return read_view(desk.view(game_id, PUBLIC_SEAT), PublicViewer())


__all__ = [
    "PUBLIC_SEAT",
    "HostedGames",
    "JoinLink",
    "Started",
    "join_query",
    "is_local_only",
    "join_url",
    "public_view",
    "start_game",
    "wait_for_preflight",
]
