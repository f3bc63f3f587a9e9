#!/usr/bin/env python3
"""A minimal remote agent for Werewolf Arena: Python's standard library only. Copy it.

    python examples/agents/remote_agent.py --port 9000
    arena play --board wwk_guard --seat 3=http://127.0.0.1:9000/agent

It serves the protocol `werewolf-arena-agent/1` (arena/agents/remote/protocol.json, and
docs/agents.md) at `http://127.0.0.1:PORT/agent` and plays a random legal option of every
decision. Replace `choose` with your policy: it gets the whole `decide` message (your
seat's view of the game in `observation`, the question with its legal options in
`request`) and returns one answer shape, e.g. `{"action": "vote", "target": 5}`. Replace
`believe` with your own estimate of who is a wolf, or drop it (and `beliefs` from
`FEATURES`): belief questions are optional. Replace `learn` with your learning step: it
gets each game's end (the result, every card, your seat's side and its reward).

What the protocol asks of an agent, all done below:

- `hello`: answer `{"protocol": …, "name": …, "features": […]}` (the arena's health
  check; list `beliefs` to be asked belief questions, revision 1);
- `start`: keep the seat's `secret` for that game, and the game's language `lang` (`en`,
  `zh` or `zh-Hans`, revision 3) to speak in; answer `Ready`, signed with it;
- `decide`: answer, echoing `game_id`, `seat`, `step` and `attempt`, signed with the
  seat's secret (`X-Arena-Signature: sha256=HMAC-SHA256(secret, body)`, the key being
  the secret's 64 hex characters as text, `secret.encode()`: see `sign`);
- `believe` (only to an agent listing `beliefs`): answer each of `seats`' chance of
  being a wolf, echoing `game_id`, `seat` and `after_seq`, signed the same way;
- `end` (sent to every seat once its game is over): the result, every card, the seat's
  `side` and `reward`; answer HTTP 200 (the body is not read), and forget the seat;
- a `decide` or `believe` for a seat it holds no secret for (this process restarted
  mid-game): answer HTTP 409, and the arena sends that seat's `start` again;
- with `--token-env NAME` (the environment variable holding the token you gave the
  arena), refuse requests not signed with the token, too old, or replayed.

`--no-beliefs` leaves `beliefs` out of the hello: the agent then plays as one written
before revision 1 did, and is never asked.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import random
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROTOCOL = "werewolf-arena-agent/1"
FEATURES = ["beliefs"]
"""The optional parts of the protocol this agent answers (listed in its hello)."""
MAX_SKEW_S = 300
"""Requests signed longer ago than this are refused (and nonces are remembered as long)."""
WORDS = {
    "en": ("Seat {seat} here. I have nothing to claim yet.", "Who do we knife?"),
    "zh": ("{seat}號發言：我暫時沒有要報的。", "刀誰？"),
    "zh-Hans": ("{seat}号发言：我暂时没有要报的。", "刀谁？"),
}
"""A speech and a wolves' whisper in each language `start` may name (`lang`)."""


def choose(decide: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Your policy: one answer to `decide["request"]` (here a random legal option).

    `decide["lang"]` is the game's language as the seat's `start` gave it: speak in it.

    An interruption window (a wolf's self-explosion, a knight's duel) is nearly always
    passed up, so random games stay games.
    """
    request = decide["request"]
    options = request["options"]
    if request["kind"] == "interrupt":
        passing = [o for o in options if o["action"] == "pass"]
        if passing and rng.random() < 0.97:
            return {"action": "pass"}
    if request["kind"] == "speech":
        options = [o for o in options if o["action"] in ("speak", "pass")] or options
    return answer_for(rng.choice(options), decide["seat"], rng, decide.get("lang", "en"))


def answer_for(
    option: dict[str, Any], seat: int, rng: random.Random, lang: str = "en"
) -> dict[str, Any]:
    """An answer shape for one legal `option`, with legal seats drawn at random."""
    kind, targets = option["action"], option.get("targets", [])
    target = rng.choice(targets) if targets else None
    speech, whisper = WORDS.get(lang, WORDS["en"])
    if kind == "speak":
        return {"action": "speak", "text": speech.format(seat=seat)}
    if kind == "whisper":
        return {"action": "whisper", "text": whisper}
    if kind == "choose_order":
        return {
            "action": kind,
            "direction": rng.choice(["ascending", "descending"]),
            "start": target,
        }
    if kind == "trade":
        return {"action": kind, "target": target, "gift": rng.choice(["check", "poison", "shield"])}
    counts = {"recommend_exile": 1, "swap": 2, "link": 2, "mist": 3}
    if kind in counts:
        return {"action": kind, "targets": rng.sample(targets, counts[kind])}
    if target is None:
        return {"action": kind}
    return {"action": kind, "target": target}


def believe(question: dict[str, Any]) -> dict[str, float]:
    """Your beliefs: each of `question["seats"]`' chance of being a wolf (0 to 1).

    Here: a seat this seer checked is certain; any other is likelier the more often the
    speeches this seat heard named it a suspect.
    """
    observation = question["observation"]
    checks = observation["knowledge"].get("checks", {})
    named = Counter(
        suspect
        for _, event in observation["seen"]
        if event["kind"] == "spoke"
        for suspect in event.get("claims", {}).get("suspects", [])
    )
    most = max(named.values(), default=0)
    beliefs = {}
    for seat in question["seats"]:
        checked = checks.get(str(seat))
        if checked is None:
            beliefs[str(seat)] = round((1 + named[seat]) / (3 + most), 3)
        else:
            beliefs[str(seat)] = 1.0 if checked else 0.0
    return beliefs


def learn(end: dict[str, Any], rewards: Counter[str]) -> None:
    """Your learning step, once per seat and game: here, a tally of rewards by side.

    `end` is the `end` message's `end`: `winner` (null if the arena voided the game),
    `reason`, `roles` (every seat's card), and this seat's `side` and `reward` (+1, -1, 0).
    """
    rewards[end["side"]] += end["reward"]


class Agent:
    """The agent's state: its token, its features, and every seat's secret by game."""

    def __init__(self, token: str | None, seed: int, features: list[str] | None = None) -> None:
        self.token = token
        self.seed = seed
        self.features = FEATURES if features is None else features
        self.secrets: dict[tuple[str, int], str] = {}
        self.langs: dict[tuple[str, int], str] = {}
        """Every seat's game language, as its `start` gave it."""
        self.nonces: dict[str, float] = {}
        self.rewards: Counter[str] = Counter()
        """The rewards `learn` kept, by side."""
        self.lock = threading.Lock()

    def authentic(self, headers: Any, body: bytes, message: dict[str, Any]) -> bool:
        """Whether a request is the arena's: signed with the token, recent, not replayed."""
        if self.token is None:
            return True
        stamp = headers.get("X-Arena-Timestamp", "")
        given = headers.get("X-Arena-Signature", "")
        expected = sign(self.token, stamp.encode() + b"." + body)
        if not stamp.isdigit() or not hmac.compare_digest(given, expected):
            return False
        now = time.time()
        if abs(now - int(stamp)) > MAX_SKEW_S:
            return False
        nonce = message.get("nonce", "")
        with self.lock:
            self.forget_nonces(now)
            if not nonce or nonce in self.nonces:
                return False
            self.nonces[nonce] = now
        return True

    def forget_nonces(self, now: float) -> None:
        """Drop the nonces too old to matter (a dict keeps insertion order: oldest first).

        Only the expired head is touched, so a request costs the same after a long
        tournament as on the first move (a sweep of every nonce grew with each one).
        """
        while self.nonces:
            oldest, seen = next(iter(self.nonces.items()))
            if now - seen < 2 * MAX_SKEW_S:
                return
            del self.nonces[oldest]

    def reply(self, message: dict[str, Any]) -> tuple[int, dict[str, Any], str | None]:
        """(HTTP status, reply body, key to sign it with) for one message."""
        kind = message.get("type")
        if kind == "hello":
            hello = {"protocol": PROTOCOL, "name": "example-random"}
            return 200, {**hello, "features": self.features} if self.features else hello, None
        key = (message.get("game_id", ""), message.get("seat", 0))
        if kind == "start":
            with self.lock:
                self.secrets[key] = message["secret"]
                self.langs[key] = message.get("lang", "en")  # before revision 3: none
            echo = {"protocol": PROTOCOL, "game_id": key[0], "seat": key[1], "ready": True}
            return 200, echo, message["secret"]
        if kind == "decide":
            with self.lock:
                secret, lang = self.secrets.get(key), self.langs.get(key, "en")
            if secret is None:
                return 409, {"error": "no start for this game and seat"}, None
            rng = random.Random(f"{self.seed}/{key}/{message['step']}/{message['attempt']}")
            answer = {
                "protocol": PROTOCOL,
                "game_id": key[0],
                "seat": key[1],
                "step": message["step"],
                "attempt": message["attempt"],
                "answer": choose({**message, "lang": lang}, rng),
            }
            return 200, answer, secret
        if kind == "believe" and "beliefs" in self.features:
            with self.lock:
                secret = self.secrets.get(key)
            if secret is None:
                return 409, {"error": "no start for this game and seat"}, None
            report = {
                "protocol": PROTOCOL,
                "game_id": key[0],
                "seat": key[1],
                "after_seq": message["after_seq"],
                "wolf_probability": believe(message),
            }
            return 200, report, secret
        if kind == "end":
            with self.lock:
                self.secrets.pop(key, None)
                self.langs.pop(key, None)
                learn(message["end"], self.rewards)
            return 200, {}, None
        return 400, {"error": f"unknown message type {kind!r}"}, None


def sign(key: str, message: bytes) -> str:
    """`sha256=` and the hex HMAC-SHA256 of `message` under `key`, the text as given.

    A seat's secret is keyed as its 64 hex characters (`key.encode()`), never decoded
    from hex (`bytes.fromhex`): the arena refuses that, and says so.
    """
    return "sha256=" + hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


class Handler(BaseHTTPRequestHandler):
    """POST /agent: one protocol message in, its reply out (keep-alive HTTP/1.1)."""

    protocol_version = "HTTP/1.1"
    wbufsize = 64 * 1024
    """Buffer the reply, so headers and body leave in one write when the request ends:
    one segment, one wake-up of the arena (unbuffered, each header was its own write)."""
    disable_nagle_algorithm = True
    """Without it, a reply written in parts waits for the client's delayed ACK (40 ms on
    Linux) before its last part."""
    agent: Agent

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook's name
        """Answer one message."""
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path != "/agent":
            self.send({"error": "not found"}, 404)
            return
        try:
            message = json.loads(body)
        except ValueError as exc:
            self.send({"error": f"bad message: {exc}"}, 400)
            return
        if not isinstance(message, dict):
            self.send({"error": "bad message: not an object"}, 400)
        elif not self.agent.authentic(self.headers, body, message):
            self.send({"error": "not signed by the arena"}, 401)
        else:
            try:
                status, reply, key = self.agent.reply(message)
            except (ValueError, KeyError, TypeError) as exc:
                status, reply, key = 400, {"error": f"bad message: {exc}"}, None
            self.send(reply, status, key)

    def do_GET(self) -> None:  # noqa: N802
        """A liveness page for people: the protocol's name."""
        self.send({"protocol": PROTOCOL}, 200 if self.path == "/agent" else 404)

    def send(self, reply: dict[str, Any], status: int, key: str | None = None) -> None:
        """Write `reply` as JSON, signed with `key` when given."""
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if key is not None:
            self.send_header("X-Arena-Signature", sign(key, data))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: one line per request would drown the terminal."""


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--port", type=int, default=9000, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--token-env", help="the environment variable holding the token")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-beliefs", action="store_true", help="do not answer belief questions")
    args = parser.parse_args(argv)
    token = None
    if args.token_env:
        token = os.environ.get(args.token_env)
        if not token:
            sys.exit(f"{args.token_env} is not set")
    Handler.agent = Agent(token, args.seed, [] if args.no_beliefs else None)
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"serving {PROTOCOL} at http://{host}:{port}/agent", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
