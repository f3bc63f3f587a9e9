"""Install the arena into a virtualenv for `make play` / `make test`, showing progress.

Run: python3 scripts/install.py VENV [EXTRA]

pip's own output of an editable install is long and alarming to a newcomer: setuptools'
warnings (an editable install, data folders it takes for packages) read like errors
although nothing is wrong. So pip's whole output goes to `VENV/install.log`, and the
terminal shows one line per step and a running count of the packages fetched; a failed
step prints the end of the log and where the rest is.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

TAIL = 30
"""Lines of the log shown when a step fails."""


def main(argv: list[str]) -> int:
    """Create the venv if needed, upgrade pip, install the project (with `EXTRA`)."""
    venv = Path(argv[0])
    extra = argv[1] if len(argv) > 1 else ""
    log = venv / "install.log"
    python = venv / "bin" / "python"
    started = time.monotonic()
    target = f".[{extra}]" if extra else "."
    what = f"the arena with its {extra} tools" if extra else "the arena"
    print(f"Installing {what} into {venv}/ (about a minute the first time; log: {log})")
    steps = []
    if not python.exists():
        steps.append(("creating the virtualenv", [sys.executable, "-m", "venv", str(venv)]))
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check"]
    steps.append(("updating pip", [*pip, "--upgrade", "pip"]))
    steps.append(("installing packages", [*pip, "-e", target]))
    for n, (title, command) in enumerate(steps, start=1):
        if not _run(f"[{n}/{len(steps)}] {title}", command, log):
            return 1
    print(f"Installed in {time.monotonic() - started:.0f} s.")
    return 0


def _run(title: str, command: list[str], log: Path) -> bool:
    """Run one step, its output appended to `log`; whether it succeeded."""
    tty = sys.stdout.isatty()
    print(title, flush=True)
    fetched = 0
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(command)}\n")
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        assert process.stdout is not None
        for line in process.stdout:
            out.write(line)
            if line.startswith("Collecting "):
                fetched += 1
                name = line.split()[1]
                if tty:
                    print(f"\r      {fetched} packages: {name}\033[K", end="", flush=True)
                elif fetched % 10 == 0:
                    print(f"      {fetched} packages …", flush=True)
        code = process.wait()
    if tty and fetched:
        print(f"\r      {fetched} packages\033[K", flush=True)
    if code != 0:
        lines = log.read_text(encoding="utf-8").splitlines()
        print("\n".join(lines[-TAIL:]))
        print(f"{title}: failed (exit {code}); the whole output is in {log}", file=sys.stderr)
        return False
    return True


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
