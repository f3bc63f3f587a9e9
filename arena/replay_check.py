"""Replay validation: re-run the referee on a file's recorded answers and compare.

A replay is intact when re-running the core with its config, seed and answers reproduces
its event log exactly, line for line. Anything else — a tampered event, an answer the
referee never asked for, a truncated file, a foreign file — is reported with the first
bad line, so a reader knows where to look. The file's signature is checked too
(`arena.storage.seal`): a file whose signature does not verify is not the arena's own as
it was written, however consistent its log.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from arena.rules.errors import IllegalActionError
from arena.rules.events import Event, GameEnded
from arena.rules.referee import Answer, Referee
from arena.storage.replay_file import Replay, ReplayError, ReplayResult, read_replay
from arena.storage.seal import ArenaKey, SignatureState, arena_key, check_seal


class CheckReport(BaseModel):
    """The verdict on one replay file."""

    model_config = ConfigDict(frozen=True)

    path: str
    ok: bool
    """The log is intact and the signature is not bad (an unsigned file can be ok)."""
    message: str
    line: int | None = None
    """The first bad line (1-based), when there is one."""
    finished: bool = False
    events: int = 0
    signature: SignatureState = "unsigned"
    signature_message: str | None = "unsigned (no signature line)"
    """`signed (key …)`, `unsigned (…)` or `bad signature: …` (`check_seal`); None for a
    file that could not be read, whose signature nobody looked at (`arena validate
    missing.jsonl` says only that it cannot read it)."""


def _canon(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def check_replay(path: Path, key: ArenaKey | None = None) -> CheckReport:
    """Validate `path`: parse it, re-run its answers, compare every event and the result.

    The signature is checked under `key` (None: the arena's key, `arena_key()`). The
    report's `message` never repeats the file name or line; `line` holds the line.
    """
    try:
        replay = read_replay(path)
    except ReplayError as exc:
        return CheckReport(
            path=str(path), ok=False, message=exc.reason, line=exc.line, signature_message=None
        )
    return check_read(replay, path, key)


def check_read(replay: Replay, path: Path, key: ArenaKey | None = None) -> CheckReport:
    """`check_replay` of a file already parsed as `replay` (by `read_replay(path)`).

    For a reader that needs the parsed file anyway (the leaderboard's loader summarizes
    it): parsing is about a quarter of a check, so it is not done twice. Lines in the
    report are the file's, from `replay`'s line numbers.
    """
    report = check_log(replay, path)
    signature = check_seal(replay.seal, replay.digest, key if key is not None else arena_key())
    update: dict[str, object] = {
        "signature": signature.state,
        "signature_message": signature.message,
    }
    if signature.state == "bad" and report.ok:
        update |= {"ok": False, "message": signature.message, "line": None}
    return report.model_copy(update=update)


def check_log(replay: Replay, path: Path) -> CheckReport:
    """Whether re-running the answers reproduces the log and its result."""
    where = str(path)
    header = replay.header
    referee = Referee(header.config, header.seed, draw=header.draw)
    for index, answer in enumerate(replay.answers):
        problem = _submit(referee, answer)
        if problem is not None:
            altered = _first_difference(replay, referee.events)
            if altered is not None:
                return CheckReport(path=where, ok=False, line=altered[0], message=altered[1])
            line = replay.answer_lines[index] if index < len(replay.answer_lines) else None
            return CheckReport(path=where, ok=False, line=line, message=problem)
    rerun = referee.events
    altered = _first_difference(replay, rerun)
    if altered is not None:
        return CheckReport(path=where, ok=False, line=altered[0], message=altered[1])
    if len(replay.events) > len(rerun):
        seq = len(rerun)
        return CheckReport(
            path=where,
            ok=False,
            line=replay.event_lines[seq],
            message=f"event {seq} and later were never produced by the recorded answers",
        )
    finished = referee.finished
    if len(replay.events) < len(rerun):
        return CheckReport(
            path=where,
            ok=False,
            events=len(replay.events),
            message=f"truncated: the file has {len(replay.events)} events, its answers "
            f"produce {len(rerun)}",
        )
    if header.result is not None and header.result.void and not finished:
        return CheckReport(
            path=where,
            ok=True,
            events=len(rerun),
            message=f"intact: {len(rerun)} events reproduced exactly, game {header.result.reason}",
        )
    if header.result is not None and not finished:
        return CheckReport(
            path=where,
            ok=False,
            events=len(rerun),
            message="truncated: the header records a result but the log stops before the end",
        )
    if header.result is not None:
        wrong = _result_difference(header.result, referee)
        if wrong is not None:
            return CheckReport(path=where, ok=False, line=1, events=len(rerun), message=wrong)
    state = "finished" if finished else "unfinished (resumable)"
    return CheckReport(
        path=where,
        ok=True,
        finished=finished,
        events=len(rerun),
        message=f"intact: {len(rerun)} events reproduced exactly, game {state}",
    )


def _submit(referee: Referee, answer: Answer) -> str | None:
    """Apply one recorded answer; what is wrong with it, or None."""
    if referee.asked(answer) is None:
        return (
            f"answer of seat {answer.seat} at step {answer.step} matches no "
            "request the referee issued (tampered or foreign answer)"
        )
    try:
        referee.submit(answer.seat, answer.action, defaulted=answer.defaulted, recorded=True)
    except IllegalActionError as exc:
        return f"illegal answer of seat {answer.seat} at step {answer.step}: {exc}"
    return None


def _first_difference(replay: Replay, rerun: Sequence[Event]) -> tuple[int, str] | None:
    """The line and description of the first recorded event the rules did not produce.

    Equal models (same type, same field values) are the same event; only the rest are
    compared by their canonical JSON (a cold leaderboard checks millions of events, and
    dumping every pair twice was a tenth of verifying a file).
    """
    for seq, (recorded, expected) in enumerate(zip(replay.events, rerun, strict=False)):
        if recorded == expected:
            continue
        if _canon(recorded.model_dump(mode="json")) != _canon(expected.model_dump(mode="json")):
            return (
                replay.event_lines[seq],
                f"event {seq} ({recorded.kind}) differs from what the rules produce "
                f"({expected.kind}): the log was altered",
            )
    return None


def _result_difference(result: ReplayResult, referee: Referee) -> str | None:
    """How the header's result differs from the one the log reaches, or None."""
    ended = next(e for e in reversed(referee.events) if isinstance(e, GameEnded))
    if result.winner != ended.winner:
        return f"header says {result.winner} won, the log says {ended.winner}"
    truth = {"reason": ended.reason, "days": referee.state.day, "events": len(referee.events)}
    for name, value in truth.items():
        if getattr(result, name) != value:
            return f"header result {name} is {getattr(result, name)!r}, the log says {value!r}"
    return None
