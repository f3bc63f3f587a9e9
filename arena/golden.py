"""Golden replays: fixed games whose files are kept in `tests/golden/` and diffed in CI.

Each golden game is played by seeded random agents, so it pins the referee's behaviour
(not an agent's). `python scripts/regen_golden.py` rewrites them after an intended rules
change; the diff then shows exactly what the change did to real games.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.agents.random_agent import RandomAgent
from arena.board_file import board_ref, is_board_file
from arena.match import new_header, run_game
from arena.rules.boards import board as board_of
from arena.rules.config import GameConfig

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: golden games on a board file name it relative to this folder."""

GOLDEN_GAMES: tuple[tuple[str, str | None, int], ...] = (
    ("std9", None, 1),
    ("std10", None, 2),
    ("wwk12", None, 3),
    ("idiot12", None, 4),
    ("yunv", None, 5),
    ("wolfking_guard", None, 6),
    ("wwk_guard", None, 7),
    ("wwk_guard", "site", 8),
    ("blood_moon", None, 9),
    ("gargoyle_gravekeeper", None, 10),
    ("eternal_wheel", None, 11),
    ("pure_white_night", None, 12),
    ("wolfking_magician", None, 13),
    ("mist_raven", None, 28),
    ("miracle_merchant", None, 14),
    ("secret_admirer", None, 15),
    ("animal_dream", None, 30),
    ("site_phantom_healer12", None, 15),
    ("site_watchman_coroner12", None, 20),
    ("classic_thief_elder12", None, 27),
)
"""(board id, example board id or board file, preset, seed) of every golden game."""
FIXED_TIME = "2026-01-01T00:00:00+00:00"


def golden_name(board: str, preset: str | None, seed: int) -> str:
    """File name of a golden game (a board file's game is named by the board's id)."""
    name = board_of(board_ref(board, ROOT)).id if is_board_file(board) else board
    return f"{name}-{preset or 'default'}-{seed}.jsonl"


def write_golden(board: str, preset: str | None, seed: int, path: Path) -> None:
    """Play the golden game and write its replay to `path`."""
    config = GameConfig(board=board_ref(board, ROOT), preset=preset)
    name = config.board_spec.id
    agents = {s: RandomAgent(seed * 100 + s) for s in range(1, config.board_spec.seats + 1)}
    header = new_header(f"golden-{name}-{seed}", config, seed, agents, created_at=FIXED_TIME)
    asyncio.run(run_game(header, agents, path))
