"""A seat's requests form one append-only conversation that every server accepts."""

import asyncio
import json
from pathlib import Path

import pytest

from arena.llm.agent import LLMAgent
from arena.llm.base import ProviderError
from arena.llm.calls import expand_calls
from arena.llm.types import ChatMessage
from arena.match import Limits, new_header, run_game
from arena.rules.config import GameConfig
from arena.storage.replay_file import read_replay
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


def condensed(messages: list[ChatMessage]) -> bool:
    return (
        len(messages) >= 3 and messages[2].role == "assistant" and messages[2].content == "Noted."
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_request_extends_the_previous_one_of_the_seat(tmp_path: Path, lang: str) -> None:
    models, replay = play(tmp_path, lang=lang)
    assert replay.header.result is not None and not replay.header.result.void
    assert sum(len(m.calls) for m in models.values()) > 60
    for model in models.values():
        calls = model.calls
        for before, after in zip(calls, calls[1:], strict=False):
            assert after.tools == calls[0].tools
            if not condensed(list(after.messages)):
                assert extends(list(before.messages), list(after.messages))


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
            after for before, after in zip(calls, calls[1:], strict=False)
            if not extends(list(before.messages), list(after.messages))
        ]  # fmt: skip
        assert all(condensed(list(c.messages)) for c in mine)
        assert len(mine) <= 2 * replay.header.result.days
        points += mine
    assert points
    summary = points[-1].messages[1].content
    assert summary.startswith("Summary of rounds 1-")
    assert "votes" in summary.lower() or "→" in summary


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
