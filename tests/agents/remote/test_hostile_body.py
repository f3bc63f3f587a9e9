"""A remote agent cannot make the arena read an endless or crawling reply body.

The hostile agent is a real HTTP server on loopback (asyncio streams, in the test's loop):
it takes the seat properly (a signed `Ready`), then answers `decide` with a body that is
declared huge, streamed without end (chunked, no length), or trickled a byte at a time.
Each is refused in one line, re-asked, then defaulted, and the arena holds at most
`MAX_REPLY_BYTES` of it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from arena.agents.remote import RemoteAgent, check_health
from arena.agents.remote.auth import signature
from arena.agents.remote.transport import MAX_REPLY_BYTES
from arena.errors import ArenaError
from arena.match import Limits, decide
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer


async def _read_request(reader: asyncio.StreamReader) -> dict | None:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    return json.loads(await reader.readexactly(length))


def _response(status: int, body: bytes, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status} OK", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _hostile_body(mode: str, writer: asyncio.StreamWriter) -> None:
    """Answer a `decide` with a body of the given kind, until the arena hangs up."""
    if mode == "declared":
        writer.write(_response(200, b"{" * 1024, {"Content-Length": "50000000"}))
        await writer.drain()
        await asyncio.sleep(3600)
    elif mode == "endless":
        writer.write(_response(200, b"", {"Transfer-Encoding": "chunked"}))
        chunk = b"x" * 65536
        while True:
            writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            await writer.drain()
    else:
        writer.write(_response(200, b"", {"Content-Length": "1000"}))
        while True:
            writer.write(b" ")
            await writer.drain()
            await asyncio.sleep(0.05)


@asynccontextmanager
async def hostile_agent(mode: str) -> AsyncIterator[tuple[str, list[int]]]:
    """Serve a hostile agent; yield its URL and the number of `decide`s it took."""
    decides: list[int] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while (message := await _read_request(reader)) is not None:
                if message["type"] == "decide":
                    decides.append(message["step"])
                    await _hostile_body(mode, writer)
                    return
                if message["type"] == "hello":
                    reply = {"protocol": "werewolf-arena-agent/1", "name": "hostile"}
                    body, headers = json.dumps(reply).encode(), {}
                else:
                    keys = ("protocol", "game_id", "seat")
                    body = json.dumps({k: message[k] for k in keys} | {"ready": True}).encode()
                    headers = {"X-Arena-Signature": signature(message["secret"], body)}
                size = {"Content-Length": str(len(body))}
                writer.write(_response(200, body, headers | size))
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/agent", decides
    finally:
        server.close()


def ask_hostile(mode: str, limit_s: float, retries: int):
    """Ask a hostile agent the first question of a game: (outcome, replies, decides taken)."""
    referee = Referee(GameConfig(board="wwk_guard"), 8)
    request = referee.pending()[0]
    view = observe(referee.events, SeatViewer(seat=request.seat))

    async def go():
        async with hostile_agent(mode) as (url, decides):
            remote = RemoteAgent(url, game_id="g", limit_s=limit_s, overage_s=0)
            limits = Limits(retries=retries)
            try:
                outcome, replies = await decide(
                    remote, view, request, limits, time.monotonic() + 600
                )
            finally:
                await remote.aclose()
            return outcome, replies, decides

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("declared", "it declares 50,000,000 bytes"),
        ("endless", "it sent"),
    ],
)
def test_a_huge_body_is_refused_unread_and_defaulted(mode: str, why: str) -> None:
    outcome, replies, decides = ask_hostile(mode, limit_s=30, retries=1)
    assert len(decides) == 2
    cap = f"refused: the reply is over {MAX_REPLY_BYTES // 1024} KiB ({why}"
    assert outcome.defaulted is not None and outcome.defaulted.startswith(f"after 2 tries: {cap}")
    assert "\n" not in outcome.defaulted
    assert all(r.calls[0].error.startswith(cap) for r in replies)


def test_a_trickled_body_is_cut_off_at_the_deadline() -> None:
    outcome, _, decides = ask_hostile("slow", limit_s=0.4, retries=0)
    assert decides and outcome.defaulted == "after 1 tries: no answer within 0.4 s"


def test_a_huge_hello_is_one_line() -> None:
    async def go():
        async with hostile_agent("declared") as (url, _):
            assert (await check_health(url, timeout_s=5)).name == "hostile"

    asyncio.run(go())  # a proper hello passes
    with pytest.raises(ArenaError) as error:
        asyncio.run(_huge_hello())
    assert "answered hello: refused: the reply is over" in str(error.value)
    assert "\n" not in str(error.value)


async def _huge_hello() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        try:
            await _hostile_body("endless", writer)
        except ConnectionError:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        await check_health(f"http://127.0.0.1:{port}/agent", timeout_s=5)
    finally:
        server.close()
