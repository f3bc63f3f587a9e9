"""A throwaway package that registers an agent under `werewolf_arena.agents`, pip-installed
into a temporary venv that sees this checkout and the shared packages."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pydantic
import pytest

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "agents" / "python_agent.py"
NAME = "demo-agent"
"""The entry-point name the package registers."""

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "wa-demo-agent"
version = "0.1"

[project.entry-points."werewolf_arena.agents"]
demo-agent = "wa_demo_agent:make_agent"
"""


class Venv(NamedTuple):
    """A venv with the demo package installed."""

    python: Path
    home: Path

    def arena(
        self, *args: str, cwd: Path, timeout: float = 300
    ) -> subprocess.CompletedProcess[str]:
        """Run `arena ARGS` with the venv's Python, outside this checkout (cwd)."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        return subprocess.run(
            [str(self.python), "-m", "arena", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    """`pip install --no-deps` of a package with an entry point, into a fresh venv."""
    home = tmp_path_factory.mktemp("plugin-venv")
    package = home / "src"
    (package / "wa_demo_agent").mkdir(parents=True)
    (package / "pyproject.toml").write_text(PYPROJECT)
    (package / "wa_demo_agent" / "__init__.py").write_text(EXAMPLE.read_text(encoding="utf-8"))
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = next((venv / "lib").glob("python3*/site-packages"))
    shared = Path(pydantic.__file__).parents[1]
    (site / "project.pth").write_text(f"{ROOT}\n{shared}\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            str(package),
        ],
        check=True,
        capture_output=True,
    )
    yield Venv(python, home)
