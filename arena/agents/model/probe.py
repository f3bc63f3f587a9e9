"""The capability probe: ask an endpoint what the game will ask, the way the game asks it.

A small question proves little: llama.cpp answered one with a strict tool and then
refused or mangled every real request of the game. So the probe sends, per answer mode,
best mode first, the shapes a game really sends:

1. the game's one `act` tool (every action shape, seat enums, nullable fields) with a
   system message and log of about `PROBE_PROMPT_TOKENS` tokens, and an exile vote that
   carries a belief report over every other seat, as a game's daily vote does (its
   legal schema holds the report's tuple: llama.cpp's own server once refused that
   shape, and only the game's votes met it);
2. when the answer is refused (malformed, or not a legal vote), the refusal continued in
   the same conversation, as the game re-asks, up to `PROBE_TRIES` answers in all;
3. once a legal vote came, the conversation continued with a speech question, whose
   answer must parse as a speech, re-asked the same way.

The vote's legal seats are a game's (every other seat), so a weak model that plays a game
passes, while an endpoint that never answers legally (malformed arguments, prose, an
unknown tool, seats that do not exist) fails.

The first mode, `json_legal`, sends each request's legal answers as an output schema
(`tools.legal_answers`). Before its dialogue, two short requests check that it is worth
using, once per `response_format` form (`LEGAL_FORMATS`): the question asks for seat 2
while the schema admits only seat 7, so only a server that enforces the schema answers 7;
and the same request under the whole tool's schema must count the same prompt tokens,
or the schema is part of the prompt (as on hosted APIs that cache it as a prefix) and a
schema that changes per request would cost the cache.

A mode *works* when every request was accepted and a legal vote and a speech came back;
the first mode that works is used and every mode's outcome is recorded in the replay
header. An endpoint on which no mode works cannot play: the preflight says why in one
line instead of letting a game run on defaults. Adapters send the requests; this module
is vendor-free. `probe_mode` is the `Dialogue` the model seat hands each endpoint it
builds (`arena.llm.endpoint.ProbedEndpoint`'s `dialogue`), so the provider layer never
imports the game.
"""

from __future__ import annotations

from dataclasses import replace

from arena.agents.model.library import load_library
from arena.agents.model.options import options_text
from arena.agents.model.parsing import parse_answer
from arena.agents.model.tools import (
    BELIEF_FIELD,
    TOOL_NAME,
    answer_tool,
    legal_answers,
)
from arena.llm.base import (
    LEGAL_FORMATS,
    AnswerMode,
    Ask,
    ChatRequest,
    LegalFormat,
    ProbeOutcome,
    ProviderError,
    Schema,
)
from arena.llm.tokens import estimate_tokens, request_tokens
from arena.llm.types import ChatMessage, ModelReply, ToolSpec, Usage
from arena.rules.actions import Action, Pass, Speak, Vote
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError, InvalidActionError
from arena.rules.types import Role

PROBE_PROMPT_TOKENS = 4096
"""The probe's prompt length: long enough to meet a context limit a game would meet."""
PROBE_TRIES = 3
"""Answers the probe waits for a legal vote, as many as a game's tries per decision."""

ROLES = (Role.WEREWOLF, Role.VILLAGER, Role.SEER, Role.WITCH, Role.HUNTER, Role.GUARD)
"""The roles of the probe's 12-seat board."""

SEAT_RANGE = "1|2|…|12"
"""How the questions write "any seat" of the probe's table."""
PROBE_SEAT = 4
"""The probe's own seat: the system message, the questions and the beliefs speak as it."""


def _day_question(
    *, step: int, day: int, kind: DecisionKind, options: tuple[ActionOption, ...], default: Action
) -> DecisionRequest:
    """A daytime question to `PROBE_SEAT`, as the referee would ask it in a game."""
    return DecisionRequest(
        step=step,
        seat=PROBE_SEAT,
        kind=kind,
        day=day,
        night=False,
        options=options,
        default=default,
    )


BELIEVED = (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12)
"""The seats the probe's vote reports beliefs over: every other seat, as a daily vote's."""
VOTE = _day_question(
    step=0,
    day=1,
    kind=DecisionKind.VOTE,
    options=(ActionOption(action="vote", targets=BELIEVED), ActionOption(action="pass")),
    default=Pass(),
)
"""The dialogue's exile vote: any other seat, or pass."""
ONLY_SEVEN = _day_question(
    step=0,
    day=1,
    kind=DecisionKind.VOTE,
    options=(ActionOption(action="vote", targets=(7,)),),
    default=Pass(),
)
"""The enforcement check's schema: a vote for seat 7 is the only answer it admits."""
SPEECH = _day_question(
    step=1,
    day=2,
    kind=DecisionKind.SPEECH,
    options=(ActionOption(action="speak", max_chars=1200),),
    default=Speak(text=""),
)
"""The dialogue's day speech, asked once the vote was legal."""


def probe_tool() -> ToolSpec:
    """The `act` tool of a 12-seat board, as a game offers it."""
    return answer_tool(12, ROLES, load_library("en").tools)


def probe_messages(tokens: int = PROBE_PROMPT_TOKENS) -> list[ChatMessage]:
    """A system message and a game log of about `tokens` tokens, then the vote question."""
    system = (
        f"You are playing Werewolf as seat #{PROBE_SEAT} at a table of 12 players. "
        f"Answer every question by calling the tool `{TOOL_NAME}` with one of the legal "
        "answers listed."
    )
    lines: list[str] = []
    size = request_tokens([], [probe_tool()])
    speaker = 0
    while size < tokens:
        speaker = speaker % 12 + 1
        line = (
            f'#{speaker} (speech): "I listened to everyone. Seat {(speaker + 4) % 12 + 1} '
            "sounded unsure about the night, and I want to hear more before I decide. "
            'I am a plain villager; my vote follows the checks."'
        )
        lines.append(line)
        size += estimate_tokens(line)
    lib = load_library("en")
    question = "\n".join(
        [
            "\n".join(lines),
            "The table agreed to exile seat 2. Vote for seat 2 (or pass).",
            lib.label("answers"),
            *options_text(VOTE, lib.tools, SEAT_RANGE),
            lib.label("with_beliefs", field=BELIEF_FIELD, seats=", ".join(map(str, BELIEVED))),
        ]
    )
    return [ChatMessage(role="system", content=system), ChatMessage(role="user", content=question)]


async def probe_mode(mode: AnswerMode, ask: Ask, tokens: int = PROBE_PROMPT_TOKENS) -> ProbeOutcome:
    """Probe one answer mode through `ask` (for `json_legal`, each form until one works)."""
    if mode != "json_legal":
        return await probe_dialogue(mode, ask, None, tokens)
    usage = Usage()
    notes: list[str] = []
    for form in LEGAL_FORMATS:
        problem, spent = await enforcement(ask, form)
        usage += spent
        if problem is None:
            outcome = await probe_dialogue(mode, ask, form, tokens)
            skipped = [f"{mode}: " + "; ".join(notes)] if notes else []
            said = "; ".join([*skipped, *([outcome.note] if outcome.note else [])]) or None
            return replace(outcome, usage=outcome.usage + usage, legal_format=form, note=said)
        notes.append(f"{form}: {problem}")
    return ProbeOutcome(mode, True, False, None, f"{mode}: " + "; ".join(notes), usage)


def _asked(
    mode: AnswerMode,
    messages: list[ChatMessage],
    tool: ToolSpec,
    legal: Schema,
    form: LegalFormat | None,
) -> ChatRequest:
    """One of the probe's requests: the conversation so far, the one tool forced by name."""
    return ChatRequest(tuple(messages), (tool,), tool.name, mode, legal, form)


async def enforcement(ask: Ask, form: LegalFormat) -> tuple[str | None, Usage]:
    """Why a per-request schema sent in `form` is of no use here (None: it is).

    One request asks for a vote for seat 2 under a schema that admits only seat 7; the
    same request is sent again under the whole tool's schema. The schema must be
    enforced (the answer is seat 7) and must not count as prompt (both requests report
    the same, non-zero, prompt tokens).
    """
    tool = probe_tool()
    system = "Answer with one JSON object and nothing else."
    question = 'Reply with exactly this JSON: {"answer": {"action": "vote", "target": 2}}'
    messages = [
        ChatMessage(role="system", content=system),
        ChatMessage(role="user", content=question),
    ]
    narrow = legal_answers(ONLY_SEVEN, 12, ROLES)
    try:
        reply = await ask(_asked("json_legal", messages, tool, narrow, form))
        usage = reply.usage
        try:
            action = parse_answer(_raw(reply), ONLY_SEVEN).action
        except InvalidActionError:
            action = None
        if not (isinstance(action, Vote) and action.target == 7):
            return "the schema was not enforced", usage
        wide = await ask(_asked("json_legal", messages, tool, tool.parameters, form))
        usage += wide.usage
    except ProviderError as exc:
        return str(exc), Usage()
    if not reply.usage.prompt_tokens:
        return "no prompt token counts in the usage", usage
    if wide.usage.prompt_tokens != reply.usage.prompt_tokens:
        counts = f"{reply.usage.prompt_tokens} and {wide.usage.prompt_tokens} prompt tokens"
        return f"the schema counts as prompt ({counts})", usage
    return None, usage


async def probe_dialogue(
    mode: AnswerMode,
    ask: Ask,
    form: LegalFormat | None = None,
    tokens: int = PROBE_PROMPT_TOKENS,
) -> ProbeOutcome:
    """Run the probe's dialogue in `mode` through `ask`."""
    tool = probe_tool()
    vote_schema = legal_answers(VOTE, 12, ROLES, beliefs=BELIEVED)
    speech_schema = legal_answers(SPEECH, 12, ROLES)
    lib = load_library("en")
    messages = probe_messages(tokens)
    usage = Usage()
    as_calls: list[bool] = []
    try:
        legal, note = False, "no legal vote"
        problem: str | None
        for _ in range(PROBE_TRIES):
            reply = await ask(_asked(mode, messages, tool, vote_schema, form))
            usage += reply.usage
            as_calls.append(bool(reply.tool_calls) and reply.tool_calls[0].name == tool.name)
            raw = _raw(reply)
            problem = _vote_problem(raw)
            messages += [ChatMessage(role="assistant", content=raw or "…")]
            if problem is None:
                legal = True
                break
            note = problem
            messages += [_question(lib.label("refused", error=note), VOTE)]
        if not legal:
            return ProbeOutcome(mode, True, False, _all(as_calls), f"{mode}: {note}", usage)
        messages += [_question("Accepted. Day 2: give your day speech.", SPEECH)]
        for _ in range(PROBE_TRIES):
            reply = await ask(_asked(mode, messages, tool, speech_schema, form))
            usage += reply.usage
            raw = _raw(reply)
            problem = _speech_problem(raw)
            if problem is None:
                break
            messages += [
                ChatMessage(role="assistant", content=raw or "…"),
                _question(lib.label("refused", error=problem), SPEECH),
            ]
    except ProviderError as exc:
        return ProbeOutcome(mode, False, False, None, f"{mode}: {exc}", usage)
    said = None if problem is None else f"{mode}: speech: {problem}"
    return ProbeOutcome(mode, True, problem is None, _all(as_calls), said, usage)


def _question(lead: str, request: DecisionRequest) -> ChatMessage:
    """`lead`, then the legal answers to `request` written out, as a game's question ends."""
    lib = load_library("en")
    lines = [lead, lib.label("answers"), *options_text(request, lib.tools, SEAT_RANGE)]
    return ChatMessage(role="user", content="\n".join(lines))


def _raw(reply: ModelReply) -> str:
    return reply.tool_calls[0].arguments if reply.tool_calls else reply.text


def _all(flags: list[bool]) -> bool | None:
    return all(flags) if flags else None


def _vote_problem(raw: str) -> str | None:
    try:
        action = parse_answer(raw, VOTE).action
        if action is None:
            return "a belief report is not a vote"
        check_legal(VOTE, action)
    except (InvalidActionError, IllegalActionError) as exc:
        return str(exc)
    if not isinstance(action, Vote | Pass):
        return f"{action.kind} is not a vote"
    return None


def _speech_problem(raw: str) -> str | None:
    try:
        action = parse_answer(raw, SPEECH).action
    except InvalidActionError as exc:
        return str(exc)
    return None if isinstance(action, Speak) else "the answer is not a speech"
