"""Whole games of scripted bots: legal, deterministic, honest and credible."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import TypeVar

import pytest

from arena.agents.base import Agent, AgentReply
from arena.agents.bot.agent import BotAgent
from arena.agents.bot.handlers import HANDLERS
from arena.agents.random_agent import RandomAgent
from arena.match import Limits, play
from arena.rules import events as ev
from arena.rules.actions import Action, Kill, Link, Save
from arena.rules.boards import PresetName
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.roles import is_wolf
from arena.rules.types import Role, Winner
from arena.rules.visibility import SeatViewer, can_see
from arena.text import Lang
from tests.conftest import BOARD_REFS

PRESETS: tuple[PresetName | None, ...] = (None, "tournament", "site", "classic")


def test_the_bot_has_a_handler_for_every_decision_kind() -> None:
    """A decision kind the arena adds needs the bot's handler, or the bot plays its default."""
    assert set(HANDLERS) == set(DecisionKind)


class Recorder:
    """Wraps a bot and keeps every (view, request, action) it was part of."""

    def __init__(self, bot: BotAgent) -> None:
        self.bot = bot
        self.calls: list[tuple[Observation, DecisionRequest, Action | None]] = []

    @property
    def name(self) -> str:
        return self.bot.name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        reply = await self.bot.decide(view, request, feedback)
        self.calls.append((view, request, reply.action))
        return reply


def game(
    board: str,
    seed: int,
    preset: PresetName | None = None,
    *,
    lang: Lang = "zh",
    wolves: str = "bot",
    good: str = "bot",
) -> Referee:
    referee = Referee(GameConfig(board=BOARD_REFS[board], preset=preset), seed)
    agents: dict[int, Agent] = {}
    for seat, role in enumerate(referee.state.roles, start=1):
        kind = wolves if is_wolf(role) else good
        agents[seat] = (
            BotAgent(seed * 100 + seat, lang=lang)
            if kind == "bot"
            else RandomAgent(seed * 100 + seat)
        )
    asyncio.run(play(referee, agents, limits=Limits(beliefs="off")))
    return referee


E = TypeVar("E")


def of(referee: Referee, kind: type[E]) -> list[E]:
    return [e for e in referee.events if isinstance(e, kind)]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_bots_finish_every_board_and_preset_without_a_default(
    board: str, preset: PresetName | None
) -> None:
    for seed in (1, 2):
        referee = game(board, seed, preset)
        assert referee.finished
        assert referee.winner in (Winner.GOOD, Winner.WOLVES, Winner.LOVERS)
        assert of(referee, ev.ActionDefaulted) == []


def test_same_seeds_give_the_same_game() -> None:
    first = game("wwk_guard", 7)
    second = game("wwk_guard", 7)
    assert first.events == second.events
    assert game("wwk_guard", 8).events != first.events


def test_a_fresh_bot_gives_every_recorded_answer_again() -> None:
    """The bot keeps nothing between calls that changes an answer: its answers are a
    function of (seed, view, request) alone, so no channel can carry another seat's view."""
    referee = Referee(GameConfig(board="wwk_guard"), 5)
    agents = {s: Recorder(BotAgent(500 + s)) for s in range(1, 13)}
    asyncio.run(play(referee, agents, limits=Limits(beliefs="off")))
    for seat, recorder in agents.items():
        for view, request, action in recorder.calls:
            reply = asyncio.run(BotAgent(500 + seat).decide(view, request))
            assert reply.action == action


def test_the_bot_is_only_handed_its_own_seats_view() -> None:
    referee = Referee(GameConfig(board="idiot12"), 3)
    agents = {s: Recorder(BotAgent(300 + s)) for s in range(1, 13)}
    asyncio.run(play(referee, agents, limits=Limits(beliefs="off")))
    for seat, recorder in agents.items():
        assert recorder.calls
        for view, request, _ in recorder.calls:
            assert view.viewer == SeatViewer(seat=seat) == SeatViewer(seat=request.seat)
            for seen in view.seen:
                assert can_see(view.viewer, seen.event.visibility)


def test_the_bot_imports_nothing_that_holds_the_hidden_game() -> None:
    """Honesty by construction: no module of the bot can reach the referee's state."""
    forbidden = {
        "arena.rules.state",
        "arena.rules.referee",
        "arena.rules.table",
        "arena.rules.night",
        "arena.rules.night_acts",
        "arena.rules.night_checks",
        "arena.rules.night_skills",
        "arena.rules.night_steps",
        "arena.rules.knife",
        "arena.rules.dawn",
        "arena.rules.day",
        "arena.match",
    }
    forbidden_prefixes = tuple(f"{name}." for name in forbidden)
    root = Path(__file__).resolve().parents[3] / "arena" / "agents" / "bot"
    files = sorted(root.glob("*.py"))
    assert root / "agent.py" in files and root / "beliefs.py" in files
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                bad = module in forbidden or module.startswith(forbidden_prefixes)
                assert not bad, f"{file.name} imports {module}"
            elif isinstance(node, ast.Import):
                names = {a.name for a in node.names}
                assert not names & forbidden, file.name
                assert not [n for n in names if n.startswith(forbidden_prefixes)], file.name


def test_the_seer_claims_and_reports_her_real_checks() -> None:
    speeches = 0
    for seed in range(1, 9):
        referee = game("wwk_guard", seed)
        seer = referee.state.roles.index(Role.SEER) + 1
        checks: dict[int, bool] = {}
        for event in referee.events:
            if isinstance(event, ev.SeerChecked):
                checks[event.target] = event.is_wolf
            elif isinstance(event, ev.Spoke) and event.seat == seer:
                speeches += 1
                assert event.claims.role is Role.SEER
                assert {(c.seat, c.is_wolf) for c in event.claims.checks} == set(checks.items())
                for c in event.claims.checks:
                    assert f"{c.seat}號" in event.text
    assert speeches >= 8


def test_wolves_agree_on_the_knife_under_the_tournament_preset() -> None:
    knives = [
        e
        for seed in range(1, 11)
        for e in of(game("wwk_guard", seed, "tournament"), ev.KnifeChosen)
    ]
    unanimous = [e for e in knives if e.how == "unanimous"]
    assert len(knives) >= 20
    assert len(unanimous) >= 0.9 * len(knives)


def test_some_wolf_fakes_the_seer_and_accuses_only_good_seats() -> None:
    fakes = 0
    for seed in range(1, 13):
        referee = game("wolfking_guard", seed)
        roles = referee.state.roles
        for speech in of(referee, ev.Spoke):
            if speech.claims.role is Role.SEER and is_wolf(roles[speech.seat - 1]):
                fakes += 1
                assert all(not is_wolf(roles[c.seat - 1]) for c in speech.claims.checks)
    assert fakes > 0


def test_a_white_wolf_king_explodes_only_to_take_a_real_seer() -> None:
    taken = 0
    for seed in range(1, 13):
        referee = game("wwk_guard", seed)
        for shot in of(referee, ev.PlayerShot):
            if shot.role is Role.WHITE_WOLF_KING:
                taken += 1
                assert referee.state.roles[shot.target - 1] is Role.SEER
    assert 0 < taken < 12


def test_the_witch_saves_the_first_knife_when_she_may() -> None:
    for seed in range(1, 11):
        referee = game("std9", seed)
        knife = of(referee, ev.KnifeChosen)[0].target
        witch = referee.state.roles.index(Role.WITCH) + 1
        acted = of(referee, ev.WitchActed)[0]
        if knife is not None and knife != witch:
            assert acted.saved == knife


def test_speeches_follow_the_language() -> None:
    english = [e.text for e in of(game("std10", 4, lang="en"), ev.Spoke)]
    chinese = [e.text for e in of(game("std10", 4), ev.Spoke)]
    assert english and all(text.isascii() for text in english)
    assert any("號" in text for text in chinese)


def test_bots_beat_random_agents_on_both_sides() -> None:
    seeds = range(1, 13)
    good = sum(game("std10", s, wolves="random").winner is Winner.GOOD for s in seeds)
    wolves = sum(game("std10", s, good="random").winner is Winner.WOLVES for s in seeds)
    baseline = sum(
        game("std10", s, wolves="random", good="random").winner is Winner.GOOD for s in seeds
    )
    assert good > baseline
    assert wolves > len(seeds) - baseline


def test_cupid_ties_himself_and_lovers_stand_by_each_other() -> None:
    """004:3 丘比特本人也可以成為情侶的一方; a lover guards, saves and never harms his partner."""
    for seed in range(1, 41):
        referee = game("cupid12", seed)
        [linked] = of(referee, ev.LoversLinked)
        assert linked.seat in linked.lovers
        partner = dict(zip(linked.lovers, reversed(linked.lovers), strict=True))
        for e in of(referee, ev.KnifeNominated):
            assert e.target is None or e.target != partner.get(e.seat)
        for e in of(referee, ev.WitchActed):
            assert e.poisoned is None or e.poisoned != partner.get(e.seat)
        for e in of(referee, ev.PlayerShot):
            assert e.target != partner.get(e.seat)
        shown: int | None = None
        for e in referee.events:
            if isinstance(e, ev.KnifeShownToWitch):
                shown = e.target
            elif isinstance(e, ev.WitchActed) and e.seat in partner and shown == partner[e.seat]:
                assert e.saved == partner[e.seat]
        last: int | None = None
        for e in of(referee, ev.GuardProtected):  # a night after guarding him he may not
            if e.seat in partner and e.target is not None and last != partner[e.seat]:
                assert e.target == partner[e.seat]
            last = e.target


def test_a_witch_lover_saves_her_partner() -> None:
    """Even on night 3, when she saves only a valued seat: his death is hers (000:22 同生共死).

    The wolves knife two of their own on nights 1 and 2 (the witch keeps her antidote),
    then her partner, a plain villager, on night 3.
    """
    deal = (Role.SEER, Role.WITCH, Role.HUNTER, Role.GUARD, Role.CUPID, *[Role.VILLAGER] * 3)
    config = GameConfig(board=BOARD_REFS["cupid12"], deal=(*deal, *[Role.WEREWOLF] * 4))
    referee = Referee(config, 1)
    while True:
        [request, *rest] = referee.pending()
        if request.kind is DecisionKind.WITCH and request.day == 3:
            break
        for r in (request, *rest):
            if r.kind is DecisionKind.CUPID:
                action: Action = Link(targets=(2, 6))
            elif r.kind is DecisionKind.KNIFE:
                action = Kill(target={1: 9, 2: 10}.get(r.day, 6))
            else:
                action = r.default
            referee.submit(r.seat, action)
    view = observe(referee.events, SeatViewer(seat=2))
    assert asyncio.run(BotAgent(7, lang="en").decide(view, request)).action == Save()
