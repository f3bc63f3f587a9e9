"""Corrupt-file fixtures: one good replay, damaged in each way a user meets.

Each `Corruption` turns the good file's lines into the bytes of a damaged file and says
what every reader must report: the line (None: the file as a whole) and a fragment of the
one-line reason. Unreadable files must be refused by every reader; incomplete ones
(`readable=True`) read fine but `arena validate` rejects them and `arena replay` says so.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.agents.random_agent import RandomAgent
from arena.match import new_header, run_game
from arena.rules.config import GameConfig

CONFIG = GameConfig(board="std9")
SEED = 4


def write_good(path: Path) -> Path:
    """A finished std9 game of random agents."""
    agents = {s: RandomAgent(SEED * 100 + s) for s in range(1, 10)}
    asyncio.run(run_game(new_header("good", CONFIG, SEED, agents), agents, path))
    return path


Lines = list[str]


@dataclass(frozen=True)
class Corruption:
    """One way of damaging a replay, and what readers must say about it."""

    name: str
    damage: Callable[[Lines], bytes]
    line: Callable[[Lines], int | None]
    """The line every reader must name (computed from the good file's lines)."""
    reason: str
    """A fragment of the one-line reason."""
    readable: bool = False
    """Whether the file still parses (only the rules or the completeness are wrong)."""
    header_bad: bool = False
    """Whether even `read_header` must refuse it."""
    replay_note: str = ""
    """What `arena replay` (en) must say about a readable file."""


def _join(lines: Lines) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def _deep_list(levels: int) -> list:
    return json.loads(_nested(levels))


def _first(lines: Lines, text: str) -> int:
    """1-based number of the first line containing `text`."""
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def _replace(lines: Lines, number: int, new: str) -> Lines:
    return [*lines[: number - 1], new, *lines[number:]]


def _edit(lines: Lines, number: int, edit: Callable[[dict], None]) -> Lines:
    obj = json.loads(lines[number - 1])
    edit(obj)
    return _replace(lines, number, json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


def _bad_byte(lines: Lines) -> bytes:
    data = _join(lines[:4]) + lines[4][:-2].encode() + b"\xff" + lines[4][-2:].encode() + b"\n"
    return data + _join(lines[5:])


def _bad_header_byte(lines: Lines) -> bytes:
    head = lines[0].encode().replace(b'"good"', b'"go\xc3\x28d"')
    return head + b"\n" + _join(lines[1:])


def _flip_winner(obj: dict) -> None:
    obj["result"]["winner"] = "wolves" if obj["result"]["winner"] == "good" else "good"


def _first_vote(lines: Lines) -> int:
    return _first(lines, '"kind":"vote_cast"')


def _edit_vote(obj: dict) -> None:
    event = obj["event"]
    event["target"] = 1 if event.get("target") != 1 else 2


CORRUPTIONS: tuple[Corruption, ...] = (
    Corruption("invalid-utf8", _bad_byte, lambda _: 5, "invalid UTF-8 byte 0xff"),
    Corruption(
        "invalid-utf8-header",
        _bad_header_byte,
        lambda _: 1,
        "invalid UTF-8 byte 0xc3",
        header_bad=True,
    ),
    Corruption(
        "nested-past-recursion-limit",
        lambda ls: _join([*ls[:3], '{"type":"trace","record":' + _nested(100_000) + "}", *ls[3:]]),
        lambda _: 4,
        "nested too deep",
    ),
    Corruption(
        "nested-300-levels",
        lambda ls: _join([*ls[:3], '{"type":"trace","record":' + _nested(300) + "}", *ls[3:]]),
        lambda _: 4,
        "nested too deep",
    ),
    Corruption(
        "nested-header",
        lambda ls: _join(_edit(ls, 1, lambda o: o.update(endpoints={"x": _deep_list(300)}))),
        lambda _: 1,
        "nested too deep",
        header_bad=True,
    ),
    Corruption(
        "extra-key-on-event-line",
        lambda ls: _join(_edit(ls, 3, lambda o: o.update(note="hi"))),
        lambda _: 3,
        "event line has unknown key 'note'",
    ),
    Corruption(
        "extra-key-inside-event",
        lambda ls: _join(_edit(ls, 3, lambda o: o["event"].update(note="hi"))),
        lambda _: 3,
        "Extra inputs are not permitted",
    ),
    Corruption(
        "extra-key-on-answer-line",
        lambda ls: _join(_edit(ls, _first(ls, '"type":"answer"'), lambda o: o.update(x=1))),
        lambda ls: _first(ls, '"type":"answer"'),
        "answer line has unknown key 'x'",
    ),
    Corruption(
        "extra-key-in-header",
        lambda ls: _join(_edit(ls, 1, lambda o: o.update(extra=True))),
        lambda _: 1,
        "header line has unknown key 'extra'",
        header_bad=True,
    ),
    Corruption(
        "not-an-object",
        lambda ls: _join([*ls[:2], "[1, 2, 3]", *ls[2:]]),
        lambda _: 3,
        "not a replay line",
    ),
    Corruption(
        "unknown-line-type",
        lambda ls: _join([*ls[:2], '{"type":"comment","text":"hi"}', *ls[2:]]),
        lambda _: 3,
        "unknown line type 'comment'",
    ),
    Corruption(
        "unknown-line-no-type",  # a line type: read_replay checks it, not iter_lines
        lambda ls: _join([*ls[:2], '{"seq": 1}', *ls[2:]]),
        lambda _: 3,
        'a line without a "type" (event, answer, trace, belief or signature)',
    ),
    Corruption(
        "torn-last-line",
        lambda ls: _join(ls[:-1]) + ls[-1][:25].encode(),
        lambda ls: len(ls),
        "torn last line",
        replay_note="is cut off mid-line",
    ),
    Corruption(
        "header-only",
        lambda ls: _join(ls[:1]),
        lambda _: None,
        "truncated",
        readable=True,
        replay_note="the file holds 0 of the",
    ),
    Corruption(
        "header-only-unfinished",
        lambda ls: _join(_edit(ls[:1], 1, lambda o: o.update(result=None))),
        lambda _: None,
        "truncated",
        readable=True,
        replay_note="unfinished: no result recorded yet",
    ),
    Corruption(
        "cut-at-a-line-boundary",
        lambda ls: _join(ls[: len(ls) // 2]),
        lambda _: None,
        "truncated",
        readable=True,
        replay_note="truncated: the file holds",
    ),
    Corruption(
        "flipped-winner",
        lambda ls: _join(_edit(ls, 1, _flip_winner)),
        lambda _: 1,
        "won, the log says",
        readable=True,
    ),
    Corruption(
        "edited-result-days",
        lambda ls: _join(_edit(ls, 1, lambda o: o["result"].update(days=o["result"]["days"] + 1))),
        lambda _: 1,
        "header result days",
        readable=True,
    ),
    Corruption(
        "edited-event",
        lambda ls: _join(_edit(ls, _first_vote(ls), _edit_vote)),
        _first_vote,
        "the log was altered",
        readable=True,
    ),
)
UNREADABLE = tuple(c for c in CORRUPTIONS if not c.readable)
READABLE = tuple(c for c in CORRUPTIONS if c.readable)


def damaged(good: Path, corruption: Corruption, folder: Path) -> tuple[Path, int | None]:
    """Write the damaged copy of `good` into `folder`; returns it and the line to name."""
    lines = good.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    path = folder / f"{corruption.name}.jsonl"
    path.write_bytes(corruption.damage(lines))
    return path, corruption.line(lines)
