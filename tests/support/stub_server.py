"""A local OpenAI-compatible HTTP server for tests and benchmarks (real HTTP, loopback only).

`StubServer` serves `POST /v1/chat/completions` and `GET /v1/models` on 127.0.0.1 at a
random port, from a thread, so async clients in the test's event loop talk to it over a
real socket. Each model name can have its own policy (`tests.support.stub_policy`): a model
called `malformed` can always send broken JSON while `good` plays legally. It also
emulates what endpoints differ in — no tools, no strict tools, an ignored `tool_choice`,
no `json_schema`, an output schema enforced off the prompt (llama.cpp) or counted in it
(OpenAI) — an injected latency, and prompt caching (cached tokens are the
longest prefix shared with an earlier request of the same model, OpenAI-style: at least
1024 tokens, in steps of 128).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import socket
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from arena.llm.tokens import estimate_tokens
from tests.support.stub_policy import (
    CallTool,
    Hang,
    HttpError,
    Policy,
    StubRequest,
    StubTool,
    Text,
    random_legal,
    text_call,
)


@dataclass(frozen=True, slots=True)
class StubModel:
    """What an emulated endpoint supports for one model name, and how it misbehaves.

    The faults are the refusals and manglings seen from real servers (llama.cpp's
    OpenAI-compatible server unless noted), each switchable so a test can show the model
    seats survive it.
    """

    tools: bool = True
    strict: bool = True
    tool_choice: bool = True
    json_schema: bool = True
    required_choice: bool = True
    """False: `tool_choice: "required"`, or more than one tool, is answered HTTP 500."""
    null_content: bool = True
    """False: a message with `content: null` is refused with HTTP 400."""
    tool_messages: bool = True
    """False: `role: tool` messages are dropped before the model sees the conversation."""
    max_length: int | None = None
    """A string `maxLength` above this crashes the request (HTTP 500), as a grammar
    compiler that unrolls the limit does."""
    context_tokens: int | None = None
    """Requests longer than this are refused (HTTP 400, context length exceeded)."""
    json_body: bool = True
    """False: every 200 answer's body is not JSON."""
    schema_in_prompt: bool = True
    """The `response_format` schema counts as prompt tokens and heads the cached prefix,
    as on OpenAI's hosted API (False: as llama.cpp, vLLM and Ollama, where it only builds
    the sampling grammar)."""
    json_object_schema: bool = False
    """True: a `json_object` format's `schema` key is enforced (llama-cpp-python's form;
    a `json_schema` format is enforced whenever `json_schema` is True)."""


class StubServer:
    """The server; use as a context manager (`with StubServer(...) as server:`)."""

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        models: Mapping[str, Policy] | None = None,
        capabilities: Mapping[str, StubModel] | None = None,
        latency_s: float = 0.0,
        slots: int | None = None,
        window: int | None = None,
    ) -> None:
        self.policy = policy or random_legal()
        self.slots = slots
        """Serve `GET /props` with this `total_slots`, as llama-server does (None: 404), and
        answer at most this many requests at a time: the others queue, as on a server."""
        self.window = window
        """Serve `GET /props` with this context per slot, in llama-server's shape
        (`default_generation_settings.n_ctx`; None: not reported)."""
        self._free = threading.BoundedSemaphore(slots) if slots else contextlib.nullcontext()
        self.models = dict(models or {})
        self.capabilities = dict(capabilities or {})
        self.latency_s = latency_s
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._history: dict[str, list[str]] = {}
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give an OpenAI client (`http://127.0.0.1:<port>/v1`)."""
        return f"http://127.0.0.1:{self._http.server_address[1]}/v1"

    def start(self) -> StubServer:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; requests still hanging are released."""
        self._stopping.set()
        self._http.shutdown()
        self._http.server_close()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def requests_for(self, model: str) -> list[dict[str, Any]]:
        """The recorded request bodies sent for `model`."""
        with self._lock:
            return [r for r in self.requests if r.get("model") == model]

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        """The (status, JSON body, headers) for one chat-completions request."""
        with self._lock:
            self.requests.append(body)
        model = str(body.get("model", ""))
        caps = self.capabilities.get(model, StubModel())
        refusal = _refusal(body, caps)
        if refusal is not None:
            return refusal[0], _error(refusal[1]), {}
        if not caps.tool_messages:
            kept = [m for m in body.get("messages") or [] if m.get("role") != "tool"]
            body = {**body, "messages": kept}
        request = _request(body, caps)
        reply = self.models.get(model, self.policy)(request)
        if self.latency_s:
            with self._free:
                self._stopping.wait(self.latency_s)
        while isinstance(reply, Hang):
            if self._stopping.wait(reply.seconds):
                return 503, _error("server stopping"), {}
            reply = reply.then
        if isinstance(reply, HttpError):
            headers = (
                {} if reply.retry_after_s is None else {"Retry-After": f"{reply.retry_after_s:g}"}
            )
            return reply.status, _error(reply.message), headers
        if not caps.json_body:
            return 200, {"__raw__": "<html>upstream proxy error</html>"}, {}
        return 200, self._completion(body, request, reply, caps), {}

    def _completion(
        self, body: dict[str, Any], request: StubRequest, reply: CallTool | Text, caps: StubModel
    ) -> dict[str, Any]:
        n = next(self._ids)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if isinstance(reply, Text):
            message["content"] = reply.text
        elif request.native_tools:
            message["tool_calls"] = [
                {
                    "id": f"call_stub_{n}",
                    "type": "function",
                    "function": {"name": reply.name, "arguments": reply.arguments},
                }
            ]
        else:
            message["content"] = text_call(reply)
        counted = [body.get("tools"), body.get("messages")]
        if caps.schema_in_prompt and body.get("response_format"):
            counted.insert(0, body["response_format"])
        prompt = json.dumps(counted, ensure_ascii=False)
        completion = message["content"] or json.dumps(message.get("tool_calls"))
        prompt_tokens = estimate_tokens(prompt)
        return {
            "id": f"chatcmpl-stub-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": (
                        "tool_calls"
                        if "tool_calls" in message
                        else reply.finish_reason
                        if isinstance(reply, Text)
                        else "stop"
                    ),
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": estimate_tokens(completion),
                "total_tokens": prompt_tokens + estimate_tokens(completion),
                "prompt_tokens_details": {"cached_tokens": self._cached(request.model, prompt)},
            },
        }

    def _cached(self, model: str, prompt: str) -> int:
        with self._lock:
            seen = self._history.setdefault(model, [])
            shared = max((len(os.path.commonprefix([prompt, old])) for old in seen), default=0)
            seen.append(prompt)
            del seen[:-64]
        tokens = estimate_tokens(prompt[:shared])
        return 0 if tokens < 1024 else tokens // 128 * 128


def _refusal(body: dict[str, Any], caps: StubModel) -> tuple[int, str] | None:
    tools = body.get("tools") or []
    choice = body.get("tool_choice")
    if tools and not caps.tools:
        return 400, "this model does not support tools"
    if any(t.get("function", {}).get("strict") for t in tools) and not caps.strict:
        return 400, "strict function schemas are not supported"
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema" and not caps.json_schema:
        return 400, "response_format json_schema is not supported"
    if not caps.required_choice and tools and (choice == "required" or len(tools) > 1):
        return 500, "AssertionError: tool_choice must be 'auto' or a named function"
    if not caps.null_content and any(m.get("content") is None for m in body.get("messages") or []):
        return 400, "messages: content must be a string"
    if caps.max_length is not None and _longest(json.dumps(tools)) > caps.max_length:
        return 500, "grammar compilation failed"
    if caps.context_tokens is not None:
        size = estimate_tokens(json.dumps([tools, body.get("messages")], ensure_ascii=False))
        if size > caps.context_tokens:
            return 400, (  # the words of OpenAI, vLLM and llama-cpp-python's server
                f"This model's maximum context length is {caps.context_tokens} tokens. "
                f"However, you requested {size} tokens. Please reduce the length of the messages."
            )
    return None


def _longest(schema_text: str) -> int:
    limits = [int(n) for n in re.findall(r'"maxLength": (\d+)', schema_text)]
    return max(limits, default=0)


def _request(body: dict[str, Any], caps: StubModel) -> StubRequest:
    tools, native = _tools(body, caps)
    choice = body.get("tool_choice")
    forced = choice.get("function", {}).get("name") if isinstance(choice, dict) else None
    if not native and tools:
        forced = tools[0].name if len(tools) == 1 else None
    question = _question(body)
    request = StubRequest(body, str(body.get("model", "")), tools, forced, native, question)
    if forced is not None and not caps.tool_choice:
        # An ignored choice: the model calls another tool, or, offered only the forced
        # one, writes its answer as text instead of calling it (as Ollama's models do).
        others = tuple(t for t in tools if t.name != forced)
        native = native and bool(others)
        return StubRequest(body, request.model, others or tools, None, native, question)
    return request


def _question(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return str(message["content"])
    return ""


def _tools(body: dict[str, Any], caps: StubModel) -> tuple[tuple[StubTool, ...], bool]:
    """The offered tools: function tools, an enforced output schema's, or those in the text."""
    if body.get("tools"):
        return tuple(
            StubTool(t["function"]["name"], t["function"].get("parameters", {}))
            for t in body["tools"]
        ), True
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        schema = fmt["json_schema"]
        return (StubTool(schema.get("name", "act"), schema["schema"]),), False
    if fmt.get("type") == "json_object" and "schema" in fmt and caps.json_object_schema:
        return (StubTool("answer", fmt["schema"]),), False
    for message in body.get("messages") or []:
        content = message.get("content") or ""
        marker = "following this JSON schema:\n"
        if message.get("role") == "system" and isinstance(content, str) and marker in content:
            name = re.search(r"the arguments of `(\w+)`", content)
            schema = json.loads(content.split(marker, 1)[1].split("\n", 1)[0])
            return (StubTool(name.group(1) if name else "act", schema),), False
    return (), False


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "stub_error", "code": None}}


def _handler(server: StubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            """Send each response at once (Nagle plus delayed ACK would add ~40 ms)."""
            super().setup()
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet: tests and benchmarks print their own output."""

        def do_GET(self) -> None:
            """`/v1/models`: every model name the server has a policy for; `/props`."""
            if self.path.rstrip("/") == "/props" and (server.slots or server.window):
                props: dict[str, Any] = {"model_alias": "stub"}
                if server.slots is not None:
                    props["total_slots"] = server.slots
                if server.window is not None:
                    props["default_generation_settings"] = {"n_ctx": server.window}
                self._send(200, props, {})
                return
            if self.path.rstrip("/") != "/v1/models":
                self._send(404, _error(f"no route {self.path}"), {})
                return
            names = sorted({*server.models, *server.capabilities, "stub"})
            data = [{"id": n, "object": "model", "owned_by": "stub"} for n in names]
            self._send(200, {"object": "list", "data": data}, {})

        def do_POST(self) -> None:
            """`/v1/chat/completions`."""
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, _error(f"no route {self.path}"), {})
                return
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                self._send(400, _error("request body is not JSON"), {})
                return
            self._send(*server.answer(body))

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
            raw = payload.get("__raw__")
            data = (
                raw.encode()
                if isinstance(raw, str)
                else json.dumps(payload, ensure_ascii=False).encode()
            )
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler
