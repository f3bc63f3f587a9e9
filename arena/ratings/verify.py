"""Verify one replay file and fold it, in this process or in worker processes.

Only a finished replay that verifies is rated. A file whose signature verifies under the
arena's key is the arena's own, byte for byte as its referee wrote it (any edit breaks
the signature), so it is read and folded without playing it again. Any other file —
unsigned, or signed under another key or edited — has its recorded answers re-run
through the referee, which must reproduce its event log and its header's result exactly
(`arena validate`'s check), so a flipped winner or an edited event is named `unverified`
even before its signature is judged. Re-running was 12 of a file's 29 ms of CPU
(docs/benchmarks.md), the difference between the issue's 30 s for 2,000 cold files on
two cores and twice that.

`verify_file` is the expensive step the facts cache (`arena.ratings.cache`) saves:
`look_up` answers a file from the cache when it can, and `verified` runs `verify_file`
over the rest, in worker processes when there are many.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from arena.errors import ArenaError
from arena.ratings.cache import Content, FactsCache, FileFacts, FileHead, Stat, file_digest
from arena.ratings.facts import summarize
from arena.replay_check import check_log
from arena.storage.replay_file import Replay, ReplayHeader, read_header, read_replay
from arena.storage.seal import ArenaKey, check_seal


def play_digest(replay: Replay) -> str:
    """SHA-256 of what makes the game: config, seed, draw and every answer (so the deal).

    Two files with these equal are the same game however their other lines were
    re-written (traces trimmed, the header's id or time changed).
    """
    header = replay.header
    play = {
        "config": header.config.model_dump(mode="json"),
        "seed": header.seed,
        "draw": header.draw,
        "answers": [a.model_dump(mode="json", exclude_none=True) for a in replay.answers],
    }
    text = json.dumps(play, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_of(replay: Replay) -> Content | None:
    """The signature and content digests of a replay read from a file."""
    if replay.digest is None or replay.body_digest is None:
        return None
    return Content(
        seal=replay.seal, digest=replay.digest, body=replay.body_digest, play=play_digest(replay)
    )


def void_reason(header: Any) -> str | None:
    """Why the game was voided, or None for a game that counts.

    A voided result says so with `void: true` and gives its reason in `reason` (a model
    seat that kept falling back); older or newer spellings (`voided`, or the reason
    itself in `void`) are read too.
    """
    result = getattr(header, "result", None)
    for name in ("void", "voided"):
        value = getattr(result, name, None)
        if isinstance(value, str) and value:
            return value
        if value is True:
            return str(getattr(result, "reason", "") or "voided")
    return None


def verify_file(path: Path, header: ReplayHeader, key: ArenaKey | None = None) -> FileFacts:
    """Read, verify and fold one finished replay (the expensive step the cache saves).

    The referee re-runs the answers unless the file's signature verifies under `key`
    (see the module's docstring). What the cache keeps is right under any later key: a
    file whose signature does not verify under that key is left out by its signature
    (`_judge`) whatever its facts say, and one that does was re-run or signed.
    """
    ids = {"game_id": header.game_id, "tournament": header.tournament}
    void = void_reason(header)
    if void is not None and getattr(header.result, "winner", None) is None:
        return FileFacts(verdict="voided", detail=f": voided: {void}", **ids)  # nothing to rate
    try:
        replay = read_replay(path)
        content = content_of(replay)
        signed = content is not None and _signed(content, key)
        check = None if signed else check_log(replay, path)  # parsed once, not twice
        if check is not None and not check.ok:
            where = f":{check.line}" if check.line else ""
            detail = check.message.removeprefix(str(path)).removeprefix(where)
            detail = detail if detail.startswith(":") else f": {detail}"
            return FileFacts(verdict="unverified", detail=f"{where}{detail}", **ids)
        summary = summarize(replay)
    except ArenaError as exc:
        return FileFacts(verdict="unreadable", detail=detail_after(str(exc), path), **ids)
    except (OSError, UnicodeDecodeError, RecursionError, ValueError) as exc:
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return FileFacts(verdict="unreadable", detail=f": cannot read: {reason}", **ids)
    if void is not None:
        return FileFacts(
            verdict="voided", detail=f": voided: {void}", summary=summary, content=content, **ids
        )
    return FileFacts(verdict="rated", summary=summary, content=content, **ids)


def detail_after(message: str, path: Path) -> str:
    """`message` without its leading path, starting with `:`."""
    rest = message.removeprefix(str(path))
    return rest if rest.startswith(":") else f": {message}"


PARALLEL_FILES = 64
"""New files from which `scan_folder` verifies in worker processes (below, one process
is quicker than starting others)."""


def _signed(content: Content, key: ArenaKey | None) -> bool:
    """Whether `content`'s signature verifies under `key`."""
    return check_seal(content.seal, content.digest, key).state == "signed"


def verified(
    todo: list[tuple[Path, ReplayHeader]], workers: int, key: ArenaKey | None = None
) -> Iterator[FileFacts]:
    """`verify_file` of each (path, header), in order; in `workers` processes for many.

    Verifying is CPU-bound pure Python (parse, replay every answer through the referee,
    fold the metrics), 10-40 ms a file, so a cold folder of thousands of files takes
    every core. Processes fork when this process runs no other thread (the command
    line: nothing to import again), and spawn otherwise (a dashboard's server threads
    must not be forked mid-flight).
    """
    if workers <= 1 or len(todo) < PARALLEL_FILES:
        yield from (verify_file(path, header, key) for path, header in todo)
        return
    method = "fork" if threading.active_count() == 1 and sys.platform != "win32" else "spawn"
    chunk = max(1, min(32, len(todo) // (workers * 8)))
    paths, headers = [p for p, _ in todo], [h for _, h in todo]
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        keys = [key] * len(paths)
        yield from pool.map(verify_file, paths, headers, keys, chunksize=chunk)


class Looked(NamedTuple):
    """A file as the cache knows it: its head, or what verifying it takes."""

    sha256: str | None
    head: FileHead | None
    """None: the cache does not know these bytes; `verify_file` them."""
    header: ReplayHeader | None = None
    """Set (with `stat`) exactly when `head` is None."""
    stat: Stat | None = None


def look_up(path: Path, cache: FactsCache) -> Looked:
    """The digest and head of one file from the cache, or what verifying it takes.

    Unreadable headers and unfinished games are cheap to find and change as a game is
    written, so they are never cached (and have no digest here).
    """
    try:
        stat = Stat.of(path)
        known = cache.by_stat(stat)
        if known is not None:
            return Looked(known[0], known[1])
        header = read_header(path)
    except ArenaError as exc:
        return Looked(None, FileHead(verdict="unreadable", detail=detail_after(str(exc), path)))
    except (OSError, ValueError) as exc:
        return Looked(None, FileHead(verdict="unreadable", detail=f": cannot read: {exc}"))
    if header.result is None:
        head = FileHead(
            verdict="unfinished",
            detail=f": unfinished game {header.game_id} (no result yet)",
            game_id=header.game_id,
            tournament=header.tournament,
        )
        return Looked(None, head)
    try:
        sha256 = file_digest(path)
    except OSError as exc:
        return Looked(None, FileHead(verdict="unreadable", detail=f": cannot read: {exc}"))
    known_bytes = cache.by_digest(stat, sha256)
    if known_bytes is not None:
        return Looked(sha256, known_bytes)
    return Looked(sha256, None, header, stat)
