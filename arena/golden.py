"""Golden replays: fixed games whose files are kept in `tests/golden/` and diffed in CI.

Each golden game is played by seeded random agents, seated as `arena play --seat
1-N=random` seats them (`arena.agents.seats`, the same seat seeds), so it pins the
referee's behaviour (not an agent's). `python scripts/regen_golden.py` rewrites them after
an intended rules change; the diff then shows exactly what the change did to real games.

The outside golden games (`OUTSIDE_GAMES`) seat agents from outside the package beside
the random ones: a `py:MODULE:FACTORY` plug-in (the copyable example of docs/agents.md)
and the example remote agent, run as its own process and reached over real HTTP. They
pin, besides the referee, what the seat builder and the remote protocol make of those
agents' answers (`write_outside`).
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from pydantic import JsonValue

from arena.agents.base import Agent
from arena.agents.seats import MatchSpec, SeatSpec, build_agents, parse_seats
from arena.board_file import board_ref, is_board_file
from arena.match import run_game
from arena.prepare import GamePlan, prepare_game
from arena.rules.boards import board as board_of
from arena.rules.config import GameConfig
from arena.storage.replay_file import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: golden games on a board file name it relative to this folder."""

GOLDEN_GAMES: tuple[tuple[str, str | None, int], ...] = (
    ("std9", None, 1),
    ("std10", None, 7),
    ("wwk12", None, 5),
    ("idiot12", None, 1),
    ("yunv", None, 6),
    ("wolfking_guard", None, 6),
    ("wwk_guard", None, 4),
    ("wwk_guard", "site", 8),
    ("blood_moon", None, 12),
    ("gargoyle_gravekeeper", None, 52),
    ("eternal_wheel", None, 4),
    ("pure_white_night", None, 12),
    ("wolfking_magician", None, 11),
    ("mist_raven", None, 28),
    ("miracle_merchant", None, 3),
    ("secret_admirer", None, 4),
    ("animal_dream", None, 87),
    ("site_phantom_healer12", None, 2),
    ("site_watchman_coroner12", None, 20),
    ("classic_thief_elder12", None, 101),
)
"""(board id, example board id or board file, preset, seed) of every golden game.

A seed is chosen for what its game exercises (ties, sheriffs, each board's special roles):
when the agents' play changes, a board's seed changes too if its game would otherwise lose
a kind of event its old game had."""
FIXED_TIME = "2026-01-01T00:00:00+00:00"


def golden_name(board: str, preset: str | None, seed: int) -> str:
    """File name of a golden game (a board file's game is named by the board's id)."""
    name = board_of(board_ref(board, ROOT)).id if is_board_file(board) else board
    return f"{name}-{preset or 'default'}-{seed}.jsonl"


def write_golden(board: str, preset: str | None, seed: int, path: Path) -> None:
    """Play the golden game and write its replay to `path`."""
    config = GameConfig(board=board_ref(board, ROOT), preset=preset)
    name = config.board_spec.id
    seats = dict.fromkeys(range(1, config.board_spec.seats + 1), SeatSpec(kind="random"))
    agents = build_agents(seats, config, seed)
    plan = GamePlan(f"golden-{name}-{seed}", config, seed, {"created_at": FIXED_TIME})
    asyncio.run(_play(plan, agents, path))


async def _play(plan: GamePlan, agents: dict[int, Agent], path: Path) -> None:
    """Prepare the game as every game is prepared (`arena.prepare`), then play it."""
    async with prepare_game(plan, agents) as game:
        await run_game(game.header, game.agents, path)


EXAMPLES = ROOT / "examples" / "agents"
"""The example agents of docs/agents.md: the plug-in module and the remote agent's script."""
REMOTE = "http://127.0.0.1:PORT/agent"
"""The example remote agent's URL in an outside game's seats and stored file; the port is
the one the agent's process found free, put in place of `PORT` while the game is played."""
VOLATILE = re.compile(r'"latency_ms":[-+0-9.eE]+')
"""The one field of an outside game that is not a function of its seed: how long each of
the remote agent's answers took over HTTP (a trace record's `latency_ms`)."""
STEADY = '"latency_ms":0.0'


class OutsideGame(NamedTuple):
    """A golden game with outside seats; seats the specs do not name are `random`."""

    name: str
    """The file's stem before the board and seed: `py`, `remote`, `remote_beliefs`."""
    game_id: str
    board: str
    seed: int
    seats: tuple[str, ...]
    """Seat specs as `arena play --seat` takes them (`REMOTE` for the example's URL)."""
    options: Mapping[str, Mapping[str, JsonValue]] = {}
    """Plug-in options by spec, as a spec file's `options` gives them."""
    remote_args: tuple[str, ...] = ()
    """Arguments of the example remote agent's process (after `--port`)."""


OUTSIDE_GAMES: tuple[OutsideGame, ...] = (
    OutsideGame(
        "py",
        "golden-py-wwk_guard-3",
        "wwk_guard",
        3,
        ("2,9=py:python_agent:make_agent",),
        options={"py:python_agent:make_agent": {"words": "Seat {seat} is my first suspect."}},
    ),
    OutsideGame(
        "remote",
        "golden-remote-wwk_guard-3",
        "wwk_guard",
        3,
        (f"5={REMOTE}",),
        remote_args=("--seed", "7", "--no-beliefs"),
    ),
    OutsideGame(
        "remote_beliefs",
        "golden-remote-wwk_guard-3",
        "wwk_guard",
        3,
        (f"5={REMOTE}",),
        remote_args=("--seed", "7"),
    ),
)
"""Every outside golden game: the plug-in example, with options, in the seer's seat and a
villager's; the remote example in a wolf's seat, as an agent of protocol revision 0 (its
hello lists no feature: it is never asked for beliefs) and as one that answers belief
questions (revision 1). The two remote games are one game, same id and seed: the second's
file is the first's with its belief reports added, since a report never changes the game.
One remote seat only: the answers of seats asked at once reach the referee in the order
they come, and the in-process random seats always answer before a process across a
socket, where two remote seats would race."""


def outside_name(game: OutsideGame) -> str:
    """File name of an outside golden game."""
    return f"outside-{game.name}-{game.board}-{game.seed}.jsonl"


def write_outside(game: OutsideGame, path: Path) -> None:
    """Play the outside golden game and write its replay to `path`, as `arena play` would.

    The seats come from the one seat builder (`parse_seats`, `build_agents`) and are
    prepared as every game's are (`prepare_game`: the remote agent is greeted before the
    game), with the plug-in's folder on `sys.path`
    as `PYTHONPATH=examples/agents` puts it. In the file the remote agent's URL is written
    as `REMOTE` and its answers' latencies as 0 (`steady`), the only parts of the game that
    are not a function of its seed.
    """
    with _examples_importable(), _remote_url(game) as url:
        specs = [spec.replace(REMOTE, url) for spec in game.seats]
        config = GameConfig(board=game.board)
        table = config.board_spec.seats
        seats = parse_seats((f"1-{table}=random",), table, overrides=specs)
        game_id = game.game_id
        spec = MatchSpec(options={k: dict(v) for k, v in game.options.items()})
        agents = build_agents(seats, config, game.seed, spec, game_id=game_id)
        plan = GamePlan(game_id, config, game.seed, {"created_at": FIXED_TIME})
        asyncio.run(_play(plan, agents, path))
        text = stored_form(path.read_text(encoding="utf-8"))
        path.write_text(steady(text.replace(url, REMOTE)), encoding="utf-8")


def steady(text: str) -> str:
    """`text` with every answer's latency put at 0 (`VOLATILE`)."""
    return VOLATILE.sub(STEADY, text)


def stored_form(text: str) -> str:
    """A fresh replay's text as `tests/golden/` keeps it: schema version 1, unsigned.

    Golden files pin the referee, not a key: the signature line (over the header, which
    names the software version) is dropped and the header says version 1, the version
    before signing (2 only added that line), so they also show old unsigned files load.
    """
    lines = text.removesuffix("\n").split("\n")
    if lines[-1].startswith('{"type":"signature"'):
        lines = lines[:-1]
    current = f'"schema_version":{SCHEMA_VERSION},'
    if current not in lines[0]:
        raise ValueError(f"no {current} in the header")
    lines[0] = lines[0].replace(current, '"schema_version":1,', 1)
    return "\n".join(lines) + "\n"


@contextmanager
def _examples_importable() -> Iterator[None]:
    """`examples/agents` on `sys.path` for the game, as `PYTHONPATH=examples/agents` does."""
    folder = str(EXAMPLES)
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        yield
    finally:
        if added:
            sys.path.remove(folder)


@contextmanager
def _remote_url(game: OutsideGame) -> Iterator[str]:
    """The example remote agent's URL, its process running on a free port, if `game` seats it."""
    if not any(REMOTE in spec for spec in game.seats):
        yield REMOTE
        return
    with example_remote_agent(*game.remote_args) as url:
        yield url


@contextmanager
def example_remote_agent(*args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run `python examples/agents/remote_agent.py --port 0 ARGS…` as its own process.

    Yields the URL it serves (`http://127.0.0.1:PORT/agent`, from the line it prints);
    the process is stopped when the block ends. `env`: the process's whole environment
    (default: this one's), e.g. to hand it a token variable.
    """
    command = [sys.executable, str(EXAMPLES / "remote_agent.py"), "--port", "0", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("serving "):
            raise RuntimeError(f"the example remote agent did not start: {line!r}")
        yield line.split(" at ", 1)[1].strip()
    finally:
        process.terminate()
        process.wait(timeout=10)
