import asyncio
import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from arena.agents.base import Agent, AgentReply
from arena.agents.bot.agent import BotAgent
from arena.agents.random_agent import RandomAgent
from arena.cli import main
from arena.match import Limits, new_header, run_game
from arena.ratings.cache import Content
from arena.ratings.export import to_json
from arena.ratings.loader import load_games
from arena.ratings.metrics import agent_metrics
from arena.ratings.report import Report, build_report
from arena.records import BeliefReport
from arena.replay_check import CheckReport
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.storage.replay_file import ReplayHeader, ReplayResult, ReplayWriter, SeatAgent
from tests.ratings.builders import deal, planted_tournament


class Named:
    """Another agent under a different name (the rating identity)."""

    def __init__(self, inner: RandomAgent | BotAgent, name: str) -> None:
        self.inner = inner
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        return await self.inner.decide(view, request, feedback)

    async def believe(self, view: Observation) -> BeliefReport | None:
        if isinstance(self.inner, BotAgent):
            return await self.inner.believe(view)
        return None


def play_games(directory: Path, count: int) -> None:
    async def play_all() -> None:
        for i in range(count):
            agents: dict[int, Agent] = {
                s: Named(BotAgent(seed=100 * i + s), "bot")
                if (s + i) % 2
                else Named(RandomAgent(seed=100 * i + s), "rand")
                for s in range(1, 10)
            }
            header = new_header(f"game-{i}", GameConfig(board="std9"), i, agents)
            await run_game(
                header, agents, directory / f"game-{i}.jsonl", limits=Limits(beliefs="per_speech")
            )

    asyncio.run(play_all())


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("replays")
    play_games(directory, 6)
    return directory


def test_leaderboard_skips_bad_files_one_line_each(
    replays: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "mixed"
    shutil.copytree(replays, directory)
    (directory / "notes.txt").write_text("not a replay\n")  # a folder gathers logs and notes:
    (directory / "worker.err").write_text("Traceback …\n")  # not replays, ignored, counted once
    good = (directory / "game-0.jsonl").read_text().splitlines()
    (directory / "torn.jsonl").write_text(
        "\n".join([good[0].replace("game-0", "torn"), good[1][:30]])
    )
    (directory / "sub").mkdir()
    shutil.copy(directory / "game-1.jsonl", directory / "sub" / "copy.jsonl")
    (directory / "sub" / "run.txt").write_text("{}\n")
    (directory / ".hidden").write_text("ignored")
    out_csv, out_json = tmp_path / "out" / "board.csv", tmp_path / "out" / "board.json"

    code = main(
        [
            "leaderboard",
            str(directory),
            "--bootstrap",
            "20",
            "--csv",
            str(out_csv),
            "--json",
            str(out_json),
        ]
    )

    captured = capsys.readouterr()
    skipped = captured.err.strip().splitlines()
    assert code == 0
    assert len(skipped) == 3
    assert "ignored 3 files not named *.jsonl (not replays)" in skipped  # not "unreadable"
    assert not any(name in captured.err for name in ("notes.txt", "worker.err", "run.txt"))
    assert any("torn.jsonl:2: not JSON" in line for line in skipped)
    assert any("copy.jsonl: the same game (body) as " in line for line in skipped)  # by content
    assert "6 games on 6 deals from" in captured.out
    assert "2 files left out: 1 unreadable, 1 duplicate" in captured.out
    assert "bot" in captured.out and "rand" in captured.out
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    assert {r["agent"] for r in rows} == {"bot", "rand"}
    assert all(r["games"] == "6" for r in rows)
    assert all(r["brier_low"] for r in rows if r["agent"] == "bot")
    [pair] = csv.DictReader(io.StringIO((out_csv.parent / "board.pairs.csv").read_text()))
    assert {pair["first"], pair["second"]} == {"bot", "rand"}
    assert pair["h2h_games"] == "", "mixed seats: never one agent a side, so never met"
    assert "Pairs (rating difference" in captured.out and "never met" in captured.out
    report = Report.model_validate_json(out_json.read_text())
    assert len(report.skipped) == 2 and report.leaderboard.games == 6
    assert report.leaderboard.bootstrap == 20


def test_bot_games_fill_the_belief_metrics(replays: Path) -> None:
    found = load_games(replays)
    assert len(found.games) == 6 and not found.skipped
    bot = next(m for m in agent_metrics(found.games) if m.agent == "bot")
    assert bot.as_good.brier.count > 0
    assert bot.as_good.speech_shift.count + bot.as_wolf.speech_shift.count > 0
    rand = next(m for m in agent_metrics(found.games) if m.agent == "rand")
    assert rand.as_good.brier.value is None


def test_unfinished_games_are_reported_not_rated(tmp_path: Path) -> None:
    header = ReplayHeader(
        game_id="live",
        created_at="2025-01-01T00:00:00+00:00",
        config=GameConfig(board="std9"),
        seed=0,
        seats=tuple(SeatAgent(seat=s, agent="bot") for s in range(1, 10)),
    )
    writer = ReplayWriter(tmp_path / "live.jsonl", header)
    writer.event(0, deal())
    writer.close()
    found = load_games(tmp_path)
    assert found.games == () and "unfinished game live" in found.skipped[0].message


def test_empty_and_missing_directories_are_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", str(tmp_path)]) == 2
    assert f"{tmp_path}: no finished replays to rate" in capsys.readouterr().err
    assert main(["leaderboard", str(tmp_path / "nope")]) == 2
    assert "no such directory" in capsys.readouterr().err
    (tmp_path / "junk.jsonl").write_bytes(b"\xff\xfe\x00")
    assert main(["leaderboard", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "junk.jsonl:1: invalid UTF-8 byte 0xff" in err
    assert "(1 files left out: 1 unreadable)" in err


def test_planted_tournament_written_as_replays_is_recovered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rating recovery through the command line, over hand-built logs (a deal and a result).

    Such logs are not games the referee would produce, so the verifier is stubbed here;
    tests/ratings/test_verified.py checks that real unverifiable files are left out.
    """
    monkeypatch.setattr(
        "arena.ratings.verify.check_log",
        lambda replay, path: CheckReport(path=str(path), ok=True, message="stubbed", finished=True),
    )
    monkeypatch.setattr(  # the logs hold one deal each, so many are alike: told apart by id
        "arena.ratings.verify.content_of",
        lambda replay: Content(
            seal=replay.seal,
            digest=replay.digest,
            body=replay.header.game_id,
            play=replay.header.game_id,
        ),
    )
    for result in planted_tournament(rounds=40):
        header = ReplayHeader(
            game_id=result.game_id,
            created_at=result.created_at,
            config=GameConfig(board="std9"),
            seed=0,
            tournament="planted",
            seats=tuple(SeatAgent(seat=s.seat, agent=s.agent) for s in result.seats),
        )
        writer = ReplayWriter(tmp_path / f"{result.game_id}.jsonl", header)
        writer.event(0, deal(tuple(s.role for s in result.seats)))
        writer.finish(ReplayResult(winner=result.winner, reason="planted", days=3, events=1))
    out = tmp_path / "board.json"

    code = main(
        [
            "leaderboard",
            str(tmp_path),
            "--tournament",
            "planted",
            "--bootstrap",
            "0",
            "--json",
            str(out),
            "--jobs",  # verify in this process, where the stubs above apply: a spawned
            "1",  # verifier (chosen when any thread runs, e.g. a pytest plug-in's) re-imports
        ]
    )

    assert code == 0
    board = json.loads(out.read_text())["leaderboard"]
    wolf_mus = {s["agent"]: s["wolf"]["elo"] for s in board["standings"]}
    assert max(wolf_mus, key=wolf_mus.__getitem__) == "A"
    assert board["standings"][0]["agent"] == "A"
    assert board["games"] == 240 and board["draws"] == 0
    assert main(["leaderboard", str(tmp_path), "--tournament", "other"]) == 2
    assert "of tournament 'other'" in capsys.readouterr().err
    assert main(["leaderboard", str(tmp_path), "--jobs", "0"]) == 2
    assert "--jobs must be 1 or more, not 0" in capsys.readouterr().err
    parallel = tmp_path / "parallel.json"
    common = ["leaderboard", str(tmp_path), "--bootstrap", "8", "--json"]
    assert main([*common, str(out), "--jobs", "1"]) == 0
    assert main([*common, str(parallel), "--jobs", "2"]) == 0
    assert json.loads(parallel.read_text()) == json.loads(out.read_text())


def test_json_export_is_the_whole_report(replays: Path) -> None:
    found = load_games(replays)
    report = build_report(found.games, bootstrap=0)
    again = Report.model_validate_json(to_json(report))
    assert again == report
