"""The facts cache trusts nothing in the folder (issue 31).

Whoever can drop a file in a replay folder can write its `.arena/facts.sqlite` too. These
tests plant rows the way such a person would — every column the table has, the MACs
made up — and edit files so that their size and modification time stay those the cache
knows; the leaderboard must rate what the files themselves prove, and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from arena.ratings.cache import CACHE_DIR, CACHE_FILE, FactsCache, facts_version, file_digest
from arena.ratings.folder import folder_report
from arena.ratings.loader import load_games
from arena.ratings.verify import verify_file
from arena.storage.replay_file import read_header
from tests.support.forgery import forged_set, play


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two genuine games."""
    folder = tmp_path_factory.mktemp("signed")
    play(folder / "a.jsonl", "game-a", seed=3)
    play(folder / "b.jsonl", "game-b", seed=4)
    return folder


def _copy(signed: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "replays"
    shutil.copytree(signed, folder, ignore=shutil.ignore_patterns(".arena"))
    return folder


def _plant(db: Path, table: str, values: dict[str, object]) -> None:
    """Insert a row into `table` filling every column it has: named ones from `values`,
    any MAC with made-up hex (the planter has no key), the rest empty."""
    with sqlite3.connect(db) as conn:
        columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        row = [values.get(c, "ab" * 32 if c.endswith("mac") else None) for c in columns]
        conn.execute(f"INSERT OR REPLACE INTO {table} VALUES ({', '.join('?' * len(row))})", row)


def test_a_planted_row_for_a_forged_file_is_never_rated(signed: Path, tmp_path: Path) -> None:
    """A forged `gpt-5` game planted beside its row: a genuine game's signature and
    digest reused, fresh content digests (no duplicate of anything), any summary.
    `arena validate` calls the file bad; so must the board."""
    folder = _copy(signed, tmp_path)
    forged = forged_set(folder / "a.jsonl", tmp_path / "forgeries")["agents"]
    planted = folder / "gpt5.jsonl"
    shutil.copyfile(forged, planted)
    folder_report(folder, bootstrap=0)  # the cache exists, as it would
    genuine = verify_file(folder / "a.jsonl", read_header(folder / "a.jsonl"))
    assert genuine.summary is not None and genuine.content is not None
    result = genuine.summary.result
    gpt5 = tuple(s.model_copy(update={"agent": "openai:gpt-5"}) for s in result.seats)
    summary = genuine.summary.model_copy(
        update={"result": result.model_copy(update={"seats": gpt5, "game_id": "gpt5"})}
    )
    fresh = genuine.content.model_copy(update={"body": "1" * 64, "play": "2" * 64})
    facts = genuine.model_copy(update={"summary": summary, "game_id": "gpt5", "content": fresh})
    sha = file_digest(planted)
    st = os.stat(planted)
    db = folder / CACHE_DIR / CACHE_FILE
    head = facts.head().model_dump_json()
    _plant(
        db,
        "verdicts",
        {
            "sha256": sha,
            "version": facts_version(),
            "head": head,
            "summary": summary.model_dump_json(),
        },
    )
    key = {"path": str(planted.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    key |= {"ctime_ns": st.st_ctime_ns, "inode": st.st_ino, "sha256": sha}
    _plant(db, "files", key)

    scan, report = folder_report(folder, bootstrap=0)

    assert "openai:gpt-5" not in {row.agent for row in report.leaderboard.standings}
    assert str(planted) in {s.path for s in scan.skipped}
    (why,) = [s for s in scan.skipped if s.path == str(planted)]
    assert why.reason == "bad_signature", why


def test_a_planted_saved_state_is_never_continued(signed: Path, tmp_path: Path) -> None:
    """The saved leaderboard states are keyed by a chain of public digests: anyone can
    find the row to edit. Made-up ratings in it must not reach the board."""
    folder = _copy(signed, tmp_path)
    _, honest = folder_report(folder, bootstrap=0)
    db = folder / CACHE_DIR / CACHE_FILE
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM states").fetchone()[0] > 0
        conn.execute("UPDATE states SET data = replace(data, '\"random\"', '\"openai:gpt-5\"')")
        assert conn.execute("SELECT count(*) FROM states WHERE data LIKE '%gpt-5%'").fetchone()[0]
    _, again = folder_report(folder, bootstrap=0)
    assert (
        [r.agent for r in again.leaderboard.standings]
        == [r.agent for r in honest.leaderboard.standings]
        == ["random"]
    )


def test_an_edit_of_the_same_size_with_its_mtime_restored_is_verified_again(
    signed: Path, tmp_path: Path
) -> None:
    folder = _copy(signed, tmp_path)
    store = FactsCache.for_folder(folder)
    assert len(load_games(folder, cache=store).games) == 2
    store.close()
    path = folder / "b.jsonl"
    before = os.stat(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    day = header["result"]["days"]
    lines[0] = lines[0].replace(f'"days":{day},', f'"days":{(day + 1) % 10},', 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)

    again = FactsCache.for_folder(folder)
    games = load_games(folder, cache=again)
    again.close()

    assert again.misses == 1
    assert [g.result.game_id for g in games.games] == ["game-a"]
    (why,) = games.skipped
    assert why.path == str(path) and why.reason in ("unverified", "bad_signature"), why


def test_without_an_arena_key_nothing_is_kept_between_runs(
    signed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No key, no way to tell a planted row from ours: the cache stays in memory."""
    folder = _copy(signed, tmp_path)
    monkeypatch.delenv("ARENA_KEY")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    assert FactsCache.for_folder(folder).location is None
    assert not (folder / CACHE_DIR / CACHE_FILE).exists()
