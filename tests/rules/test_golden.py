"""Golden replays: the referee must reproduce each stored game byte for byte.

After an intended rules change run `python scripts/regen_golden.py` and review the diff
(it rewrites the outside games too, the ones with a plug-in or a remote seat).
The header and the signature line are not compared: the header names the software
version, and the signature covers the header. The stored files are schema version 1
(written before signing), so they also show that old unsigned files still validate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena import __version__
from arena.golden import (
    GOLDEN_GAMES,
    OUTSIDE_GAMES,
    OutsideGame,
    golden_name,
    outside_name,
    write_golden,
    write_outside,
)
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


@pytest.mark.parametrize("game", OUTSIDE_GAMES, ids=lambda g: g.name)
def test_outside_golden_replay_is_reproduced(game: OutsideGame, tmp_path: Path) -> None:
    """A game with outside seats is reproduced line for line, its header included.

    The plug-in game seats `py:python_agent:make_agent` (examples/agents) through the seat
    builder; the remote game seats the example remote agent, started as its own process
    (`python examples/agents/remote_agent.py --port 0`) and played over real HTTP. Two
    things are not compared, as they are not functions of the seed: the port the agent's
    process found free (written as `http://127.0.0.1:PORT/agent`) and how long each of its
    answers took (trace records' `latency_ms`, written as 0), and the header's software
    version. Per-game secrets, nonces, deadlines and signatures travel only in the HTTP
    messages and headers, never in the replay. Every other byte counts: the events, the
    accepted answers, the remote agent's reply bodies, the refusals and notes, the belief
    reports and the seats' labels.
    """
    stored = GOLDEN / outside_name(game)
    fresh = tmp_path / stored.name
    write_outside(game, fresh)
    stored_lines = stored.read_text(encoding="utf-8").splitlines()
    fresh_lines = fresh.read_text(encoding="utf-8").splitlines()
    header, fresh_header = json.loads(stored_lines[0]), json.loads(fresh_lines[0])
    assert fresh_header.pop("software_version") == __version__
    header.pop("software_version")
    assert fresh_header == header
    assert fresh_lines[1:] == stored_lines[1:]
    check = check_replay(stored)
    assert check.ok and check.signature == "unsigned"


def test_belief_answers_leave_a_remote_game_as_it_was() -> None:
    """The remote game whose agent answers beliefs is its twin's, plus belief reports.

    The twin's agent lists no feature in its hello (protocol revision 0) and is never
    asked; the other (revision 1) reports at every daily question, each report with its
    signed exchange, and the game is the same event for event and answer for answer.
    """
    plain, believing = (
        next(g for g in OUTSIDE_GAMES if g.name == name) for name in ("remote", "remote_beliefs")
    )
    assert plain.game_id == believing.game_id and plain.seed == believing.seed
    lines = (GOLDEN / outside_name(believing)).read_text(encoding="utf-8").splitlines()
    reports = [json.loads(line)["report"] for line in lines if line.startswith('{"type":"belief"')]
    assert reports and all(r["seat"] == 5 and len(r["calls"]) == 1 for r in reports)
    assert all(r["calls"][0]["step"] == -1 and r["calls"][0]["error"] is None for r in reports)
    others = [line for line in lines if not line.startswith('{"type":"belief"')]
    assert others == (GOLDEN / outside_name(plain)).read_text(encoding="utf-8").splitlines()
    assert '"step":-1' not in "\n".join(others)
