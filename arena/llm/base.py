"""The one interface agents use to talk to a language model, whatever serves it.

`LLMAgent` sees only `ChatModel`; the OpenAI and LangChain adapters, and the scripted
double, implement it. A provider that can probe its endpoint also implements `Probed`, so
the factory can check an endpoint (and choose how to ask it for structured answers)
before a game starts rather than in the middle of one. What a probe asks is the model
seat's (`Dialogue`), handed to the provider, so this layer knows nothing of the game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from arena.errors import ArenaError
from arena.llm.types import ChatMessage, ModelReply, ToolSpec, Usage

ToolChoice = str
"""`"auto"`, `"required"` (some tool must be called) or the name of the one tool to call."""

AnswerMode = Literal["json_legal", "tools_strict", "tools", "json_schema", "json_text"]
"""How an endpoint is asked for a structured answer, best first:

- `json_legal`: JSON output under a per-request schema of the legal answers, which the
  server enforces with a grammar and does not count as prompt (llama.cpp, vLLM, Ollama):
  no illegal answer, and the prompt still extends the previous one byte for byte;
- `tools_strict`, `tools`: the game's one function tool, strict or not;
- `json_schema`: JSON output under the tool's (stable) schema;
- `json_text`: JSON written in the text.
"""

ANSWER_MODES: tuple[AnswerMode, ...] = (
    "json_legal",
    "tools_strict",
    "tools",
    "json_schema",
    "json_text",
)

LegalFormat = Literal["json_schema", "json_object"]
"""How a per-request schema is sent: `response_format` of type `json_schema` (OpenAI's
form: vLLM, llama.cpp's own server, Ollama) or `json_object` with a `schema` key
(llama-cpp-python's server, which ignores the other form)."""

LEGAL_FORMATS: tuple[LegalFormat, ...] = ("json_object", "json_schema")

Schema = dict[str, Any]
"""A JSON schema."""


REPLY_RESERVE = 1024
"""The tokens of a slot's window kept for the reply when requests set no `max_tokens`
(llama-server's default lets a reply run to the end of the window): a speech with a
belief report fits in it."""


class ProviderError(ArenaError):
    """A model endpoint failed for good (after our retries): the message says how."""


class Capabilities(BaseModel):
    """What a probe learned about one endpoint, and the answer mode chosen from it.

    Recorded per endpoint in the replay header (`ReplayHeader.endpoints`) so a result can
    be read together with how the model was asked.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    endpoint: str
    """`provider:model@base_url`, the key in the replay header."""
    model: str
    tools: bool | None = None
    """Function tools accepted and a tool call returned; None when not probed."""
    strict_tools: bool | None = None
    """Strict (schema-enforced) function tools accepted."""
    tool_choice: bool | None = None
    """A forced tool choice was honoured (the named tool, not another or none)."""
    json_schema: bool | None = None
    """`response_format: json_schema` accepted (probed only when tools fail)."""
    legal_format: LegalFormat | None = None
    """For `json_legal`: the `response_format` form the endpoint enforced."""
    mode: AnswerMode
    """The answer mode in use."""
    probed: bool = True
    """False when the mode came from configuration and no probe was made."""
    priced: bool = True
    """False when the model is not in the price table: its cost is counted as 0."""
    notes: tuple[str, ...] = ()
    """Why a mode was rejected (the endpoint's error messages, shortened)."""
    usage: Usage = Usage()
    """Tokens the probe itself spent."""
    slots: int | None = None
    """Slots of the server a request may name (llama-server's `id_slot`, read from its
    `/props`); None when the server offers no choice. Each seat's conversation is kept on
    a slot of its own when there are enough (`ChatModel.generate`'s `slot`)."""
    window: int | None = None
    """The context of one of the server's slots, in its tokens (llama-server's `/props`:
    `default_generation_settings.n_ctx`, which it caps at the model's training window
    whatever `-c` gave each slot); None when the server does not say. A request longer
    than it, with its reply, is refused."""


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One request to an endpoint, as its adapter sends it: what is asked, and how.

    The one place a call's parameters are named: `ProbedEndpoint.generate` builds it for a
    seat's call, the probe (`Dialogue`) for each of its questions, and an adapter's
    `_generate` reads it whole, so a new parameter is added here and where it is read,
    not to every signature on the way.
    """

    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...]
    tool_choice: ToolChoice
    """`"auto"`, `"required"` or the name of the one tool to call (`ToolChoice`)."""
    mode: AnswerMode
    """How the structured answer is asked for (`AnswerMode`)."""
    legal: Schema | None = None
    """The schema of this request's legal answers; sent as the output schema in
    `json_legal`, ignored by the other modes."""
    form: LegalFormat | None = None
    """For `json_legal`: the `response_format` form `legal` is sent in."""
    slot: int | None = None
    """The server slot to use, when the server offers a choice (llama-server's `id_slot`)."""


Ask = Callable[[ChatRequest], Awaitable[ModelReply]]
"""Send one of the probe's requests (in the mode being probed) and return the reply."""


@dataclass(frozen=True, slots=True)
class ProbeOutcome:
    """What probing one answer mode showed."""

    mode: AnswerMode
    accepted: bool
    """Every request of the dialogue was answered (no HTTP error)."""
    legal: bool = False
    """A legal vote and a well-formed speech came back."""
    tool_call: bool | None = None
    """The answers came as calls of the forced tool (tool modes only)."""
    note: str | None = None
    usage: Usage = Usage()
    legal_format: LegalFormat | None = None
    """For `json_legal`: the form the endpoint enforced."""

    @property
    def works(self) -> bool:
        """The mode can play a game."""
        return self.accepted and self.legal


class Dialogue(Protocol):
    """The probe's questions for one answer mode, asked through `ask` (see `ProbedEndpoint`).

    The game's questions belong to the model seat (`arena.agents.model.probe.probe_mode`),
    which hands them to the endpoint it builds: a provider adapter knows how to send a
    request, not what a game asks, so it never imports the rules.
    """

    async def __call__(self, mode: AnswerMode, ask: Ask, /) -> ProbeOutcome:
        """Ask the dialogue's requests in `mode` and say what they showed."""
        ...


@runtime_checkable
class ChatModel(Protocol):
    """A chat model that answers with tool calls."""

    @property
    def model(self) -> str:
        """The model's name, as recorded in traces and the replay header."""
        ...

    async def generate(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        tool_choice: ToolChoice,
        legal: Schema | None = None,
        slot: int | None = None,
    ) -> ModelReply:
        """One completion. Transient failures are retried inside; a final one raises.

        `legal` is the schema of this request's legal answers (`tools.legal_answers`);
        an endpoint in answer mode `json_legal` sends it as the output schema, others
        ignore it (their tools never change within a game). `slot` is the caller's
        conversation among those sharing this model (`Shared.join`): a server that lets
        the client choose its slot keeps each conversation on one, so its prompt cache
        holds that conversation's prefix; others ignore it.

        Raises:
            ProviderError: the endpoint failed after the adapter's retries.
        """
        ...


@runtime_checkable
class Shared(Protocol):
    """A chat model several seats' conversations share (optional).

    Each conversation joins once and names its index in every call (`generate`'s
    `slot`), so the endpoint can keep each on a server slot of its own.
    """

    def join(self) -> int:
        """A new conversation's index (0, 1, …)."""
        ...


@runtime_checkable
class Measured(Protocol):
    """A chat model that says what its requests carry as prompt, and how much fits (optional).

    The seat's token gauge estimates what the server counts: in answer mode `json_legal`
    the tool's schema is not sent (the server enforces each request's legal answers off
    the prompt) and a short answer format stands in the system message, so an estimate
    that counted the tool would run 2-4 times low on llama.cpp, vLLM and Ollama.
    """

    def as_sent(
        self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]
    ) -> tuple[tuple[ChatMessage, ...], tuple[ToolSpec, ...]]:
        """The messages and tools a request carries as prompt in the endpoint's answer mode."""
        ...

    @property
    def reply_tokens(self) -> int | None:
        """The reply's token limit sent with each request (None: the server's)."""
        ...

    @property
    def window(self) -> int | None:
        """The prompt tokens a request may hold (None: unknown).

        The server's window less a reply's tokens.
        """
        ...


@runtime_checkable
class Probed(Protocol):
    """A chat model bound to an endpoint that can be checked before a game."""

    @property
    def endpoint(self) -> str:
        """`provider:model@base_url`, unique per endpoint and model."""
        ...

    @property
    def probe_timeout_s(self) -> float | None:
        """How long the probe may take (None: the caller's default)."""
        ...

    def check_credentials(self) -> None:
        """Fail fast, without network, when a needed key is missing.

        Raises:
            ArenaError: naming the missing environment variable or setting.
        """
        ...

    async def probe(self) -> Capabilities:
        """Ask the endpoint a few tiny questions; choose and remember the answer mode.

        Raises:
            ArenaError: the endpoint is unreachable or rejects the credentials.
        """
        ...

    async def aclose(self) -> None:
        """Close the connection pool, in the loop that played the game."""
        ...
