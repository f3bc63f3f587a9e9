"""`arena tournament run|submit --until-separated [--max-deals N]` and each pairing's verdict."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from arena.cli import main
from arena.commands.receipts import submitted_ids
from arena.commands.separation import (
    deals_by_pairing,
    next_round,
    pairing,
    round_size,
    score,
)
from arena.commands.worker import worker_argv
from arena.queue.redis_queue import RedisQueue
from arena.rules.types import Winner
from arena.tournament import load_spec, schedule
from tests.support.redis_db import REDIS_URL

BOT_VS_RANDOM = "name: {name}\nagents: {{bot: bot, rnd: random}}\nboards: [std9]\n"
TWINS = (
    "name: twins\nagents: {a: 'noisy:0.3:bot', b: 'noisy:0.30:bot'}\nboards: [std9]\n"
    "games_per_pairing: 3\n"
)


def _spec(tmp_path: Path, text: str, games: int = 40, name: str = "sep") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.format(name=name) + f"games_per_pairing: {games}\n", encoding="utf-8")
    return path


def _run(spec: Path, replays: Path, *flags: str) -> int:
    return main(["tournament", "run", str(spec), "--replays", str(replays), *flags])


def test_a_run_stops_a_pairing_once_it_is_separated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = _spec(tmp_path, BOT_VS_RANDOM), tmp_path / "replays"
    assert _run(spec, replays, "--until-separated", "--workers", "2") == 0
    out = capsys.readouterr().out
    assert "bot vs rnd: 10 deals (20 games), score 1.00 [" in out
    assert "bot is better (separated at 10 deals)" in out
    assert len(list(replays.glob("sep-*.jsonl"))) == 20  # of the 80 a fixed count would play
    assert main(["tournament", "status", str(spec), "--replays", str(replays)]) == 0
    assert "bot is better (separated at 10 deals)" in capsys.readouterr().out
    assert _run(spec, replays, "--until-separated") == 0
    assert "round:" not in capsys.readouterr().out  # decided: nothing more to play


def test_identical_agents_play_to_the_cap_and_a_higher_cap_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = tmp_path / "twins.yaml", tmp_path / "replays"
    spec.write_text(TWINS, encoding="utf-8")
    assert _run(spec, replays, "--until-separated", "--workers", "2") == 0
    assert "a vs b: 3 deals (6 games)" in (out := capsys.readouterr().out)
    assert "not separated, and every deal is played (the cap)" in out
    before = {p.name: p.read_bytes() for p in replays.glob("twins-*.jsonl")}
    assert len(before) == 6
    assert _run(spec, replays, "--until-separated", "--max-deals", "5") == 0
    out = capsys.readouterr().out
    assert "twins: 10 games, 6 already finished" in out and "round: 4 games" in out
    assert "a vs b: 5 deals (10 games)" in out
    after = {p.name: p.read_bytes() for p in replays.glob("twins-*.jsonl")}
    assert len(after) == 10 and all(after[name] == data for name, data in before.items())
    assert main(["tournament", "status", str(spec), "--replays", str(replays)]) == 0
    assert "a vs b: 3 deals (6 games)" in capsys.readouterr().out  # the file's own cap
    status = ["tournament", "status", str(spec), "--replays", str(replays), "--max-deals", "5"]
    assert main(status) == 0
    assert "a vs b: 5 deals (10 games)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "flags", "says"),
    [
        (BOT_VS_RANDOM, ["--until-separated", "--max-deals", "0"], "got '0'"),
        (BOT_VS_RANDOM, ["--until-separated", "--max-deals", "x"], "got 'x'"),
        (BOT_VS_RANDOM, ["--until-separated", "--max-deals", "-3"], "got '-3'"),
        (BOT_VS_RANDOM, ["--max-deals", "3"], "--max-deals caps --until-separated"),
        (
            BOT_VS_RANDOM + "mirrored: false\n",
            ["--until-separated"],
            "--until-separated needs mirrored: true",
        ),
        ("name: {name}\nagents: {{bot: bot}}\n", ["--until-separated"], "names only one"),
    ],
)
@pytest.mark.parametrize("action", ["run", "submit"])
def test_bad_flags_are_one_line_before_anything_is_played(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    flags: list[str],
    says: str,
    action: str,
) -> None:
    spec, replays = _spec(tmp_path, text, games=2), tmp_path / "replays"
    queue = ["--redis", "redis://127.0.0.1:1"] if action == "submit" else []
    argv = ["tournament", action, str(spec), "--replays", str(replays), *queue, *flags]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: error: ") and says in err and err.count("\n") == 1
    assert not replays.exists()


def test_scores_deals_and_rounds(tmp_path: Path) -> None:
    spec = load_spec(
        _spec(tmp_path, "name: {name}\nagents: {{a: bot, b: random, c: bot}}\n", games=3)
    )
    jobs = schedule(spec)
    deals = deals_by_pairing(spec, jobs)
    assert list(deals) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert all(len(d) == 3 and all(len(games) == 2 for games in d) for d in deals.values())
    first = deals[("a", "b")][0]
    assert [set(job.seats) for job in first] == [{"a", "b"}] * 2 and first[0].seed == first[1].seed
    wolves_a, wolves_b = sorted(first, key=lambda job: "a" not in _wolf_agents(job))
    assert score(wolves_a, "a", Winner.WOLVES) == 1 and score(wolves_b, "a", Winner.WOLVES) == 0
    assert score(wolves_a, "a", Winner.GOOD) == 0 and score(wolves_b, "a", Winner.GOOD) == 1
    assert score(wolves_a, "a", Winner.DRAW) == 0.5 == score(wolves_b, "a", Winner.LOVERS)
    assert (round_size(0), round_size(8), round_size(40)) == (2, 2, 10)


def _wolf_agents(job: object) -> set[str]:
    from arena.rules.roles import is_wolf

    roles = job.config.deal  # type: ignore[attr-defined]
    return {job.seats[i] for i, role in enumerate(roles) if is_wolf(role)}  # type: ignore[attr-defined]


def test_a_void_or_given_up_game_drops_its_deal_and_an_unplayed_one_stays_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_path, replays = _spec(tmp_path, BOT_VS_RANDOM, games=3), tmp_path / "replays"
    assert _run(spec_path, replays, "--until-separated", "--max-deals", "2") == 0
    capsys.readouterr()
    spec = load_spec(spec_path)
    deals = deals_by_pairing(spec, schedule(spec))[("bot", "rnd")]
    whole = pairing(("bot", "rnd"), deals, replays)
    assert (whole.scores, whole.dropped, len(whole.open)) == ((1.0, 1.0), 0, 1)
    assert [job.game_id for job in next_round([whole])] == [j.game_id for j in deals[2]]
    given_up = pairing(("bot", "rnd"), deals, replays, {deals[2][0].game_id})
    assert (given_up.scores, given_up.dropped, given_up.open) == ((1.0, 1.0), 1, ())
    _make_void(replays / f"{deals[0][1].game_id}.jsonl")
    voided = pairing(("bot", "rnd"), deals, replays)
    assert (voided.scores, voided.dropped, voided.played) == ((1.0,), 1, 2)


def _make_void(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["result"].update(winner=None, void=True, reason="voided: seat 3 kept defaulting")
    lines[0] = json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.redis
def test_submit_plays_rounds_on_the_queue_and_resumes_from_the_folder(
    tmp_path: Path, prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = _spec(tmp_path, BOT_VS_RANDOM, name=prefix), tmp_path / "replays"
    assert _run(spec, replays, "--until-separated", "--max-deals", "3") == 0  # 3 deals here
    capsys.readouterr()
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        worker_argv(REDIS_URL, prefix, tmp_path / "worker-replays", concurrency=2),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        argv = ["tournament", "submit", str(spec), "--redis", REDIS_URL, "--prefix", prefix]
        assert main([*argv, "--replays", str(replays), "--until-separated"]) == 0
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        log.close()
    out = capsys.readouterr().out
    assert "round: 4 games for 1 pairings not yet separated: queued 4" in out  # deals 3 and 4
    assert "bot is better (separated at 10 deals)" in out
    # rounds of 2, 2, 2 and 3 deals after the 3 played here (a quarter of those played, at
    # least 2): separated at 10 deals, and the round it fell in ends at 12
    assert len(list(replays.glob(f"{prefix}-*.jsonl"))) == 24
    queued = submitted_ids(replays, prefix, prefix)
    here = {job.game_id for job in schedule(load_spec(spec))[:6]}
    assert len(queued) == 18 and not queued & here  # the games played here were never queued


@pytest.mark.redis
def test_a_round_left_on_redis_is_waited_for_not_queued_again(
    tmp_path: Path, prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A submitter stopped after queueing its first round: the rerun queues none of it."""
    spec, replays = _spec(tmp_path, BOT_VS_RANDOM, games=6, name=prefix), tmp_path / "replays"
    loaded = load_spec(spec)
    deals = deals_by_pairing(loaded, schedule(loaded))[("bot", "rnd")]
    first = next_round([pairing(("bot", "rnd"), deals, replays)])
    assert len(first) == 4

    async def leave_queued() -> None:
        queue = await RedisQueue.connect(REDIS_URL, prefix=prefix)
        await queue.submit(first)
        await queue.close()

    asyncio.run(leave_queued())
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        worker_argv(REDIS_URL, prefix, tmp_path / "worker-replays", concurrency=2),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        argv = ["tournament", "submit", str(spec), "--redis", REDIS_URL, "--prefix", prefix]
        assert main([*argv, "--replays", str(replays), "--until-separated"]) == 0
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        log.close()
    out = capsys.readouterr().out
    assert "round: 4 games for 1 pairings not yet separated: queued 0" in out
    assert "bot vs rnd: 6 deals (12 games)" in out  # the cap: 6 deals are too few to decide
    assert len(list(replays.glob(f"{prefix}-*.jsonl"))) == 12


def test_a_deal_half_played_plays_only_its_missing_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = _spec(tmp_path, BOT_VS_RANDOM, games=2), tmp_path / "replays"
    assert _run(spec, replays, "--until-separated") == 0
    lost = sorted(replays.glob("sep-*.jsonl"))[-1]
    kept = {p.name: p.read_bytes() for p in replays.glob("sep-*.jsonl") if p != lost}
    lost.unlink()
    capsys.readouterr()
    assert _run(spec, replays, "--until-separated") == 0
    out = capsys.readouterr().out
    assert "round: 1 games for 1 pairings not yet separated" in out
    assert "bot vs rnd: 2 deals (4 games)" in out and lost.exists()
    assert all((replays / name).read_bytes() == data for name, data in kept.items())
