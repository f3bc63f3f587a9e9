"""How bot wolves play as a team: the knife, the fake seer, the votes and the explosion.

Wolves coordinate only through their private channel, as any wolf team must. At night
each wolf whispers the knife it proposes; the nominations then follow the lowest seat's
proposal, so a bot team is unanimous in the first round (the tournament preset leaves the
knife empty without unanimity). On night 1 a wolf may whisper that it will fake the seer
(`JUMP_CHANCE`); the lowest such seat does it, and its teammates back its story.

By day, wolves argue from what the table knows (`public_outlook`), never vote a partner
unless he is lost anyway (`BUS_CHANCE`), and push the fake seer's accusations.
"""

from __future__ import annotations

import random

from arena.agents.bot.beliefs import (
    checker,
    claimed_checks,
    claimed_roles,
    credibility,
    public_outlook,
    seer_claimants,
    wolf_probabilities,
)
from arena.agents.bot.chance import dice, top
from arena.agents.bot.reading import Reading
from arena.agents.bot.talk import jumps, knife_in
from arena.rules.actions import SelfExplode
from arena.rules.decisions import DecisionRequest
from arena.rules.roles import is_god
from arena.rules.types import Phase, Role, SeatId

JUMP_CHANCE = 0.2
"""Chance that a wolf volunteers on night 1 to claim the seer falsely (悍跳)."""
BUS_CHANCE = 0.1
"""Chance that a wolf votes out a partner the table has already condemned (倒鉤)."""
WWK_CHANCE = 0.35
"""Chance that a white wolf king explodes to take a real seer who claimed (once a game)."""
WWK_ACCUSED_CHANCE = 0.85
"""The same when that seer has named the white wolf king himself."""
EXPLODE_CHANCE = 0.25
"""Chance that a plain wolf named by the real seer explodes to cut the day short."""
APOSTLE_CHANCE = 0.6
"""The same for a blood-moon apostle: his explosion also seals the gods the next night, so
the knife on the seer cannot be saved and her next check never comes."""


def volunteers(r: Reading, seed: int) -> bool:
    """Whether this wolf offers, on night 1, to fake the seer tomorrow.

    The board's checker (the seer, or the pure-white maiden where no seer is dealt); never
    on a board that deals neither: the claim would be a plain lie.
    """
    if checker(r) is None:
        return False
    return r.day == 1 and dice(seed, "jump").random() < JUMP_CHANCE


def jumper(r: Reading) -> SeatId | None:
    """The teammate (maybe this seat) who fakes the seer, if any.

    The lowest seat that said so on night 1 and is still at the table.
    """
    said = sorted(seat for night, seat, text in r.whispers if night == 1 and jumps(text))
    return next((s for s in said if s in r.present), None)


def threats(r: Reading) -> tuple[SeatId, ...]:
    """Seer claimants outside the team: a wolf knows each of them is the real seer."""
    return tuple(s for s in seer_claimants(r) if s not in r.team and s in r.present)


def knife_preference(r: Reading, legal: tuple[SeatId, ...], rng: random.Random) -> SeatId | None:
    """The seat this wolf wants knifed.

    The real seer first, then trusted gods and the sheriff; never a claimed hunter if it
    can help it (he would shoot).
    """
    outlook = public_outlook(r)
    p = wolf_probabilities(r, outlook)
    roles = claimed_roles(r)
    real = set(threats(r))
    scores: dict[SeatId, float] = {}
    for seat in legal:
        if seat in r.team or seat == r.partner:
            continue
        score = 1.0 - p.get(seat, 0.5) + rng.random()
        score += 5.0 if seat in real else 0.0
        role = roles.get(seat)
        if role is Role.HUNTER:
            score -= 3.0
        elif role is not None and is_god(role):
            score += 2.0
        score += 1.0 if seat == r.sheriff else 0.0
        score += sum(0.5 for s in r.speeches if s.seat == seat and set(s.claims.suspects) & r.team)
        scores[seat] = score
    return top(scores, rng)


def knife_choice(r: Reading, legal: tuple[SeatId, ...], rng: random.Random) -> SeatId | None:
    """Tonight's nomination.

    Round 1 follows the lowest seat's whispered proposal; later rounds follow the previous
    round's most nominated seat (the lowest nominator's on ties).
    """
    allowed = [s for s in legal if s not in r.team and s != r.partner]  # a lover spares his
    last = max((round_ for round_, _, _ in r.nominations), default=0)
    if last == 0:
        for night, _seat, text in sorted(r.whispers, key=lambda w: w[1]):
            proposed = knife_in(text)
            if night == r.day and proposed in allowed:
                return proposed
    else:
        previous = sorted((s, t) for n, s, t in r.nominations if n == last and t in allowed)
        if previous:
            counts = {t: sum(1 for _, u in previous if u == t) for _, t in previous}
            best = max(counts.values())
            return next(t for _, t in previous if counts[t] == best)
    return knife_preference(r, tuple(allowed), rng) if allowed else None


def vote_target(r: Reading, targets: tuple[SeatId, ...], rng: random.Random) -> SeatId | None:
    """Whom a wolf votes out.

    The fake seer's accused, else the real seer when the team runs a fake one, else the
    seat the table suspects most; a partner only rarely.
    """
    candidates = [t for t in targets if t not in r.team]
    p = wolf_probabilities(r, public_outlook(r))
    partners = [t for t in targets if t in r.team and t != r.me and p.get(t, 0.0) >= 0.8]
    if partners and rng.random() < BUS_CHANCE:
        return partners[0]
    if not candidates:
        return None
    fake = jumper(r)
    if fake is not None:
        accused = [t for t, wolf in claimed_checks(r, fake).items() if wolf and t in candidates]
        if accused:
            return accused[-1]
        real = [t for t in threats(r) if t in candidates]
        if real:
            return real[0]
    boost = 0.15 if r.sheriff in r.team else 0.0
    return top({t: p.get(t, 0.5) + (boost if t in r.recommended else 0.0) for t in candidates}, rng)


def explosion(r: Reading, request: DecisionRequest, seed: int) -> SelfExplode | None:
    """Whether to self-explode now, where the request allows it.

    A white wolf king takes a real seer who claimed (more surely if that seer named him);
    a plain wolf explodes only when the real seer has named him, to end the day before
    the vote (a blood-moon apostle more readily: his explosion seals the gods). The king
    decides once a game, a plain wolf once a day, from the seed, so neither wavers from
    one explosion window to the next.
    """
    option = request.option("self_explode")
    if option is None or not r.is_wolf:
        return None
    seers = [s for s in threats(r) if s in option.targets]
    named = any(claimed_checks(r, s).get(r.me) for s in threats(r))
    if r.role is Role.WHITE_WOLF_KING and seers:
        chance = WWK_ACCUSED_CHANCE if named else WWK_CHANCE
        if dice(seed, "wwk").random() < chance:
            cred = credibility(r, public_outlook(r))
            return SelfExplode(target=max(seers, key=lambda s: (cred.get(s, 0.0), -s)))
        return None
    if option.target_required or not named or r.phase is not Phase.SPEECHES:
        return None
    chance = APOSTLE_CHANCE if r.role is Role.BLOOD_MOON_APOSTLE else EXPLODE_CHANCE
    return SelfExplode() if dice(seed, "explode", r.day).random() < chance else None
