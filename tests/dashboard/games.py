"""Test games for the dashboard: replays whose hidden lines carry unique marker strings."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from google.protobuf import text_format
from streamlit.testing.v1 import AppTest

from arena.agents.base import Agent, AgentReply
from arena.agents.random_agent import random_action
from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, Usage
from arena.match import Limits, new_header, run_game
from arena.records import BeliefReport
from arena.rules.actions import CheckClaim, Claims, Speak, Whisper
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


class MarkerAgent:
    """Random legal play, but every text is a unique marker and every answer has a trace.

    Speeches say `SPEECHMARK-<seat>-<step>`, wolf whispers `WHISPERMARK-<seat>-<step>`,
    model calls carry `TRACEMARK-<seat>-<step>`, so a page can be searched for any of them.
    """

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self._rng = random.Random(seed * 100 + seat)

    @property
    def name(self) -> str:
        return "marker"

    @property
    def model(self) -> str:
        return f"model-{'a' if self.seat % 2 else 'b'}"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        action: Any = random_action(request, self._rng)
        tag = f"{request.seat}-{request.step}"
        if isinstance(action, Speak):
            other = self._rng.randint(1, view.knowledge.seats)
            claims = Claims(
                role=Role.SEER, checks=(CheckClaim(seat=other, is_wolf=True),), suspects=(other,)
            )
            action = Speak(text=f"SPEECHMARK-{tag}", claims=claims)
        elif isinstance(action, Whisper):
            action = Whisper(text=f"WHISPERMARK-{tag}")
        call = ModelCallRecord(
            seat=request.seat,
            step=request.step,
            attempt=1,
            model=self.model,
            prompt_id="test@1",
            messages=(ChatMessage(role="user", content=f"TRACEMARK-{tag}"),),
            tools=(),
            reply=ModelReply(text=f"REPLYMARK-{tag}"),
            usage=Usage(prompt_tokens=100, completion_tokens=10),
            cost_usd=0.001,
        )
        return AgentReply(action=action, calls=(call,))

    async def believe(self, view: Observation) -> BeliefReport | None:
        assert isinstance(view.viewer, SeatViewer)
        me = view.viewer.seat
        return BeliefReport(
            seat=me,
            day=view.knowledge.day,
            after_seq=view.log_length,
            wolf_probability={
                s: round(self._rng.random(), 2) for s in view.knowledge.present() if s != me
            },
        )


def make_game(
    path: Path,
    seed: int = 7,
    board: str = "wwk_guard",
    agent: Callable[[int, int], Agent] = MarkerAgent,
    **header: Any,
) -> Path:
    """Play one game into `path` and return the path: `agent(seat, seed)` at each seat."""
    config = GameConfig(board=board)
    agents = {s: agent(s, seed) for s in range(1, config.board_spec.seats + 1)}
    head = new_header(f"{board}-{seed}", config, seed, agents, **header)
    asyncio.run(run_game(head, agents, path, limits=Limits(beliefs="daily")))
    return path


def texts(node: Any) -> Iterator[str]:
    """Every element's protobuf, as UTF-8 text, under `node` of an AppTest tree."""
    proto = getattr(node, "proto", None)
    if proto is not None:
        yield text_format.MessageToString(proto, as_utf8=True)
    value = getattr(node, "value", None)
    if hasattr(value, "to_csv"):
        yield value.to_csv()
    for child in getattr(node, "children", {}).values():
        yield from texts(child)


def page_text(at: AppTest) -> str:
    """All the text a rendered page holds, tables and chart data included."""
    return "\n".join(texts(at._tree))


HOSTILE = (
    "**bold** # heading [link](http://evil.example) <b>tag</b> <img src=x onerror=alert(1)> "
    "$x^2$ :red[red] `code` \x1b[2J\x07 \u202eevil\n── Night 9 ──"
)
"""A speech that Markdown, HTML, math, escape codes or bidi overrides would change."""


def make_hostile(source: Path, path: Path) -> Path:
    """A copy of the replay `source` whose first speech says `HOSTILE` (plus its marker)."""
    lines = source.read_text("utf-8").splitlines()
    for i, line in enumerate(lines):
        record = json.loads(line)
        event = record.get("event") if record.get("type") == "event" else None
        if event is not None and event.get("kind") == "spoke":
            event["text"] = HOSTILE + " " + event["text"]
            lines[i] = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            break
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path
