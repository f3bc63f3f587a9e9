"""Files written before the draw was fixed (no `draw` in the header) stay verifiable.

The files in `tests/storage/legacy/` are byte-for-byte what the arena wrote with
`random.Random` draws: two golden games (ties, lots, drawn orders) and a bots game.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.agents.seats import build_agents, parse_seats
from arena.match import resume_game
from arena.replay_check import check_replay
from arena.rules.draw import CURRENT_DRAW, LEGACY_DRAW
from arena.storage.replay_file import read_header, read_replay

LEGACY = sorted((Path(__file__).resolve().parent / "legacy").glob("*.jsonl"))


def test_there_are_legacy_files() -> None:
    assert len(LEGACY) >= 3


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_a_legacy_file_reads_as_the_legacy_draw_and_validates(path: Path) -> None:
    assert '"draw"' not in path.read_text(encoding="utf-8").splitlines()[0]
    assert read_header(path).draw == LEGACY_DRAW
    report = check_replay(path)
    assert report.ok and report.finished, report.message


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_the_header_draw_decides_how_the_seed_is_read(path: Path, tmp_path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["draw"] = CURRENT_DRAW
    relabelled = tmp_path / path.name
    relabelled.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    assert not check_replay(relabelled).ok


def test_a_legacy_bot_game_resumes_to_the_identical_log(tmp_path: Path) -> None:
    """A game cut short before the upgrade resumes with the draw it was dealt with."""
    whole = LEGACY[[p.name for p in LEGACY].index("wwk_guard-bots-11.jsonl")]
    header = read_header(whole)
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    seats = parse_seats([], header.config.board_spec.seats)
    agents = build_agents(seats, header.config, header.seed)
    referee = asyncio.run(resume_game(partial, agents))
    assert referee.finished and referee.draw == LEGACY_DRAW
    assert read_header(partial).draw == LEGACY_DRAW
    assert [e.model_dump() for e in read_replay(partial).events] == [
        e.model_dump() for e in read_replay(whole).events
    ]
    assert check_replay(partial).ok
