"""`make play` installs the runtime only; `make test` adds the dev tools; stamps remember."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _dry_run(target: str, venv: Path) -> list[str]:
    done = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _installs(lines: list[str]) -> list[str]:
    return [line for line in lines if "pip install" in line and "--upgrade pip" not in line]


def _stamp(venv: Path, kind: str) -> Path:
    digest = hashlib.sha1((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:12]
    return venv / f".{kind}-{digest}"


def test_play_installs_the_runtime_without_the_dev_tools(tmp_path: Path) -> None:
    installs = _installs(_dry_run("play", tmp_path))
    assert len(installs) == 1 and installs[0].endswith("pip install -q -e .")


def test_test_installs_the_dev_tools(tmp_path: Path) -> None:
    installs = _installs(_dry_run("test", tmp_path))
    assert installs[-1].endswith("pip install -q -e '.[dev]'")


def test_stamps_skip_what_is_installed_for_both_targets(tmp_path: Path) -> None:
    _stamp(tmp_path, "runtime").touch()
    assert _installs(_dry_run("play", tmp_path)) == []
    dev_only = _installs(_dry_run("test", tmp_path))
    assert len(dev_only) == 1 and "[dev]" in dev_only[0]
    _stamp(tmp_path, "dev").touch()
    assert _installs(_dry_run("test", tmp_path)) == []
    assert _installs(_dry_run("play", tmp_path)) == []
