"""OpenAI-compatible endpoints (OpenAI, vLLM, Ollama, llama.cpp server, gateways).

One `AsyncOpenAI` client per endpoint, built lazily (nothing connects at import or
construction), with the SDK's retries off: `arena.llm.retry` is the only retry layer.
A probe picks how to ask for structured answers — JSON under each request's legal
answers (where the server enforces it off the prompt), strict function tools, non-strict
tools, JSON-schema output, or JSON in the text, in that order — and the chosen mode is
kept in `capabilities` for the replay header. Every reply carries its token usage
(cached prompt tokens included) and its price from `arena.llm.pricing`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import Any

import httpx
import openai

from arena.errors import ArenaError, clip
from arena.llm import fallback
from arena.llm.base import AnswerMode, ChatRequest, Dialogue, ProviderError, ToolChoice
from arena.llm.endpoint import ProbedEndpoint, ServerProps, function_tool
from arena.llm.pricing import PRICES, Price, cost_usd
from arena.llm.retry import RetryPolicy, Sleep, Transient, parse_retry_after, with_retries
from arena.llm.types import ChatMessage, ModelReply, ToolCall, Usage

OPENAI_URL = "https://api.openai.com/v1"


class OpenAIChatModel(ProbedEndpoint):
    """A `ChatModel` (and `Probed`) served by an OpenAI-compatible chat-completions API."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 60.0,
        retry: RetryPolicy | None = None,
        mode: AnswerMode | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        prices: Mapping[str, Price] = PRICES,
        sleep: Sleep = asyncio.sleep,
        probe_timeout_s: float | None = None,
        pin_slots: bool = True,
        dialogue: Dialogue | None = None,
    ) -> None:
        """Describe the endpoint; nothing connects until the first call.

        Args:
            model: the model's name as the endpoint knows it.
            base_url: the API's base URL (`OPENAI_BASE_URL`, else OpenAI's own).
            api_key: the key itself (tests); else read from `api_key_env`.
            api_key_env: the environment variable holding the key.
            timeout_s: per-request timeout.
            retry: the retry policy (the SDK's own retries are off).
            mode: an answer mode to use without probing for the best one.
            temperature: sampling temperature (the server's default when None).
            max_tokens: the reply's token limit (the server's default when None).
            prices: the price table.
            sleep: the wait between retries (tests record it).
            probe_timeout_s: the whole probe's limit (default: 4 × `timeout_s`).
            pin_slots: name each conversation's server slot (`id_slot`) when the server
                has one for each; False when other games share the server.
            dialogue: the probe's questions (the model seat's `probe_mode`); without
                it the endpoint cannot be probed and needs `mode`.
        """
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL).rstrip("/")
        self._api_key = api_key if api_key is not None else os.environ.get(api_key_env)
        self._api_key_env = api_key_env
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._client: openai.AsyncOpenAI | None = None
        super().__init__(
            model,
            timeout_s=timeout_s,
            retry=retry,
            mode=mode,
            prices=prices,
            sleep=sleep,
            probe_timeout_s=probe_timeout_s,
            pin_slots=pin_slots,
            dialogue=dialogue,
        )

    @property
    def endpoint(self) -> str:
        """`openai:<model>@<base_url>`."""
        return f"openai:{self._model}@{self.base_url}"

    def check_credentials(self) -> None:
        """OpenAI's own API needs a key; local servers (vLLM, Ollama…) usually do not.

        Raises:
            ArenaError: no key for `api.openai.com`.
        """
        if not self._api_key and self.base_url == OPENAI_URL:
            raise ArenaError(
                f"{self._api_key_env} is not set: {self.endpoint} needs an API key "
                "(or set OPENAI_BASE_URL to a local OpenAI-compatible server)"
            )

    async def _generate(self, request: ChatRequest) -> ModelReply:
        body = self._request(request)
        if request.slot is not None:
            body["extra_body"] = {"id_slot": request.slot}
        return self._reply(await self._create(body))

    @property
    def reply_tokens(self) -> int | None:
        """The reply's token limit sent with each request (None: the server's)."""
        return self.max_tokens

    async def _server_props(self) -> ServerProps:
        """llama-server's slot count and a slot's window (`GET /props`); nothing elsewhere.

        llama-server answers `{"total_slots": 4, "default_generation_settings": {"n_ctx":
        8192, …}, …}` (read from version 0.3.36's server). Only a server that answers with
        a slot count lets a request name its slot (`id_slot`); OpenAI's own API is not
        asked, and a server without `/props` (vLLM, Ollama) reports nothing.
        """
        if self.base_url == OPENAI_URL:
            return ServerProps(None, None)
        root = self.base_url.removesuffix("/v1")
        try:
            async with httpx.AsyncClient(timeout=min(self.timeout_s, 10.0)) as client:
                reply = await client.get(f"{root}/props")
            props = reply.json() if reply.status_code == 200 else {}
        except (httpx.HTTPError, ValueError):
            return ServerProps(None, None)
        props = props if isinstance(props, dict) else {}
        settings = props.get("default_generation_settings")
        window = settings.get("n_ctx") if isinstance(settings, dict) else None
        return ServerProps(_positive(props.get("total_slots")), _positive(window))

    async def aclose(self) -> None:
        """Close the connection pool (call it in the event loop that used the model)."""
        if self._client is not None and self._loop is asyncio.get_running_loop():
            await self._client.close()
        self._client = None

    def _request(self, request: ChatRequest) -> dict[str, Any]:
        """The request body: the conversation as text turns, the tool as its mode asks."""
        messages, tools, tool_choice = request.messages, request.tools, request.tool_choice
        mode, legal, form = request.mode, request.legal, request.form
        kwargs: dict[str, Any] = {"model": self._model}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        flat = fallback.flatten(messages)
        if not tools:
            kwargs["messages"] = [_message(m) for m in flat]
        elif mode in ("tools_strict", "tools"):
            kwargs["messages"] = [_message(m) for m in flat]
            kwargs["tools"] = [function_tool(t, strict=mode == "tools_strict") for t in tools]
            kwargs["tool_choice"] = _tool_choice(tool_choice)
        else:
            brief = mode == "json_legal"
            described = fallback.with_instruction(flat, tools, brief=brief)
            kwargs["messages"] = [_message(m) for m in described]
            if mode == "json_schema":
                kwargs["response_format"] = fallback.response_schema(tools)
            elif mode == "json_legal":
                schema = legal if legal is not None else tools[0].parameters
                kwargs["response_format"] = fallback.legal_format(schema, form or "json_schema")
                if self.base_url != OPENAI_URL:
                    kwargs.setdefault("max_tokens", fallback.reply_cap(schema))
        return kwargs

    def _reset_clients(self) -> None:
        self._client = None

    def _client_(self) -> openai.AsyncOpenAI:
        self._bind_loop()
        if self._client is None:
            self._client = openai.AsyncOpenAI(
                api_key=self._api_key or "not-needed",
                base_url=self.base_url,
                max_retries=0,
                timeout=self.timeout_s,
            )
        return self._client

    async def _create(self, kwargs: dict[str, Any]) -> Any:
        client = self._client_()

        async def call() -> Any:
            try:
                response = await client.chat.completions.create(**kwargs, timeout=self.timeout_s)
            except ValueError as exc:  # a 200 whose JSON body does not parse
                raise MalformedBody(
                    f"the body is not JSON ({clip(str(exc), 80, flat=True)})"
                ) from exc
            if not isinstance(getattr(response, "choices", None), list):
                raise MalformedBody("the body is not a chat completion")
            return response

        try:
            return await with_retries(
                call, _classify, self.retry, label=self.endpoint, sleep=self._sleep
            )
        except openai.APIStatusError as exc:
            raise ProviderError(
                f"{self.endpoint}: HTTP {exc.status_code}: {clip(exc.message, flat=True)}"
            ) from exc
        except openai.OpenAIError as exc:
            raise ProviderError(f"{self.endpoint}: {clip(str(exc), flat=True)}") from exc

    def _reply(self, response: Any) -> ModelReply:
        choice = response.choices[0].message if response.choices else None
        text = (choice.content or "") if choice is not None else ""
        calls: tuple[ToolCall, ...] = ()
        if choice is not None and choice.tool_calls:
            calls = tuple(
                ToolCall(id=c.id, name=c.function.name, arguments=c.function.arguments or "")
                for c in choice.tool_calls
                if getattr(c, "function", None) is not None
            )
        usage = _usage(response.usage)
        return ModelReply(
            text=text,
            tool_calls=calls,
            usage=usage,
            model=response.model or self._model,
            cost_usd=cost_usd(usage, self._price),
            finish_reason=(response.choices[0].finish_reason or "") if response.choices else "",
        )

    def _raise_if_unusable(self, exc: ProviderError) -> None:
        """A refused mode is the probe's note; a key, model or server that cannot serve is fatal.

        Raises:
            ArenaError: the key was rejected, the model or route does not exist, or the
                endpoint could not be reached at all.
        """
        cause = exc.__cause__
        if isinstance(cause, openai.AuthenticationError | openai.PermissionDeniedError):
            raise ArenaError(
                f"{self.endpoint} rejected the API key: {clip(cause.message, flat=True)}"
            ) from exc
        if isinstance(cause, openai.NotFoundError):
            raise ArenaError(
                f"{self.endpoint}: model or route not found: {clip(cause.message, flat=True)}"
            ) from exc
        if isinstance(cause, openai.APIConnectionError) and not isinstance(
            cause, openai.APITimeoutError
        ):
            raise ArenaError(f"{self.endpoint} is unreachable: {exc}") from exc


class MalformedBody(Exception):
    """An HTTP 200 whose body is not a chat completion: a provider fault, retried like a 5xx."""


def _positive(value: object) -> int | None:
    """`value` when it is a positive whole number (a server's count), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _classify(exc: BaseException) -> Transient | None:
    if isinstance(exc, MalformedBody):
        return Transient(f"HTTP 200 but {exc}")
    if isinstance(exc, openai.APITimeoutError):
        return Transient("timed out")
    if isinstance(exc, openai.APIConnectionError):
        return Transient(f"connection failed ({clip(str(exc.__cause__ or exc), flat=True)})")
    if isinstance(exc, openai.APIStatusError) and _transient_status(exc.status_code):
        return Transient(f"HTTP {exc.status_code}", parse_retry_after(exc.response.headers))
    return None


def _transient_status(status: int) -> bool:
    return status == 429 or status >= 500


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or getattr(usage, "prompt_cache_hit_tokens", 0)
    cached = cached or 0  # OpenAI, vLLM: prompt_tokens_details.cached_tokens; DeepSeek: hit tokens
    return Usage(
        prompt_tokens=usage.prompt_tokens or 0,
        completion_tokens=usage.completion_tokens or 0,
        cached_tokens=cached,
    )


def _message(message: ChatMessage) -> dict[str, Any]:
    """A text turn; `flatten` has already written any tool call or result as text."""
    return {"role": message.role, "content": message.content}


def _tool_choice(choice: ToolChoice) -> Any:
    if choice in ("auto", "required", "none"):
        return choice
    return {"type": "function", "function": {"name": choice}}
