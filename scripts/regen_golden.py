"""Rewrite tests/golden/ after an intended change to the rules (then review the diff).

The built-in games (`GOLDEN_GAMES`, random seats only) and the outside games
(`OUTSIDE_GAMES`: the example plug-in, and the example remote agent run as its own
process) are all rewritten. The files are stored as schema version 1, without their
signature line (`arena.golden.stored_form`): they pin the referee, not a key (the test
compares the bodies; the signature covers the header, which names the version), and they
stay the old unsigned files that tests/storage/test_seal.py shows still validate (version 2
only added the signature line, so the rest is unchanged).
"""

from __future__ import annotations

from pathlib import Path

from arena.golden import (
    GOLDEN_GAMES,
    OUTSIDE_GAMES,
    golden_name,
    outside_name,
    stored_form,
    write_golden,
    write_outside,
)

if __name__ == "__main__":
    folder = Path(__file__).resolve().parent.parent / "tests" / "golden"
    folder.mkdir(exist_ok=True)
    for board, preset, seed in GOLDEN_GAMES:
        path = folder / golden_name(board, preset, seed)
        write_golden(board, preset, seed, path)
        path.write_text(stored_form(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {path.name}")
    for game in OUTSIDE_GAMES:
        path = folder / outside_name(game)
        write_outside(game, path)
        print(f"wrote {path.name}")
