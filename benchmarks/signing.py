"""What signing costs a replay's write and its validation (issue 19), per file.

Plays one game of random agents (the 12-seat marker board, every line kind but traces),
then times, over `ROUNDS` repetitions: the text of the file with and without its
signature line (`signed_text`), reading it (`read_replay`, which hashes every line as it
streams) against the same read with the hashing off, and a whole `check_replay`.

    python benchmarks/signing.py
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from unittest import mock

from arena.replay_check import check_replay
from arena.storage import replay_file
from arena.storage.replay_file import read_replay, signed_text
from arena.storage.seal import arena_key
from tests.support.forgery import play

ROUNDS = 50


def per_call_ms(call: object) -> float:
    start = time.perf_counter()
    for _ in range(ROUNDS):
        call()  # type: ignore[operator]
    return 1000 * (time.perf_counter() - start) / ROUNDS


def main() -> None:
    os.environ.setdefault("ARENA_KEY", "benchmark-key-" + "0" * 40)
    with tempfile.TemporaryDirectory() as folder:
        path = play(Path(folder) / "game.jsonl", "bench", seed=3, board="wwk_guard")
        lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")[:-1]
        key = arena_key()
        size = path.stat().st_size
        plain = per_call_ms(lambda: signed_text(lines, None))
        signed = per_call_ms(lambda: signed_text(lines, key))
        read = per_call_ms(lambda: read_replay(path))
        with mock.patch.object(replay_file, "Digests", NoHash):
            unhashed = per_call_ms(lambda: read_replay(path))
        check = per_call_ms(lambda: check_replay(path, key))
    print(f"file: {len(lines) + 1} lines, {size / 1024:.0f} KiB")
    print(f"write text: {plain:.2f} ms unsigned, {signed:.2f} ms signed (+{signed - plain:.2f})")
    print(f"read: {unhashed:.2f} ms without hashing, {read:.2f} ms with (+{read - unhashed:.2f})")
    print(f"check_replay (re-run + signature): {check:.2f} ms")


class NoHash(replay_file.Digests):
    """`Digests` that hashes nothing (the reader's cost without the signature's part)."""

    def header(self, raw: bytes) -> None:
        return None

    def line(self, raw: bytes) -> None:
        return None


if __name__ == "__main__":
    main()
