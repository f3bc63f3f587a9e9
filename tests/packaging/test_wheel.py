"""The built wheel works on its own: installed into a fresh venv, run from another folder.

The wheel is built from a clean copy of the sources (git's files, so nothing stale from a
`build/` folder leaks in) with the oldest build backend `pyproject.toml` allows (so the pin
is one that builds this metadata), then installed with `--no-deps` into a new venv. Its
runtime dependencies come from this test's own environment through a `.pth` line, after
the venv's own site-packages: only the backend may be downloaded, and `arena` can only come
from the wheel (the checkout's editable install is not on that path, and every command runs
outside the checkout).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

from tests.support.stub_server import StubServer

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 240
pytestmark = pytest.mark.slow  # a wheel built (its backend downloaded), a venv, a dashboard


class Installed(NamedTuple):
    """A fresh venv holding only the wheel, and a folder outside the checkout to run in."""

    wheel: Path
    python: Path
    arena: Path
    cwd: Path
    build_log: str
    """What the build backend said (pip -v)."""


def _run(
    *argv: str | Path, cwd: Path, env: dict[str, str] | None = None, stderr: bool = False
) -> str:
    """The command's output (with its error stream after it, if `stderr`); it must succeed."""
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=LIMIT_S
    )
    assert done.returncode == 0, f"{argv}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout + done.stderr if stderr else done.stdout


def _clean_copy(dest: Path) -> Path:
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def _oldest_backend() -> str:
    """`setuptools==X` for the lowest X the build-system table accepts."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    (pin,) = [r for r in requires if r.startswith("setuptools")]
    return f"setuptools=={pin.removeprefix('setuptools>=').split(',')[0]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    work = tmp_path_factory.mktemp("wheel")
    source = _clean_copy(work / "src")
    (work / "backend.txt").write_text(_oldest_backend() + "\n")
    env = {**os.environ, "PIP_CONSTRAINT": str(work / "backend.txt")}
    build_log = _run(sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", work / "dist",
                     source, cwd=work, env=env, stderr=True)  # fmt: skip
    (wheel,) = (work / "dist").glob("werewolf_arena-*.whl")
    _run(sys.executable, "-m", "venv", work / "venv", cwd=work)
    python = work / "venv" / "bin" / "python"
    _run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel, cwd=work)
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                     cwd=work).strip())  # fmt: skip
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    ours |= {p for p in sys.path if p.endswith("site-packages")}  # a venv chained by a .pth
    (site / "test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    outside = work / "elsewhere"
    outside.mkdir()
    yield Installed(wheel, python, work / "venv" / "bin" / "arena", outside, build_log)


def test_the_wheel_holds_the_package_data(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert {"arena/text/en.yaml", "arena/text/zh.yaml", "arena/dashboard/app.py"} <= names
    assert "arena/agents/remote/protocol.json" in names, "the remote agent protocol is published"
    boards = {n.removeprefix("arena/") for n in names if n.startswith("arena/boards/")}
    assert boards == {str(p.relative_to(ROOT / "arena")) for p in (ROOT / "arena/boards").iterdir()}
    # The card's top-level homes ship whole, inside the package: dashboard/ → arena/dashboard/,
    # prompts/ → arena/prompts/.
    for home in ("dashboard", "prompts"):
        sources = {
            f"arena/{p.relative_to(ROOT)}"
            for p in (ROOT / home).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        assert sources <= names, sorted(sources - names)
    prompts = {n for n in names if n.startswith("arena/prompts/v")}
    assert any(n.endswith(".yaml") for n in prompts) and any(n.endswith(".md") for n in prompts)
    assert not any(n.startswith(("dashboard/", "prompts/")) for n in names), "no top-level names"
    metadata = zipfile.ZipFile(installed.wheel).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))
    )
    assert b"License-Expression: MIT" in metadata


def test_the_build_is_warning_free(installed: Installed) -> None:
    """setuptools warns in capitals (`_Warning`, `SetuptoolsDeprecationWarning`): a data
    folder taken for an unlisted package, a deprecated setting. distutils' own lower-case
    lines ("warning: byte-compiling is disabled" under PYTHONDONTWRITEBYTECODE) are the
    environment's, not the configuration's."""
    warned = [line.strip() for line in installed.build_log.splitlines() if "Warning" in line]
    assert warned == []


def test_arena_comes_from_the_wheel(installed: Installed) -> None:
    where = _run(installed.python, "-c", "import arena; print(arena.__file__)", cwd=installed.cwd)
    assert Path(where.strip()).is_relative_to(installed.python.parents[1])
    version = _run(installed.arena, "--version", cwd=installed.cwd)
    assert version.startswith("arena ")


def test_a_bot_game_plays_and_validates(installed: Installed) -> None:
    out = _run(installed.arena, "play", "--board", "std9", "--lang", "en", "--out", "bots.jsonl",
               cwd=installed.cwd)  # fmt: skip
    assert "Night 1" in out and "replay written to bots.jsonl" in out
    assert "intact" in _run(installed.arena, "validate", "bots.jsonl", cwd=installed.cwd)


def test_the_bundled_example_boards_are_listed_and_play(installed: Installed) -> None:
    """The examples are package data: `arena boards` lists them and says where they are
    (inside the install), the Play page's list (`example_boards`) has them, and one plays by
    its id."""
    listed = _run(installed.arena, "boards", "--lang", "en", cwd=installed.cwd)
    (where,) = [line for line in listed.splitlines() if line.startswith("Example board files")]
    folder = Path(where.removeprefix("Example board files, in ").split(": play one")[0])
    assert folder.is_relative_to(installed.python.parents[1])
    assert (folder / "guard_city10.yaml").is_file() and "\ncupid12 " in listed
    assert (folder / "README.md").is_file() and f"{folder}/README.md" in where  # the format
    script = "from arena.board_file import example_boards; print(*example_boards())"
    shown = _run(installed.python, "-c", script, cwd=installed.cwd).split()
    assert shown == sorted(p.stem for p in (ROOT / "arena/boards").glob("*.yaml"))
    out = _run(installed.arena, "play", "--board", "guard_city10", "--seed", "3", "--lang", "en",
               "--out", "example.jsonl", cwd=installed.cwd)  # fmt: skip
    assert "10-player guard + wolf king (city)" in out and "replay written to example.jsonl" in out
    assert "intact" in _run(installed.arena, "validate", "example.jsonl", cwd=installed.cwd)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_game_with_a_model_seat_plays(installed: Installed, lang: str) -> None:
    with StubServer() as server:
        spec = installed.cwd / f"model-{lang}.yaml"
        spec.write_text(
            yaml.safe_dump(
                {
                    "lang": lang,
                    "seats": ["1=openai:stub"],
                    "endpoints": {"openai": {"base_url": server.url}},
                }
            )
        )
        env = {**os.environ, "OPENAI_API_KEY": "test-key"}
        out = installed.cwd / f"model-{lang}.jsonl"
        _run(installed.arena, "play", "--board", "std9", "--spec", spec, "--quiet", "--out", out,
             cwd=installed.cwd, env=env)  # fmt: skip
        asked = len(server.requests)
    header = json.loads(out.read_text().splitlines()[0])
    assert header["seats"][0]["agent"] == "openai:stub"
    assert asked > 3, "the model seat was asked for its decisions"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as reply:  # noqa: S310 - loopback only
        return str(reply.read().decode("utf-8"))


def test_the_dashboard_serves_its_page(installed: Installed) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [str(installed.arena), "dashboard", "--replays", ".", "--port", str(port)],
        cwd=installed.cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        health = f"http://127.0.0.1:{port}/_stcore/health"
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, server.communicate()[0]
            try:
                if _get(health) == "ok":
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the dashboard did not come up"
            time.sleep(0.5)
        page = _get(f"http://127.0.0.1:{port}/")
        assert "<title>" in page and "<noscript>" in page
    finally:
        server.terminate()
        server.wait(30)


def test_the_installed_dashboard_script_runs(installed: Installed) -> None:
    """The page's HTML is Streamlit's own: run the installed app script itself."""
    script = (
        "from importlib.resources import files\n"
        "from streamlit.testing.v1 import AppTest\n"
        "app = AppTest.from_file(str(files('arena.dashboard') / 'app.py'), default_timeout=120)\n"
        "app.run()\n"
        "assert not app.exception, app.exception\n"
        "print(files('arena.dashboard'))\n"
    )
    env = {**os.environ, "ARENA_REPLAYS": str(installed.cwd)}
    where = _run(installed.python, "-c", script, cwd=installed.cwd, env=env)
    assert Path(where.strip()).is_relative_to(installed.python.parents[1])
