"""What a bot claims when it speaks, by role, and the speech built from it.

- The seer claims at once and reports every real check (and calls counter-claimants wolves).
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

from arena.agents.bots import wolves
from arena.agents.bots.beliefs import (
    checker,
    claimed_checks,
    claimed_roles,
    credibility,
    own_outlook,
    public_outlook,
    seer_claimants,
    wolf_probabilities,
)
from arena.agents.bots.chance import top
from arena.agents.bots.reading import Reading
from arena.agents.bots.talk import Lang, speech_text
from arena.rules.actions import CheckClaim, Claims, Speak
from arena.rules.decisions import DecisionRequest
from arena.rules.types import Role, SeatId

FAKE_WOLF_CHECK = 0.55
"""Chance that an invented check calls a good seat a wolf (查殺) rather than good (金水)."""
FAKE_HUNTER_CHANCE = 0.3
"""Chance that a wolf named by the real seer claims the hunter in his defence."""
SUSPECT_FLOOR = 0.4
"""A good seat names as suspects only seats at least this likely to be wolves."""


def speak(r: Reading, request: DecisionRequest, rng: random.Random, lang: Lang) -> Speak:
    """The speech for `request` (a campaign, day, PK or defence speech, or last words)."""
    if r.role is checker(r):
        claims, wanted = _seer_claims(r)
    elif r.is_wolf and wolves.jumper(r) == r.me:
        claims, wanted = _fake_seer_claims(r, rng)
    elif r.is_wolf:
        claims, wanted = _wolf_claims(r, request, rng)
    else:
        claims, wanted = _good_claims(r, request, rng)
    option = request.option("speak")
    limit = option.max_chars if option is not None else None
    context = request.context or "day"
    return Speak(text=speech_text(claims, lang, context, wanted, limit), claims=claims)


def _present(r: Reading, seats: list[SeatId]) -> tuple[SeatId, ...]:
    return tuple(s for s in seats if s in r.present and s != r.me)


def _seer_claims(r: Reading) -> tuple[Claims, SeatId | None]:
    checks = dict(r.checks)
    liars = [s for s in seer_claimants(r) if s != r.me]
    suspects = _present(r, [t for t, wolf in checks.items() if wolf] + liars)
    trusts = _present(r, [t for t, wolf in checks.items() if not wolf])
    claims = Claims(
        role=r.role,
        checks=tuple(CheckClaim(seat=t, is_wolf=w) for t, w in checks.items()),
        suspects=suspects,
        trusts=trusts,
    )
    return claims, (suspects[0] if suspects else None)


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
