"""Golden replays: fixed games whose files are kept in `tests/golden/` and diffed in CI.

Each golden game is played by seeded random agents, seated as `arena play --seat
1-N=random` seats them (`arena.agents.seats`, the same seat seeds), so it pins the
referee's behaviour (not an agent's). `python scripts/regen_golden.py` rewrites them after
an intended rules change; the diff then shows exactly what the change did to real games.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.agents.seats import SeatSpec, build_agents
from arena.board_file import board_ref, is_board_file
from arena.match import new_header, run_game
from arena.rules.boards import board as board_of
from arena.rules.config import GameConfig

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
    header = new_header(f"golden-{name}-{seed}", config, seed, agents, created_at=FIXED_TIME)
    asyncio.run(run_game(header, agents, path))
