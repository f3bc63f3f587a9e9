"""What every provider adapter shares: price, retries, the probed answer mode, the loop.

An adapter subclasses `ProbedEndpoint`, sets its own connection attributes, then calls
`super().__init__`; it supplies `endpoint`, `check_credentials`, `_generate` (one `ChatRequest`,
sent in its answer mode), `_raise_if_unusable` (which refusals end a probe) and
`_reset_clients` (drop clients bound to an old event loop). `generate`, the order of the
modes probed, the choice among their outcomes (`choose_mode`), the configured-mode check and
the one-probe-per-loop lock live here. The probe's questions do not: they are the game's,
and the model seat hands them in (`dialogue`, `arena.agents.model.probe.probe_mode`).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from arena.errors import ArenaError
from arena.llm import fallback
from arena.llm.base import (
    ANSWER_MODES,
    REPLY_RESERVE,
    AnswerMode,
    Capabilities,
    ChatRequest,
    Dialogue,
    LegalFormat,
    ProbeOutcome,
    ProviderError,
    Schema,
    ToolChoice,
)
from arena.llm.pricing import Price, price_of
from arena.llm.retry import RetryPolicy, Sleep
from arena.llm.types import ChatMessage, ModelReply, ToolSpec, Usage


class ServerProps(NamedTuple):
    """What a server reports of itself (llama-server's `GET /props`)."""

    slots: int | None
    """Slots a request may name (`total_slots`)."""
    window: int | None
    """One slot's context in tokens (`default_generation_settings.n_ctx`)."""


PROBE_REQUESTS = 4
"""Requests of a probe whose model answers at once: two checks of the legal-answer schema,
a vote and a speech."""


class ProbedEndpoint(ABC):
    """The provider-independent half of a `ChatModel` that is also `Probed`."""

    def __init__(
        self,
        model: str,
        *,
        timeout_s: float,
        retry: RetryPolicy | None,
        mode: AnswerMode | None,
        prices: Mapping[str, Price],
        sleep: Sleep,
        probe_timeout_s: float | None = None,
        pin_slots: bool = True,
        dialogue: Dialogue | None = None,
    ) -> None:
        self._model = model
        self._dialogue = dialogue
        self.pin_slots = pin_slots
        """Name each conversation's server slot when all fit (see `_pinned`); off when
        other games share the server (a tournament's workers), whose conversations would
        be pinned to the same slots and evict each other's prompts."""
        self.timeout_s = timeout_s
        self.probe_timeout_s = probe_timeout_s or PROBE_REQUESTS * timeout_s
        """The whole probe's limit (the preflight's): by default as long as its usual
        requests may each take (`PROBE_REQUESTS` × `timeout_s`)."""
        self.retry = retry or RetryPolicy()
        self._price = price_of(model, prices)
        self._sleep = sleep
        self._lock: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.conversations = 0
        """Conversations that joined (`join`): pinned to slots only if all fit."""
        self.capabilities: Capabilities | None = None
        if mode is not None:
            self.capabilities = Capabilities(
                endpoint=self.endpoint, model=model, mode=mode, probed=False,
                priced=self._price is not None,
            )  # fmt: skip

    @property
    def model(self) -> str:
        """The model's name as the endpoint knows it."""
        return self._model

    @property
    @abstractmethod
    def endpoint(self) -> str:
        """`provider:model@where`, the key in the replay header."""

    @abstractmethod
    def check_credentials(self) -> None:
        """Fail fast on a missing key or package, before any request."""

    @abstractmethod
    async def aclose(self) -> None:
        """Close the connection pool, in the loop that played the game."""

    async def probe(self) -> Capabilities:
        """Find the best answer mode this endpoint plays in (see `arena.agents.model.probe`).

        A mode given at construction is kept, and the probe's dialogue still checks that
        the endpoint can answer in it.

        Raises:
            ArenaError: the endpoint is unreachable, rejects the key, lacks the model, or
                produced no legal decision in any mode.
        """
        self.check_credentials()
        configured = self.capabilities is not None and not self.capabilities.probed
        modes = (
            (self.capabilities.mode,) if configured and self.capabilities else self._probe_modes()
        )
        outcomes: dict[AnswerMode, ProbeOutcome] = {}
        for mode in modes:
            outcomes[mode] = await self._probe_once(mode)
            if outcomes[mode].works:
                break
        chosen = choose_mode(self.endpoint, self._model, outcomes, priced=self._price is not None)
        slots, window = await self._server_props()
        self.capabilities = chosen.model_copy(
            update={"probed": not configured, "slots": slots, "window": window}
        )
        return self.capabilities

    def join(self) -> int:
        """A new conversation's index on this endpoint (see `Shared`)."""
        self.conversations += 1
        return self.conversations - 1

    async def _server_props(self) -> ServerProps:
        """What the server says of itself: its slots and a slot's window (default: nothing)."""
        return ServerProps(None, None)

    def as_sent(
        self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]
    ) -> tuple[tuple[ChatMessage, ...], tuple[ToolSpec, ...]]:
        """What a request carries as prompt in the probed answer mode (see `Measured`).

        The tool modes send the tool; the JSON modes describe it in the system message
        instead (`json_legal` by the answer's frame only: its schema goes per request as
        the output format, which llama.cpp, vLLM and Ollama do not count as prompt).
        Before the probe the tool modes' shape is assumed.
        """
        mode = self.capabilities.mode if self.capabilities is not None else None
        if mode is None or mode in ("tools_strict", "tools"):
            return tuple(messages), tuple(tools)
        flat = fallback.flatten(messages)
        return tuple(fallback.with_instruction(flat, tools, brief=mode == "json_legal")), ()

    @property
    def window(self) -> int | None:
        """The prompt tokens a request may hold: a slot's window less a reply's tokens."""
        window = self.capabilities.window if self.capabilities is not None else None
        if window is None:
            return None
        return max(1, window - (self.reply_tokens or REPLY_RESERVE))

    @property
    def reply_tokens(self) -> int | None:
        """The reply's token limit sent with each request (None: the server's)."""
        return None

    def _pinned(self, slot: int | None) -> int | None:
        """The server slot for conversation `slot`: its own, when every conversation has one.

        With more conversations than slots a pinned request would wait for its slot while
        others are free, so the server chooses (llama-server: by the longest shared prefix).
        """
        slots = self.capabilities.slots if self.capabilities is not None else None
        if slot is None or not slots or not self.pin_slots or self.conversations > slots:
            return None
        return slot

    async def generate(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        tool_choice: ToolChoice,
        legal: Schema | None = None,
        slot: int | None = None,
    ) -> ModelReply:
        """One call in the endpoint's probed answer mode, retried when transient.

        Raises:
            ProviderError: the endpoint failed after retries or rejected the request.
        """
        mode = await self._answer_mode()
        form, pinned = self._form(), self._pinned(slot)
        request = ChatRequest(tuple(messages), tuple(tools), tool_choice, mode, legal, form, pinned)
        return await self._generate(request)

    @abstractmethod
    async def _generate(self, request: ChatRequest) -> ModelReply:
        """One request in its mode (and, for `json_legal`, `legal` sent in `form`)."""

    async def _probe_once(self, mode: AnswerMode) -> ProbeOutcome:
        """Ask the probe's questions in `mode`; a fatal refusal ends the probe."""
        if self._dialogue is None:
            raise ArenaError(f"{self.endpoint}: no probe was given; set its answer mode")

        async def ask(request: ChatRequest) -> ModelReply:
            try:
                return await self._generate(request)
            except ProviderError as exc:
                self._raise_if_unusable(exc)
                raise

        return await self._dialogue(mode, ask)

    @abstractmethod
    def _raise_if_unusable(self, exc: ProviderError) -> None:
        """End the probe on a key, model or server that cannot serve at all.

        A refused mode is only the probe's note.

        Raises:
            ArenaError: the key was rejected, the model or route does not exist, or the
                endpoint could not be reached.
        """

    def _form(self) -> LegalFormat | None:
        """The probed `response_format` form of mode `json_legal` (None: OpenAI's)."""
        return self.capabilities.legal_format if self.capabilities is not None else None

    def _probe_modes(self) -> tuple[AnswerMode, ...]:
        """Modes tried in order, best first."""
        return ANSWER_MODES

    async def _answer_mode(self) -> AnswerMode:
        """The probed mode, probing once (per event loop) on first use."""
        self._bind_loop()
        assert self._lock is not None
        async with self._lock:
            if self.capabilities is None:
                await self.probe()
            assert self.capabilities is not None
            return self.capabilities.mode

    def _bind_loop(self) -> None:
        """Use clients and a lock of the running event loop.

        A connection pool belongs to the loop that opened it, and a preflight probe
        usually runs in another `asyncio.run` than the game, so both are rebuilt when
        the loop changes.
        """
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._lock = loop, asyncio.Lock()
            self._reset_clients()

    @abstractmethod
    def _reset_clients(self) -> None:
        """Forget clients bound to the previous event loop."""


def function_tool(spec: ToolSpec, *, strict: bool) -> dict[str, Any]:
    """A tool in the OpenAI function-tool format, which LangChain's `bind_tools` also takes."""
    function: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "parameters": spec.parameters,
    }
    if strict and spec.strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def choose_mode(
    endpoint: str, model: str, outcomes: Mapping[AnswerMode, ProbeOutcome], *, priced: bool
) -> Capabilities:
    """The capability record: the first mode that works.

    Raises:
        ArenaError: no probed mode produced a legal decision (naming each mode's problem).
    """
    working = next((m for m in ANSWER_MODES if m in outcomes and outcomes[m].works), None)
    notes = tuple(o.note for o in outcomes.values() if o.note)
    if working is None:
        raise ArenaError(
            f"{endpoint} cannot play: no answer mode produced a legal decision ("
            + "; ".join(notes or ("nothing was probed",))
            + ")"
        )

    def ok(mode: AnswerMode) -> bool | None:
        outcome = outcomes.get(mode)
        return None if outcome is None else outcome.works

    tool_outcome = next((outcomes[m] for m in ("tools_strict", "tools") if ok(m)), None)
    return Capabilities(
        endpoint=endpoint,
        model=model,
        tools=bool(ok("tools_strict") or ok("tools")),
        strict_tools=ok("tools_strict"),
        tool_choice=tool_outcome.tool_call if tool_outcome is not None else None,
        json_schema=ok("json_schema"),
        legal_format=outcomes[working].legal_format,
        mode=working,
        priced=priced,
        notes=notes,
        usage=sum((o.usage for o in outcomes.values()), Usage()),
    )
