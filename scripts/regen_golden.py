"""Rewrite tests/golden/ after an intended change to the rules (then review the diff).

The files are stored without their signature line: they pin the referee, not a key
(the test compares the bodies; the signature covers the header, which names the version).
"""

from __future__ import annotations

from pathlib import Path

from arena.golden import GOLDEN_GAMES, golden_name, write_golden

if __name__ == "__main__":
    folder = Path(__file__).resolve().parent.parent / "tests" / "golden"
    folder.mkdir(exist_ok=True)
    for board, preset, seed in GOLDEN_GAMES:
        path = folder / golden_name(board, preset, seed)
        write_golden(board, preset, seed, path)
        lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
        if lines[-1].startswith('{"type":"signature"'):
            path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
        print(f"wrote {golden_name(board, preset, seed)}")
