"""An agent from an installed package, named by its entry point, at every kind of table."""

from __future__ import annotations

import json
from pathlib import Path

from tests.plugins.conftest import NAME, Venv


def test_the_installed_package_registers_its_agent(installed: Venv, tmp_path: Path) -> None:
    run = installed.arena("agent", "check", NAME, "--games", "2", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["conformant"] and report["accepted"] == report["calls"] > 0
