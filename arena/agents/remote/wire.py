"""`KeepAlive`: the HTTP/1.1 transport of a remote seat over `http://`, on asyncio streams.

A remote seat asks one question at a time of one URL, so it needs one kept-alive
connection, not a pool. httpx's own transport (httpcore over anyio, h11) spends about a
millisecond of CPU per request on that (1.2–1.5 ms against 0.13 ms for the same exchange
over asyncio streams, measured on the 2 shared cores), and on a loaded machine every
millisecond of CPU is several of waiting; this one writes the request line, headers and
body in one write and reads the reply's head in one read when it has arrived whole.

It speaks what an agent's reply needs: a status line, headers, and a body by
`Content-Length`, chunked, or up to the close. A kept connection the agent closed while
idle is dropped before the request, not written to (as httpcore does). Failures are
httpx's own exceptions (`ConnectError`, `ReadError`, `RemoteProtocolError`, the
timeouts), so the seat's retry rules read them as they read httpx's. `https://` URLs keep
httpx's transport: TLS costs more than the difference.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import NamedTuple

import httpx

MAX_HEAD_BYTES = 64 * 1024
"""The longest status line and headers read from an agent."""
_CHUNK = 64 * 1024


class _Connection(NamedTuple):
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter


class KeepAlive(httpx.AsyncBaseTransport):
    """One kept-alive HTTP/1.1 connection per host, one request at a time on it."""

    def __init__(self) -> None:
        """Nothing connects until the first request."""
        self._idle: dict[tuple[str, int], _Connection] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send `request` and return its reply, the body still to be read (a stream)."""
        url = request.url
        if url.scheme != "http" or url.host == "":
            raise httpx.UnsupportedProtocol(f"KeepAlive serves http:// URLs, not {url}")
        address = (url.host, url.port or 80)
        timeout = request.extensions.get("timeout", {})
        data = _head(request) + await request.aread()
        connection = self._idle.pop(address, None)
        if connection is None or connection.reader.at_eof() or connection.writer.is_closing():
            if connection is not None:
                connection.writer.close()
            connection = await _connect(address, timeout.get("connect"))
        return await self._exchange(connection, request, address, data, timeout)

    async def aclose(self) -> None:
        """Close the kept connections."""
        idle, self._idle = self._idle, {}
        for connection in idle.values():
            connection.writer.close()

    async def _exchange(
        self,
        connection: _Connection,
        request: httpx.Request,
        address: tuple[str, int],
        data: bytes,
        timeout: dict[str, float | None],
    ) -> httpx.Response:
        """One request on `connection`; it is closed on any failure or cancellation."""
        try:
            async with asyncio.timeout(timeout.get("write")):
                connection.writer.write(data)
                await connection.writer.drain()
            async with asyncio.timeout(timeout.get("read")):
                head = await connection.reader.readuntil(b"\r\n\r\n")
            status, headers, reusable = _parse_head(head)
        except asyncio.IncompleteReadError:
            connection.writer.close()
            raise httpx.RemoteProtocolError("the agent closed the connection unanswered") from None
        except (OSError, TimeoutError, asyncio.LimitOverrunError) as exc:
            connection.writer.close()
            raise _translated(exc) from exc
        except BaseException:
            connection.writer.close()
            raise
        body = _Body(self, address, connection, headers, reusable, timeout.get("read"))
        return httpx.Response(
            status,
            headers=headers,
            stream=body,
            request=request,
            extensions={"http_version": b"HTTP/1.1"},
        )


class _Body(httpx.AsyncByteStream):
    """A reply's body as it arrives; the connection goes back to be kept once it is read."""

    def __init__(
        self,
        owner: KeepAlive,
        address: tuple[str, int],
        connection: _Connection,
        headers: list[tuple[str, str]],
        reusable: bool,
        read_s: float | None,
    ) -> None:
        self._owner, self._address, self._connection = owner, address, connection
        names = {k.lower(): v for k, v in headers}
        self._chunked = "chunked" in names.get("transfer-encoding", "").lower()
        length = names.get("content-length", "")
        self._length = int(length) if length.isdigit() and not self._chunked else None
        self._reusable = reusable and (self._chunked or self._length is not None)
        self._read_s = read_s
        self._done = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        """The body's bytes, as they come."""
        reader = self._connection.reader
        try:
            async with asyncio.timeout(self._read_s):
                if self._chunked:
                    async for chunk in _chunks(reader):
                        yield chunk
                elif self._length is not None:
                    async for chunk in _exactly(reader, self._length, "the body"):
                        yield chunk
                else:
                    while chunk := await reader.read(_CHUNK):
                        yield chunk
        except httpx.HTTPError:
            raise
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
            raise _translated(exc) from exc
        self._done = True

    async def aclose(self) -> None:
        """Keep the connection when the body was read whole and may be reused; else close it."""
        if self._done and self._reusable and self._address not in self._owner._idle:
            self._owner._idle[self._address] = self._connection
        else:
            self._connection.writer.close()


async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The data of a chunked body (trailers skipped)."""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip() or b"x", 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass
            return
        async for chunk in _exactly(reader, size, "a chunk"):
            yield chunk
        await reader.readexactly(2)


async def _exactly(reader: asyncio.StreamReader, size: int, what: str) -> AsyncIterator[bytes]:
    """`size` bytes as they come; an agent that closes before them is refused as `what`."""
    while size:
        chunk = await reader.read(min(size, _CHUNK))
        if not chunk:
            raise httpx.RemoteProtocolError(f"the agent closed {what} short")
        size -= len(chunk)
        yield chunk


async def _connect(address: tuple[str, int], connect_s: float | None) -> _Connection:
    try:
        async with asyncio.timeout(connect_s):
            reader, writer = await asyncio.open_connection(*address, limit=MAX_HEAD_BYTES)
    except TimeoutError:
        raise httpx.ConnectTimeout(f"no connection to {address[0]}:{address[1]} in time") from None
    except OSError as exc:
        raise httpx.ConnectError(str(exc)) from exc
    return _Connection(reader, writer)


def _head(request: httpx.Request) -> bytes:
    """The request line and headers (httpx has set `Host` and `Content-Length`)."""
    target = request.url.raw_path.decode("ascii")
    lines = [f"{request.method} {target} HTTP/1.1"]
    lines += [f"{k.decode('latin-1')}: {v.decode('latin-1')}" for k, v in request.headers.raw]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _parse_head(head: bytes) -> tuple[int, list[tuple[str, str]], bool]:
    """(status, headers, whether the connection may be kept) of a reply's head.

    Raises:
        httpx.RemoteProtocolError: not an HTTP/1.x status line.
    """
    status_line, *lines = head.decode("latin-1").split("\r\n")
    version, _, rest = status_line.partition(" ")
    code = rest[:3]
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise httpx.RemoteProtocolError(f"not an HTTP/1.x reply: {status_line[:80]!r}")
    headers = [(k.strip(), v.strip()) for k, _, v in (x.partition(":") for x in lines if x)]
    closing = any(k.lower() == "connection" and v.lower() == "close" for k, v in headers)
    return int(code), headers, version == "HTTP/1.1" and not closing


def _translated(exc: BaseException) -> httpx.HTTPError:
    """An exception met on a connection, as httpx would raise it."""
    if isinstance(exc, TimeoutError):
        return httpx.ReadTimeout("the agent did not answer in time")
    if isinstance(exc, asyncio.LimitOverrunError | ValueError):
        return httpx.RemoteProtocolError(f"the agent's reply head is malformed or too long: {exc}")
    if isinstance(exc, ConnectionResetError | BrokenPipeError | asyncio.IncompleteReadError):
        return httpx.ReadError("connection reset")
    return httpx.ReadError(str(exc))
