"""Plug-ins in tournament files: options travel in the job, bad ones stop before queueing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.cli import main
from arena.queue.jobs import MatchJob
from arena.rules.errors import ConfigError
from arena.storage.replay_file import read_header
from arena.tournament import TournamentSpec, load_spec, schedule
from tests.queue.conftest import QueueMaker, make_jobs, run_all
from tests.support import plugins

P = "py:tests.support.plugins"


def _jobs(**agents: object) -> list[MatchJob]:
    data = {"name": "fp", "agents": agents, "boards": ["std9"], "games_per_pairing": 1}
    return schedule(TournamentSpec.model_validate(data))


def test_fingerprints_of_tournaments_without_options_are_unchanged() -> None:
    """Pinned from before `options` existed: resubmitting an old tournament is no conflict."""
    jobs = schedule(
        TournamentSpec.model_validate({"name": "fp", "agents": {"a": "bot", "b": "random"}})
    )
    assert [j.fingerprint for j in jobs][:3] == [
        "f12d57f0dab9f20f",
        "ae3aa3b9a2defc64",
        "b90d096d489a447c",
    ]


def test_options_travel_in_the_job_and_are_part_of_its_identity() -> None:
    plain = _jobs(mine={"spec": f"{P}:Seeded"}, bots="bot")
    bold = _jobs(
        mine={"spec": f"{P}:Seeded", "options": {"style": "bold", "n": [1, 2]}}, bots="bot"
    )
    again = _jobs(
        mine={"spec": f"{P}:Seeded", "options": {"n": [1, 2], "style": "bold"}}, bots="bot"
    )
    assert bold[0].agents["mine"].options == {"style": "bold", "n": [1, 2]}
    assert MatchJob.model_validate_json(bold[0].model_dump_json()) == bold[0]
    assert [j.fingerprint for j in bold] == [j.fingerprint for j in again]
    assert not {j.fingerprint for j in plain} & {j.fingerprint for j in bold}


@pytest.mark.parametrize(
    ("agent", "says"),
    [
        ({"spec": "bot", "options": {"x": 1}}, "options are settings for a plug-in's factory"),
        ({"spec": "py:no colon"}, "bad agent spec 'py:no colon': use py:MODULE:FACTORY"),
    ],
)
def test_a_bad_plugin_entry_is_refused_with_the_file(
    tmp_path: Path, agent: dict, says: str
) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(f"name: t\nagents:\n  mine: {agent!r}\n".replace("'", '"'))
    with pytest.raises(ConfigError, match="agents.mine: ") as caught:
        load_spec(path)
    assert says in str(caught.value)


def test_status_does_not_import_the_plugin(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("name: t\nagents: {mine: 'py:not_installed_here_xyz:make', bots: bot}\n")
    assert load_spec(path).agents["mine"].spec == "py:not_installed_here_xyz:make"


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("py:not_installed_here_xyz:make", "no module named 'not_installed_here_xyz'"),
        (f"{P}:broken_factory", "the factory raised RuntimeError"),
        (f"{P}:not_an_agent", "not an Agent"),
    ],
)
@pytest.mark.parametrize("command", ["run", "submit"])
def test_run_and_submit_make_every_plugin_before_anything_is_queued(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, says: str, command: str
) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(f"name: t\nagents: {{mine: '{spec}', bots: bot}}\nboards: [std9]\n")
    where = ["--redis", "redis://127.0.0.1:1"] if command == "submit" else []
    replays = tmp_path / "replays"
    assert main(["tournament", command, str(path), "--replays", str(replays), *where]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and says in captured.err and spec in captured.err
    assert not replays.exists() or not any(replays.iterdir())


def test_a_worker_that_cannot_make_a_plugin_fails_its_games_with_the_line(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """On the worker's machine the factory raises: the game fails, is retried, then dead."""
    jobs = make_jobs(agents={"mine": f"{P}:broken_factory", "b": "bot"}, max_attempts=2)

    async def scenario() -> None:
        queue = new_queue(5.0)
        stats = await run_all(queue, jobs, tmp_path)
        assert stats.failed == len(jobs) and stats.done == 0
        dead = await queue.dead_letters()
        assert {d.game_id for d in dead} == {j.game_id for j in jobs}
        assert all(
            "the factory raised RuntimeError: cannot load the checkpoint" in d.error for d in dead
        )
        assert all(d.attempts == 2 and "\n" not in d.error for d in dead)

    asyncio.run(scenario())
    assert list(tmp_path.iterdir()) == []


def test_a_worker_seats_a_plugin_with_its_options(new_queue: QueueMaker, tmp_path: Path) -> None:
    entry = {"spec": f"{P}:Seeded", "options": {"style": "queued"}}
    jobs = make_jobs(agents={"mine": entry, "b": "bot"}, boards=["std9"])
    plugins.Seeded.made.clear()

    async def scenario() -> None:
        stats = await run_all(new_queue(5.0), jobs, tmp_path)
        assert stats.done == len(jobs) and stats.failed == 0

    asyncio.run(scenario())
    assert plugins.Seeded.made and all(
        m["options"] == {"style": "queued"} for m in plugins.Seeded.made
    )
    for job in jobs:
        header = read_header(tmp_path / f"{job.game_id}.jsonl")
        mine = [s for s in header.seats if job.seats[s.seat - 1] == "mine"]
        assert mine and all(s.model == "seeded-queued" for s in mine)
        assert all(s.agent == "mine" and s.spec == f"{P}:Seeded" for s in mine)
