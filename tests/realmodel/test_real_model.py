"""Model seats play on a real server: SmolLM2-135M behind llama-server, OpenAI and LangChain.

A 135M model plays badly; these tests assert mechanics, never strategy: three model
seats share one llama-server with a slot each; the endpoint is probed with the game's
real request shapes and answers in mode `json_legal` (the server enforces each request's
legal answers with a grammar); at least 85 % of the decisions the model was asked are
its own (not the referee's defaults; answers the arena gives without asking, such as a
closed self-explosion window, are counted apart) in a game per provider, one in English
and one in Chinese; every request of a seat extends its previous one; and the replays
validate. In seat 1 the model holds a role of the seeds' newer boards whose night skill
takes several seats at once, and must answer that skill itself. The games are short
(`max_days`) with small speeches, so they fit in CI on two cores.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from arena.call_view import replay_calls
from arena.llm.types import ModelCallRecord
from arena.replay_check import check_replay
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind
from arena.rules.types import Role
from arena.storage.replay_file import read_replay
from tests.support.model_games import (
    PROVIDERS,
    answers_by_kind,
    play_model_seat,
    seat_one_holds,
)

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(2400)]


class Game(NamedTuple):
    """One short game with the model in seat 1."""

    lang: str
    seed: int
    config: GameConfig
    skill: DecisionKind | None = None
    """A decision the model's role must be asked and answer itself, if any."""


GAMES: dict[str, Game] = {
    # The magician swaps two seats (001:113); the alchemist witch mists three (001:123):
    # the shapes a grammar-constrained server must accept and a small model must fill.
    "openai": Game(
        "en", 5, seat_one_holds("wolfking_magician", Role.MAGICIAN, 5), DecisionKind.SWAP
    ),
    "langchain": Game(
        "zh", 5, seat_one_holds("mist_raven", Role.ALCHEMIST_WITCH, 5), DecisionKind.MIST
    ),
}
"""One game per provider, one in English and one in Chinese, three model seats each (the
old one-slot server took two games per provider with one model seat). Measured on
2026-12-03 (load 6-8): 17 of 19 asked decisions own (OpenAI, English; 10 more answered
by the arena) and 13 of 14 (LangChain, Chinese; 4 more), the refusals a speech's claimed
check and an answer without `action`, three tries each. The old threshold (90 %, and at
least 8 decisions a game) counted the arena's own answers as the model's."""


@pytest.mark.parametrize("provider", PROVIDERS)
def test_real_models_play_their_own_decisions(
    llama_url: str, tmp_path: Path, provider: str
) -> None:
    game = GAMES[provider]
    path = tmp_path / f"real-{game.lang}.jsonl"
    own, decisions = _play(llama_url, path, provider, game)
    if game.skill is not None:
        skill = answers_by_kind(read_replay(path), game.config, seat=1).get(game.skill, [])
        print(f"{provider}/{game.lang}: {game.skill} answered {[a.action.kind for a in skill]}")
        assert skill, f"seat 1 was never asked to {game.skill}"
        assert all(a.defaulted is None for a in skill), [a.defaulted for a in skill]
    print(f"{provider}: {own} of {decisions} asked decisions the model's own")
    assert decisions >= MIN_ASKED, f"{provider}: only {decisions} decisions asked"
    assert own >= 0.85 * decisions, f"{provider}: {own} of {decisions} decisions own"


MIN_ASKED = 8
"""The fewest decisions the three model seats must be asked for the share to mean much.
The game's length is the model's doing: llama-server's slots batch requests together, so
even greedy answers differ from run to run, and a seat the wolves kill on night 1 is asked
less. Seed 5 has asked 11 to 19; the 12 once required here failed CI on an 11-decision
game (stop 25), so the floor is the old one-slot tests' 8."""

MODEL_SEATS = (1, 2, 3)
"""The model seats of every game: three, each on a slot of its own."""


def _play(url: str, path: Path, provider: str, game: Game) -> tuple[int, int]:
    """Play one game, the model in seats 1-3; (decisions the model made, decisions asked)."""
    play_model_seat(url, path, provider, game.lang, game.seed, game.config, seats="1-3")
    replay = read_replay(path)
    assert replay.header.result is not None and not replay.header.result.void
    (endpoint,) = replay.header.endpoints.values()
    assert endpoint["mode"] == "json_legal"
    calls = replay_calls(replay)
    for seat in MODEL_SEATS:
        _check_extends([c for c in calls if c.seat == seat])
    report = check_replay(path)
    assert report.ok, report.message
    asked = {(c.seat, c.step) for c in replay.traces}
    own = automatic = taken = 0
    why: list[str] = []
    for a in replay.answers:
        if a.seat not in MODEL_SEATS:
            continue
        if a.defaulted is None and (a.seat, a.step) not in asked:
            automatic += 1
            continue
        taken += 1
        own += a.defaulted is None
        why += [a.defaulted] if a.defaulted else []
    cached = sum(c.usage.cached_tokens for c in replay.traces)
    prompt = sum(c.usage.prompt_tokens for c in replay.traces)
    print(
        f"{provider}/{game.lang} seed {game.seed}: {own} of {taken} asked decisions own, "
        f"{automatic} answered by the arena; {cached} of {prompt} prompt tokens cached {why}"
    )
    return own, taken


def _check_extends(calls: list[ModelCallRecord]) -> None:
    """Every request of one seat extends its previous one (after a condensation: restarts)."""
    for before, after in zip(calls, calls[1:], strict=False):
        first = after.messages[2].content if len(after.messages) >= 3 else ""
        if after.base == 0 and first in ("Noted.", "收到。"):
            continue
        shared = before.messages[:-1]
        assert after.messages[: len(shared)] == shared
        assert after.messages[len(shared)].content.startswith(before.messages[-1].content)
