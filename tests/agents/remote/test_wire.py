"""`KeepAlive`, the remote seats' HTTP/1.1 transport, against servers on real loopback sockets."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable

import httpx
import pytest

from arena.agents.remote.wire import KeepAlive

Reply = Callable[[int], bytes]
"""`(the connection's request number) -> the raw reply bytes`."""


def plain(body: bytes, *extra: str) -> bytes:
    head = ["HTTP/1.1 200 OK", f"Content-Length: {len(body)}", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def serve(reply: Reply, close_after: int | None = None):
    """A server answering each request with `reply(n)`; counts the connections it took."""
    connections: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(0)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                await reader.readexactly(length)
                connections[-1] += 1
                writer.write(reply(connections[-1]))
                await writer.drain()
                if close_after is not None and connections[-1] >= close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/agent", connections


def run(test: Callable[[httpx.AsyncClient], Awaitable[None]]) -> None:
    async def go() -> None:
        async with httpx.AsyncClient(transport=KeepAlive(), trust_env=False) as client:
            await test(client)

    asyncio.run(go())


def test_one_connection_serves_every_request() -> None:
    async def test(client: httpx.AsyncClient) -> None:
        server, url, connections = await serve(lambda n: plain(b'{"n": %d}' % n))
        for n in range(1, 4):
            response = await client.post(url, content=b"x" * 5000)
            assert response.json() == {"n": n}
        assert connections == [3]
        server.close()

    run(test)


def test_a_connection_the_agent_closed_is_replaced() -> None:
    async def test(client: httpx.AsyncClient) -> None:
        server, url, connections = await serve(lambda n: plain(b"ok"), close_after=1)
        for _ in range(3):
            assert (await client.post(url, content=b"{}")).text == "ok"
            await asyncio.sleep(0.05)  # the close reaches the client while it is idle
        assert connections == [1, 1, 1]
        server.close()

    run(test)


def test_connection_close_is_honoured() -> None:
    async def test(client: httpx.AsyncClient) -> None:
        server, url, connections = await serve(lambda n: plain(b"ok", "Connection: close"))
        for _ in range(2):
            assert (await client.post(url, content=b"{}")).text == "ok"
        assert connections == [1, 1]
        server.close()

    run(test)


def test_a_chunked_body_is_read_and_the_connection_kept() -> None:
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"
    )

    async def test(client: httpx.AsyncClient) -> None:
        server, url, connections = await serve(lambda n: chunked)
        assert (await client.post(url, content=b"{}")).content == b"abcde"
        assert (await client.post(url, content=b"{}")).content == b"abcde"
        assert connections == [2]
        server.close()

    run(test)


def test_a_reply_that_is_not_http_is_a_protocol_error() -> None:
    async def test(client: httpx.AsyncClient) -> None:
        server, url, _ = await serve(lambda n: b"SSH-2.0-OpenSSH\r\n\r\n")
        with pytest.raises(httpx.RemoteProtocolError, match="not an HTTP/1.x reply"):
            await client.post(url, content=b"{}")
        server.close()

    run(test)


def test_a_refused_connection_is_a_connect_error() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]

    async def test(client: httpx.AsyncClient) -> None:
        with pytest.raises(httpx.ConnectError):
            await client.post(f"http://127.0.0.1:{port}/agent", content=b"{}")

    run(test)


def test_a_silent_agent_times_out() -> None:
    async def test(client: httpx.AsyncClient) -> None:
        server, url, _ = await serve(lambda n: b"")
        with pytest.raises(httpx.ReadTimeout):
            await client.post(url, content=b"{}", timeout=0.2)
        server.close()

    run(test)
