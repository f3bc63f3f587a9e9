"""Rewrite tests/golden/ after an intended change to the rules (then review the diff)."""

from __future__ import annotations

from pathlib import Path

from arena.golden import GOLDEN_GAMES, golden_name, write_golden

if __name__ == "__main__":
    folder = Path(__file__).resolve().parent.parent / "tests" / "golden"
    folder.mkdir(exist_ok=True)
    for board, preset, seed in GOLDEN_GAMES:
        write_golden(board, preset, seed, folder / golden_name(board, preset, seed))
        print(f"wrote {golden_name(board, preset, seed)}")
