"""Plug-ins in tournament files: options travel in the job, bad ones stop before queueing."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.queue.jobs import MatchJob
from arena.rules.errors import ConfigError
from arena.tournament import TournamentSpec, load_spec, schedule

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
