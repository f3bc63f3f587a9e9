from __future__ import annotations

import argparse
import re
import sys
from importlib.resources import files
from pathlib import Path

import pytest

import arena.dashboard
from arena.cli import main, parser
from arena.commands.dashboard import app_path, streamlit_command
from arena.errors import ArenaError


def args(*argv: str) -> argparse.Namespace:
    return parser().parse_args(["dashboard", *argv])


def test_command_runs_streamlit_on_the_entry_file_with_the_folder(tmp_path: Path) -> None:
    command = streamlit_command(args("--replays", str(tmp_path), "--port", "8765"))
    assert command[:5] == [sys.executable, "-m", "streamlit", "run", str(app_path())]
    assert command[command.index("--server.port") + 1] == "8765"
    exams = str(Path("exams").resolve())
    assert command[command.index("--") :] == [
        "--", "--replays", str(tmp_path.resolve()), "--exams", exams
    ]  # fmt: skip
    elsewhere = streamlit_command(args("--replays", str(tmp_path), "--exams", str(tmp_path)))
    assert elsewhere[elsewhere.index("--exams") + 1] == str(tmp_path.resolve())
    with_redis = streamlit_command(args("--replays", str(tmp_path), "--redis", "redis://h:1/2"))
    assert with_redis[-2:] == ["--redis", "redis://h:1/2"]
    named = streamlit_command(
        args("--replays", str(tmp_path), "--redis", "redis://h:1/2", "--prefix", "team1")
    )
    assert named[-4:] == ["--redis", "redis://h:1/2", "--prefix", "team1"]
    assert app_path() == Path(arena.dashboard.__file__).parent / "app.py"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--port", "0"], "--port must be between"),
        (["--redis", "http://x"], "--redis must be a redis://"),
        (["--prefix", "team1"], "--prefix names keys on a Redis server: give --redis URL too"),
        (["--redis", "redis://h:1/2", "--prefix", " "], "--prefix must not be empty"),
    ],
)
def test_command_rejects_bad_arguments(tmp_path: Path, extra: list[str], message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        streamlit_command(args("--replays", str(tmp_path), *extra))


def test_missing_folder_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dashboard", "--replays", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err


def test_every_page_the_entry_script_names_is_in_the_installed_package() -> None:
    pages = re.findall(r'st\.Page\(\s*"([^"]+)"', app_path().read_text("utf-8"))
    assert len(pages) >= 4
    root = files("arena.dashboard")
    assert all(root.joinpath(page).is_file() for page in pages), pages
    assert root.joinpath("screens", "__init__.py").is_file(), "a package, so the wheel ships it"


def test_a_busy_port_is_one_line_and_no_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["dashboard", "--replays", str(tmp_path), "--port", str(port)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"port {port} on 127.0.0.1 is busy" in err


def test_without_streamlit_a_checkout_is_told_the_make_target_that_keeps_it_editable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pip install '.[dashboard]'` in a checkout replaced `make play`'s editable install."""
    import importlib.util

    from arena.commands.dashboard import no_streamlit

    checkout = Path(arena.dashboard.__file__).parents[1]
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "streamlit" else real_find_spec(name, *a),
    )
    with pytest.raises(ArenaError, match=re.escape(f"run `make dashboard` in {checkout}")):
        streamlit_command(args("--replays", str(tmp_path)))
    makefile = (checkout / "Makefile").read_text(encoding="utf-8")
    assert "\ndashboard: $(DASHBOARD)\n" in makefile
    assert "scripts/install.py $(VENV) dashboard" in makefile  # the same venv, editable
    installed = tmp_path / "site-packages" / "arena"
    installed.mkdir(parents=True)
    assert no_streamlit(installed).endswith("pip install 'werewolf-arena[dashboard]'")
