"""`make play` installs the runtime only; `make test` adds the dev tools; stamps remember."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _dry_run(target: str, venv: Path) -> list[str]:
    done = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _installs(lines: list[str]) -> list[str]:
    return [line for line in lines if "scripts/install.py" in line]


def _stamp(venv: Path, kind: str) -> Path:
    digest = hashlib.sha1((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:12]
    return venv / f".{kind}-{digest}"


def test_play_installs_the_runtime_without_the_dev_tools(tmp_path: Path) -> None:
    installs = _installs(_dry_run("play", tmp_path))
    assert len(installs) == 1 and installs[0].endswith(f"scripts/install.py {tmp_path}")


def test_test_installs_the_dev_tools(tmp_path: Path) -> None:
    installs = _installs(_dry_run("test", tmp_path))
    assert installs[-1].endswith(f"scripts/install.py {tmp_path} dev")


def test_stamps_skip_what_is_installed_for_both_targets(tmp_path: Path) -> None:
    _stamp(tmp_path, "runtime").touch()
    assert _installs(_dry_run("play", tmp_path)) == []
    dev_only = _installs(_dry_run("test", tmp_path))
    assert len(dev_only) == 1 and dev_only[0].endswith(" dev")
    _stamp(tmp_path, "dev").touch()
    assert _installs(_dry_run("test", tmp_path)) == []
    assert _installs(_dry_run("play", tmp_path)) == []


def test_play_takes_the_script_in_lower_case_lang(tmp_path: Path) -> None:
    """`make play lang=zh-Hans` prints the game in Simplified; LANG stays the locale's."""
    (play,) = [line for line in _dry_run("play", tmp_path) if "arena play" in line]
    assert play.endswith("--lang zh-Hant")
    done = subprocess.run(
        ["make", "-n", "play", f"VENV={tmp_path}", "lang=zh-Hans"],
        cwd=ROOT, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )  # fmt: skip
    assert done.stdout.splitlines()[-1].endswith("--lang zh-Hans")


def test_the_install_shows_steps_and_keeps_pips_warnings_in_its_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("install", ROOT / "scripts" / "install.py")
    assert spec is not None and spec.loader is not None
    install = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(install)
    log = tmp_path / "install.log"
    noisy = "print('Collecting pydantic>=2'); print('BuildBackendWarning: Editable installation.')"
    assert install._run("step", [sys.executable, "-c", noisy], log)
    shown = capsys.readouterr()
    assert shown.out == "step\n" and "Warning" not in shown.out + shown.err
    assert "BuildBackendWarning" in log.read_text()
    assert not install._run("broken", [sys.executable, "-c", "raise SystemExit('no index')"], log)
    failed = capsys.readouterr()
    assert "no index" in failed.out and f"the whole output is in {log}" in failed.err
