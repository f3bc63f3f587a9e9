"""A forged-replay set: what a skeptical user tries to get rated (issue 19).

`forged_set` takes a genuine signed game and makes, beside it:

- `new_id`: the same bytes with another `game_id` (the signature line kept);
- `agents`: the header's agents renamed (`random` → `openai:gpt-9`);
- `resigned`: a different game (other answers) under the original's id and agents,
  consistent with the rules and signed under another key (a forger's own arena);
- `our_key_id`: the `agents` edit with a fresh signature line that names this arena's
  key id, its MAC made under another key;
- `copy`: a byte-for-byte copy under another file name;
- `stripped`: the `agents` edit with its signature line removed (so: unsigned).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from arena.agents.random_agent import RandomAgent
from arena.match import new_header, run_game
from arena.rules.config import GameConfig
from arena.storage.seal import ArenaKey, arena_key, seal

FORGER_KEY = "a-forger-s-own-arena-key-" + "f" * 40


@contextlib.contextmanager
def signing_key(text: str) -> Iterator[None]:
    """Sign under `text` for a while (the arena's key is read from `ARENA_KEY`)."""
    old = os.environ.get("ARENA_KEY")
    os.environ["ARENA_KEY"] = text
    try:
        yield
    finally:
        if old is None:
            del os.environ["ARENA_KEY"]
        else:
            os.environ["ARENA_KEY"] = old


def play(path: Path, game_id: str, seed: int, agent_seed: int = 0, board: str = "std9") -> Path:
    """A finished game of random agents, signed under the current key."""
    config = GameConfig(board=board)
    agents = {s: RandomAgent(agent_seed + s) for s in range(1, config.board_spec.seats + 1)}
    asyncio.run(run_game(new_header(game_id, config, seed, agents), agents, path))
    return path


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _edit_header(lines: list[str], **fields: object) -> list[str]:
    header = json.loads(lines[0])
    header.update(fields)
    return [json.dumps(header, ensure_ascii=False, separators=(",", ":")), *lines[1:]]


def _renamed(lines: list[str]) -> list[str]:
    header = json.loads(lines[0])
    seats = [{**s, "agent": "openai:gpt-9", "model": "gpt-9"} for s in header["seats"]]
    return _edit_header(lines, seats=seats)


def _sealed(lines: list[str], key: ArenaKey, key_id: str | None = None) -> list[str]:
    body = lines[:-1] if lines[-1].startswith('{"type":"signature"') else lines
    digest = hashlib.sha256("".join(line + "\n" for line in body).encode()).hexdigest()
    found = seal(digest, key).model_dump(mode="json")
    if key_id is not None:
        found["key"] = key_id
    return [*body, json.dumps(found, separators=(",", ":"))]


def resigned(lines: list[str]) -> list[str]:
    """`lines` (a replay edited on purpose by a test) signed again under the arena's key."""
    key = arena_key()
    assert key is not None
    return _sealed(lines, key)


def write_signed(path: Path, lines: list[str]) -> Path:
    """Write `lines` to `path`, signed again under the arena's key (a test's own edit)."""
    return _write(path, resigned(lines))


def forged_set(original: Path, folder: Path) -> dict[str, Path]:
    """The forgeries of `original` (a signed game of `play`), written under `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = _lines(original)
    header = json.loads(lines[0])
    ours = arena_key()
    assert ours is not None
    forger = ArenaKey(FORGER_KEY.encode(), "forger")
    out = {
        "new_id": _write(folder / "new_id.jsonl", _edit_header(lines, game_id="copy-of-it")),
        "agents": _write(folder / "agents.jsonl", _renamed(lines)),
        "our_key_id": _write(
            folder / "our_key_id.jsonl", _sealed(_renamed(lines), forger, key_id=ours.id)
        ),
        "stripped": _write(folder / "stripped.jsonl", _renamed(lines)[:-1]),
    }
    shutil.copyfile(original, folder / "copy.jsonl")
    out["copy"] = folder / "copy.jsonl"
    with signing_key(FORGER_KEY):
        other = play(folder / "resigned.jsonl", header["game_id"], header["seed"], agent_seed=500)
    out["resigned"] = other
    return out
