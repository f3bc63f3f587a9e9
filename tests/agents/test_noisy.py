"""The skill dial `noisy:P:SPEC`: parsed wherever a seat spec is, seeded by seat and name."""

import asyncio
from pathlib import Path

import pytest

from arena.agents.base import Agent, AgentReply, Believer
from arena.agents.model.agent import LLMAgent
from arena.agents.noisy import Noisy, parse_noisy, strip_noise
from arena.agents.random_agent import RandomAgent
from arena.agents.seats import (
    MatchSpec,
    SeatSpec,
    build_agents,
    check_options,
    endpoint_settings,
    load_spec_file,
    parse_seat_spec,
    parse_seats,
    seat_seed,
)
from arena.agents.traits import ModelSeat, trait
from arena.cli import main
from arena.errors import ArenaError
from arena.humans.lobby import is_model_spec
from arena.match import new_header, run_game
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.referee import Referee
from arena.storage.replay_file import has_outsiders
from tests.support.plugins import Polite, Seeded

CONFIG = GameConfig(board="wwk_guard")
SEATS = CONFIG.board_spec.seats


class Counting(Polite):
    """The polite plug-in (its first legal answer), counting how often it is asked."""

    asked = 0

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        self.asked += 1
        return await super().decide(view, request, feedback)


def _play(agents: dict[int, Agent], seed: int = 5) -> Referee:
    header = new_header("g", CONFIG, seed, agents)
    return asyncio.run(run_game(header, agents, None))


def _events(specs: list[str], seed: int = 5) -> list[str]:
    agents = build_agents(parse_seats(specs, SEATS), CONFIG, seed)
    return [e.model_dump_json() for e in _play(agents, seed).events]


def test_a_noisy_spec_is_the_agent_it_wraps_with_a_share() -> None:
    seat = parse_seat_spec("3=noisy:0.3:bot", SEATS)[3]
    assert seat == SeatSpec(kind="bot", noise="0.3")
    assert seat.label == "noisy:0.3:bot" and seat.base_label == "bot"
    model = parse_seat_spec("1=noisy:.5:openai:gpt-4.1-mini", SEATS)[1]
    assert (model.kind, model.model, model.noise) == ("openai", "gpt-4.1-mini", ".5")
    assert model.label == "noisy:.5:openai:gpt-4.1-mini"
    assert parse_noisy("noisy:1:py:m:f") == ("1", "py:m:f")
    assert strip_noise("noisy:0.30:random") == "random" and strip_noise("bot") == "bot"


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("noisy:1.5:bot", "must be a number from 0 to 1"),
        ("noisy:x:bot", "must be a number from 0 to 1"),
        ("noisy:-0.1:bot", "must be a number from 0 to 1"),
        ("noisy:nan:bot", "must be a number from 0 to 1"),
        ("noisy:1e-1:bot", "must be a number from 0 to 1"),
        ("noisy::bot", "must be a number from 0 to 1"),
        ("noisy:0.3:", "name the agent after the share"),
        ("noisy:0.3", "name the agent after the share"),
        ("noisy:0.3:human", "a person's answers are not noisy"),
        ("noisy:0.3:human:ann", "a person's answers are not noisy"),
        ("noisy:0.1:noisy:0.2:bot", "one noisy: per agent"),
        ("noisy:0.3:gpt-4", "bad seat spec '3=noisy:0.3:gpt-4'"),
    ],
)
def test_bad_noisy_specs_are_one_line(spec: str, says: str) -> None:
    with pytest.raises(ArenaError, match=says) as caught:
        parse_seat_spec(f"3={spec}", SEATS)
    assert "\n" not in str(caught.value)


def test_the_cli_refuses_a_bad_noisy_seat_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seat", "3=noisy:1.5:bot", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "noisy:1.5:bot" in err and "0 to 1" in err
    assert main(["agent", "check", "noisy:0.3:human"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not noisy" in err


@pytest.mark.parametrize(("share", "low", "high"), [(0.0, 1.0, 1.0), (0.3, 0.6, 0.8), (1.0, 0, 0)])
def test_a_share_of_the_decisions_is_answered_at_random(
    share: float, low: float, high: float
) -> None:
    inner = {s: Counting() for s in range(1, SEATS + 1)}
    agents: dict[int, Agent] = {
        s: Noisy(inner[s], share, seat_seed(9, s), "noisy:x:counting") for s in inner
    }
    referee = _play(agents, seed=9)
    asked = sum(c.asked for c in inner.values())
    answered = len(referee.answers)
    assert answered > 100 and not any(a.defaulted for a in referee.answers)
    assert low * answered <= asked <= high * answered


def test_share_zero_plays_the_agent_and_a_name_draws_its_own_noise() -> None:
    assert _events(["1-12=noisy:0:bot"]) == _events(["1-12=bot"])
    once = _events(["1-6=noisy:0.3:bot", "7-12=noisy:0.5:bot"])
    assert once == _events(["1-6=noisy:0.3:bot", "7-12=noisy:0.5:bot"])  # re-runs identically
    assert once != _events(["1-6=noisy:0.30:bot", "7-12=noisy:0.5:bot"])  # another name
    assert once != _events(["1-6=bot", "7-12=noisy:0.5:bot"])


def test_the_header_names_the_noisy_spec_and_keeps_the_inner_agents_powers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    seats = parse_seats(["1=noisy:0.3:openai:gpt-4.1-mini", "2=openai:gpt-4.1-mini"], SEATS)
    spec = MatchSpec(endpoints={"openai:gpt-4.1-mini": {"timeout_s": 9}})
    agents = build_agents(seats, CONFIG, 1, spec)
    noisy, plain = agents[1], agents[2]
    assert isinstance(noisy, Noisy) and isinstance(plain, LLMAgent)
    assert noisy.name == "noisy:0.3:openai:gpt-4.1-mini" and plain.name == "openai:gpt-4.1-mini"
    model = trait(noisy, ModelSeat)  # found through the wrapper, not forwarded by it
    assert model is not None and model.chat is plain.chat and plain.chat.timeout_s == 9
    assert endpoint_settings(seats[1], spec).timeout_s == 9
    header = new_header("g", CONFIG, 1, {1: noisy, 2: agents[3]})
    assert [s.agent for s in header.seats] == ["noisy:0.3:openai:gpt-4.1-mini", "bot"]
    assert header.seats[0].model == "gpt-4.1-mini"
    noisy_bot = build_agents(parse_seats(["1=noisy:0.3:bot"], SEATS), CONFIG, 1)[1]
    assert trait(noisy_bot, Believer) is not None
    assert trait(Noisy(RandomAgent(1), 0.3, 1, "n"), Believer) is None


def test_a_noisy_plugins_options_are_the_plugins(tmp_path: Path) -> None:
    path = tmp_path / "match.yaml"
    path.write_text(
        'seats: ["1=noisy:0.2:py:tests.support.plugins:Seeded"]\n'
        "options: {py:tests.support.plugins:Seeded: {style: loud}}\n",
        encoding="utf-8",
    )
    spec = load_spec_file(path)
    seats = parse_seats(spec.seats, SEATS)
    check_options(seats, spec)  # the options are for the plug-in the noisy seat wraps
    agent = build_agents(seats, CONFIG, 1, spec)[1]
    assert isinstance(agent, Noisy) and agent.name == "noisy:0.2:py:tests.support.plugins:Seeded"
    assert Seeded.made[-1] == {"seat": 1, "seed": seat_seed(1, 1), "options": {"style": "loud"}}


def test_the_play_page_takes_a_noisy_seat_and_a_noisy_bot_is_no_outsider() -> None:
    assert is_model_spec("noisy:0.3:bot") and is_model_spec("noisy:1:openai:gpt")
    assert not is_model_spec("noisy:2:bot") and not is_model_spec("noisy:0.3:human")
    assert not is_model_spec("noisy:0.3:nonsense:x")
    seats = parse_seats(["1=noisy:0.3:bot", "2=noisy:0.3:py:tests.support.plugins:make"], SEATS)
    agents = build_agents({1: seats[1]}, CONFIG, 1)
    inside = new_header("g", CONFIG, 1, {1: agents[1]})
    assert not has_outsiders(inside)
    outside = inside.model_copy(
        update={"seats": (inside.seats[0].model_copy(update={"agent": seats[2].label}),)}
    )
    assert has_outsiders(outside)
