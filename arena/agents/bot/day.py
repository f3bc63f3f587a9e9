"""Day decisions: the sheriff race, the speaking order, the vote, the gun and the badge.

Good seats act on their own judgement (`own_outlook`); wolves on what the table can see
(`public_outlook`) plus their team's interest. Candidates are mostly gods and wolves
(the seer almost always runs, a fake seer always does); a good candidate yields to a
seer he believes; voters back the candidate they trust most.
"""

from __future__ import annotations

import random

from arena.agents.bot import wolves
from arena.agents.bot.beliefs import (
    checker,
    claimed_roles,
    credibility,
    own_outlook,
    public_outlook,
    wolf_probabilities,
)
from arena.agents.bot.chance import bottom, top
from arena.agents.bot.reading import Reading
from arena.rules.actions import (
    Action,
    ChooseOrder,
    Duel,
    Pass,
    PassBadge,
    RecommendExile,
    Reveal,
    RunForSheriff,
    Shoot,
    TearBadge,
    Vote,
    Withdraw,
)
from arena.rules.decisions import DecisionRequest
from arena.rules.roles import is_god
from arena.rules.types import Direction, Role, SeatId

RUN_CHANCE: dict[Role, float] = {
    Role.SEER: 0.9,
    Role.WITCH: 0.3,
    Role.HUNTER: 0.35,
    Role.GUARD: 0.3,
    Role.IDIOT: 0.3,
    Role.VILLAGER: 0.12,
    Role.WEREWOLF: 0.2,
    Role.WOLF_KING: 0.25,
    Role.WHITE_WOLF_KING: 0.25,
    Role.KNIGHT: 0.3,
    Role.DREAMWEAVER: 0.3,
    Role.WOLF_BEAUTY: 0.2,
    Role.EVIL_KNIGHT: 0.25,
    Role.NIGHTMARE: 0.2,
    Role.BLOOD_MOON_APOSTLE: 0.2,
    Role.DEMON_HUNTER: 0.3,
    Role.GARGOYLE: 0.15,
    Role.GRAVEKEEPER: 0.3,
    Role.ECLIPSE_WOLF_CONSORT: 0.2,
    Role.PRINCE: 0.3,
    Role.PURE_WHITE_MAIDEN: 0.9,
    Role.WOLF_WITCH: 0.2,
    Role.ALCHEMIST_WITCH: 0.3,
    Role.RAVEN_CLAW: 0.15,
    Role.FOX_CUB: 0.3,
    Role.BEAR: 0.3,
    Role.PUFFERFISH: 0.3,
    Role.WHITE_CAT: 0.3,
}
"""Chance of standing for sheriff, by role (a fake seer always stands)."""
STAY_CHANCE = 0.6
"""Chance a good candidate stays in the race when no seer he believes is running."""
DUEL_SURE = 0.8
"""A knight duels only a seat at least this likely to be a wolf (a miss costs his life)."""
SHOOT_FLOOR = 0.5
"""A hunter shoots only a seat more likely a wolf than not: a blind shot (his top suspect
hardly above the table's odds) takes a good seat more often than a wolf, which helps the
wolves as much as a hit hurts them (with 0.3, 6 of 11 shots took a good seat in 40 games
of bot good seats against random wolves on classic_elder12)."""
BADGE_TO_PARTNER = 0.6
"""Chance a departing wolf sheriff hands the badge to a partner rather than tearing it."""


def duel(r: Reading, request: DecisionRequest) -> Duel | None:
    """A knight's duel on the seat he is nearly sure of (a checked wolf of a believed seer)."""
    option = request.option("duel")
    if option is None or r.role is not Role.KNIGHT:
        return None
    p = wolf_probabilities(r, own_outlook(r))
    sure = [t for t in option.targets if p.get(t, 0.0) >= DUEL_SURE]
    if not sure:
        return None
    return Duel(target=max(sure, key=lambda t: (p[t], -t)))


def puffer(r: Reading, request: DecisionRequest) -> Action:
    """The pufferfish flips when its voters look more wolf than good (it takes them all).

    Voted out it dies anyway, so any likely wolf among its voters is worth it.
    """
    exile_ballots = ("exile", "nomination", "defence", "pk")
    voters = {
        b.voter
        for b in r.ballots
        if b.day == r.day and b.target == r.me and b.ballot in exile_ballots
    }
    if not voters or request.option("reveal") is None:
        return Pass()
    p = wolf_probabilities(r, own_outlook(r))
    wolves = sum(p.get(v, 0.5) for v in voters)
    exiled = r.me not in r.present
    if wolves >= len(voters) / 2 or (exiled and max(p.get(v, 0.5) for v in voters) >= 0.5):
        return Reveal()
    return Pass()


def prince(r: Reading, request: DecisionRequest) -> Action:
    """An exiled prince always reveals: staying and a re-vote can only help the good side."""
    return Reveal() if request.option("reveal") is not None else Pass()


def run_for_sheriff(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Stand for sheriff with the role's chance; a fake seer always stands."""
    if r.is_wolf and wolves.jumper(r) == r.me:
        return RunForSheriff()
    return RunForSheriff() if rng.random() < RUN_CHANCE.get(r.role, 0.2) else Pass()


def withdraw(r: Reading, request: DecisionRequest, seed: int, rng: random.Random) -> Action:
    """Stay (seer, fake seer), yield to a believed seer, or withdraw by chance."""
    explode = wolves.explosion(r, request, seed)
    if explode is not None:
        return explode
    if r.role is checker(r) or (r.is_wolf and wolves.jumper(r) == r.me):
        return Pass()
    if r.is_wolf:
        return Withdraw() if rng.random() < 0.5 else Pass()
    cred = credibility(r, own_outlook(r))
    if any(c >= 0.4 and s in r.candidates and s != r.me for s, c in cred.items()):
        return Withdraw()
    return Pass() if rng.random() < STAY_CHANCE else Withdraw()


def sheriff_vote(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Vote for sheriff.

    Good: the seer believed, else the candidate trusted most. Wolves: a partner, else the
    least dangerous candidate.
    """
    option = request.option("vote")
    targets = option.targets if option is not None else ()
    if not targets:
        return Pass()
    if r.is_wolf:
        partners = [t for t in targets if t in r.team]
        if partners:
            fake = wolves.jumper(r)
            return Vote(target=fake if fake in partners else rng.choice(partners))
        real = set(wolves.threats(r))
        p = wolf_probabilities(r, public_outlook(r))
        choice = top({t: p.get(t, 0.5) - (5.0 if t in real else 0.0) for t in targets}, rng)
    else:
        o = own_outlook(r)
        seers = {t: c for t, c in credibility(r, o).items() if t in targets and c >= 0.45}
        p = wolf_probabilities(r, o)
        choice = top(seers, rng) if seers else bottom({t: p.get(t, 0.5) for t in targets}, rng)
    return Vote(target=choice) if choice is not None else Pass()


def speech_order(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """A direction by chance; where the sheriff picks the first speaker, a suspect."""
    option = request.option("choose_order")
    direction = rng.choice((Direction.ASCENDING, Direction.DESCENDING))
    starts = option.targets if option is not None else ()
    if not starts:
        return ChooseOrder(direction=direction)
    outlook = public_outlook(r) if r.is_wolf else own_outlook(r)
    p = wolf_probabilities(r, outlook)
    start = top({s: p.get(s, 0.0) for s in starts if s != r.me}, rng) or starts[0]
    return ChooseOrder(direction=direction, start=start)


def recommend(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """The sheriff names the seat he wants exiled (a wolf sheriff: the team's target)."""
    option = request.option("recommend_exile")
    targets = option.targets if option is not None else ()
    choice = _exile_choice(r, targets, rng)
    return RecommendExile(targets=(choice,)) if choice is not None else Pass()


def vote(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Vote out the most suspected seat (following a trusted sheriff's recommendation)."""
    option = request.option("vote")
    choice = _exile_choice(r, option.targets if option is not None else (), rng)
    return Vote(target=choice) if choice is not None else Pass()


def _exile_choice(r: Reading, targets: tuple[SeatId, ...], rng: random.Random) -> SeatId | None:
    targets = tuple(t for t in targets if t != r.me)
    if r.is_wolf:
        return wolves.vote_target(r, targets, rng)
    p = wolf_probabilities(r, own_outlook(r))
    trusted_sheriff = r.sheriff is not None and r.sheriff != r.me and p.get(r.sheriff, 1.0) < 0.4
    boost = 0.1 if trusted_sheriff else 0.0
    scores = {t: p.get(t, 0.5) + (boost if t in r.recommended else 0.0) for t in targets}
    choice = top(scores, rng)
    return choice if choice is not None and scores[choice] >= 0.05 else None


def shoot(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """A hunter shoots his top suspect; a wolf king takes the most dangerous good seat."""
    option = request.option("shoot")
    targets = tuple(t for t in (option.targets if option is not None else ()) if t != r.me)
    if r.is_wolf:
        cred = credibility(r, public_outlook(r))
        roles = claimed_roles(r)
        scores = {
            t: 3.0 * cred.get(t, 0.0)
            + (1.0 if t == r.sheriff else 0.0)
            + (1.0 if (role := roles.get(t)) is not None and is_god(role) else 0.0)
            - (2.0 if roles.get(t) is Role.HUNTER else 0.0)
            for t in targets
            if t not in r.team and t != r.partner
        }
        choice = top(scores, rng)
        return Shoot(target=choice) if choice is not None else Pass()
    p = wolf_probabilities(r, own_outlook(r))
    choice = top({t: p.get(t, 0.0) for t in targets}, rng)
    if choice is None or p.get(choice, 0.0) < SHOOT_FLOOR:
        return Pass()
    return Shoot(target=choice)


def badge(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Hand the badge to the seat trusted most (a seer: a seat she checked good)."""
    option = request.option("pass_badge")
    targets = tuple(t for t in (option.targets if option is not None else ()) if t != r.me)
    if r.is_wolf:
        p = wolf_probabilities(r, public_outlook(r))
        hidden = [t for t in targets if t in r.team and p.get(t, 1.0) < 0.6]
        if hidden and rng.random() < BADGE_TO_PARTNER:
            return PassBadge(target=rng.choice(hidden))
        return TearBadge() if request.option("tear_badge") is not None else request.default
    if not targets:
        return TearBadge() if request.option("tear_badge") is not None else request.default
    checked_good = [t for t, wolf in r.checks if not wolf and t in targets]
    if checked_good:
        return PassBadge(target=checked_good[-1])
    o = own_outlook(r)
    p = wolf_probabilities(r, o)
    seers = [s for s, c in credibility(r, o).items() if c >= 0.5 and s in targets]
    choice = seers[0] if seers else bottom({t: p.get(t, 0.5) for t in targets}, rng)
    return PassBadge(target=choice) if choice is not None else TearBadge()
