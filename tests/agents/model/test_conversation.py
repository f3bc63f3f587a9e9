"""A seat's requests form one append-only conversation that every server accepts."""

import asyncio
import json
import os
from pathlib import Path

import pytest

from arena.agents.model.agent import LLMAgent
from arena.agents.model.library import load_library
from arena.llm.base import ProviderError
from arena.llm.types import ChatMessage
from arena.match import Limits, new_header, run_game
from arena.rules.config import GameConfig
from arena.storage.calls import expand_calls
from arena.storage.replay_file import read_replay
from tests.conftest import EXAMPLE_BOARDS
from tests.support.scripted import ReadingChatModel

CONFIG = GameConfig(board="wolfking_guard")


def play(tmp_path: Path, *, lang: str = "en", budget: int = 12_000, seed: int = 4, models=None):
    models = models or {s: ReadingChatModel(seed * 100 + s) for s in range(1, 13)}
    agents = {
        s: LLMAgent(m, lang=lang, history_tokens=budget, label=f"openai:{m.model}")
        for s, m in models.items()
    }
    path = tmp_path / "g.jsonl"
    asyncio.run(run_game(new_header("g", CONFIG, seed, agents), agents, path, limits=Limits()))
    return models, read_replay(path)


def extends(before: list[ChatMessage], after: list[ChatMessage]) -> bool:
    """`after` is `before` plus new turns, its last user turn possibly continued."""
    if len(after) < len(before) or after[: len(before) - 1] != before[:-1]:
        return False
    last, same = before[-1], after[len(before) - 1]
    return same == last or (
        same.role == last.role == "user" and same.content.startswith(last.content)
    )


NOTED = {load_library(lang).label("noted") for lang in ("en", "zh")}


def summaries(messages: list[ChatMessage]) -> list[int]:
    """Where the summaries are: each is a user turn answered by "Noted." (or "收到。")."""
    return [
        i
        for i in range(1, len(messages) - 1)
        if messages[i + 1].role == "assistant" and messages[i + 1].content in NOTED
    ]


def condensed_from(before: list[ChatMessage], after: list[ChatMessage]) -> bool:
    """`after` condenses `before`: it keeps every summary of `before` (and the system
    message) unchanged, adds one summary, and asks one question after it."""
    layers = summaries(after)
    if not layers or layers[-1] != len(after) - 3:
        return False
    kept = layers[-1]
    return after[:kept] == before[:kept] and summaries(before) == layers[:-1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_request_extends_the_previous_one_of_the_seat(tmp_path: Path, lang: str) -> None:
    models, replay = play(tmp_path, lang=lang)
    assert replay.header.result is not None and not replay.header.result.void
    assert sum(len(m.calls) for m in models.values()) > 60
    for model in models.values():
        calls = model.calls
        for before, after in zip(calls, calls[1:], strict=False):
            assert after.tools == calls[0].tools
            b, a = list(before.messages), list(after.messages)
            assert extends(b, a) or condensed_from(b, a)


@pytest.mark.parametrize(
    ("lang", "own"), [("en", "## Your seat and your role\n"), ("zh", "## 你的座位和身份\n")]
)
def test_every_seat_shares_the_system_message_up_to_its_own_seat(
    tmp_path: Path, lang: str, own: str
) -> None:
    """The rules and how to play come first and the seat's own part last, so a cache
    shared by the seats (OpenAI's and DeepSeek's are per account) serves them all."""
    models, _ = play(tmp_path, lang=lang)
    systems = [model.calls[0].messages[0].content for model in models.values()]
    common = os.path.commonprefix(systems)
    assert own in common and common.index(own) > 0.6 * min(map(len, systems))
    assert all(s.count(own) == 1 for s in systems)


def test_roles_alternate_and_only_text_turns_are_sent(tmp_path: Path) -> None:
    models, _ = play(tmp_path)
    for model in models.values():
        for call in model.calls:
            roles = [m.role for m in call.messages]
            assert roles[0] == "system"
            assert all(r in ("user", "assistant") for r in roles[1:])
            assert all(a != b for a, b in zip(roles[1:], roles[2:], strict=False))
            assert roles[-1] == "user"
            assert all(not m.tool_calls and m.content for m in call.messages)


def test_older_days_are_condensed_rarely_keeping_claims_and_votes(tmp_path: Path) -> None:
    models, replay = play(tmp_path, budget=1500, seed=9)
    assert replay.header.result is not None
    points = []
    for model in models.values():
        calls = model.calls
        mine = [
            (list(before.messages), list(after.messages))
            for before, after in zip(calls, calls[1:], strict=False)
            if not extends(list(before.messages), list(after.messages))
        ]
        assert all(condensed_from(b, a) for b, a in mine)
        assert len(mine) <= 2 * replay.header.result.days
        points += [a for _, a in mine]
    assert points
    layered = [a for a in points if len(summaries(a)) > 1]
    assert layered  # a later condensation kept the earlier summary as it was
    first, *_, last = summaries(layered[0])
    assert layered[0][first].content.startswith("Summary of rounds 1-")
    later = layered[0][last].content
    assert later.startswith("Summary of rounds ") and not later.startswith("Summary of rounds 1-")
    assert "votes" in later.lower() or "→" in later


def test_the_replay_stores_deltas_and_expands_to_the_requests_as_sent(tmp_path: Path) -> None:
    models, replay = play(tmp_path)
    records = [*replay.traces, *(c for b in replay.beliefs for c in b.calls)]
    assert any(r.base > 0 for r in records) and any(r.tools is None for r in records)
    whole = expand_calls(records)
    sent = sorted(repr((c.messages, c.tools)) for m in models.values() for c in m.calls)
    assert sorted(repr((r.messages, r.tools)) for r in whole) == sent


class Failing(ReadingChatModel):
    """Fails its first call with an error that names a URL, then reads questions."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.failed = False

    async def generate(self, messages, tools, tool_choice, legal=None):
        if not self.failed:
            self.failed = True
            self.calls.append(
                type(self.calls[0])(tuple(messages), tuple(tools), tool_choice)
                if self.calls
                else None
            )  # type: ignore[arg-type]
            self.calls = [c for c in self.calls if c is not None]
            raise ProviderError("openai:x@http://10.0.0.1:8000/v1: HTTP 500: boom")
        return await super().generate(messages, tools, tool_choice)


def test_provider_errors_and_default_reasons_never_reach_the_model(tmp_path: Path) -> None:
    models = {s: ReadingChatModel(400 + s) for s in range(1, 13)}
    models[5] = Failing(5)
    models, replay = play(tmp_path, models=models)
    prompts = "\n".join(m.content for c in models[5].calls for m in c.messages)
    assert "http://" not in prompts and "HTTP 500" not in prompts
    assert "no answer came back from you in time" in prompts


def test_a_seats_own_words_are_not_repeated_in_its_news(tmp_path: Path) -> None:
    models, replay = play(tmp_path, budget=10**6)
    spoke = 0
    for seat, model in models.items():
        last = model.calls[-1].messages
        said = [json.loads(m.content)["answer"].get("text") for m in last if m.role == "assistant"]
        for text in filter(None, said):
            spoke += 1
            assert sum(m.content.count(text) for m in last) == 1, (seat, text)
        assert any("(your words, above)" in m.content for m in last) or not any(said)
    assert spoke > 10


@pytest.mark.parametrize("budget", [40_000, 1500])
def test_a_thief_is_given_the_guide_of_the_card_he_took_once_in_the_chat(
    tmp_path: Path, budget: int
) -> None:
    """The system message holds the dealt card's guide and never changes (the prefix
    cache); the card a thief takes comes with its guide in his next turn, once, and a
    condensation that replaces that turn keeps the guide in its summary."""
    config = GameConfig(board=EXAMPLE_BOARDS["classic_thief_elder12"])
    for seed in range(1, 40):
        models = {s: ReadingChatModel(seed * 100 + s) for s in range(1, 13)}
        agents = {
            s: LLMAgent(m, lang="en", history_tokens=budget, label=f"openai:{m.model}")
            for s, m in models.items()
        }
        path = tmp_path / f"g{seed}.jsonl"
        header = new_header("g", config, seed, agents)
        asyncio.run(run_game(header, agents, path, limits=Limits()))
        replay = read_replay(path)
        taken = [e for e in replay.events if e.kind == "card_taken"]
        if taken:
            break
    else:
        pytest.fail("the thief's card was buried in 39 games")
    took = taken[0]
    guide = load_library("en").role_guide(took.role.value)
    calls = models[took.seat].calls
    system = calls[0].messages[0].content
    assert load_library("en").role_guide("thief") in system
    assert all(c.messages[0].content == system for c in calls)
    last = calls[-1].messages
    said = [m.content for m in last if m.role == "user" and guide in m.content]
    assert len(said) == 1 and "Your card is now:" in said[0]
    condensed = 0
    for before, after in zip(calls, calls[1:], strict=False):
        b, a = list(before.messages), list(after.messages)
        assert extends(b, a) or condensed_from(b, a)
        condensed += not extends(b, a)
    assert (condensed > 0) is (budget < 40_000)  # the tool counts too; wolves speak first
