"""`arena dashboard`: serve the Streamlit dashboard over a replay folder (and Redis).

The dashboard is a Streamlit script shipped inside the package (`dashboard/app.py`,
found with `importlib.resources`, so it works from a wheel as from a checkout); this
command checks the arguments, then becomes `streamlit run` on it (exec), passing the
folder and the Redis URL as script arguments. Players see no developer tools (the toolbar
is minimal: no "Deploy" button) and the terminal only warnings (not Streamlit's notes on
every fragment a rerun replaced).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import sys
from importlib.resources import files
from pathlib import Path

from arena.errors import ArenaError


def app_path() -> Path:
    """The dashboard's entry script, as a file Streamlit can run.

    Raises:
        ArenaError: the installed package has no dashboard script on disk (a zipped or
            partial install).
    """
    script = files("arena.dashboard") / "app.py"
    if not isinstance(script, Path) or not script.is_file():
        raise ArenaError(f"the dashboard script {script} is missing from the installed package")
    return script


def no_streamlit(package: Path = Path(__file__).parents[1]) -> str:
    """What to do when Streamlit is missing, for the install at `package` (`arena/`).

    In a checkout (the arena beside its Makefile: `make play`'s editable install) the way
    is `make dashboard`, which adds the dashboard to that same editable install; `pip
    install '.[dashboard]'` there would replace it with a copy, and later edits to the
    checkout would silently stop working. An installed package gets the registry's extra.
    """
    checkout = package.parent
    if (checkout / "Makefile").is_file() and (checkout / "pyproject.toml").is_file():
        return (
            f"streamlit is not installed: run `make dashboard` in {checkout} (it adds the "
            "dashboard to the same editable install, then starts it)"
        )
    return "streamlit is not installed: pip install 'werewolf-arena[dashboard]'"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena dashboard`."""
    dash = sub.add_parser("dashboard", help="browse replays, ratings and live games in a browser")
    dash.add_argument(
        "--replays", type=Path, default=Path("replays"), help="replay folder (default: replays/)"
    )
    dash.add_argument(
        "--exams", type=Path, default=Path("exams"),
        help="the folder of exam results, for the Exams page (default: exams/)",
    )  # fmt: skip
    dash.add_argument("--port", type=int, default=8501, help="HTTP port (default: 8501)")
    dash.add_argument(
        "--redis", default=None, metavar="URL", help="Redis URL for live games (default: none)"
    )
    dash.add_argument(
        "--prefix",
        default=None,
        help="Redis key namespace: the workers' --prefix, for the Live page, and the Play "
        "page's worker's (default: arena)",
    )
    dash.add_argument(
        "--address", default="127.0.0.1", help="interface to listen on (default: 127.0.0.1)"
    )
    dash.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the dashboard's address as players reach it (behind a proxy), for the Play "
        "page's join links (default: the address the creator's page was opened at)",
    )
    dash.set_defaults(handler=_dashboard)


def streamlit_command(args: argparse.Namespace) -> list[str]:
    """The `streamlit run` command line for `args`.

    Raises:
        ArenaError: the folder, port or URL is unusable, or Streamlit is not installed.
    """
    if not args.replays.is_dir():
        raise ArenaError(f"replay folder {args.replays} does not exist or is not a folder")
    if not 1 <= args.port <= 65535:
        raise ArenaError(f"--port must be between 1 and 65535, got {args.port}")
    if args.redis is not None and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise ArenaError(f"--redis must be a redis://, rediss:// or unix:// URL: {args.redis!r}")
    app = app_path()
    if importlib.util.find_spec("streamlit") is None:
        raise ArenaError(no_streamlit())
    command = [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.port", str(args.port), "--server.address", args.address,
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "minimal", "--logger.level", "warning",
        "--", "--replays", str(args.replays.resolve()), "--exams", str(args.exams.resolve()),
    ]  # fmt: skip
    if args.redis is not None:
        command += ["--redis", args.redis]
    if args.prefix is not None:
        if args.redis is None:
            raise ArenaError("--prefix names keys on a Redis server: give --redis URL too")
        if not args.prefix.strip():
            raise ArenaError("--prefix must not be empty")
        command += ["--prefix", args.prefix]
    if args.public_url is not None:
        if not args.public_url.startswith(("http://", "https://")):
            raise ArenaError(
                f"--public-url must be an http:// or https:// URL: {args.public_url!r}"
            )
        command += ["--public-url", args.public_url]
    return command


def check_port_free(address: str, port: int) -> None:
    """Refuse a port another server listens on, in one line, before Streamlit starts.

    Streamlit would print its own URL first and then its own complaint; the probe binds
    as a server does (`SO_REUSEADDR`, so a port with only closing connections is free).

    Raises:
        ArenaError: the port is taken, or the address cannot be listened on.
    """
    try:
        infos = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise ArenaError(f"--address {address}: cannot listen there ({exc.strerror})") from None
    family, kind, proto, _, where = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(where)
        except OSError as exc:
            raise ArenaError(
                f"port {port} on {address} is busy ({exc.strerror}): is a dashboard already "
                "running there? Stop it, or pass another --port"
            ) from None


def _dashboard(args: argparse.Namespace) -> int:
    """Become the Streamlit server.

    Exec rather than a child process, so Ctrl-C or a service manager's SIGTERM reaches the
    server directly and no orphan is left behind.
    """
    command = streamlit_command(args)
    check_port_free(args.address, args.port)
    print(f"arena dashboard: http://{args.address}:{args.port}/  (Ctrl-C stops it)", flush=True)
    os.execv(command[0], command)
    return 0  # unreachable: execv does not return
