"""Replay validation: re-run the referee on a file's recorded answers and compare.

A replay is intact when re-running the core with its config, seed and answers reproduces
its event log exactly, line for line. Anything else — a tampered event, an answer the
referee never asked for, a truncated file, a foreign file — is reported with the first
bad line, so a reader knows where to look.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from arena.rules.errors import IllegalActionError
from arena.rules.referee import Referee
from arena.storage.replay_file import ReplayError, read_replay


class CheckReport(BaseModel):
    """The verdict on one replay file."""

    model_config = ConfigDict(frozen=True)

    path: str
    ok: bool
    message: str
    line: int | None = None
    """The first bad line (1-based), when there is one."""
    finished: bool = False
    events: int = 0


def _canon(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def check_replay(path: Path) -> CheckReport:
    """Validate `path`: parse it, re-run its answers, compare every event."""
    where = str(path)
    try:
        replay = read_replay(path)
    except ReplayError as exc:
        line = _line_of(str(exc), where)
        return CheckReport(path=where, ok=False, message=str(exc), line=line)
    header = replay.header
    referee = Referee(header.config, header.seed, draw=header.draw)
    for answer in replay.answers:
        request = referee.request_for(answer.seat)
        if request is None or request.step != answer.step:
            return CheckReport(
                path=where,
                ok=False,
                line=_answer_line(path, answer.step, answer.seat),
                message=f"answer of seat {answer.seat} at step {answer.step} matches no "
                "request the referee issued (tampered or foreign answer)",
            )
        try:
            referee.submit(answer.seat, answer.action, defaulted=answer.defaulted)
        except IllegalActionError as exc:
            return CheckReport(
                path=where,
                ok=False,
                line=_answer_line(path, answer.step, answer.seat),
                message=f"illegal answer of seat {answer.seat} at step {answer.step}: {exc}",
            )
    rerun = referee.events
    for seq, (recorded, expected) in enumerate(zip(replay.events, rerun, strict=False)):
        if _canon(recorded.model_dump(mode="json")) != _canon(expected.model_dump(mode="json")):
            return CheckReport(
                path=where,
                ok=False,
                line=replay.event_lines[seq],
                message=f"event {seq} ({recorded.kind}) differs from what the rules produce "
                f"({expected.kind}): the log was altered",
            )
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
    if header.result is not None and not finished:
        return CheckReport(
            path=where,
            ok=False,
            events=len(rerun),
            message="truncated: the header records a result but the log stops before the end",
        )
    if header.result is not None and header.result.winner != referee.winner:
        return CheckReport(
            path=where,
            ok=False,
            line=1,
            events=len(rerun),
            message=f"header says {header.result.winner} won, the log says {referee.winner}",
        )
    state = "finished" if finished else "unfinished (resumable)"
    return CheckReport(
        path=where,
        ok=True,
        finished=finished,
        events=len(rerun),
        message=f"intact: {len(rerun)} events reproduced exactly, game {state}",
    )


def _line_of(message: str, where: str) -> int | None:
    rest = message.removeprefix(where + ":")
    head = rest.split(":", 1)[0]
    return int(head) if head.isdigit() else None


def _answer_line(path: Path, step: int, seat: int) -> int | None:
    with path.open(encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if '"type":"answer"' in line:
                obj = json.loads(line)
                if obj.get("step") == step and obj.get("seat") == seat:
                    return number
    return None
