"""Any LangChain chat model (Anthropic, Google, Bedrock, Mistral, …) as a `ChatModel`.

The model is built lazily with `init_chat_model("provider:model", ...)` and asked through
`bind_tools` with a forced `tool_choice`. As with the OpenAI adapter, the vendor client's
own retries are off (`max_retries=0`) and `arena.llm.retry` is the one retry layer; since
each vendor raises its own exception types, transient failures are recognised by their
HTTP status (429, 5xx) or as timeouts and connection errors. A probe picks JSON under
each request's legal answers or strict tools (OpenAI-compatible models only), tools, or
JSON in the text.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from typing import Any

import httpx
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from arena.errors import ArenaError
from arena.llm import fallback
from arena.llm.base import AnswerMode, ChatRequest, Dialogue, ProviderError, ToolChoice
from arena.llm.endpoint import ProbedEndpoint, function_tool
from arena.llm.pricing import PRICES, Price, cost_usd
from arena.llm.retry import RetryPolicy, Sleep, Transient, parse_retry_after, with_retries
from arena.llm.types import ChatMessage, ModelReply, ToolCall, Usage

KEY_ENV: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "google_genai": "GOOGLE_API_KEY",
    "mistralai": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "xai": "XAI_API_KEY",
    "fireworks": "FIREWORKS_API_KEY",
    "together": "TOGETHER_API_KEY",
}
"""The key each provider package reads; providers not listed (Bedrock, Ollama, Vertex)
authenticate otherwise and are not checked before the game."""

BASE_URL_ENV: dict[str, tuple[tuple[str, ...], str]] = {
    "openai": (("OPENAI_API_BASE", "OPENAI_BASE_URL"), "https://api.openai.com/v1"),
    "anthropic": (("ANTHROPIC_API_URL", "ANTHROPIC_BASE_URL"), "https://api.anthropic.com"),
    "ollama": (("OLLAMA_HOST",), "http://127.0.0.1:11434"),
}
"""Per provider: the environment variables its LangChain package reads for the base URL
(first set wins; ChatOpenAI reads `OPENAI_API_BASE`, then the `openai` SDK reads
`OPENAI_BASE_URL`; the `ollama` client reads `OLLAMA_HOST`) and the URL it uses when none
is set. Other providers are recorded as `default` unless given a `base_url`."""


class LangChainChatModel(ProbedEndpoint):
    """A `ChatModel` (and `Probed`) over a LangChain chat model."""

    def __init__(
        self,
        spec: str,
        *,
        timeout_s: float = 60.0,
        retry: RetryPolicy | None = None,
        mode: AnswerMode | None = None,
        prices: Mapping[str, Price] = PRICES,
        sleep: Sleep = asyncio.sleep,
        probe_timeout_s: float | None = None,
        dialogue: Dialogue | None = None,
        **kwargs: Any,
    ) -> None:
        """Describe the model; nothing is built or connected until first use.

        Args:
            spec: `provider:model`, as `init_chat_model` takes it.
            timeout_s: per-call timeout.
            retry: the retry policy (the vendor client's own retries are off).
            mode: an answer mode to use without probing.
            prices: the price table.
            sleep: the wait between retries (tests record it).
            probe_timeout_s: the whole probe's limit (default: 4 × `timeout_s`).
            dialogue: the probe's questions (the model seat's `probe_mode`); without
                it the endpoint cannot be probed and needs `mode`.
            **kwargs: passed to `init_chat_model` (`base_url`, `api_key`, `temperature`…).
        """
        provider, sep, model = spec.partition(":")
        if not sep or not provider or not model:
            raise ArenaError(f"a LangChain model is 'provider:model', got {spec!r}")
        self.provider = provider
        self._kwargs = kwargs
        self._chat: BaseChatModel | None = None
        self._http: httpx.AsyncClient | None = None
        super().__init__(
            model,
            timeout_s=timeout_s,
            retry=retry,
            mode=mode,
            prices=prices,
            sleep=sleep,
            probe_timeout_s=probe_timeout_s,
            dialogue=dialogue,
        )

    @property
    def endpoint(self) -> str:
        """`langchain:<provider>:<model>@<base URL>` (see `base_url`)."""
        return f"langchain:{self.provider}:{self._model}@{self.base_url}"

    @property
    def base_url(self) -> str:
        """The server this model's requests go to, as the provider's package finds it.

        The `base_url` given, else the environment variables the package reads, in its
        order, else the provider's public default; `default` for a provider not in
        `BASE_URL_ENV` (its package's own default, unknown here). The replay records it,
        so a seat configured from the environment still names its server.
        """
        given = self._kwargs.get("base_url")
        if given:
            return str(given).rstrip("/")
        names, default = BASE_URL_ENV.get(self.provider, ((), "default"))
        found = next((os.environ[n] for n in names if os.environ.get(n)), default)
        return found.rstrip("/")

    def check_credentials(self) -> None:
        """Fail fast on a missing provider package or key.

        Raises:
            ArenaError: the provider package is not installed, or its key is not set.
        """
        env = KEY_ENV.get(self.provider)
        local = self.provider == "openai" and "base_url" in self._kwargs
        if env and not local and "api_key" not in self._kwargs and not os.environ.get(env):
            raise ArenaError(f"{env} is not set: {self.endpoint} needs an API key")
        self._chat_()

    def _probe_modes(self) -> tuple[AnswerMode, ...]:
        """The modes to probe, best first.

        Legal-answer schemas and strict tools only through OpenAI-compatible endpoints
        (`ChatOpenAI` passes `response_format` through as given); the stable tool's
        JSON-schema output is not asked through LangChain.
        """
        head: tuple[AnswerMode, ...] = (
            ("json_legal", "tools_strict") if self.provider == "openai" else ()
        )
        return (*head, "tools", "json_text")

    async def aclose(self) -> None:
        """Close the HTTP client this model owns (OpenAI-compatible seats), if any.

        LangChain's OpenAI integration otherwise shares one cached client per base URL
        and timeout across every model in the process; closing that one would break the
        next model that happens to get the same key, so each model gets its own.
        """
        client, self._http = self._http, None
        if client is not None and self._loop is asyncio.get_running_loop():
            await client.aclose()
        self._chat = None

    async def _generate(self, request: ChatRequest) -> ModelReply:
        messages, tools, mode = request.messages, request.tools, request.mode
        self._bind_loop()
        chat = self._chat_()
        runnable: Any = chat
        flat = fallback.flatten(messages)
        if tools and mode in ("tools_strict", "tools"):
            strict = mode == "tools_strict"
            runnable = chat.bind_tools(
                [function_tool(t, strict=strict) for t in tools],
                tool_choice=_choice(request.tool_choice),
            )
        elif tools:
            flat = fallback.with_instruction(flat, tools, brief=mode == "json_legal")
            if mode == "json_legal":
                schema = request.legal if request.legal is not None else tools[0].parameters
                fmt = fallback.legal_format(schema, request.form or "json_schema")
                # In the body, not as `response_format=`: given that, ChatOpenAI asks the
                # SDK's `parse`, which raises on a reply cut by `max_tokens` instead of
                # returning it (the parser closes such a reply where it stopped).
                extra = {**(getattr(chat, "extra_body", None) or {}), "response_format": fmt}
                if self._kwargs.get("base_url"):  # a server of its own, as _compatible_limit
                    extra.setdefault("max_tokens", fallback.reply_cap(schema))
                runnable = chat.bind(extra_body=extra)
        prompt = _cached([_message(m) for m in flat], self.provider)

        async def call() -> AIMessage:
            result = await asyncio.wait_for(runnable.ainvoke(prompt), self.timeout_s)
            assert isinstance(result, AIMessage)
            return result

        try:
            answer = await with_retries(
                call, _classify, self.retry, label=self.endpoint, sleep=self._sleep
            )
        except ProviderError:
            raise
        except Exception as exc:
            raise ProviderError(f"{self.endpoint}: {_describe(exc)}") from exc
        return self._reply(answer)

    def _reset_clients(self) -> None:
        self._chat, self._http = None, None

    def _chat_(self) -> BaseChatModel:
        if self._chat is None:
            options = {"max_retries": 0, "timeout": self.timeout_s, **self._kwargs}
            if self.provider == "openai" and "http_async_client" not in options:
                self._http = httpx.AsyncClient(timeout=self.timeout_s)
                options["http_async_client"] = self._http
            if self.provider == "openai":
                options = _compatible_limit(options)
            try:
                chat = init_chat_model(f"{self.provider}:{self._model}", **options)
            except ImportError as exc:
                raise ArenaError(
                    f"{self.endpoint}: the LangChain package for {self.provider!r} is not "
                    f"installed ({exc})"
                ) from None
            except ValueError as exc:
                raise ArenaError(f"{self.endpoint}: {exc}") from None
            assert isinstance(chat, BaseChatModel)
            self._chat = chat
        return self._chat

    def _reply(self, answer: AIMessage) -> ModelReply:
        text = _text(answer.content)
        calls = tuple(
            ToolCall(
                id=c.get("id") or f"call_{i}",
                name=c["name"],
                arguments=json.dumps(c["args"], ensure_ascii=False),
            )
            for i, c in enumerate(answer.tool_calls)
        ) + tuple(
            ToolCall(
                id=c.get("id") or "invalid", name=c.get("name") or "", arguments=c.get("args") or ""
            )
            for c in answer.invalid_tool_calls
        )
        usage = _usage(answer.usage_metadata)
        meta = answer.response_metadata
        return ModelReply(
            text=text,
            tool_calls=calls,
            usage=usage,
            model=str(meta.get("model_name") or self._model),
            cost_usd=cost_usd(usage, self._price),
            finish_reason=str(meta.get("finish_reason") or meta.get("stop_reason") or ""),
        )

    def _raise_if_unusable(self, exc: ProviderError) -> None:
        """End the probe on a rejected key, a missing model or no connection at all."""
        status = _status(exc.__cause__)
        if status in (401, 403):
            raise ArenaError(f"{self.endpoint} rejected the API key: {exc}") from exc
        if status == 404:
            raise ArenaError(f"{self.endpoint}: model or route not found: {exc}") from exc
        if status is None and _classify_connection(exc.__cause__):
            raise ArenaError(f"{self.endpoint} is unreachable: {exc}") from exc


def _classify_connection(exc: BaseException | None) -> bool:
    """Whether `exc` says the endpoint could not be reached at all."""
    name = type(exc).__name__ if exc is not None else ""
    return isinstance(exc, ConnectionError) or "Connect" in name


def _cached(prompt: list[BaseMessage], provider: str) -> list[BaseMessage]:
    """The prompt with Anthropic's cache breakpoints on the system message and last turn.

    Anthropic caches a prefix only up to a marked block; marking the last turn lets each
    request read the previous one from the cache (other providers cache by themselves).
    """
    if provider != "anthropic" or not prompt:
        return prompt
    marks = {0, len(prompt) - 1}
    out: list[BaseMessage] = []
    for i, message in enumerate(prompt):
        if i in marks and isinstance(message.content, str):
            block = {
                "type": "text",
                "text": message.content,
                "cache_control": {"type": "ephemeral"},
            }
            message = message.model_copy(update={"content": [block]})
        out.append(message)
    return out


def _status(exc: BaseException | None) -> int | None:
    """The HTTP status of a vendor exception, whatever the vendor."""
    if exc is None:
        return None
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _classify(exc: BaseException) -> Transient | None:
    if isinstance(exc, json.JSONDecodeError):
        return Transient("HTTP 200 but the body is not JSON")
    status = _status(exc)
    if status is not None:
        if status == 429 or status >= 500:
            headers = getattr(getattr(exc, "response", None), "headers", None)
            return Transient(f"HTTP {status}", parse_retry_after(headers))
        return None
    name = type(exc).__name__
    if isinstance(exc, TimeoutError) or "Timeout" in name:
        return Transient("timed out")
    if isinstance(exc, ConnectionError) or "Connect" in name:
        return Transient(f"connection failed ({_describe(exc)})")
    return None


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _usage(meta: Mapping[str, Any] | None) -> Usage:
    if not meta:
        return Usage()
    details = meta.get("input_token_details") or {}
    return Usage(
        prompt_tokens=int(meta.get("input_tokens") or 0),
        completion_tokens=int(meta.get("output_tokens") or 0),
        cached_tokens=int(details.get("cache_read") or 0),
    )


def _text(content: str | list[Any]) -> str:
    if isinstance(content, str):
        return content
    parts = [p if isinstance(p, str) else p.get("text", "") for p in content]
    return "".join(p for p in parts if isinstance(p, str))


def _message(message: ChatMessage) -> BaseMessage:
    """A text turn; `flatten` has already written any tool call or result as text."""
    match message.role:
        case "system":
            return SystemMessage(content=message.content)
        case "assistant":
            return AIMessage(content=message.content)
    return HumanMessage(content=message.content)


def _compatible_limit(options: dict[str, Any]) -> dict[str, Any]:
    """`max_tokens` also as `max_tokens` for OpenAI-compatible servers other than OpenAI.

    `ChatOpenAI` sends the limit as `max_completion_tokens` (OpenAI's newer name), which
    llama-cpp-python's server ignores: a reply then runs to the context's end, and under
    a grammar a speech's string may never close (seen: every call cut off by the time
    limit). A server with a `base_url` of its own gets the old name too, in `extra_body`.
    """
    limit = options.get("max_tokens")
    if limit is None or not options.get("base_url"):
        return options
    extra = {"max_tokens": limit, **(options.get("extra_body") or {})}
    return {**options, "extra_body": extra}


def _choice(choice: ToolChoice) -> str:
    return "any" if choice == "required" else choice
