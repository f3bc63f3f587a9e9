"""`python -m arena` runs the same CLI as the `arena` console script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from arena import __version__

ROOT = Path(__file__).resolve().parents[2]


def test_python_dash_m_arena_prints_the_version() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "arena", "--version"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"arena {__version__}"
