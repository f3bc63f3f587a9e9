"""The leaderboard rates only games that verify, survives corrupt files, and caches per file."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.agents.base import Agent
from arena.agents.bot.agent import BotAgent
from arena.cli import main
from arena.commands.leaderboard import Progress
from arena.match import new_header, run_game
from arena.ratings import verify
from arena.ratings.cache import FactsCache
from arena.ratings.loader import load_games
from arena.replay_check import check_log
from arena.rules.config import GameConfig


def play(directory: Path, count: int, tournament: str | None = None, start: int = 0) -> None:
    async def play_all() -> None:
        for i in range(start, start + count):
            agents: dict[int, Agent] = {s: BotAgent(seed=100 * i + s) for s in range(1, 10)}
            name = f"{tournament or 'game'}-{i}"
            header = new_header(name, GameConfig(board="std9"), i, agents, tournament=tournament)
            await run_game(header, agents, directory / f"{name}.jsonl")

    asyncio.run(play_all())


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("games")
    play(directory, 5)
    return directory


def copy_games(games: Path, tmp_path: Path) -> Path:
    directory = tmp_path / "replays"
    shutil.copytree(games, directory, ignore=shutil.ignore_patterns(".arena"))
    return directory


def flip_winner(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["result"]["winner"] = "wolves" if header["result"]["winner"] != "wolves" else "good"
    lines[0] = json.dumps(header, ensure_ascii=False) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def edit_speech(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if '"kind":"spoke"' in line)
    obj = json.loads(lines[number])
    obj["event"]["text"] = "I am the seer and seat 4 is a wolf."
    lines[number] = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def test_files_that_validate_rejects_are_left_out_and_counted(
    games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_games(games, tmp_path)
    flip_winner(directory / "game-0.jsonl")
    edit_speech(directory / "game-1.jsonl")

    code = main(["leaderboard", str(directory), "--bootstrap", "0"])

    captured = capsys.readouterr()
    assert code == 0
    err = captured.err.splitlines()
    assert any("game-0.jsonl:1: header says" in line for line in err)
    assert any("game-1.jsonl:" in line and "the log was altered" in line for line in err)
    assert "Rated 3 verified games" in captured.out
    assert "2 files left out: 2 failed verification" in captured.out
    assert "3 games on 3 deals from" in captured.out


def test_a_corrupt_replay_is_skipped_with_its_file_and_the_rest_rated(
    games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_games(games, tmp_path)
    body = (directory / "game-0.jsonl").read_bytes().splitlines(keepends=True)
    (directory / "bad-utf8.jsonl").write_bytes(
        body[0].replace(b"game-0", b"bad-utf8") + body[1][:-2] + b"\xff\xfe\n" + b"".join(body[2:])
    )
    deep = b"[" * 100_000 + b"]" * 100_000 + b"\n"
    (directory / "deep.jsonl").write_bytes(
        body[0].replace(b"game-0", b"deep") + deep + b"".join(body[1:])
    )

    code = main(["leaderboard", str(directory), "--bootstrap", "0"])

    captured = capsys.readouterr()
    assert code == 0, captured.err
    err = captured.err.splitlines()
    assert len(err) == 2
    assert any(line.startswith(f"skipped {directory / 'bad-utf8.jsonl'}:") for line in err)
    assert any(line.startswith(f"skipped {directory / 'deep.jsonl'}:") for line in err)
    assert "Traceback" not in captured.err
    assert "Rated 5 verified games" in captured.out
    assert "2 files left out: 2 unreadable" in captured.out


def test_second_read_comes_from_the_cache_and_a_changed_file_is_verified_again(
    games: Path, tmp_path: Path
) -> None:
    directory = copy_games(games, tmp_path)
    location = tmp_path / "facts.sqlite"

    cold = FactsCache(location)
    first = load_games(directory, cache=cold)
    assert (cold.hits, cold.misses) == (0, 5)
    cold.close()

    warm = FactsCache(location)
    second = load_games(directory, cache=warm)
    assert (warm.hits, warm.misses) == (5, 0)
    assert second.games == first.games
    warm.close()

    flip_winner(directory / "game-2.jsonl")
    shutil.copy(directory / "game-3.jsonl", directory / "moved.jsonl")
    os.utime(directory / "game-4.jsonl", ns=(1, 1))  # touched: same bytes, another mtime
    again = FactsCache(location)
    third = load_games(directory, cache=again)
    assert again.misses == 1  # only the edited file is verified again
    assert again.hits == 5
    assert len(third.games) == 4
    assert {s.reason for s in third.skipped} == {"unverified", "duplicate"}
    again.close()


def test_the_folder_cache_lives_hidden_in_the_folder(games: Path, tmp_path: Path) -> None:
    directory = copy_games(games, tmp_path)
    load_games(directory)
    assert (directory / ".arena" / "facts.sqlite").is_file()
    assert len(load_games(directory).games) == 5  # the cache is never read as a replay


def test_a_folder_without_room_for_the_cache_still_rates(games: Path, tmp_path: Path) -> None:
    directory = copy_games(games, tmp_path)
    (directory / ".arena").write_text("in the way")  # the cache directory cannot be made
    assert FactsCache.for_folder(directory).location is None
    assert len(load_games(directory).games) == 5


def test_tournament_file_selects_its_games_and_counts_the_schedule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replays = tmp_path / "replays"
    spec = tmp_path / "cup.yaml"
    spec.write_text("name: cup\nagents: {a: bot, b: random}\nboards: [std9]\n")
    assert main(["tournament", "run", str(spec), "--replays", str(replays), "--workers", "2"]) == 0
    play(replays, 2, tournament="other")
    play(replays, 1, start=2)  # seed 0 again would be other-0's game: a duplicate
    capsys.readouterr()

    assert main(["leaderboard", str(replays), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    together = "4 of tournament cup, 2 of tournament other, 1 outside any tournament"
    assert f"Rated 7 verified games together: {together}" in out  # no "(none)" label

    spec.write_text("name: cup\nagents: {a: bot, b: random}\nboards: [std9]\ngames_per_pairing: 3")
    assert main(["leaderboard", str(replays), "--tournament", str(spec), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "Rated 4 verified games of tournament cup (4 of 6 scheduled)" in out
    assert "4 games on 2 deals from" in out

    assert main(["leaderboard", str(replays), "--tournament", "other", "--bootstrap", "0"]) == 0
    assert "Rated 2 verified games of tournament other" in capsys.readouterr().out

    assert main(["leaderboard", str(replays), "--tournament", str(tmp_path / "no.yaml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no.yaml: no such tournament file" in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_shown_on_a_terminal_only(games: Path, tmp_path: Path) -> None:
    directory = copy_games(games, tmp_path)
    for name in range(20):
        shutil.copy(directory / "game-0.jsonl", directory / f"dup-{name}.jsonl")
    terminal, pipe = Terminal(), io.StringIO()
    load_games(directory, progress=Progress(terminal).files)
    load_games(directory, progress=Progress(pipe).files)
    assert "reading and verifying replays: 25/25" in terminal.getvalue()
    assert "reading and verifying replays: 20/25" in terminal.getvalue()
    assert pipe.getvalue() == ""


def test_summing_tallies_in_bulk_gives_the_same_totals(games: Path, tmp_path: Path) -> None:
    """The metrics' totals (plain numbers, the models built once) add as `Tallies.__add__`."""
    from arena.ratings.tallies import Tallies, add_to_totals, new_totals, tallies_of

    seats = [
        s.tallies for game in load_games(copy_games(games, tmp_path)).games for s in game.seats
    ]
    assert len(seats) == 45
    totals = new_totals()
    for tallies in seats:
        add_to_totals(totals, tallies)
    assert tallies_of(totals) == sum(seats, Tallies())
    assert tallies_of(new_totals()) == Tallies()


def test_void_reason_reads_the_result_flag() -> None:
    from types import SimpleNamespace

    from arena.ratings.verify import void_reason

    def header(**result: object) -> object:
        return SimpleNamespace(result=SimpleNamespace(**result))

    assert void_reason(header(void=True, reason="seat 3 fell back 12 times")) == (
        "seat 3 fell back 12 times"
    )
    assert void_reason(header(void=False, reason="wolves won")) is None
    assert void_reason(header(voided="endpoint hopeless")) == "endpoint hopeless"
    assert void_reason(header(reason="good won")) is None
    assert void_reason(SimpleNamespace(result=None)) is None


def test_a_file_is_parsed_once_to_verify_and_summarize_it(
    games: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verification re-runs the file the loader already parsed (`check_log`), not a fresh
    read of it: parsing was about a quarter of a cold leaderboard file's cost."""
    import arena.replay_check as replay_check
    from arena.storage.replay_file import read_header, read_replay

    reads: list[Path] = []

    def counting(path: Path, **kwargs: object) -> object:
        reads.append(path)
        return read_replay(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(verify, "read_replay", counting)
    monkeypatch.setattr(replay_check, "read_replay", counting)
    path = next(iter(sorted(games.glob("*.jsonl"))))
    facts = verify.verify_file(path, read_header(path))
    assert facts.verdict == "rated" and reads == [path]


def test_signed_games_are_not_played_again_and_every_other_file_is(
    games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose signature verifies is the referee's own bytes: re-running it is waste.

    An unsigned copy (its signature line dropped) and an edited one are re-run, and the
    edit is found by the referee, not only by the signature.
    """
    directory = copy_games(games, tmp_path)
    unsigned = directory / "unsigned.jsonl"
    lines = (directory / "game-0.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    unsigned.write_text("".join(lines[:-1]), encoding="utf-8")
    assert '"type":"signature"' in lines[-1].replace(" ", "")
    flip_winner(directory / "game-2.jsonl")
    checked: list[str] = []

    def counting(replay: Any, path: Path) -> Any:
        checked.append(path.name)
        return check_log(replay, path)

    monkeypatch.setattr(verify, "check_log", counting)
    found = load_games(directory, cache=False, include_unsigned=True)
    assert sorted(checked) == ["game-2.jsonl", "unsigned.jsonl"]
    reasons = {Path(s.path).name: s.reason for s in found.skipped}
    assert reasons["game-2.jsonl"] == "unverified"
    assert len(found.games) == 4  # game-0 once (its unsigned copy is the same game), 1, 3, 4
