"""Rewrite tests/golden/ after an intended change to the rules (then review the diff).

The files are stored as schema version 1, without their signature line: they pin the
referee, not a key (the test compares the bodies; the signature covers the header, which
names the version), and they stay the old unsigned files that tests/storage/test_seal.py
shows still validate (version 2 only added the signature line, so the rest is unchanged).
"""

from __future__ import annotations

from pathlib import Path

from arena.golden import GOLDEN_GAMES, golden_name, write_golden
from arena.storage.replay_file import SCHEMA_VERSION

if __name__ == "__main__":
    folder = Path(__file__).resolve().parent.parent / "tests" / "golden"
    folder.mkdir(exist_ok=True)
    for board, preset, seed in GOLDEN_GAMES:
        path = folder / golden_name(board, preset, seed)
        write_golden(board, preset, seed, path)
        lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
        if lines[-1].startswith('{"type":"signature"'):
            lines = lines[:-1]
        current = f'"schema_version":{SCHEMA_VERSION},'
        assert current in lines[0], f"{path}: no {current} in the header"
        lines[0] = lines[0].replace(current, '"schema_version":1,', 1)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {golden_name(board, preset, seed)}")
