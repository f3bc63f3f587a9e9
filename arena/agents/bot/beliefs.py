"""The bot's judgement: how far to believe each seer claim, and who is probably a wolf.

Evidence adds up as log-odds per seat (a credible seer's check, a contradicted claim, a
vote against a trusted seat, a night death); the log-odds are then shifted together so the
probabilities add up to the number of wolves not yet accounted for. The weights are plain
constants, chosen so one credible check outweighs any amount of table talk.

An `Outlook` says what a judgement may take as certain: a seat's own secrets (`own`) or
only what the whole table knows (`public`, which wolves use to argue like good players).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from arena.agents.bot.reading import EXILE_BALLOTS, Reading
from arena.rules.actions import CheckClaim
from arena.rules.roles import is_god, is_wolf
from arena.rules.types import Role, SeatId

CHECK_WOLF = 3.0
"""Log-odds a fully credible 'wolf' check adds to its target."""
CHECK_GOOD = -1.5
"""Log-odds a fully credible 'good' check adds to its target."""
FAKE_CLAIM = 3.0
"""Log-odds of a seer claimant we think is lying (scaled by disbelief)."""
REAL_CLAIM = -2.0
"""Log-odds of a seer claimant we believe (scaled by belief)."""
NIGHT_DEATH = -2.0
"""A seat that died at night was most likely knifed, so most likely good."""
VOTED_GOOD = 0.7
"""Voting to exile a seat known or believed good."""
ACCUSED_GOOD = 0.8
"""Calling a seat known or believed good a wolf."""
FOLLOWED_WOLF = 0.4
"""Voting with a seat later known as a wolf."""
CROWDED_ROLE = 1.2
"""Claiming a role more seats claim than the board has."""
LONE_ROLE = -0.6
"""An uncontested claim of a god role."""
KNIFE_SEEN = -1.5
"""The witch's hint: the seat the wolves knifed (wolves rarely knife themselves)."""
FIRST_CLAIM = 1.2
"""Weight of the first seer claim against later counter-claims (the table needs a lean)."""
WATCH_IDLE_SEER = 2.5
"""The watchman's hint: a claimed seer he watched did not act that night. The seer checks
every night, so the claim is most likely a lie — short of certain, since a nightmare may
have feared her."""
WATCH_ACTED = 0.6
"""The watchman's hint: a seat with no god claim used a night skill (a god or a wolf)."""
COUNTER_ACCUSE = 0.4
"""Weight of a counter-claim that 'checked' an earlier claimant as a wolf (對跳查殺): a
real seer seldom happens to have checked the very seat that claimed before him."""
GROWL = 1.2
"""The bear's growl, per neighbour not known good (one of the two is a wolf)."""


@dataclass(frozen=True, slots=True)
class Outlook:
    """What a judgement starts from: whose eyes, and which seats it takes as certain."""

    me: SeatId
    me_wolf: bool
    wolves: frozenset[SeatId]
    goods: frozenset[SeatId]
    seer: bool
    """Judging as the real seer: every other seer claimant is lying."""
    hints: tuple[tuple[SeatId, float], ...] = ()
    """Private evidence short of certainty, as (seat, log-odds)."""


def own_outlook(r: Reading) -> Outlook:
    """A seat's outlook with all its secrets.

    A wolf knows every wolf; a good seat knows its checks, the cards it found on bodies
    (the coroner), the public reveals, and that anyone claiming its own unique role lies —
    or a unique role whose card the coroner found on a body. A good lover takes his partner
    as good whatever his side: they live and die together (000:22), so he never works
    against him.
    """
    if r.is_wolf:
        wolves = r.team | r.public_wolves
        goods = frozenset(range(1, r.seats + 1)) - wolves
        return Outlook(r.me, True, wolves, goods, seer=False)
    holders = {role: seat for seat, role in r.examined} | {r.role: r.me}
    liars = {
        s
        for s, role in claimed_roles(r).items()
        if s != holders.get(role, s) and r.role_counts.get(role, 0) == 1
    }
    bodies = {t: is_wolf(role) for t, role in r.examined}
    found = {t for t, wolf in [*r.checks, *bodies.items()] if wolf}
    wolves = r.public_wolves | found | liars | impossible_claims(r)
    cleared = {t for t, wolf in [*r.checks, *bodies.items()] if not wolf}
    goods = (r.public_goods | {r.me} | cleared) - wolves
    if r.partner is not None:
        wolves = wolves - {r.partner}
        goods = goods | {r.partner}
    hints = tuple((s, KNIFE_SEEN) for s in r.knives_seen)
    if r.growls:
        wolves, goods, growled = _growl_evidence(r, frozenset(wolves), goods)
        hints += growled
    hints += watch_hints(r)
    seer = r.role is checker(r)
    return Outlook(r.me, False, frozenset(wolves), frozenset(goods), seer, hints)


def _growl_evidence(
    r: Reading, wolves: frozenset[SeatId], goods: frozenset[SeatId]
) -> tuple[frozenset[SeatId], frozenset[SeatId], tuple[tuple[SeatId, float], ...]]:
    """The bear's own reading of his growls (動物夢境).

    No growl clears both neighbours; a growl names the other neighbour a wolf when one is
    known good, else leans on both.
    """
    hints: list[tuple[SeatId, float]] = []
    for growled, pair in r.growls:
        if not growled:
            goods |= set(pair) - wolves
    for growled, pair in r.growls:
        if growled:
            suspects = [s for s in pair if s not in goods]
            if len(suspects) == 1:
                wolves |= set(suspects)
            else:
                hints += [(s, GROWL) for s in suspects]
    return wolves, goods - wolves, tuple(hints)


def watch_weight(role: Role | None, acted: bool) -> float:
    """The log-odds one watch adds to its seat, given the role that seat claims.

    An idle claimed seer is most likely lying; a seat that acted with no god claim used a
    night skill it does not own up to (a wolf's knife, or a hidden god). Anything else
    says nothing either way.
    """
    if not acted and role is Role.SEER:
        return WATCH_IDLE_SEER
    if acted and (role is None or not is_god(role)):
        return WATCH_ACTED
    return 0.0


def watch_hints(r: Reading) -> tuple[tuple[SeatId, float], ...]:
    """The watchman's evidence: an idle claimed seer, or a seat acting with no god claim."""
    claims = claimed_roles(r)
    hints = ((seat, watch_weight(claims.get(seat), acted)) for _, seat, acted in r.watches)
    return tuple((seat, w) for seat, w in hints if w)


def _growl_evidence_public(r: Reading, o: Outlook, logit: dict[SeatId, float]) -> None:
    """The public growls read around a lone bear claimant (動物夢境).

    A growl leans on his two living neighbours of that dawn; a silence clears them a little.
    """
    if not r.growl_log or r.role is Role.BEAR:
        return
    bears = [s for s, role in claimed_roles(r).items() if role is Role.BEAR]
    if len(bears) != 1 or bears[0] == o.me or bears[0] in o.wolves:
        return
    bear = bears[0]
    for growled, out in r.growl_log:
        ring = [s for s in range(1, r.seats + 1) if s not in out]
        if bear not in ring or len(ring) < 3:
            continue
        i = ring.index(bear)
        for seat in (ring[i - 1], ring[(i + 1) % len(ring)]):
            if seat != o.me and seat in logit:
                logit[seat] += GROWL if growled else -GROWL / 2


def public_outlook(r: Reading) -> Outlook:
    """What a good player in this chair would know: only the public reveals.

    That includes a claim of a role the board does not deal: a lie, so a wolf.
    """
    wolves = r.public_wolves | (impossible_claims(r) - {r.me})
    return Outlook(r.me, False, wolves, (r.public_goods | {r.me}) - wolves, seer=False)


def table_outlook(r: Reading) -> Outlook:
    """What the whole table knows, from nobody's chair: every seat is judged, this one too.

    A wolf uses it to guess whom the seer suspects (the phantom's mask).
    """
    wolves = r.public_wolves | impossible_claims(r)
    return Outlook(0, False, wolves, r.public_goods - wolves, seer=False)


def impossible_claims(r: Reading) -> frozenset[SeatId]:
    """Seats that claimed a role the board does not deal (the deal's counts are public).

    Only a wolf lies so: for example a fake seer on 純白夜影, which deals no seer.
    """
    return frozenset(s for s, role in claimed_roles(r).items() if not r.role_counts.get(role))


def claimed_roles(r: Reading) -> dict[SeatId, Role]:
    """Each seat's latest claimed role (seer claims included)."""
    roles: dict[SeatId, Role] = {}
    for speech in r.speeches:
        if speech.claims.role is not None:
            roles[speech.seat] = speech.claims.role
    return roles


def checker(r: Reading) -> Role | None:
    """The board's checking god whose claims bots weigh (None: the board deals none).

    The seer, or on a board without one the pure-white maiden (純白夜影), whose exact-role
    checks a claim reports as good or wolf.
    """
    for role in (Role.SEER, Role.PURE_WHITE_MAIDEN):
        if r.role_counts.get(role):
            return role
    return None


def seer_claimants(r: Reading) -> tuple[SeatId, ...]:
    """Seats that claimed the board's checker (`checker`), in the order they first did."""
    seen: dict[SeatId, None] = {}
    role = checker(r)
    for speech in r.speeches:
        if role is not None and speech.claims.role is role:
            seen.setdefault(speech.seat)
    return tuple(seen)


def claimed_checks(r: Reading, seat: SeatId) -> dict[SeatId, bool]:
    """Every check `seat` has claimed (a later claim about a seat replaces an earlier one)."""
    return {t: c.is_wolf for t, c in claimed_results(r, seat).items()}


def claimed_results(r: Reading, seat: SeatId) -> dict[SeatId, CheckClaim]:
    """Every result `seat` has reported, by the seat it is about (the latest one counts)."""
    results: dict[SeatId, CheckClaim] = {}
    for speech in r.speeches:
        if speech.seat == seat:
            results.update((c.seat, c) for c in speech.claims.checks)
    return results


REPORTERS = (Role.WATCHMAN, Role.CORONER)
"""Information roles other than the checker whose reported results a table weighs."""
REPORT_BELIEF = 0.8
"""Belief in an uncontested claimant of a reporting role (no wolf bot fakes one)."""


def reporters(r: Reading, o: Outlook) -> dict[SeatId, float]:
    """How far to believe each claimant of a reporting role (`REPORTERS`).

    A known claimant is believed or not; an uncontested claim gets `REPORT_BELIEF`; a
    crowded one shares that belief with its rivals. The holder of the role himself knows
    every other claimant lies (`own_outlook` counts him a wolf).
    """
    claims = claimed_roles(r)
    belief: dict[SeatId, float] = {}
    for role in REPORTERS:
        seats = [s for s, c in claims.items() if c is role and s != o.me]
        share = REPORT_BELIEF * min(1.0, r.role_counts.get(role, 0) / max(len(seats), 1))
        for s in seats:
            belief[s] = 0.0 if s in o.wolves else 1.0 if s in o.goods else share
    return belief


def reported(r: Reading, o: Outlook) -> list[tuple[CheckClaim, float]]:
    """Every result reported by a believed claimant of a reporting role, with the belief."""
    return [
        (c, b)
        for seat, b in reporters(r, o).items()
        if b > 0
        for c in claimed_results(r, seat).values()
    ]


def credibility(r: Reading, o: Outlook) -> dict[SeatId, float]:
    """The probability that each seer claimant is the real seer.

    A claim is dead when it contradicts what the outlook knows (a 'wolf' check on a known
    good seat). It gains weight when its claimant was knifed or taken by a white wolf king
    (wolves remove the real seer), won the badge, or found a known wolf; it loses weight
    when it calls an uncontested god a wolf or 'checked' an earlier claimant. The first
    claim gets a small lean so that good seats converge. Weights share one seer between
    them.
    """
    claimants = seer_claimants(r)
    if o.seer:
        return {c: (1.0 if c == o.me else 0.0) for c in claimants}
    roles = claimed_roles(r)
    weights: dict[SeatId, float] = {}
    for c in claimants:
        checks = claimed_checks(r, c)
        lies = any(
            (wolf and t in o.goods) or (not wolf and t in o.wolves) for t, wolf in checks.items()
        )
        if c in o.wolves or (lies and c not in o.goods):
            weights[c] = 0.0
            continue
        w = 4.0 if c in o.goods else 1.0
        w *= FIRST_CLAIM if c == claimants[0] else 1.0
        w *= COUNTER_ACCUSE if any(checks.get(d) for d in claimants[: claimants.index(c)]) else 1.0
        w *= 3.0 if c in r.night_deaths else 1.0
        w *= 4.0 if c in r.taken_by_wwk else 1.0
        w *= 1.3 if c == r.sheriff else 1.0
        w *= 2.0 if any(wolf and t in o.wolves for t, wolf in checks.items()) else 1.0
        god_accused = any(
            wolf and (role := roles.get(t)) is not None and is_god(role) and role is not checker(r)
            for t, wolf in checks.items()
        )
        weights[c] = w * (0.5 if god_accused else 1.0) * _autopsy_factor(r, o, c)
    total = sum(weights.values()) + 0.25
    return {c: w / total for c, w in weights.items()}


def believed_seer(
    r: Reading, o: Outlook, among: Collection[SeatId], least: float = 0.5
) -> SeatId | None:
    """The seer claimant in `among` most believed to be real, if one is believed `least`.

    Ties go to the lowest seat, so a seeded bot's choice never hangs on dict order.
    """
    cred = credibility(r, o)
    seers = {s: c for s, c in cred.items() if c >= least and s in among}
    return max(sorted(seers), key=lambda s: seers[s]) if seers else None


def wolf_probabilities(r: Reading, o: Outlook) -> dict[SeatId, float]:
    """The probability that each seat other than `o.me` (present or out) is a wolf.

    Memoized on the reading: one decision may ask several times.
    """
    cached = r.memo.get(o)
    if cached is None:
        cached = r.memo[o] = _wolf_probabilities(r, o)
    assert isinstance(cached, dict)
    return cached


def _wolf_probabilities(r: Reading, o: Outlook) -> dict[SeatId, float]:
    others = [s for s in range(1, r.seats + 1) if s != o.me]
    logit = dict.fromkeys(others, 0.0)
    cred = credibility(r, o)
    for c, belief in cred.items():
        if c != o.me:
            logit[c] += FAKE_CLAIM * (1 - belief) + REAL_CLAIM * belief
        for target, wolf in claimed_checks(r, c).items():
            if target != o.me and target not in cred:
                logit[target] += belief * (CHECK_WOLF if wolf else CHECK_GOOD)
    _role_claim_evidence(r, o, logit)
    _report_evidence(r, o, logit)
    _growl_evidence_public(r, o, logit)
    _speech_evidence(r, o, cred, logit)
    _vote_evidence(r, o, cred, logit)
    for seat in r.night_deaths - {o.me}:
        logit[seat] += NIGHT_DEATH
    for seat, weight in o.hints:
        if seat != o.me:
            logit[seat] += weight
    fixed = {s: 1.0 for s in o.wolves if s != o.me}
    fixed |= {s: 0.0 for s in o.goods if s != o.me and s not in fixed}
    unknown = {s: logit[s] for s in others if s not in fixed}
    expected = r.wolf_total - len([s for s in fixed if fixed[s]]) - int(o.me_wolf)
    return fixed | calibrate(unknown, expected)


def _report_evidence(r: Reading, o: Outlook, logit: dict[SeatId, float]) -> None:
    """Results reported by a believed watchman or coroner, scaled by the belief.

    A card found on a body counts as a check of it, and exposes every other claimant of
    that card when the board deals one (the checker's, through `credibility`); a watch
    counts as the watchman's own would (`watch_weight`).
    """
    claims = claimed_roles(r)
    for c, b in reported(r, o):
        if c.role is not None:
            if c.seat in logit:
                logit[c.seat] += b * (CHECK_WOLF if c.is_wolf else CHECK_GOOD)
            if r.role_counts.get(c.role, 0) == 1 and c.role is not checker(r):
                for seat, role in claims.items():
                    if role is c.role and seat not in (c.seat, o.me):
                        logit[seat] += b * FAKE_CLAIM
        elif c.acted is not None and c.seat in logit:
            logit[c.seat] += b * watch_weight(claims.get(c.seat), c.acted)


def _autopsy_factor(r: Reading, o: Outlook, claimant: SeatId) -> float:
    """How a believed coroner's autopsies change the weight of one checker claim.

    His card on the claimant's body settles it (the checker's card: ×(1+3b); another: ×(1-b));
    the checker's card on another body makes every other claim a lie.
    """
    factor = 1.0
    for c, b in reported(r, o):
        if c.role is None:
            continue
        if c.seat == claimant:
            factor *= 1 + 3 * b if c.role is checker(r) else 1 - b
        elif c.role is checker(r):
            factor *= 1 - b
    return factor


def _believed(o: Outlook, cred: dict[SeatId, float], seat: SeatId) -> bool:
    return seat in o.goods or cred.get(seat, 0.0) >= 0.6


def _role_claim_evidence(r: Reading, o: Outlook, logit: dict[SeatId, float]) -> None:
    by_role: dict[Role, list[SeatId]] = defaultdict(list)
    for seat, role in claimed_roles(r).items():
        if role is not checker(r) and seat != o.me:
            by_role[role].append(seat)
    for role, seats in by_role.items():
        crowded = len(seats) > r.role_counts.get(role, 0)
        for seat in seats:
            logit[seat] += CROWDED_ROLE if crowded else (LONE_ROLE if is_god(role) else 0.0)


def _speech_evidence(
    r: Reading, o: Outlook, cred: dict[SeatId, float], logit: dict[SeatId, float]
) -> None:
    said: set[tuple[SeatId, SeatId, bool]] = set()
    for speech in r.speeches:
        if speech.seat != o.me:
            said.update((speech.seat, t, True) for t in speech.claims.suspects)
            said.update((speech.seat, t, False) for t in speech.claims.trusts)
    for speaker, target, suspects in said:
        if suspects and _believed(o, cred, target):
            logit[speaker] += ACCUSED_GOOD
        elif suspects and target in o.wolves:
            logit[speaker] -= ACCUSED_GOOD
        elif not suspects and target in o.wolves:
            logit[speaker] += ACCUSED_GOOD


def _vote_evidence(
    r: Reading, o: Outlook, cred: dict[SeatId, float], logit: dict[SeatId, float]
) -> None:
    rounds: dict[tuple[int, str], dict[SeatId, SeatId]] = defaultdict(dict)
    for b in r.ballots:
        if b.ballot in EXILE_BALLOTS and b.target is not None:
            rounds[(b.day, b.ballot)][b.voter] = b.target
    for votes in rounds.values():
        wolf_targets = {t for v, t in votes.items() if v in o.wolves}
        for voter, target in votes.items():
            if voter == o.me or voter in o.wolves:
                continue
            if _believed(o, cred, target):
                logit[voter] += VOTED_GOOD
            elif target in o.wolves:
                logit[voter] -= VOTED_GOOD
            if target in wolf_targets:
                logit[voter] += FOLLOWED_WOLF


def calibrate(logit: dict[SeatId, float], expected: float) -> dict[SeatId, float]:
    """Shift all log-odds by one offset so the probabilities add up to `expected`.

    The sum is increasing in the offset, so a safeguarded Newton search (bisecting when a
    step leaves the bracket) finds it in a few steps; probabilities are kept within
    [0.01, 0.99], since nothing here is certain.
    """
    if not logit:
        return {}
    target = min(max(expected, 0.05), len(logit) - 0.05)
    values = list(logit.values())
    low, high, offset = -30.0, 30.0, 0.0
    for _ in range(30):
        ps = [_sigmoid(v + offset) for v in values]
        gap = sum(ps) - target
        if abs(gap) < 1e-6:
            break
        if gap < 0:
            low = offset
        else:
            high = offset
        slope = sum(p * (1 - p) for p in ps)
        step = offset - gap / slope if slope > 1e-12 else low - 1.0
        offset = step if low < step < high else (low + high) / 2
    return {s: min(max(_sigmoid(v + offset), 0.01), 0.99) for s, v in logit.items()}


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -500 else 0.0
