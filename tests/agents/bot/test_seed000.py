"""The bot's play of seed 000's custom-board roles, on small hand-written logs.

The phantom masks the teammate the table suspects; the healer spends a protection on the
seer it believes; the watchman tests claims and an idle claimed seer becomes a suspect;
the coroner examines the dead claimant of a god, and a unique card found on a body
exposes every living claimant of it. Both report their results in a claim, as the seer
does, once a result helps the good side, and the other good bots weigh what they report.
"""

from __future__ import annotations

import random

from arena.agents.bot import night
from arena.agents.bot.agent import BotAgent
from arena.agents.bot.beliefs import credibility, own_outlook, wolf_probabilities
from arena.agents.bot.reading import read
from arena.rules import events as ev
from arena.rules.actions import (
    Action,
    ActionKind,
    CheckClaim,
    Claims,
    Inspect,
    Mask,
    Pass,
    Protect,
    Speak,
)
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.observation import observe
from arena.rules.types import Phase, Role, SpeechContext, Team
from arena.rules.visibility import PUBLIC, SeatViewer, ToTeam, to_seats
from arena.transcript import claims_text

COUNTS = {
    Role.SEER: 1,
    Role.WITCH: 1,
    Role.WATCHMAN: 1,
    Role.CORONER: 1,
    Role.HEALER: 1,
    Role.VILLAGER: 4,
    Role.WEREWOLF: 2,
    Role.PHANTOM: 1,
}


def log(me: int, role: Role, *later: ev.Event, day: int = 2) -> list[ev.Event]:
    return [
        ev.GameStarted(visibility=PUBLIC, board="custom", seats=12, role_counts=COUNTS),
        ev.RoleAssigned(visibility=to_seats(me), seat=me, role=role),
        *later,
        ev.PhaseStarted(visibility=PUBLIC, phase=Phase.NIGHT, day=day),
    ]


def spoke(seat: int, role: Role | None = None, suspects: tuple[int, ...] = ()) -> ev.Spoke:
    claims = Claims(role=role, suspects=suspects)
    return ev.Spoke(visibility=PUBLIC, seat=seat, text="", claims=claims, context="day")


def request(
    seat: int, kind: DecisionKind, action: ActionKind, targets: tuple[int, ...]
) -> DecisionRequest:
    options = [ActionOption(action=action, targets=targets, target_required=True)]
    if kind is not DecisionKind.WATCH:
        options.append(ActionOption(action="pass"))
    return DecisionRequest(
        step=3, seat=seat, kind=kind, day=2, night=True, options=tuple(options), default=Pass()
    )


def choose(events: list[ev.Event], me: int, req: DecisionRequest) -> Action:
    r, _ = read(observe(events, SeatViewer(seat=me)))
    return BotAgent(7).choose(r, req)


def test_the_phantom_masks_the_teammate_the_table_suspects() -> None:
    """10 was reported good (not checked again); 11 accused the believed seer."""
    met = ev.WolvesMet(
        visibility=ToTeam(team=Team.WOLF, seats=(10, 11, 12)),
        seats=(10, 11, 12),
        roles=(Role.WEREWOLF, Role.WEREWOLF, Role.PHANTOM),
    )
    seer = ev.Spoke(
        visibility=PUBLIC,
        seat=1,
        text="",
        claims=Claims(role=Role.SEER, checks=(CheckClaim(seat=10, is_wolf=False),)),
        context="day",
    )
    events = log(12, Role.PHANTOM, met, seer, spoke(11, suspects=(1,)))
    action = choose(events, 12, request(12, DecisionKind.MASK, "mask", (10, 11, 12)))
    assert action == Mask(target=11)


def test_the_healer_protects_the_seer_it_believes() -> None:
    events = log(5, Role.HEALER, spoke(1, Role.SEER))
    action = choose(events, 5, request(5, DecisionKind.HEAL, "protect", (1, 2, 3, 4, 6, 7)))
    assert action == Protect(target=1)


def test_the_healer_keeps_its_protections_without_anyone_to_shield() -> None:
    events = log(5, Role.HEALER, day=1)
    action = night.heal(
        read(observe(events, SeatViewer(seat=5)))[0],
        request(5, DecisionKind.HEAL, "protect", (1, 2, 3, 4, 6, 7)),
        random.Random(1),
    )
    assert action == Pass()


def test_the_watchman_tests_the_seer_claim_first() -> None:
    events = log(3, Role.WATCHMAN, spoke(6, Role.WITCH), spoke(8, Role.SEER))
    action = choose(events, 3, request(3, DecisionKind.WATCH, "inspect", (1, 2, 4, 6, 8)))
    assert action == Inspect(target=8)


def test_an_idle_claimed_seer_becomes_the_watchmans_suspect() -> None:
    claimed = spoke(8, Role.SEER)
    idle = ev.SeatWatched(visibility=to_seats(3), seat=3, target=8, acted=False)
    acted = ev.SeatWatched(visibility=to_seats(3), seat=3, target=8, acted=True)
    p_idle = _p(log(3, Role.WATCHMAN, claimed, idle), 3)[8]
    p_acted = _p(log(3, Role.WATCHMAN, claimed, acted), 3)[8]
    assert p_idle > 0.5 > p_acted


def test_the_coroner_examines_the_dead_god_claimant() -> None:
    dead = ev.DeathsAnnounced(visibility=PUBLIC, seats=(1, 6))
    events = log(4, Role.CORONER, spoke(1, Role.SEER), dead)
    action = choose(events, 4, request(4, DecisionKind.AUTOPSY, "inspect", (1, 6)))
    assert action == Inspect(target=1)


def test_a_seer_card_on_a_body_exposes_the_living_seer_claimant() -> None:
    dead = ev.DeathsAnnounced(visibility=PUBLIC, seats=(1,))
    body = ev.BodyExamined(visibility=to_seats(4), seat=4, target=1, role=Role.SEER)
    events = log(4, Role.CORONER, spoke(1, Role.SEER), spoke(8, Role.SEER), dead, body)
    assert _p(events, 4)[8] == 1.0


def _p(events: list[ev.Event], me: int) -> dict[int, float]:
    r, _ = read(observe(events, SeatViewer(seat=me)))
    return wolf_probabilities(r, own_outlook(r))


def speech(events: list[ev.Event], me: int, context: SpeechContext = "day") -> Speak:
    req = DecisionRequest(
        step=3,
        seat=me,
        kind=DecisionKind.SPEECH,
        day=2,
        night=False,
        options=(ActionOption(action="speak", max_chars=1200),),
        default=Speak(text=""),
        context=context,
    )
    action = choose(
        [*events, ev.PhaseStarted(visibility=PUBLIC, phase=Phase.SPEECHES, day=2)], me, req
    )
    assert isinstance(action, Speak)
    return action


def test_the_coroner_claims_a_wolf_card_found_on_a_body() -> None:
    """9 claimed the seer and was exiled; his card was a wolf's: the coroner says so."""
    dead = ev.DeathsAnnounced(visibility=PUBLIC, seats=(9,))
    body = ev.BodyExamined(visibility=to_seats(4), seat=4, target=9, role=Role.WEREWOLF)
    said = speech(log(4, Role.CORONER, spoke(6, Role.SEER), spoke(9, Role.SEER), dead, body), 4)
    assert said.claims.role is Role.CORONER
    assert said.claims.checks == (CheckClaim(seat=9, is_wolf=True, role=Role.WEREWOLF),)
    assert "9號是狼人" in said.text
    assert "#9 was the Werewolf" in claims_text(said.claims, "en")


def test_the_coroner_names_the_living_claimant_his_autopsy_exposes() -> None:
    dead = ev.DeathsAnnounced(visibility=PUBLIC, seats=(1,))
    body = ev.BodyExamined(visibility=to_seats(4), seat=4, target=1, role=Role.SEER)
    said = speech(log(4, Role.CORONER, spoke(1, Role.SEER), spoke(8, Role.SEER), dead, body), 4)
    assert said.claims.checks == (CheckClaim(seat=1, is_wolf=False, role=Role.SEER),)
    assert said.claims.suspects[0] == 8


def test_the_coroner_keeps_his_cover_while_his_autopsies_say_nothing_new() -> None:
    dead = ev.DeathsAnnounced(visibility=PUBLIC, seats=(2,))
    body = ev.BodyExamined(visibility=to_seats(4), seat=4, target=2, role=Role.VILLAGER)
    said = speech(log(4, Role.CORONER, dead, body), 4)
    assert said.claims.role is None and not said.claims.checks
    last = speech(log(4, Role.CORONER, dead, body), 4, context="last_words")
    assert last.claims.checks == (CheckClaim(seat=2, is_wolf=False, role=Role.VILLAGER),)


def test_the_watchman_reports_an_idle_claimed_seer() -> None:
    idle = ev.SeatWatched(visibility=to_seats(3), seat=3, target=8, acted=False)
    said = speech(log(3, Role.WATCHMAN, spoke(6, Role.SEER), spoke(8, Role.SEER), idle), 3)
    assert said.claims.role is Role.WATCHMAN
    assert said.claims.checks == (CheckClaim(seat=8, is_wolf=True, acted=False),)
    assert said.claims.suspects[0] == 8
    assert "8號昨夜沒有行動" in said.text


def test_the_watchman_keeps_his_cover_when_a_watch_clears_a_seat_only() -> None:
    idle = ev.SeatWatched(visibility=to_seats(3), seat=3, target=5, acted=False)
    said = speech(log(3, Role.WATCHMAN, idle), 3)
    assert said.claims.role is None and not said.claims.checks
    pk = speech(log(3, Role.WATCHMAN, idle), 3, context="pk")
    assert pk.claims.checks == (CheckClaim(seat=5, is_wolf=False, acted=False),)
    assert 5 in pk.claims.trusts


def reported(seat: int, role: Role, *checks: CheckClaim) -> ev.Spoke:
    claims = Claims(role=role, checks=checks)
    return ev.Spoke(visibility=PUBLIC, seat=seat, text="", claims=claims, context="day")


def test_a_villager_believes_the_coroner_over_a_living_seer_claimant() -> None:
    """The coroner found the seer's card on 1's body: 8's claim is a lie."""
    dead = ev.DeathsAnnounced(visibility=PUBLIC, seats=(1,))
    card = CheckClaim(seat=1, is_wolf=False, role=Role.SEER)
    before = log(2, Role.VILLAGER, spoke(1, Role.SEER), spoke(8, Role.SEER), dead)
    after = [*before[:-1], reported(4, Role.CORONER, card), before[-1]]
    r, _ = read(observe(after, SeatViewer(seat=2)))
    assert credibility(r, own_outlook(r))[1] > 0.8 > 0.2 > credibility(r, own_outlook(r))[8]
    assert _p(after, 2)[8] > _p(before, 2)[8] + 0.3


def test_a_villager_weighs_the_watchmans_report() -> None:
    watch = CheckClaim(seat=8, is_wolf=True, acted=False)
    before = log(2, Role.VILLAGER, spoke(6, Role.SEER), spoke(8, Role.SEER))
    after = [*before[:-1], reported(3, Role.WATCHMAN, watch), before[-1]]
    assert _p(after, 2)[8] > _p(before, 2)[8] + 0.2
