"""What a bot claims when it speaks, by role, and the speech built from it.

- The seer claims at once and reports every real check (and calls counter-claimants wolves).
- The watchman and the coroner report their results in the same claim (`own_results`),
  once a result helps the good side more than their cover does (`_tells`): a watch that
  names a living seat, a wolf's card on a body, a living claimant an autopsy exposes.
- The fake seer (a wolf, see `wolves.jumper`) tells a consistent story: the checks of his
  earlier speeches, plus one invented check per new night, on good seats only; when the
  real seer has claimed, he names him a wolf (對跳).
- Good seats back the seer they believe and name the seats they suspect most; a god named
  as a wolf reveals his role to save himself.
- Other wolves argue from the public record, back their fake seer, and now and then claim
  the hunter when named by the real seer.
"""

from __future__ import annotations

import random

from arena.agents.bot import wolves
from arena.agents.bot.beliefs import (
    checker,
    claimed_checks,
    claimed_roles,
    credibility,
    own_outlook,
    public_outlook,
    seer_claimants,
    watch_weight,
    wolf_probabilities,
)
from arena.agents.bot.chance import top
from arena.agents.bot.reading import Reading
from arena.agents.bot.talk import speech_text
from arena.rules.actions import CheckClaim, Claims, Speak
from arena.rules.decisions import DecisionRequest
from arena.rules.roles import is_god, is_wolf
from arena.rules.types import Role, SeatId
from arena.text import Lang

FAKE_WOLF_CHECK = 0.55
"""Chance that an invented check calls a good seat a wolf (查殺) rather than good (金水)."""
FAKE_HUNTER_CHANCE = 0.3
"""Chance that a wolf named by the real seer claims the hunter in his defence."""
SUSPECT_FLOOR = 0.4
"""A good seat names as suspects only seats at least this likely to be wolves."""


def speak(r: Reading, request: DecisionRequest, rng: random.Random, lang: Lang) -> Speak:
    """The speech for `request` (a campaign, day, PK or defence speech, or last words)."""
    if r.role is checker(r):
        claims, wanted = _report_claims(r, own_results(r))
    elif r.is_wolf and wolves.jumper(r) == r.me:
        claims, wanted = _fake_seer_claims(r, rng)
    elif r.is_wolf:
        claims, wanted = _wolf_claims(r, request, rng)
    elif (results := own_results(r)) and _tells(r, request, results):
        claims, wanted = _report_claims(r, results, _good_claims(r, request, rng))
    else:
        claims, wanted = _good_claims(r, request, rng)
    claims = consistent(claims, r.me)
    option = request.option("speak")
    limit = option.max_chars if option is not None else None
    context = request.context or "day"
    return Speak(text=speech_text(claims, lang, context, wanted, limit), claims=claims)


def consistent(claims: Claims, me: SeatId) -> Claims:
    """`claims` without what would contradict them (`claim_contradiction` refuses it).

    A seat both suspected and trusted stays a suspect (the sharper reading, and the one
    the speech's vote follows); the speaker names neither himself nor a check of himself;
    a seat's first reported result is its one result (`checks_conflict`).
    """
    suspects = tuple(s for s in claims.suspects if s != me)
    first = {c.seat: i for i, c in reversed(list(enumerate(claims.checks))) if c.seat != me}
    return claims.model_copy(
        update={
            "suspects": suspects,
            "trusts": tuple(s for s in claims.trusts if s != me and s not in suspects),
            "checks": tuple(c for i, c in enumerate(claims.checks) if first.get(c.seat) == i),
        }
    )


def _present(r: Reading, seats: list[SeatId]) -> tuple[SeatId, ...]:
    return tuple(s for s in seats if s in r.present and s != r.me)


def own_results(r: Reading) -> tuple[CheckClaim, ...]:
    """This seat's own night results, as its role reports them (empty: nothing to report).

    The checker's checks; the coroner's autopsies with the card found; the watchman's
    watches that say something (`watch_weight`: an idle claimed seer, a seat that acted
    with no god claim) or that clear a seat claiming no god (it did not join the knife).
    """
    if r.role is checker(r):
        return tuple(CheckClaim(seat=t, is_wolf=w) for t, w in dict(r.checks).items())
    if r.role is Role.CORONER:
        return tuple(CheckClaim(seat=t, is_wolf=is_wolf(c), role=c) for t, c in r.examined)
    if r.role is not Role.WATCHMAN:
        return ()
    roles = claimed_roles(r)
    results = []
    for seat, acted in {seat: acted for _, seat, acted in r.watches}.items():
        role = roles.get(seat)
        weight = watch_weight(role, acted)
        if weight or not (acted or (role is not None and is_god(role))):
            results.append(CheckClaim(seat=seat, is_wolf=weight > 0, acted=acted))
    return tuple(results)


def _tells(r: Reading, request: DecisionRequest, results: tuple[CheckClaim, ...]) -> bool:
    """Whether a watchman or coroner reveals himself and his results in this speech.

    When they help the good side more than his cover does: a result that names a living
    seat a wolf, a wolf's card on a body, a living claimant his autopsy exposes (`_liars`);
    or when his life is at stake anyway (accused by a seer claimant, on trial, last words).
    """
    if request.context in ("pk", "defence", "prince", "last_words"):
        return True
    if any(claimed_checks(r, c).get(r.me) for c in seer_claimants(r)):
        return True
    found = any(c.is_wolf and (c.role is not None or c.seat in r.present) for c in results)
    return found or bool(_present(r, _liars(r)))


def _liars(r: Reading) -> list[SeatId]:
    """Claimants of a unique role whose holder this seat knows, in the order they claimed.

    The holder is this seat itself (the checker) or a body whose card it found (the coroner).
    """
    found = [s for s in seer_claimants(r) if s != r.me] if r.role is checker(r) else []
    holders = {role: seat for seat, role in r.examined if r.role_counts.get(role, 0) == 1}
    for seat, role in claimed_roles(r).items():
        if holders.get(role, seat) != seat and seat not in found:
            found.append(seat)
    return found


def _report_claims(
    r: Reading,
    results: tuple[CheckClaim, ...],
    fallback: tuple[Claims, SeatId | None] | None = None,
) -> tuple[Claims, SeatId | None]:
    """Claim the role and report `results`, as the seer does and every information role.

    The results' wolves and the liars they expose (`_liars`) are the suspects, their good
    seats the trusts. Where the results name no living suspect, `fallback` (the seat's
    ordinary claims) gives the seats it suspects; its trusts are added either way.
    """
    suspects = _present(r, [c.seat for c in results if c.is_wolf] + _liars(r))
    trusts = _present(r, [c.seat for c in results if not c.is_wolf])
    wanted = suspects[0] if suspects else None
    if fallback is not None:
        extra, also = fallback
        if not suspects:
            suspects, wanted = extra.suspects, also
        trusts += tuple(s for s in extra.trusts if s not in trusts and s not in suspects)
    claims = Claims(role=r.role, checks=results, suspects=suspects, trusts=trusts)
    return claims, wanted


def _fake_seer_claims(r: Reading, rng: random.Random) -> tuple[Claims, SeatId | None]:
    checks = claimed_checks(r, r.me)
    goods = [s for s in r.present if s not in r.team and s not in checks]
    real = [s for s in wolves.threats(r) if s not in checks]
    for _night in range(len(checks), r.day):
        if real:
            checks[real.pop(0)] = True
        elif goods:
            seat = goods.pop(rng.randrange(len(goods)))
            checks[seat] = rng.random() < FAKE_WOLF_CHECK
    suspects = _present(r, [t for t, wolf in checks.items() if wolf])
    trusts = _present(r, [t for t, wolf in checks.items() if not wolf])
    claims = Claims(
        role=checker(r) or Role.SEER,
        checks=tuple(CheckClaim(seat=t, is_wolf=w) for t, w in checks.items()),
        suspects=suspects,
        trusts=trusts,
    )
    return claims, (suspects[-1] if suspects else None)


def _good_claims(
    r: Reading, request: DecisionRequest, rng: random.Random
) -> tuple[Claims, SeatId | None]:
    o = own_outlook(r)
    cred = credibility(r, o)
    p = wolf_probabilities(r, o)
    believed = tuple(s for s, c in sorted(cred.items()) if c >= 0.5 and s in r.present)
    ranked = sorted(
        (s for s in r.others() if p.get(s, 0.0) >= SUSPECT_FLOOR), key=lambda s: (-p[s], s)
    )
    suspects = tuple(ranked[:2])
    accused = any(claimed_checks(r, c).get(r.me) for c in seer_claimants(r))
    on_trial = request.context in ("pk", "defence", "prince")
    growled = any(g for g, _ in r.growls)  # the bear names himself once he has growled
    role = r.role if r.role is not Role.VILLAGER and (accused or on_trial or growled) else None
    claims = Claims(role=role, suspects=suspects, trusts=believed)
    wanted = top({s: p[s] for s in suspects}, rng)
    return claims, wanted


def _wolf_claims(
    r: Reading, request: DecisionRequest, rng: random.Random
) -> tuple[Claims, SeatId | None]:
    p = wolf_probabilities(r, public_outlook(r))
    fake = wolves.jumper(r)
    named = any(claimed_checks(r, s).get(r.me) for s in wolves.threats(r))
    role = None
    hunter_free = Role.HUNTER in r.role_counts and Role.HUNTER not in claimed_roles(r).values()
    if named and hunter_free and rng.random() < FAKE_HUNTER_CHANCE:
        role = Role.HUNTER
    wanted = wolves.vote_target(r, r.others(), rng)
    if wanted in r.team:
        wanted = None
    suspects = _present(r, [wanted] if wanted is not None else [])
    if fake is not None:
        trusts = _present(r, [fake])
    else:
        cred = credibility(r, public_outlook(r))
        trusts = _present(
            r,
            [
                s
                for s, c in sorted(cred.items())
                if c >= 0.5 and s not in r.team and not named and p.get(s, 1.0) < 0.5
            ],
        )
    return Claims(role=role, suspects=suspects, trusts=trusts), wanted
