"""Golden replays: the referee must reproduce each stored game byte for byte.

After an intended rules change run `python scripts/regen_golden.py` and review the diff.
The header and the signature line are not compared: the header names the software
version, and the signature covers the header. The stored files are schema version 1
(written before signing), so they also show that old unsigned files still validate.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import __version__
from arena.golden import GOLDEN_GAMES, golden_name, write_golden
from arena.replay_check import check_replay

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.mark.parametrize(("board", "preset", "seed"), GOLDEN_GAMES)
def test_golden_replay_is_reproduced(
    board: str, preset: str | None, seed: int, tmp_path: Path
) -> None:
    stored = GOLDEN / golden_name(board, preset, seed)
    fresh = tmp_path / stored.name
    write_golden(board, preset, seed, fresh)
    stored_lines = stored.read_text(encoding="utf-8").splitlines()
    fresh_lines = fresh.read_text(encoding="utf-8").splitlines()
    version = f'"software_version":"{__version__}"'
    assert version in fresh_lines[0]
    body = [line for line in stored_lines[1:] if not line.startswith('{"type":"signature"')]
    assert fresh_lines[-1].startswith('{"type":"signature"')
    assert body == fresh_lines[1:-1]
    assert check_replay(fresh).signature == "signed"
    stored_check = check_replay(stored)
    assert stored_check.ok and stored_check.signature == "unsigned"
