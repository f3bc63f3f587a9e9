"""Signatures both ways: the arena to the agent under its token, the agent back per game.

- The arena signs every request it POSTs when the agent has a token (the seat spec's
  `token_env` names the environment variable; tokens never go in files):
  `X-Arena-Signature: sha256=HEX` where HEX is HMAC-SHA256(token, timestamp + "." + body)
  and the timestamp (Unix seconds) is `X-Arena-Timestamp`. Every body holds a fresh
  `nonce`, so an agent that remembers the nonces of the last few minutes refuses a replay.
- The agent signs its `Ready` and `Answer` replies with the seat's secret for the game
  (handed over in `Start`): `X-Arena-Signature: sha256=HMAC-SHA256(secret, body)`. The
  secret is 64 hex characters, and the HMAC key is those characters themselves as ASCII
  text (`secret.encode()`), not the 32 bytes they spell: `why_unsigned` names that
  mistake, and a missing `sha256=`, in the refusal. The body
  echoes game, seat, step and attempt, so an answer is bound to the question it answers:
  one for another seat fails the signature (another seat's secret) or the echo, and an
  old one fails the echo.

HMAC over the exact bytes sent, not over a canonical JSON form, so any language can sign
without reproducing this package's serializer.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE = "X-Arena-Signature"
TIMESTAMP = "X-Arena-Timestamp"
_PREFIX = "sha256="


def new_secret() -> str:
    """A fresh seat secret for one game: hex of 32 random bytes."""
    return secrets.token_hex(32)


def new_nonce() -> str:
    """A fresh message nonce."""
    return secrets.token_hex(12)


def signature(key: str, body: bytes, timestamp: str | None = None) -> str:
    """The header value signing `body` (after `timestamp` and a dot, when given) under `key`."""
    message = body if timestamp is None else timestamp.encode() + b"." + body
    return _PREFIX + hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def is_signed(key: str, body: bytes, header: str | None, timestamp: str | None = None) -> bool:
    """Whether `header` is `signature(key, body, timestamp)` (compared in constant time)."""
    if not header:
        return False
    return hmac.compare_digest(header.strip(), signature(key, body, timestamp))


def why_unsigned(key: str, body: bytes, header: str | None) -> str:
    """Why `header` is not the signature of `body` under `key`, naming a known mistake.

    A reply keyed with the secret decoded from hex (its 32 bytes, not its 64 characters)
    or sent without the `sha256=` prefix is told so; any other mismatch is described by
    what the arena expects.
    """
    if not header:
        return "no X-Arena-Signature header"
    given = header.strip()
    if is_signed(key, body, _PREFIX + given):
        return "the X-Arena-Signature lacks its sha256= prefix"
    try:
        decoded = bytes.fromhex(key)
    except ValueError:
        decoded = b""
    if decoded and hmac.compare_digest(
        given.lower(), _PREFIX + hmac.new(decoded, body, hashlib.sha256).hexdigest()
    ):
        return (
            "it is keyed with the secret decoded from hex; the HMAC key is the secret's "
            f"{len(key)} hex characters themselves, as ASCII text"
        )
    return (
        "the X-Arena-Signature is not sha256= and the hex HMAC-SHA256 of the body, keyed "
        f"with the secret's {len(key)} hex characters as ASCII text"
    )
