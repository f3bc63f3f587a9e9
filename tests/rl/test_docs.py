"""The copyable example of docs/agents.md runs as written."""

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from arena.cli import main
from arena.rules.events import ActionDefaulted
from arena.storage.replay_file import read_replay

DOC = Path(__file__).parents[2] / "docs" / "agents.md"


def test_the_rl_example_runs(capsys) -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## An RL environment") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    exec(compile(code.group(1), str(DOC), "exec"), {})
    assert "seat_1" in capsys.readouterr().out


def test_the_training_example_trains_then_seats_its_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The train-then-seat run of docs/agents.md, as written: no internal name needed."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Training against any seats") :]
    section = section[: section.index("\n### ", 1)]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    shell = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert code is not None and shell is not None
    monkeypatch.chdir(tmp_path)
    exec(compile(code.group(1), str(DOC), "exec"), {})
    assert (tmp_path / "preferences.npy").exists()
    write, play = shell.group(1).strip().splitlines()
    subprocess.run(["bash", "-c", write], check=True)
    monkeypatch.syspath_prepend(str(DOC.parents[1] / "examples" / "agents"))
    command = shlex.split(play.split(" arena ", 1)[1])
    assert main([*command, "--seed", "3", "--quiet", "--out", "game.jsonl"]) == 0, (
        capsys.readouterr().err
    )
    replay = read_replay(tmp_path / "game.jsonl")
    assert replay.header.seats[0].model == "rl-preferences"
    assert not [e for e in replay.events if isinstance(e, ActionDefaulted) and e.seat == 1]
