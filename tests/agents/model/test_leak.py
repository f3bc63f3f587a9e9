"""No seat's prompt ever contains anything it may not see.

A fixed 12-seat game is played by LLM seats whose model writes a unique marker in every
text it produces (speeches, wolf chat). Every prompt sent is then checked against the
log: wolf-chat markers appear only in wolves' prompts; the line of every hidden event
(the deal, roles, night actions, causes of death) appears only in prompts of seats that
saw it; and a role a seat never learned (nor checked: in Chinese a wolf verdict and the
werewolf card share a word) is never named next to that seat.
"""

import asyncio
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from arena.agents.model.agent import LLMAgent
from arena.agents.model.conversation import event_line
from arena.agents.model.library import load_library
from arena.llm.base import Schema, ToolChoice
from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, ToolCall, ToolSpec
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.visibility import SeatViewer, can_see
from arena.storage.calls import expand_calls
from arena.storage.replay_file import read_replay
from arena.transcript import role_name, seat
from tests.support.stub_policy import StubRequest, answer_from, belief_seats, legal_options, markers


class MarkingModel:
    """Reads each question and picks a legal answer; every text it writes is a fresh marker."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.text = markers(f"M{seed:02d}")

    @property
    def model(self) -> str:
        return "marking"

    async def generate(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        tool_choice: ToolChoice,
        legal: Schema | None = None,
    ) -> ModelReply:
        question = next(m.content for m in reversed(messages) if m.role == "user")
        request = StubRequest({}, "marking", (), tool_choice, True, question)
        options, seats = legal_options(request), belief_seats(request)
        if options:
            answer = answer_from(self.rng.choice(options), self.rng, self.text)
        else:
            answer = {
                "action": "report_belief",
                "wolf_probability": [{"seat": s, "p": 0.5} for s in seats],
            }
        call = ToolCall(id="c", name="act", arguments=json.dumps({"answer": answer}))
        return ModelReply(tool_calls=(call,))


def prompt_text(record: ModelCallRecord) -> str:
    parts = [m.content for m in record.messages]
    parts += [c.arguments for m in record.messages for c in m.tool_calls]
    parts += [t.model_dump_json() for t in record.tools or ()]
    return "\n".join(parts)


@pytest.fixture(scope="module", params=["en", "zh"])
def played(request, tmp_path_factory):
    lang = request.param
    config = GameConfig(board="wwk_guard")
    agents = {s: LLMAgent(MarkingModel(s), lang=lang, history_tokens=4000) for s in range(1, 13)}
    path: Path = tmp_path_factory.mktemp("leak") / "game.jsonl"
    referee = asyncio.run(
        run_game(
            new_header("leak", config, 21, agents), agents, path, limits=Limits(beliefs="daily")
        )
    )
    replay = read_replay(path)
    records = expand_calls([*replay.traces, *(c for b in replay.beliefs for c in b.calls)])
    prompts: dict[int, list[str]] = {s: [] for s in range(1, 13)}
    for record in records:
        prompts[record.seat].append(prompt_text(record))
    return lang, referee.events, prompts


def test_the_game_exercised_secrets(played) -> None:
    _, events, prompts = played
    kinds = {type(e) for e in events}
    assert {ev.WolfWhispered, ev.SeerChecked, ev.GuardProtected, ev.WitchActed} <= kinds
    assert all(prompts[s] for s in prompts)


def test_wolf_chat_markers_reach_only_wolves(played) -> None:
    _, events, prompts = played
    whispers = [e for e in events if isinstance(e, ev.WolfWhispered)]
    assert whispers
    for e in whispers:
        for s, texts in prompts.items():
            leaked = any(e.text in t for t in texts)
            if can_see(SeatViewer(seat=s), e.visibility):
                continue
            assert not leaked, f"seat {s} saw wolf chat {e.text!r}"


def test_hidden_event_lines_reach_only_seats_that_saw_them(played) -> None:
    lang, events, prompts = played
    for s, texts in prompts.items():
        viewer = SeatViewer(seat=s)
        visible = {
            event_line(e, load_library(lang)) for e in events if can_see(viewer, e.visibility)
        }
        visible |= {
            event_line(e, load_library(lang), condensed=True)
            for e in events
            if can_see(viewer, e.visibility)
        }
        hidden = {
            line
            for e in events
            if not can_see(viewer, e.visibility)
            and (line := event_line(e, load_library(lang))) is not None
        } - visible
        assert hidden, f"seat {s} was shown everything"
        blob = "\n".join(texts)
        for line in hidden:
            assert line not in blob, f"seat {s} saw hidden line {line!r}"


def test_roles_a_seat_never_learned_are_never_named_for_it(played) -> None:
    lang, events, prompts = played
    end = next(i for i, e in enumerate(events) if isinstance(e, ev.GameEnded))
    dealt = next(e for e in events if isinstance(e, ev.RolesDealt)).roles
    for s, texts in prompts.items():
        knowledge = observe(events[:end], SeatViewer(seat=s)).knowledge
        known = set(knowledge.roles) | set(knowledge.checks)
        blob = "\n".join(texts)
        for other, role in enumerate(dealt, start=1):
            if other in known:
                continue
            name = re.escape(role_name(role, lang))
            label = re.escape(seat(other, lang))
            pattern = rf"(?<![#\d]){label}(?!\d)\s*(?:的身份是\s*|is the |\s){name}"
            assert not re.search(pattern, blob), f"seat {s} was told {other} is {role}"
