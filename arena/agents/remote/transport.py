"""The HTTP line to a remote agent: requests signed, retried and bounded, replies capped.

A remote seat's every message goes through one `Line` (the seat's kept connection): it
POSTs the message rebuilt on each try (a fresh nonce), retries resets and 5xx/429 answers
with a short backoff while the question's deadline allows, and reads at most
`MAX_REPLY_BYTES` of any reply. A refused connection is not retried: nothing listens at
the address (the agent's process is gone), so the try fails at once and the seat's
question is refused, re-asked and defaulted as fast as the match asks, instead of
waiting out every deadline (a crashed agent held a game 217 s before it was voided).
What a reply means is `replies.py`'s to read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import NamedTuple

import httpx
from pydantic import BaseModel, ValidationError

from arena.agents.remote.auth import SIGNATURE, TIMESTAMP, new_nonce, signature
from arena.agents.remote.protocol import PROTOCOL, Hello, HelloReply
from arena.agents.remote.wire import KeepAlive
from arena.errors import ArenaError

BACKOFF_S = (0.05, 0.1, 0.2, 0.4, 0.8)
"""Pauses between transport retries (the last repeats)."""
MAX_REPLY_BYTES = 256 * 1024
"""The largest reply body read from an agent. An answer is a few hundred bytes (a speech at
most a few thousand); a body past this is refused unread, so an agent cannot make the
arena hold or parse megabytes per decision. A slow body is bounded by the deadline."""

_RETRIED = (httpx.ConnectError, httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


class ReplyTooLarge(Exception):
    """An agent's reply body passed `MAX_REPLY_BYTES` (declared or as read)."""


class Reply(NamedTuple):
    """What the arena keeps of an agent's HTTP reply: a body read within the cap."""

    status_code: int
    signature: str | None
    """The reply's `X-Arena-Signature` header."""
    content: bytes

    @property
    def text(self) -> str:
        """The body as text (undecodable bytes replaced), for traces."""
        return self.content.decode("utf-8", errors="replace")


class Line:
    """One seat's HTTP line to its agent: a kept connection, made in the game's loop."""

    def __init__(
        self, url: str, token: str | None, transport: httpx.AsyncBaseTransport | None
    ) -> None:
        self.url = url
        self.token = token
        self.transport = transport
        self._client: httpx.AsyncClient | None = None

    async def post(
        self, message: Callable[[], BaseModel], deadline: float
    ) -> tuple[Reply | None, tuple[str, ...]]:
        """POST `message()` (rebuilt per try: fresh nonce), retrying transport faults.

        Returns the response (None if every try failed, or at once if the connection was
        refused) and the faults met on the way.

        Raises:
            ReplyTooLarge: a reply passed the cap (not retried: the agent chose to send it).
            TimeoutError: the deadline passed during a request.
        """
        faults: list[str] = []
        for pause in _pauses():
            body = message().model_dump_json().encode()
            try:
                response = await post_capped(
                    self._http(),
                    self.url,
                    body,
                    headers=signed_headers(body, self.token),
                    timeout=max(0.001, deadline - time.monotonic()),
                )
            except _RETRIED as exc:
                faults.append(fault(exc))
                if isinstance(exc, httpx.ConnectError) and _refused(exc):
                    return None, tuple(faults)  # nobody listens: no wait will change that
            except httpx.TimeoutException:
                raise TimeoutError from None
            else:
                if response.status_code < 500 and response.status_code != 429:
                    return response, tuple(faults)
                faults.append(f"HTTP {response.status_code}")
            if time.monotonic() + pause >= deadline:
                return None, tuple(faults)
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def _http(self) -> httpx.AsyncClient:
        """The seat's connection pool, made in the loop that plays the game."""
        if self._client is None:
            transport = self.transport
            if transport is None and self.url.startswith("http://"):
                transport = KeepAlive()
            self._client = httpx.AsyncClient(transport=transport, trust_env=False)
        return self._client

    async def aclose(self) -> None:
        """Close the connection pool (in the loop that played the game)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None


async def post_capped(
    client: httpx.AsyncClient,
    url: str,
    body: bytes,
    *,
    headers: dict[str, str],
    timeout: float | None,
) -> Reply:
    """POST `body` and read the reply's body, at most `MAX_REPLY_BYTES` of it (decoded).

    Raises:
        ReplyTooLarge: the reply declares or sends more; the connection is dropped unread.
        httpx.HTTPError: as `httpx.AsyncClient.send` does.
    """
    request = client.build_request("POST", url, content=body, headers=headers, timeout=timeout)
    response = await client.send(request, stream=True)
    try:
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > MAX_REPLY_BYTES:
            raise ReplyTooLarge(_too_large(f"declares {int(declared):,} bytes"))
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                raise ReplyTooLarge(_too_large(f"sent {size:,} bytes and more"))
            chunks.append(chunk)
    finally:
        await response.aclose()
    return Reply(response.status_code, response.headers.get(SIGNATURE), b"".join(chunks))


def _too_large(how: str) -> str:
    return f"refused: the reply is over {MAX_REPLY_BYTES // 1024} KiB (it {how}), left unread"


def _pauses() -> Iterator[float]:
    """The backoff pauses, the last repeated forever."""
    yield from BACKOFF_S
    while True:
        yield BACKOFF_S[-1]


def _refused(exc: BaseException) -> bool:
    """Whether a connect error was a refusal (httpx wraps the OS error, anyio words it)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def fault(exc: httpx.HTTPError) -> str:
    """A transport fault in a few words, for a trace's notes and a one-line error."""
    if isinstance(exc, httpx.ConnectError):
        return "connection refused" if _refused(exc) else f"cannot connect ({exc})"
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError):
        return "connection reset"
    return type(exc).__name__


def signed_headers(body: bytes, token: str | None) -> dict[str, str]:
    """The headers of a request to an agent: signed under `token` when there is one."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        stamp = str(int(time.time()))
        headers |= {TIMESTAMP: stamp, SIGNATURE: signature(token, body, stamp)}
    return headers


async def check_health(
    url: str,
    token: str | None = None,
    *,
    timeout_s: float = 5.0,
    transport: httpx.AsyncBaseTransport | None = None,
) -> HelloReply:
    """The agent's `hello` reply, checked for this protocol (the preflight's health check).

    Raises:
        ArenaError: one line: the agent is down, answers an error, or speaks another protocol.
    """
    body = Hello(nonce=new_nonce()).model_dump_json().encode()
    try:
        async with httpx.AsyncClient(transport=transport, trust_env=False) as client:
            headers = signed_headers(body, token)
            response = await post_capped(client, url, body, headers=headers, timeout=timeout_s)
    except ReplyTooLarge as exc:
        raise ArenaError(f"remote agent {url} answered hello: {exc}") from None
    except httpx.TimeoutException:
        late = f"remote agent {url} did not answer hello within {timeout_s:g} s"
        raise ArenaError(late) from None
    except httpx.HTTPError as exc:
        raise ArenaError(f"remote agent {url} is down: {fault(exc)}") from None
    if response.status_code != 200:
        raise ArenaError(f"remote agent {url} answered hello with HTTP {response.status_code}")
    try:
        hello = HelloReply.model_validate_json(response.content)
    except ValidationError:
        raise ArenaError(f"remote agent {url} answered hello with something else") from None
    if hello.protocol != PROTOCOL:
        raise ArenaError(f"remote agent {url} speaks {hello.protocol!r}, the arena {PROTOCOL!r}")
    return hello
