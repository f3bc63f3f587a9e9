"""`arena replay FILE --calls`: every model call, each request exactly as the server got it.

A 9-seat game is played against the stub model server over HTTP, seats 1 and 2 by models
of their own name (so the server's recorded bodies say whose request each was), with
belief questions after every speech (they continue a seat's conversation from the `belief`
lines, the case a reader of `trace` lines alone gets wrong), the other seats random. The
printed requests are parsed back and compared with the bodies the server received.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from arena.agents.model.agent import LLMAgent
from arena.call_view import INDENT, replay_calls
from arena.cli import main
from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, ToolCall, ToolSpec, Usage
from arena.match import Limits
from arena.storage.calls import MISSING
from arena.storage.replay_file import read_replay
from arena.storage.replay_lines import trace_line
from tests.cli.test_hostile_text import FORBIDDEN, HOSTILE
from tests.llm.helpers import openai_model
from tests.support.seats import play_game
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubServer

ROOT = Path(__file__).resolve().parents[2]
MODELS = {1: "model-one", 2: "model-two"}
SPEECH = "I am seat one.\nSecond line: 'quoted' \\ back"
"""Seat 1's every speech: a line break and characters JSON escapes."""


@dataclass
class Game:
    path: Path
    bodies: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    path = tmp_path_factory.mktemp("calls") / "game.jsonl"
    models = {
        MODELS[1]: random_legal(1, text=lambda: SPEECH),
        MODELS[2]: random_legal(2),
    }
    with StubServer(models=models) as server:
        agents = {
            seat: LLMAgent(openai_model(server.url, name), lang="en", beliefs="per_speech")
            for seat, name in MODELS.items()
        }
        play_game(agents, path, limits=Limits(beliefs="per_speech", call_timeout_s=10.0))
        bodies = {seat: server.requests_for(name) for seat, name in MODELS.items()}
    return Game(path, bodies)


@dataclass
class Printed:
    head: str
    lines: list[str]
    messages: list[tuple[str, str]]


def parse(text: str) -> list[Printed]:
    """The calls `--calls` printed, each request's messages read back as (role, content)."""
    calls: list[Printed] = []
    for line in text.splitlines():
        if line.startswith(("── call ", "── 模型呼叫 ")):
            calls.append(Printed(line, [], []))
        elif calls:
            calls[-1].lines.append(line)
    for call in calls:
        body: list[str] | None = None
        for line in call.lines:
            role = re.fullmatch(r"\[(system|user|assistant|tool)\]( \S+)?", line)
            if role is not None:
                body = []
                call.messages.append((role.group(1), ""))
            elif body is not None and line.startswith(INDENT):
                body.append(line.removeprefix(INDENT))
                call.messages[-1] = (call.messages[-1][0], "\n".join(body))
            else:
                body = None
    return calls


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_game_has_belief_calls_inside_the_seats_conversations(game: Game) -> None:
    replay = read_replay(game.path)
    beliefs = [c for b in replay.beliefs for c in b.calls if c.seat in MODELS]
    assert beliefs and all(c.conversation is not None for c in beliefs)
    assert any(r.base > 0 for r in replay.traces)


@pytest.mark.parametrize("seat", sorted(MODELS))
def test_each_seat_sees_its_own_requests_exactly_as_the_server_got_them(
    seat: int, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["replay", str(game.path), "--calls", "--as", f"seat:{seat}", "--lang", "en"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    printed = parse(out)
    sent = [[(m["role"], m["content"]) for m in body["messages"]] for body in game.bodies[seat]]
    assert len(sent) > 3 and [p.messages for p in printed] == sent
    assert all(f"#{seat} ·" in p.head for p in printed)
    assert any("belief question" in p.head for p in printed)
    assert all("tools: act (" in "\n".join(p.lines) for p in printed)


def test_god_sees_every_call_once_grouped_by_seat(
    game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["replay", str(game.path), "--calls", "--lang", "en"], capsys)
    assert code == 0
    printed = parse(out)
    replay = read_replay(game.path)
    every = replay_calls(replay)
    assert len(printed) == len(replay.traces) + sum(len(b.calls) for b in replay.beliefs)
    assert [p.messages for p in printed] == [
        [(m.role, m.content) for m in c.messages] for c in every
    ]
    assert not any(MISSING in c.notes for c in every)
    seats = [int(re.search(r"· #(\d+) ·", p.head).group(1)) for p in printed]  # type: ignore[union-attr]
    assert seats == sorted(seats) and set(seats) == set(MODELS)
    assert '"I am seat one.\\nSecond line' in out  # the speech, as the reply's JSON has it
    assert "parsed action: {" in out and "tokens: " in out


def test_full_prints_each_tool_schema_and_chinese_labels_come_from_the_catalog(
    game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    _, brief, _ = run(["replay", str(game.path), "--calls", "--as", "seat:1"], capsys)
    _, full, _ = run(["replay", str(game.path), "--calls=full", "--as", "seat:1"], capsys)
    assert '"parameters": {' not in brief and '"parameters": {' in full
    assert "模型呼叫" in brief and "── call" not in brief


def hostile_record() -> ModelCallRecord:
    """A whole record as files before deltas held it, hostile text in every field."""
    return ModelCallRecord(
        seat=3,
        step=7,
        attempt=2,
        model="m" + HOSTILE,
        prompt_id="p@v1",
        messages=(
            ChatMessage(role="system", content="rules"),
            ChatMessage(role="user", content=HOSTILE),
            ChatMessage(
                role="assistant",
                content="",
                tool_calls=(ToolCall(id="c1" + HOSTILE, name="vote", arguments=HOSTILE),),
            ),
            ChatMessage(role="tool", content=HOSTILE, tool_call_id="c1"),
        ),
        tools=(ToolSpec(name="vote" + HOSTILE, description=HOSTILE, parameters={"x": HOSTILE}),),
        reply=ModelReply(
            text=HOSTILE,
            tool_calls=(ToolCall(id="c2", name="vote", arguments=HOSTILE),),
            finish_reason=HOSTILE,
        ),
        error=HOSTILE,
        notes=(HOSTILE,),
        usage=Usage(prompt_tokens=120, cached_tokens=100, completion_tokens=9),
        cost_usd=0.00042,
        cut_off=True,
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_old_replays_hostile_whole_records_print_inert(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (ROOT / "replays/samples/yunv-bots-en-3.jsonl").read_text("utf-8").splitlines()
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join([*lines, trace_line(hostile_record())]) + "\n", "utf-8")
    code, out, _ = run(["replay", str(path), "--calls=full", "--lang", lang], capsys)
    assert code == 0
    assert not FORBIDDEN.search(out), repr(FORBIDDEN.search(out))
    fakes = ("── 第99天 · 天亮了 ──", "99號 被放逐", "遊戲結束：好人勝利（假）")
    assert not any(line.startswith(fakes) for line in out.splitlines())
    assert out.count("\\x1b[2J") == 11 and "\\u202etxet desrever\\u202c" in out
    (call,) = parse(out)
    assert [role for role, _ in call.messages] == ["system", "user", "assistant", "tool"]
    assert "$0.000420" in out and "120" in out and "100" in out


def test_a_replay_without_calls_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    sample = ROOT / "replays/samples/yunv-bots-en-3.jsonl"
    code, out, _ = run(["replay", str(sample), "--calls", "--lang", "en"], capsys)
    note, answer = out.strip().splitlines()  # the sample predates signing: a note says so
    assert (code, answer) == (0, "(no model calls in this replay)")
    assert note.startswith("(note: this game is unsigned")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--as", "public"], "not to --as public"),
        (["--as", "wolves"], "not to --as wolves"),
        (["--until", "5"], "--until cuts the transcript only"),
        (["--as", "seat:99"], "this game has seats 1-9"),
    ],
)
def test_a_wrong_combination_is_one_line(
    extra: list[str], message: str, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["replay", str(game.path), "--calls", *extra], capsys)
    assert code == 2 and out == ""
    assert err.startswith("arena: error:") and message in err and len(err.splitlines()) == 1


def test_without_calls_the_transcript_is_unchanged(
    game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    _, public, _ = run(["replay", str(game.path), "--lang", "en"], capsys)
    _, god, _ = run(["replay", str(game.path), "--as", "god", "--lang", "en"], capsys)
    assert "── call" not in public and "Night 1" in public
    assert len(god) > len(public)
    assert "I am seat one.⏎Second line" in public  # a speech prints inert: on one line
