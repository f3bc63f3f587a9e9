"""The bot's play of seed 000's custom-board roles, on small hand-written logs.

The phantom masks the teammate the table suspects; the healer spends a protection on the
seer it believes; the watchman tests claims and an idle claimed seer becomes a suspect;
the coroner examines the dead claimant of a god, and a unique card found on a body
exposes every living claimant of it.
"""

from __future__ import annotations

import random

from arena.agents.bot import BotAgent
from arena.agents.bots import night
from arena.agents.bots.beliefs import own_outlook, wolf_probabilities
from arena.agents.bots.reading import read
from arena.rules import events as ev
from arena.rules.actions import Action, ActionKind, CheckClaim, Claims, Inspect, Mask, Pass, Protect
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.observation import observe
from arena.rules.types import Phase, Role, Team
from arena.rules.visibility import PUBLIC, SeatViewer, ToTeam, to_seats

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
