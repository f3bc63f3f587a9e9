"""Replay signatures: a rated game must be provably the arena's own (docs/replay-format.md).

Every finished replay the arena writes ends with one `signature` line: the SHA-256 of
every byte before it (the header with its result, then every event, answer, trace and
belief line) and an HMAC-SHA256 of that digest under the arena's key. A reader hashes
the lines as it streams them, so checking a file costs one pass and one HMAC; editing any
byte (a new `game_id`, another agent's name, an answer) breaks it, and a forger without
the key cannot make a new one. The key never enters a replay: only its id (a hash of it)
does, so a reader can tell "signed under another key" from "altered".

The key (`arena_key`): the `ARENA_KEY` environment variable, else the file named by
`ARENA_KEY_FILE`, else `$XDG_CONFIG_HOME/werewolf-arena/key` (`~/.config/...`), which the
first signing creates (32 random bytes, hex, mode 0600). Whoever holds the key can sign,
so it is held only by the arena's operator and its workers, given to them the way the
Redis password is (an environment variable or a secret file), never through the queue.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from arena.errors import ArenaError, clip

KEY_ENV = "ARENA_KEY"
"""Environment variable holding the key itself (any text of `MIN_KEY_CHARS` or more)."""
KEY_FILE_ENV = "ARENA_KEY_FILE"
"""Environment variable naming a file that holds the key (e.g. a mounted secret)."""
MIN_KEY_CHARS = 32
"""The shortest key accepted: the created one is 64 hex characters (256 bits)."""
_MAC_LABEL = b"werewolf-arena replay signature v1\n"
"""Prefixed to the digest before the HMAC (domain separation: the key signs nothing else)."""
_ID_LABEL = b"werewolf-arena key id\n"

SignatureState = Literal["signed", "unsigned", "bad"]
"""`signed`: the signature verifies under this arena's key; `unsigned`: the file has no
signature line (written before signing, or not finished); `bad`: it has one that does not
verify (altered content, another key, or no key here to check it with)."""


class Seal(BaseModel):
    """The `signature` line: the last line of a finished replay."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["signature"] = "signature"
    alg: Literal["hmac-sha256"] = "hmac-sha256"
    key: str
    """The signing key's id (`ArenaKey.id`), never the key."""
    sha256: str
    """SHA-256 (hex) of every byte of the file before this line."""
    mac: str
    """HMAC-SHA256 (hex) under the key of `_MAC_LABEL` + `sha256`."""


@dataclass(frozen=True, slots=True)
class ArenaKey:
    """The arena's signing key and where it came from (for messages)."""

    secret: bytes
    source: str

    @property
    def id(self) -> str:
        """A public name of the key: 16 hex digits of a labelled hash of it."""
        return hashlib.sha256(_ID_LABEL + self.secret).hexdigest()[:16]


def key_file() -> Path:
    """The default key file: `$XDG_CONFIG_HOME/werewolf-arena/key`, or under `~/.config`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "werewolf-arena" / "key"


def arena_key(*, create: bool = False) -> ArenaKey | None:
    """The arena's key, from `ARENA_KEY`, `ARENA_KEY_FILE` or the default key file.

    With `create` the default key file is made when none of them gives a key (signing
    creates it; checking never does, so a machine without a key reports that instead).

    Raises:
        ArenaError: a key that is too short, or a key file that cannot be read or made.
    """
    value = os.environ.get(KEY_ENV)
    if value:
        return _key(value.strip(), f"${KEY_ENV}")
    named = os.environ.get(KEY_FILE_ENV)
    path = Path(named) if named else key_file()
    try:
        return _key(path.read_text(encoding="utf-8").strip(), str(path))
    except FileNotFoundError:
        if named:
            raise ArenaError(f"${KEY_FILE_ENV}: no key file {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read the arena key {path}: {exc}") from None
    return _create(path) if create else None


def _key(text: str, source: str) -> ArenaKey:
    if len(text) < MIN_KEY_CHARS:
        raise ArenaError(
            f"the arena key in {source} is {len(text)} characters; at least {MIN_KEY_CHARS} "
            "are needed (e.g. python -c 'import secrets; print(secrets.token_hex(32))')"
        )
    return ArenaKey(text.encode("utf-8"), source)


def _create(path: Path) -> ArenaKey:
    """Make the key file (0600, in a 0700 folder); a file made meanwhile by another wins."""
    text = secrets.token_hex(32)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _key(path.read_text(encoding="utf-8").strip(), str(path))
    except OSError as exc:
        raise ArenaError(f"cannot create the arena key {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text + "\n")
    return ArenaKey(text.encode("utf-8"), str(path))


def _mac(key: ArenaKey, sha256: str) -> str:
    return hmac.new(key.secret, _MAC_LABEL + sha256.encode("ascii"), hashlib.sha256).hexdigest()


def seal(sha256: str, key: ArenaKey) -> Seal:
    """The signature line of a file whose bytes before it hash to `sha256`."""
    return Seal(key=key.id, sha256=sha256, mac=_mac(key, sha256))


class SignatureCheck(BaseModel):
    """Whether a replay's signature verifies, and in words why not."""

    model_config = ConfigDict(frozen=True)

    state: SignatureState
    message: str


def check_seal(found: Seal | None, sha256: str | None, key: ArenaKey | None) -> SignatureCheck:
    """Check the signature line `found` of a file whose bytes before it hash to `sha256`.

    The order of the checks makes the message useful: content first (any edit after
    signing, whoever made it), then the key (a file another arena signed), then the MAC.
    """
    if found is None or sha256 is None:
        return SignatureCheck(state="unsigned", message="unsigned (no signature line)")
    if not hmac.compare_digest(found.sha256, sha256):
        return SignatureCheck(
            state="bad", message="bad signature: the content changed after it was signed"
        )
    if key is None:
        return SignatureCheck(
            state="bad",
            message=f"bad signature: signed under key {clip(found.key, 20)}, and this machine has "
            f"no arena key to check it with (${KEY_ENV}, ${KEY_FILE_ENV} or {key_file()})",
        )
    if not hmac.compare_digest(found.key, key.id):
        return SignatureCheck(
            state="bad",
            message=f"bad signature: signed under key {clip(found.key, 20)}, not this arena's "
            f"key {key.id}",
        )
    if not hmac.compare_digest(found.mac, _mac(key, sha256)):
        return SignatureCheck(
            state="bad", message="bad signature: forged (the MAC does not verify)"
        )
    return SignatureCheck(state="signed", message=f"signed (key {key.id})")


class Digests:
    """The running hashes of a replay's lines as a reader streams them.

    `content` covers every line before the signature line (what the signature covers);
    `body` every line after the header and before the signature: the game itself, the
    same in a copy saved under a new id (duplicates are found by it). Which line is the
    signature is known only once it is parsed, so each line is hashed when the next one
    comes (`finish` says whether the last one was the signature).
    """

    def __init__(self) -> None:
        self._content = hashlib.sha256()
        self._body = hashlib.sha256()
        self._pending: bytes | None = None

    def header(self, raw: bytes) -> None:
        """Hash the header line (`raw` without its newline)."""
        self._content.update(raw + b"\n")

    def line(self, raw: bytes) -> None:
        """Take a body line (`raw` without its newline), hashing the one before it."""
        if self._pending is not None:
            self._content.update(self._pending)
            self._body.update(self._pending)
        self._pending = raw + b"\n"

    def finish(self, *, last_is_seal: bool) -> tuple[str, str]:
        """(content, body) digests in hex; the last line is left out if it is the seal."""
        content, body = self._content.copy(), self._body.copy()
        if self._pending is not None and not last_is_seal:
            content.update(self._pending)
            body.update(self._pending)
        return content.hexdigest(), body.hexdigest()
