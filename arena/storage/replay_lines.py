"""The replay format's lines: how each is written, and which keys each may have.

One module for both sides of the format: `ReplayWriter` and the queue's fenced log write
lines with these functions, and every reader (`arena.storage.replay_file`, which the
queue's log, the Live page and `arena validate` read through) checks a line's keys
against `LINE_KEYS`. A new line type or key is a format change: add it here and to
docs/replay-format.md.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from arena.llm.types import ModelCallRecord
from arena.records import BeliefReport
from arena.rules.events import Event
from arena.rules.referee import Answer
from arena.storage.jsonl import MAX_DEPTH, depth
from arena.storage.replay_header import ReplayHeader
from arena.storage.seal import ArenaKey, Seal, seal


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def signed_text(lines: Sequence[str], key: ArenaKey | None) -> str:
    """The file text of `lines` (header first), ending with its signature line under `key`.

    Without a key (`ReplayWriter(sign=False)`) the text is left unsigned.
    """
    text = "".join(line + "\n" for line in lines)
    if key is None:
        return text
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return text + _dump(seal(digest, key).model_dump(mode="json")) + "\n"


def header_line(header: ReplayHeader) -> str:
    """The header as its replay line."""
    return _dump(header.model_dump(mode="json"))


def event_line(seq: int, event: Event) -> str:
    """The JSONL line of an event."""
    return _dump({"type": "event", "seq": seq, "event": event.model_dump(mode="json")})


def answer_line(answer: Answer) -> str:
    """The JSONL line of an accepted answer."""
    return _dump({"type": "answer", **answer.model_dump(mode="json", exclude_none=True)})


def belief_line(report: BeliefReport) -> str:
    """The JSONL line of a belief report."""
    return _dump({"type": "belief", "report": report.model_dump(mode="json")})


def trace_line(record: ModelCallRecord) -> str:
    """The JSONL line of a model call.

    An endpoint's raw reply nested deeper than a reader accepts (`MAX_DEPTH`) is replaced
    by a note, so a hostile endpoint cannot make the file unreadable.
    """
    try:
        body: dict[str, Any] | None = record.model_dump(mode="json")
    except ValueError:  # pydantic's "Maximum serialization depth exceeded"
        body = None
    if (body is None or depth(body) > MAX_DEPTH - 2) and record.reply is not None:
        note = {"dropped": f"raw reply nested deeper than {MAX_DEPTH - 6} levels"}
        reply = record.reply.model_copy(update={"raw": note})
        body = record.model_copy(update={"reply": reply}).model_dump(mode="json")
    return _dump({"type": "trace", "record": body})


LINE_KEYS: dict[str, frozenset[str]] = {
    "event": frozenset({"type", "seq", "event"}),
    "answer": frozenset({"type", *Answer.model_fields}),
    "trace": frozenset({"type", "record"}),
    "belief": frozenset({"type", "report"}),
    "signature": frozenset(Seal.model_fields),
}
"""The keys each body line type may have; a reader refuses any other (a new line type or
key is a format change: add it here and to docs/replay-format.md)."""
