"""`LLMAgent`: a seat played by a chat model, in one append-only conversation.

Each question — a referee decision, or a private belief report — is a new user turn of
the seat's `Conversation`, answered through the game's one `act` tool (forced by name);
the schema of the request's legal answers goes with it, for endpoints that enforce it
(answer mode `json_legal`). The answer is parsed leniently (`arena.agents.model.parsing`) into an
action and checked by the referee; a refused answer is asked again in the same chat,
with the referee's reason, so the model can correct itself. With daily beliefs the exile
vote also carries the seat's wolf probabilities, so no separate call is made; a vote that
comes without a usable report is followed by one belief question.

Every call becomes a compact `ModelCallRecord` (`arena.storage.calls`): only what it added to
the conversation is stored, and the dashboard and `arena replay` expand it back to the
request exactly as sent. Provider errors (which name URLs) and timeouts are recorded in
the trace but never enter the seat's chat: the model is only told that no answer came.
The chat is sized as the endpoint counts it (`arena.agents.model.sizing`); a request refused
for length is asked again only shorter, else the decision fails, never re-sent.
"""

from __future__ import annotations

import asyncio
import time
from typing import Literal

from arena.agents.base import AgentReply
from arena.agents.model.conversation import (
    Conversation,
    belief_question,
    decision_question,
    is_exile_vote,
    reminder,
)
from arena.agents.model.explosion import as_asked, asks_window, is_offered
from arena.agents.model.library import DEFAULT_VERSION, load_library
from arena.agents.model.overflow import is_overflow
from arena.agents.model.parsing import Parsed, check_beliefs, parse_answer
from arena.agents.model.sizing import Sizing
from arena.agents.model.tools import TOOL_NAME, answer_tool, legal_answers, split_claims
from arena.errors import ArenaError
from arena.llm.base import ChatModel, Measured, ProviderError, Schema, Shared
from arena.llm.retry import FailedTry, failed_tries
from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, ToolSpec, Usage
from arena.records import BeliefReport
from arena.rules import events as ev
from arena.rules.actions import Claims, Pass, Speak
from arena.rules.config import RuleSet
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.observation import Observation
from arena.rules.types import Role, SeatId
from arena.rules.visibility import SeatViewer
from arena.storage.calls import Compactor
from arena.text.script import AgentLang
from arena.transcript import Lang

BELIEF_STEP = -1
"""The `step` of belief calls in traces (they answer no referee request)."""

Beliefs = Literal["off", "daily", "per_speech"]


class LLMAgent:
    """An `Agent` and `Believer` backed by a `ChatModel`."""

    def __init__(
        self,
        model: ChatModel,
        *,
        lang: AgentLang = "zh",
        rules: RuleSet | None = None,
        label: str | None = None,
        prompt_version: str = DEFAULT_VERSION,
        history_tokens: int = 24_000,
        belief_retries: int = 1,
        explosion_windows: bool = False,
        beliefs: Beliefs = "daily",
        decision_timeout_s: float | None = None,
    ) -> None:
        """Create a seat's agent.

        Args:
            model: the chat model that answers.
            lang: the language of the prompts and so of the speeches (`zh-Hans`: Simplified).
            rules: the game's rules (public); the board's preset is assumed when None.
            label: the agent spec shown in the replay header (`openai:gpt-4.1-mini`).
            prompt_version: the `prompts/` version to use.
            history_tokens: the conversation's budget in the endpoint's tokens; past it,
                older days are condensed (at most once a day).
            belief_retries: re-asks of a malformed belief report before giving up.
            explosion_windows: ask in every explosion window, not only after its own speech.
            beliefs: the game's belief schedule; `daily` folds the report into the vote.
            decision_timeout_s: this seat's limit per decision (all its calls); a call cut
                off by it leaves a trace. None: the match's limit applies.
        """
        self.chat = model
        self.library = load_library(lang, prompt_version)
        self.lang: Lang = self.library.lang
        self.beliefs: Beliefs = beliefs
        self.belief_retries = belief_retries
        self.explosion_windows = explosion_windows
        self.decision_timeout_s = decision_timeout_s
        self.conversation = Conversation(self.library, rules, history_tokens)
        self._label = label or f"llm:{model.model}"
        self._tool: ToolSpec | None = None
        self._trace = Compactor()
        self.sizing = Sizing(model if isinstance(model, Measured) else None)
        self._overflowed = False  # the last call was refused for length: never re-sent
        self._slot = model.join() if isinstance(model, Shared) else None
        """This conversation's index on a shared model: its server slot where pinned."""
        self._lock = asyncio.Lock()
        self._asking: int | None = None
        """The step whose question is open (None: the last one was settled)."""
        self._attempts = 0
        self._gave_action = False
        self._last_failed_call = False
        """Whether the last call got no reply (a provider error: not for the model's eyes)."""
        self._spoken: Claims | None = None
        """The claims of the last speech answered: a re-ask after its refusal reads them."""

    @property
    def name(self) -> str:
        """The agent spec, e.g. `openai:gpt-4.1-mini`."""
        return self._label

    @property
    def model(self) -> str:
        """The model's name (the replay header's `model`)."""
        return self.chat.model

    @property
    def prompt_version(self) -> str:
        """`werewolf-<lang>@<version>` (the replay header's `prompt_version`)."""
        return self.library.prompt_id

    @property
    def folds_beliefs(self) -> bool:
        """Whether the daily belief report rides on the exile vote (no separate call)."""
        return self.beliefs == "daily"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Answer `request` in the seat's conversation; a re-ask continues it."""
        if not asks_window(view, request, every=self.explosion_windows):
            return AgentReply(action=Pass())
        request = as_asked(request)
        async with self._lock:
            seat = _seat(view)
            others = _others(view) if self.folds_beliefs and is_exile_vote(request) else []
            before: Conversation | None = None
            trusted: tuple[int, ...] | None = None
            if feedback is not None and self._asking == request.step and self._overflowed:
                return AgentReply(action=None, error=feedback)  # never re-sent as long
            if feedback is not None and self._asking == request.step:
                self._attempts += 1
                self.conversation.refuse(self._safe(feedback), self._reminder(request, view))
                trusted = split_claims(self._spoken) if self._spoken is not None else None
            else:
                self._open(view, request.step)
                question = decision_question(view, request, self.library, beliefs=others)
                before = self.conversation.snapshot()
                self.sizing.ask(self.conversation, view, question)
            legal = legal_answers(
                request, view.knowledge.seats, self._roles(view), beliefs=others, trusted=trusted
            )
            earlier, record, reply = await self._call(view, seat, request.step, legal)
            if reply is None and before is not None and self._refit(before, view, question, record):
                refused = record
                tries, record, reply = await self._call(view, seat, request.step, legal)
                earlier = (*earlier, refused, *tries)
            if reply is None:
                return AgentReply(action=None, error=record.error, calls=(*earlier, record))
            try:
                parsed = parse_answer(_raw(reply), request)
                if not is_offered(parsed.action, request):
                    raise InvalidActionError("this question needs one of the legal answers")
            except InvalidActionError as exc:
                record = record.model_copy(update={"error": str(exc)})
                return AgentReply(action=None, error=str(exc), calls=(*earlier, record))
            assert parsed.action is not None
            self._gave_action = True
            self._spoken = parsed.action.claims if isinstance(parsed.action, Speak) else None
            record = record.model_copy(
                update={
                    "parsed_action": parsed.action.model_dump(mode="json"),
                    "notes": parsed.notes,
                }
            )
            belief = self._report(view, parsed, others)
            return AgentReply(action=parsed.action, calls=(*earlier, record), belief=belief)

    async def believe(self, view: Observation) -> BeliefReport | None:
        """Private wolf probabilities for every other present seat, in the same chat.

        A malformed report is re-asked `belief_retries` times; None after that, or when
        the endpoint fails (a belief report is instrumentation, never part of the game).
        """
        others = _others(view)
        if not others:
            return None
        async with self._lock:
            seat = _seat(view)
            self._open(view, BELIEF_STEP)
            self.sizing.ask(self.conversation, view, belief_question(others, self.library))
            calls: list[ModelCallRecord] = []
            legal = legal_answers(None, view.knowledge.seats, self._roles(view), beliefs=others)
            for attempt in range(self.belief_retries + 1):
                if attempt:
                    self._attempts += 1
                tries, record, reply = await self._call(view, seat, BELIEF_STEP, legal)
                calls.extend(tries)
                if reply is None:
                    self._trace.unwritten([*calls, record])
                    self._asking = None
                    return None
                try:
                    parsed = parse_answer(_raw(reply), None)
                    error = check_beliefs(parsed.beliefs, others)
                except InvalidActionError as exc:
                    error = str(exc)
                if error is None:
                    calls.append(record.model_copy(update={"parsed_action": {"beliefs": True}}))
                    self._gave_action = True
                    self._asking = None
                    return _belief(view, parsed, tuple(calls))
                calls.append(record.model_copy(update={"error": error}))
                self.conversation.refuse(error, belief_question(others, self.library))
            self._trace.unwritten(calls)
            self._asking = None
            return None

    def _refit(
        self, before: Conversation, view: Observation, question: str, refused: ModelCallRecord
    ) -> bool:
        """After a refusal for length: ask the question again in a shorter chat, if one can be.

        False for another refusal, or when nothing could be cut (`…model.overflow`).
        """
        if refused.error is None or not is_overflow(refused.error):
            return False
        refused_chat, self.conversation = self.conversation, before
        if not self.sizing.refit(refused_chat, before, view, question, refused.error):
            return False
        self._attempts += 1
        return True

    def _open(self, view: Observation, step: int) -> None:
        """Start a new question, first telling how the previous answer was settled."""
        if self._gave_action:
            self.conversation.settle(defaulted=_defaulted_since(view, self.conversation.seen))
        self._gave_action = False
        self._asking, self._attempts = step, 1

    def _reminder(self, request: DecisionRequest, view: Observation) -> str:
        return reminder(request, self.library, view.knowledge.seats, self._roles(view))

    def _safe(self, feedback: str) -> str:
        """What the model may read of a refusal: never a provider error or a URL."""
        if self._last_failed_call or "://" in feedback:
            return self.library.label("no_answer")
        return feedback

    def _report(
        self, view: Observation, parsed: Parsed, others: list[SeatId]
    ) -> BeliefReport | None:
        """The report folded into a vote; its call is the vote's trace, not repeated here."""
        if not others or check_beliefs(parsed.beliefs, others) is not None:
            return None
        return _belief(view, parsed, ())

    async def _call(
        self, view: Observation, seat: SeatId, step: int, legal: Schema
    ) -> tuple[tuple[ModelCallRecord, ...], ModelCallRecord, ModelReply | None]:
        """Ask the model; the records of the tries the provider retried, the call's, its reply."""
        tool = self._tool_for(view)
        messages = tuple(self.conversation.messages)
        started = time.perf_counter()
        reply: ModelReply | None = None
        error: str | None = None
        self._overflowed = False  # until this call is refused for length (a cut-off is not)
        with failed_tries() as failed:
            try:
                if self._slot is None:
                    reply = await self.chat.generate(messages, (tool,), TOOL_NAME, legal=legal)
                else:
                    reply = await self.chat.generate(
                        messages, (tool,), TOOL_NAME, legal=legal, slot=self._slot
                    )
            except ProviderError as exc:
                error = str(exc)
            except asyncio.CancelledError:
                self._trace.unwritten(self._tries(failed, seat, step, messages, tool))
                self._trace.cut_off(
                    seat, step, self._attempts, messages, (tool,), self._meta(started)
                )
                raise
        tries = self._tries(failed, seat, step, messages, tool)
        self._last_failed_call, self._overflowed = reply is None, is_overflow(error)
        if reply is not None:
            self.conversation.answer(_raw(reply))
            self.sizing.observe(reply.usage.prompt_tokens, messages)
        record = self._trace.record(
            seat,
            step,
            self._attempts,
            messages,
            (tool,),
            reply=reply,
            error=error,
            **self._meta(started),
            usage=reply.usage if reply else Usage(),
            cost_usd=reply.cost_usd if reply else 0.0,
        )
        return tries, record, reply

    def _tries(
        self,
        failed: list[FailedTry],
        seat: SeatId,
        step: int,
        messages: tuple[ChatMessage, ...],
        tool: ToolSpec,
    ) -> tuple[ModelCallRecord, ...]:
        """A record for each try the provider retried (the same request, each failed)."""
        return tuple(
            self._trace.record(
                seat,
                step,
                self._attempts,
                messages,
                (tool,),
                reply=None,
                error=t.reason,
                retried=True,
                model=self.chat.model,
                prompt_id=self.library.prompt_id,
                latency_ms=t.latency_ms,
            )  # fmt: skip
            for t in failed
        )

    def _meta(self, started: float) -> dict[str, object]:
        return {
            "model": self.chat.model,
            "prompt_id": self.library.prompt_id,
            "latency_ms": (time.perf_counter() - started) * 1000,
        }

    def pending_traces(self) -> tuple[ModelCallRecord, ...]:
        """Traces no answer carried (handed over once, then forgotten).

        These are calls cut off by a time limit and the calls of a failed belief report.
        """
        return self._trace.take_cut_off()

    def _tool_for(self, view: Observation) -> ToolSpec:
        if self._tool is None:
            k = view.knowledge
            self._tool = answer_tool(k.seats, self._roles(view), self.library.tools)
            self.sizing.tool = self._tool
        return self._tool

    @staticmethod
    def _roles(view: Observation) -> list[Role]:
        """The roles a speech may claim: the board's."""
        return list(view.knowledge.role_counts)


def _defaulted_since(view: Observation, seen: int) -> bool:
    """Whether the referee applied a default to this seat since the chat last looked."""
    me = _seat(view)
    return any(
        isinstance(s.event, ev.ActionDefaulted) and s.event.seat == me
        for s in view.seen
        if s.seq >= seen
    )


def _raw(reply: ModelReply) -> str:
    """The answer as the model wrote it: the `act` call's arguments, or its text."""
    if reply.tool_calls:
        return reply.tool_calls[0].arguments
    return reply.text


def _belief(view: Observation, parsed: Parsed, calls: tuple[ModelCallRecord, ...]) -> BeliefReport:
    assert parsed.beliefs is not None
    return BeliefReport(
        seat=_seat(view),
        day=view.knowledge.day,
        after_seq=view.log_length,
        wolf_probability=parsed.beliefs,
        calls=calls,
    )


def _others(view: Observation) -> list[SeatId]:
    me = _seat(view)
    return [s for s in view.knowledge.present() if s != me]


def _seat(view: Observation) -> int:
    if not isinstance(view.viewer, SeatViewer):
        raise ArenaError("an LLM seat needs a seat view, not a team or spectator view")
    return view.viewer.seat
