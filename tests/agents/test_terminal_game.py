"""`arena play --seat N=human` driven through its prompts, as a person at a terminal would.

The game runs in a subprocess with a pipe for standard input; a reader thread collects
its output, and each new `> ` prompt gets the next typed line.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from arena.agents.terminal import help_text
from arena.humans.host import live_folder
from arena.replay_check import check_replay
from arena.rules.boards import board
from arena.storage.replay_file import read_header
from arena.text.commands import claim_roles

COMMAND = "import sys; from arena.cli import main; sys.exit(main(sys.argv[1:]))"
LIMIT_S = 240.0
"""Bound on a whole game (a failure, never a measurement)."""


def _as_a_foreground_job() -> None:
    """Ctrl-C as a terminal's foreground job has it: a shell starts a background job (`cmd &`,
    as CI scripts may run the suite) with SIGINT ignored, and a child inherits that, so the
    game would never hear the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A subprocess whose output is read in the background."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", COMMAND, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            preexec_fn=_as_a_foreground_job,
        )
        self.output = ""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        while chunk := self.process.stdout.read1(65536):
            with self._lock:
                self.output += chunk.decode("utf-8", "replace")

    def prompts(self) -> int:
        with self._lock:
            return self.output.count("\n> ")

    def wait_prompt(self, count: int) -> bool:
        """Wait for the `count`-th prompt; False if the game ended first."""
        deadline = time.monotonic() + LIMIT_S
        while self.prompts() < count:
            if self.process.poll() is not None:
                self._thread.join(5)
                return self.prompts() >= count
            assert time.monotonic() < deadline, "no prompt came"
            time.sleep(0.02)
        return True

    def menu(self) -> str:
        """The last prompt's menu (from its title line)."""
        with self._lock:
            return self.output[self.output.rfind("── ") :]

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()


def enter_or_first_seat(menu: str) -> str:
    """Enter (the shown default), or the first choice where there is no default."""
    if "Enter = " in menu:
        return ""
    first = next(line for line in menu.splitlines()[1:] if ") " in line)
    return first.split(")")[0].split()[0]


def test_a_person_plays_a_whole_game_at_the_terminal(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    term = Terminal(
        "play", "--board", "std9", "--seat", "4=human", "--lang", "en", "--out", str(out)
    )
    script = iter(["help", "vote", "vote 99"])  # bad at any prompt, whatever the deal
    answered = 0
    while term.wait_prompt(answered + 1):
        term.type(next(script, "") or enter_or_first_seat(term.menu()))
        answered += 1
    assert term.process.wait(LIMIT_S) == 0, term.process.stderr.read()  # type: ignore[union-attr]
    text = term.output
    assert help_text("en", claim_roles(board("std9").role_counts())) in text
    assert "! vote needs a seat number" in text and text.count("> ! ") == 2
    assert answered > 3
    assert text.count("── Night 1 ──") == 1, "the transcript is shown once, never reprinted"
    assert "win · replay written to" in text and " · seed " in text
    assert check_replay(out).ok
    header = read_header(out)
    assert str(header.seed) not in header.game_id, "the id never names the seed"
    assert text.index(f"seed {header.seed}") > text.index("Game over")


def test_ctrl_c_stops_the_game_at_once_without_enter(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    term = Terminal(
        "play", "--board", "std9", "--seat", "1=human", "--lang", "zh", "--out", str(out)
    )
    assert term.wait_prompt(1)
    assert "Enter = " in term.output and "說明" in term.output
    term.process.send_signal(signal.SIGINT)
    assert term.process.wait(30) == 130  # no Enter typed: the read does not hold the exit
    err = term.process.stderr.read().decode()  # type: ignore[union-attr]
    # a game with a person runs outside the replay folder: the part played stays there
    kept = live_folder(tmp_path) / out.name
    assert "stopped" in err and str(kept) in err
    assert kept.exists() and not out.exists()
