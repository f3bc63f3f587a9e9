"""A replay's model calls, each request whole, as a terminal shows them.

A replay stores a seat's calls as deltas of its one conversation (`arena.storage.calls`), and
a seat's belief questions continue that same conversation: their records sit in the
`belief` lines, not the `trace` lines. A request can only be rebuilt from both, so every
reader of calls goes through `replay_calls` (the CLI) or `expanded_traces` (the
dashboard), never `expand_calls(replay.traces)` alone, which would mark the calls after a
belief question as missing their earlier messages.

`call_lines` prints one call: its facts (seat, step, attempt, model, prompt, latency,
usage, cost), every request message as sent, the tools offered (name and size; the whole
schema when asked), the reply, the parsed action, error, notes and whether a time limit
cut it off. Each line is made `inert`: a request holds other seats' speeches and a reply
the model's own text, both untrusted. A message's content keeps its own line breaks as
indented lines, so the request reads as sent; any other break or control character shows
as an escape, as in the transcript.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from arena.llm.types import ChatMessage, ModelCallRecord, ToolSpec
from arena.storage.calls import expand_calls
from arena.storage.replay_file import Replay
from arena.text import Lang, inert, t
from arena.transcript import seat

INDENT = "    "
"""The prefix of each line of a message's content, a reply or a schema."""


def replay_calls(replay: Replay) -> list[ModelCallRecord]:
    """Every model call of `replay` (decisions and belief questions), each request whole.

    Ordered by seat, then as each seat made them: a conversation's records by their call
    index, records without one (files written before deltas) in the order stored, a
    seat's decision calls before its belief questions.
    """
    records = _with_beliefs(replay)
    whole = expand_calls(records)
    first: dict[tuple[int, str], int] = {}
    for i, r in enumerate(records):
        if r.conversation is not None:
            first.setdefault((r.seat, r.conversation), i)

    def order(item: tuple[int, ModelCallRecord]) -> tuple[int, int, int]:
        i, r = item
        if r.conversation is None:
            return (r.seat, i, 0)
        return (r.seat, first[(r.seat, r.conversation)], r.call)

    return [r for _, r in sorted(enumerate(whole), key=order)]


def expanded_traces(replay: Replay) -> tuple[ModelCallRecord, ...]:
    """`replay.traces`, in their order, each request whole (belief calls fill the gaps)."""
    return tuple(expand_calls(_with_beliefs(replay))[: len(replay.traces)])


def _with_beliefs(replay: Replay) -> list[ModelCallRecord]:
    return [*replay.traces, *(c for b in replay.beliefs for c in b.calls)]


def call_lines(n: int, call: ModelCallRecord, lang: Lang, *, full: bool = False) -> list[str]:
    """The lines of call number `n` (whole, as `replay_calls` gives it), each inert.

    `full` prints each tool's whole definition (description and JSON schema) instead of
    its name and size.
    """
    what = t("cli.call_belief", lang) if call.step < 0 else t("cli.call_step", lang, step=call.step)
    u = call.usage
    lines = [
        t("cli.call_head", lang, n=n, seat=seat(call.seat, lang), what=what, attempt=call.attempt),
        t(
            "cli.call_facts",
            lang,
            model=call.model,
            prompt=call.prompt_id,
            ms=round(call.latency_ms),
        ),
        t(
            "cli.call_usage",
            lang,
            prompt=u.prompt_tokens,
            cached=u.cached_tokens,
            completion=u.completion_tokens,
            cost=f"{call.cost_usd:.6f}",
        ),
        *_tools(call.tools or (), lang, full),
    ]
    for message in call.messages:
        lines += _message(message)
    lines += _reply(call, lang)
    if call.parsed_action is not None:
        lines.append(t("cli.call_parsed", lang, action=_json(call.parsed_action)))
    if call.error:
        lines.append(t("cli.call_error", lang, error=call.error))
    lines += [t("cli.call_note", lang, note=note) for note in call.notes]
    if call.cut_off:
        lines.append(t("cli.call_cut_off", lang))
    return [inert(line) for line in lines]


def _tools(tools: Sequence[ToolSpec], lang: Lang, full: bool) -> list[str]:
    if not tools:
        return [t("cli.call_tools", lang, tools=t("cli.call_no_tools", lang))]
    sizes = t("seat.sep", lang).join(
        t("cli.call_tool", lang, name=tool.name, chars=len(_json(tool.model_dump(mode="json"))))
        for tool in tools
    )
    lines = [t("cli.call_tools", lang, tools=sizes)]
    if full:
        for tool in tools:
            text = json.dumps(tool.model_dump(mode="json"), ensure_ascii=False, indent=2)
            lines += _block(text)
    return lines


def _message(message: ChatMessage) -> list[str]:
    """`[role]` (and the call it answers), the content's lines, the calls it made."""
    head = f"[{message.role}]"
    if message.tool_call_id is not None:
        head += f" {message.tool_call_id}"
    lines = [head, *_block(message.content)]
    lines += [f"{INDENT}→ {c.name}({c.arguments}) {c.id}" for c in message.tool_calls]
    return lines


def _reply(call: ModelCallRecord, lang: Lang) -> list[str]:
    reply = call.reply
    if reply is None:
        return [t("cli.call_no_reply", lang)]
    lines = [t("cli.call_reply", lang, finish=reply.finish_reason or "-")]
    if reply.text:
        lines += _block(reply.text)
    lines += [f"{INDENT}→ {c.name}({c.arguments})" for c in reply.tool_calls]
    return lines


def _block(text: str) -> list[str]:
    """`text` as indented lines, split at its newlines only (`inert` shows other breaks)."""
    return [INDENT + line for line in text.split("\n")] if text else []


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def print_calls(calls: Iterable[ModelCallRecord], lang: Lang, *, full: bool = False) -> int:
    """Print each call's lines with a blank line between calls; returns how many."""
    n = 0
    for n, call in enumerate(calls, start=1):
        if n > 1:
            print()
        print("\n".join(call_lines(n, call, lang, full=full)))
    return n
