"""Model-call records as deltas of a seat's conversation, and their expansion.

A seat's requests extend each other, so storing each whole repeats the game log in every
record (9–15 MB a game). A `Compactor` stores, per call, only the messages that differ
from the conversation's previous call and the tools only when they changed; records carry
their conversation id and call index, so `expand_calls` rebuilds every request exactly as
sent whatever order the records were written in. Records without a conversation (older
replays, self-contained calls) are already whole and pass through unchanged.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, ToolSpec
from arena.rules.referee import Answer


class Compactor:
    """Turns one conversation's successive calls into delta records."""

    def __init__(self) -> None:
        self.conversation = uuid.uuid4().hex[:12]
        self._calls = 0
        self._messages: tuple[ChatMessage, ...] = ()
        self._tools: tuple[ToolSpec, ...] | None = None
        self._cut_off: list[ModelCallRecord] = []

    def record(
        self,
        seat: int,
        step: int,
        attempt: int,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        *,
        reply: ModelReply | None,
        **fields: Any,
    ) -> ModelCallRecord:
        """The record of a call that sent `messages` and `tools` (and got `reply`)."""
        sent = tuple(messages)
        offered = tuple(tools)
        base = _shared(self._messages, sent)
        record = ModelCallRecord(
            seat=seat,
            step=step,
            attempt=attempt,
            messages=sent[base:],
            tools=None if offered == self._tools else offered,
            reply=reply,
            conversation=self.conversation,
            call=self._calls,
            base=base,
            **fields,
        )
        self._calls += 1
        self._messages, self._tools = sent, offered
        return record

    def unwritten(self, records: Iterable[ModelCallRecord]) -> None:
        """Keep records no answer carries (a failed belief report) for `take_cut_off`."""
        self._cut_off.extend(records)

    def cut_off(
        self,
        seat: int,
        step: int,
        attempt: int,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        fields: dict[str, Any],
    ) -> None:
        """Keep the record of a call a time limit cancelled, for `take_cut_off`."""
        record = self.record(
            seat, step, attempt, messages, tools, reply=None, cut_off=True,
            error="cut off by the decision's time limit", **fields,
        )  # fmt: skip
        self._cut_off.append(record)

    def take_cut_off(self) -> tuple[ModelCallRecord, ...]:
        """The records not yet handed over (cut off, or of a failed belief report)."""
        taken, self._cut_off = tuple(self._cut_off), []
        return taken


def _shared(previous: tuple[ChatMessage, ...], sent: tuple[ChatMessage, ...]) -> int:
    n = 0
    for old, new in zip(previous, sent, strict=False):
        if old != new:
            break
        n += 1
    return n


def expand_calls(records: Iterable[ModelCallRecord]) -> list[ModelCallRecord]:
    """Every record with its whole request (`base` 0, tools given), in the input order.

    A delta whose earlier calls are missing from the file (a game cut short mid-decision)
    keeps the messages it has and says so in its `notes`.
    """
    records = list(records)
    chains: dict[tuple[int, str], dict[int, ModelCallRecord]] = {}
    for r in records:
        if r.conversation is not None:
            chains.setdefault((r.seat, r.conversation), {})[r.call] = r
    whole: dict[tuple[int, str, int], ModelCallRecord] = {}
    for (seat, conversation), calls in chains.items():
        messages: tuple[ChatMessage, ...] = ()
        tools: tuple[ToolSpec, ...] = ()
        expected = 0
        for index in sorted(calls):
            r = calls[index]
            update: dict[str, Any] = {"base": 0}
            if r.base and (index != expected or r.base > len(messages)):
                update["notes"] = (*r.notes, MISSING)
                messages = ()
            messages = messages[: r.base] + r.messages if r.base else r.messages
            tools = r.tools if r.tools is not None else tools
            whole[(seat, conversation, index)] = r.model_copy(
                update={**update, "messages": messages, "tools": tools}
            )
            expected = index + 1
    return [
        r if r.conversation is None else whole[(r.seat, r.conversation, r.call)] for r in records
    ]


MISSING = "earlier messages of this conversation are missing from the file"


def automatic_answers(
    answers: Iterable[Answer],
    traces: Iterable[ModelCallRecord],
    model_seats: Iterable[int] | None = None,
) -> set[tuple[int, int]]:
    """`(seat, step)` of the answers the arena gave model seats without asking the model.

    A model seat's answer was asked when a call was made for its step (a reply, a refusal,
    a provider error or a call cut off by the time limit: each leaves a trace) or when the
    arena defaulted it; otherwise the arena answered by itself (a self-explosion window a
    model seat is not asked in). Such answers are neither the model's own decisions nor
    its failures, so counts of decisions leave them out. `model_seats` defaults to the
    seats that made any call; other seats' answers are all asked.
    """
    traces = list(traces)
    called = {(t.seat, t.step) for t in traces}
    seats = set(model_seats) if model_seats is not None else {t.seat for t in traces}
    return {
        (a.seat, a.step)
        for a in answers
        if a.seat in seats and a.defaulted is None and (a.seat, a.step) not in called
    }
