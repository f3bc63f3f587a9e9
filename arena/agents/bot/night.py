"""Night decisions: the guard, the seer, the witch, and the wolves' talk and knife.

Common table practice, kept simple:
- The guard leaves night 1 unguarded most of the time (空守), so his protection and the
  witch's antidote never land on one seat (同守同救 kills under 001 and 003); later he
  guards the seer he believes, else the sheriff, else himself.
- The seer checks the seat she suspects most among those she has not checked.
- The witch saves early (nights 1-2, or a believed seer or god later) unless the victim
  looks like a wolf, and poisons only a seat she is nearly sure of, never on night 1.
- The wolf beauty charms the seat whose death would hurt good most: the believed seer,
  else a claimed god, else the sheriff, else a random good-looking seat (never a teammate).
- The nightmare fears the believed seer, else a claimed god, never a teammate.
- The pure-white maiden checks like the seer (her exact-role checks count as checks), so
  from night 2 she checks the seat she suspects most; the wolf witch looks for her among
  the claimed gods first and, once found, checks her again from night 2. The gargoyle
  checks the seats he knows least about, claimed gods first; once alone he strikes a god
  he identified (never a hunter, who would shoot), else as a wolf would.
- The eclipse wolf consort keeps her one block for a seer the table believes (or, from
  night 2, a claimed guard or witch), never a teammate.
- The demon hunter hunts, from night 2, only a seat he is nearly sure is a wolf (a miss
  costs his life), else nobody.
- The alchemist witch keeps her mist for a seer she believes: from night 2 she lays it on
  the three seats she suspects most (never the seer, never herself), so the knife must
  fall on a likely wolf; her snake saves like the witch's antidote. The unsealed raven
  claw spends his one strike at once on the believed seer, else a claimed god, never a
  teammate nor tonight's knife.
- The bear (who has no decision) reads his own growls and names himself once he has growled;
  the other good bots read the public growls around a lone bear claimant (`beliefs`).
- The fox cub spends his one confusion, from night 2, on the seat he suspects most once he
  is fairly sure of it (a wolf confused stops the knife; a good seat wastes it).
- The dreamweaver shields the seer he believes (else the sheriff, else a seat he trusts)
  and never dreams the same seat two nights running, which would kill it.
- Cupid ties himself to a seat drawn among the others (004:3 丘比特本人也可以成為情侶的一方).
  A lover guards, saves and never knifes, shoots, poisons or votes out his partner: a good
  lover takes him as good whatever his side (they die together, 000:22).
- The magician swaps, from night 2, the seer he believes with the seat he most suspects
  (the wolves' knife on the seer then lands on a wolf); with no believed seer or no
  suspect he swaps nobody and keeps every seat swappable.
- The miracle merchant trades from night 2 only: a shield to the seer he believes (the
  wolves' knife), else a check to the seat he trusts most if it looks clearly good; never
  on night 1, when a trade is a blind bet on his life. The lucky one checks like the seer,
  poisons like the witch (only a near-certain wolf) and shields the believed seer (itself
  included); otherwise it keeps the gift.
- The secret admirer, who knows nothing on night 1, loves a random other seat; then she
  plays her love's side: good, she trusts him as a checked good seat; wolf-side, she
  plays as a wolf who knows one teammate, him (`Reading.loves_wolf`).
- The phantom masks the teammate the seer is likeliest to check: the one the table suspects
  most (night 1: any, himself included), never a wolf already exposed.
- The healer keeps his few protections for a seer he believes (else a trusted claimed
  god) and protects nobody on night 1 unless a seer has claimed (she has not yet).
- The thief takes the strongest bottom card he may: a seer or a witch before a guard,
  hunter or plain wolf, a special card after those, a plain villager last.
- The watchman watches a claimed god to test the claim (a claimed seer who did not act
  is lying), else the seat he suspects most; the coroner examines the dead claimant of a
  god role first (her card settles the counter-claim), else the latest dead he knows least.
"""

from __future__ import annotations

import random

from arena.agents.bot import wolves
from arena.agents.bot.beliefs import (
    believed_seer,
    claimed_checks,
    claimed_roles,
    credibility,
    own_outlook,
    public_outlook,
    seer_claimants,
    table_outlook,
    wolf_probabilities,
)
from arena.agents.bot.chance import bottom, top
from arena.agents.bot.reading import Reading
from arena.agents.bot.talk import whisper_text
from arena.rules.actions import (
    Action,
    Admire,
    Block,
    Charm,
    Confuse,
    Dream,
    Fear,
    Hunt,
    Inspect,
    Kill,
    Link,
    Mask,
    Mist,
    Pass,
    Poison,
    Protect,
    Save,
    Swap,
    TakeCard,
    Trade,
    Whisper,
)
from arena.rules.decisions import DecisionRequest
from arena.rules.roles import is_god
from arena.rules.types import Gift, Role, SeatId
from arena.text import Lang

EMPTY_GUARD_CHANCE = 0.7
"""Chance the guard protects nobody on night 1."""
POISON_SURE = 0.8
"""How sure the witch must be that a seat is a wolf to poison it."""
HUNT_SURE = 0.8
"""The demon hunter hunts only a seat at least this likely to be a wolf (backlash kills him)."""
SAVE_SUSPECT = 0.6
"""The witch does not save a victim she thinks this likely to be a wolf (自刀)."""
SWAP_SUSPECT = 0.5
"""The magician swaps the believed seer only with a seat at least this likely a wolf."""
TRADE_SEER = 0.6
"""The miracle merchant shields a seer claimant he believes at least this much."""
TRADE_CLEAR = 0.15
"""He gives a check only to a seat at most this likely to be a wolf (a wolf kills him)."""


def guard(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Protect the other lover, else the believed seer, the trusted sheriff, a god, oneself."""
    option = request.option("protect")
    legal = option.targets if option is not None else ()
    if not legal or (r.day == 1 and rng.random() < EMPTY_GUARD_CHANCE):
        return Pass()
    if r.partner is not None and r.partner in legal:
        return Protect(target=r.partner)  # a lover's death is his own (000:22 同生共死)
    o = own_outlook(r)
    believed = believed_seer(r, o, legal)
    if believed is not None:
        return Protect(target=believed)
    p = wolf_probabilities(r, o)
    trusted = [s for s in legal if s != r.me and p.get(s, 1.0) < 0.3]
    if r.sheriff in trusted:
        return Protect(target=r.sheriff)
    gods = [s for s, role in claimed_roles(r).items() if is_god(role) and s in trusted]
    if gods:
        return Protect(target=rng.choice(sorted(gods)))
    return Protect(target=r.me) if r.me in legal else Pass()


def seer(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Check the most suspected seat not yet checked (night 1: anyone)."""
    option = request.option("inspect")
    if option is None or not option.targets:
        return request.default
    done = {t for t, _ in r.checks} | set(seer_claimants(r))
    known = [t for t, wolf in r.checks if wolf and t in option.targets]
    if r.role is Role.PURE_WHITE_MAIDEN and r.day >= 2 and known:
        return Inspect(target=known[0])  # from night 2 her check kills a wolf she found
    fresh = [t for t in option.targets if t not in done] or list(option.targets)
    if r.day == 1:
        return Inspect(target=rng.choice(fresh))
    p = wolf_probabilities(r, own_outlook(r))
    scores = {t: p.get(t, 0.5) + 0.1 * rng.random() for t in fresh}
    target = top(scores, rng)
    return Inspect(target=target) if target is not None else request.default


def witch(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Save early, poison a near-certain wolf, otherwise keep the potions."""
    o = own_outlook(r)
    p = wolf_probabilities(r, o)
    save = request.option("save")
    if save is not None and save.targets:
        victim = save.targets[0]
        valued = (
            credibility(r, o).get(victim, 0.0) >= 0.5
            or victim == r.me
            or ((role := claimed_roles(r).get(victim)) is not None and is_god(role))
        )
        if victim == r.partner or (p.get(victim, 0.0) < SAVE_SUSPECT and (r.day <= 2 or valued)):
            return Save()
    poison = request.option("poison")
    if poison is not None and r.day > 1:
        sure = {t: p.get(t, 0.0) for t in poison.targets if p.get(t, 0.0) >= POISON_SURE}
        target = top(sure, rng)
        if target is not None:
            return Poison(target=target)
    return Pass()


def charm(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Charm the seat the team most wants to take down with her (never a teammate)."""
    option = request.option("charm")
    if option is None or not option.targets:
        return request.default
    legal = [s for s in option.targets if s not in r.team] or list(option.targets)
    believed = believed_seer(r, public_outlook(r), legal)
    if believed is not None:
        return Charm(target=believed)
    gods = sorted(s for s, role in claimed_roles(r).items() if is_god(role) and s in legal)
    if gods:
        return Charm(target=rng.choice(gods))
    if r.sheriff in legal:
        return Charm(target=r.sheriff)
    return Charm(target=rng.choice(legal))


def fear(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Fear the god who threatens the team most; never a teammate (that cancels the knife).

    The believed seer (her check fails), else a claimed god, else a random other seat.
    """
    option = request.option("fear")
    if option is None or not option.targets:
        return Pass()
    legal = [s for s in option.targets if s not in r.team]
    if not legal:
        return Pass()
    believed = believed_seer(r, public_outlook(r), legal)
    if believed is not None:
        return Fear(target=believed)
    gods = sorted(s for s, role in claimed_roles(r).items() if is_god(role) and s in legal)
    return Fear(target=rng.choice(gods or legal))


def block(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Spend the one block on a believed seer, else (from night 2) a claimed guard or witch."""
    option = request.option("block")
    if option is None:
        return Pass()
    legal = [s for s in option.targets if s not in r.team]
    believed = believed_seer(r, public_outlook(r), legal)
    if believed is not None:
        return Block(target=believed)
    wanted = (Role.GUARD, Role.WITCH)
    gods = sorted(s for s, role in claimed_roles(r).items() if role in wanted and s in legal)
    if gods and r.day >= 2:
        return Block(target=rng.choice(gods))
    return Pass()


def identify(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Check a seat whose card is still unknown: a claimed god first, else any."""
    option = request.option("inspect")
    if option is None or not option.targets:
        return request.default
    maiden = [s for s, role in r.identified if role is Role.PURE_WHITE_MAIDEN]
    if r.role is Role.WOLF_WITCH and maiden and maiden[0] in option.targets and r.day >= 2:
        return Inspect(target=maiden[0])  # found her already: from night 2 the check kills
    known = {s for s, _ in r.identified} | r.public_wolves | r.public_goods
    fresh = [s for s in option.targets if s not in known] or list(option.targets)
    gods = sorted(s for s, role in claimed_roles(r).items() if is_god(role) and s in fresh)
    return Inspect(target=rng.choice(gods or fresh))


CONFUSE_SURE = 0.55
"""The fox cub confuses only a seat at least this likely to be a wolf (it is his one)."""


def confuse(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Confuse the most suspected seat, if suspected enough; otherwise keep the skill."""
    option = request.option("confuse")
    if option is None or not option.targets:
        return Pass()
    p = wolf_probabilities(r, own_outlook(r))
    sure = {s: p.get(s, 0.0) for s in option.targets if p.get(s, 0.0) >= CONFUSE_SURE}
    target = top(sure, rng)
    return Confuse(target=target) if target is not None else Pass()


def mist(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """From night 2, shield a believed seer: the knife must fall on one of three suspects."""
    option = request.option("mist")
    if option is None or r.day < 2:
        return Pass()
    o = own_outlook(r)
    cred = credibility(r, o)
    seers = [s for s, c in cred.items() if c >= 0.5 and s in option.targets and s != r.me]
    if not seers:
        return Pass()
    p = wolf_probabilities(r, o)
    others = [s for s in option.targets if s != r.me and s not in seers]
    if len(others) < 3:
        return Pass()
    ranked = sorted(others, key=lambda s: (-(p.get(s, 0.5) + 0.01 * rng.random()), s))
    return Mist(targets=tuple(sorted(ranked[:3])))


def claw(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Spend the one strike at once, never on a teammate nor tonight's knife.

    The believed seer, else a claimed god, else the seat a wolf would knife.
    """
    option = request.option("kill")
    if option is None:
        return Pass()
    knifed = {t for round_, _, t in r.nominations if round_ == _last_round(r)}
    legal = [s for s in option.targets if s not in r.team and s not in knifed]
    if not legal:
        return Pass()
    believed = believed_seer(r, public_outlook(r), legal)
    if believed is not None:
        return Kill(target=believed)
    gods = sorted(s for s, role in claimed_roles(r).items() if is_god(role) and s in legal)
    target = rng.choice(gods) if gods else wolves.knife_preference(r, tuple(legal), rng)
    return Kill(target=target) if target is not None else Pass()


def _last_round(r: Reading) -> int:
    """Tonight's last knife round seen (0: none)."""
    return max((round_ for round_, _, _ in r.nominations), default=0)


def mask(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Mask the wolf the seer is likeliest to check tonight: the most suspected by the table.

    A wolf the table already knows (exploded, flipped) gains nothing from a good check, and
    a seer claimant does not check again a seat she has reported.
    """
    option = request.option("mask")
    if option is None or not option.targets:
        return Pass()
    reported = {t for c in seer_claimants(r) for t in claimed_checks(r, c)}
    legal = [s for s in option.targets if s not in r.public_wolves | reported]
    if not legal:
        return Pass()
    if r.day == 1:
        return Mask(target=rng.choice(legal))
    p = wolf_probabilities(r, table_outlook(r))
    scores = {s: p.get(s, 0.5) + 0.05 * rng.random() for s in legal}
    target = top(scores, rng)
    return Mask(target=target) if target is not None else Pass()


def heal(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Spend a limited protection on the believed seer, else a trusted claimed god."""
    option = request.option("protect")
    if option is None or not option.targets:
        return Pass()
    o = own_outlook(r)
    believed = believed_seer(r, o, option.targets)
    if believed is not None:
        return Protect(target=believed)
    p = wolf_probabilities(r, o)
    gods = sorted(
        s
        for s, role in claimed_roles(r).items()
        if is_god(role) and s in option.targets and p.get(s, 1.0) < 0.3
    )
    if gods and r.day >= 2:
        return Protect(target=rng.choice(gods))
    return Pass()


def watch(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Test a god claim not yet watched (a claimed seer first), else the most suspected seat."""
    option = request.option("inspect")
    if option is None or not option.targets:
        return request.default
    legal = option.targets
    watched = {t for _, t, _ in r.watches}
    claims = claimed_roles(r)
    seers = [s for s in seer_claimants(r) if s in legal and s not in watched]
    if seers:
        return Inspect(target=seers[0])
    gods = sorted(s for s, role in claims.items() if is_god(role) and s in legal)
    fresh = [s for s in gods if s not in watched]
    if fresh:
        return Inspect(target=rng.choice(fresh))
    p = wolf_probabilities(r, own_outlook(r))
    scores = {s: p.get(s, 0.5) + 0.1 * rng.random() for s in legal if s not in r.public_wolves}
    target = top(scores, rng)
    return Inspect(target=target) if target is not None else request.default


def autopsy(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Examine a dead god claimant first, else (from night 3) the latest unknown dead seat.

    A unique role's card on a body exposes every living claimant of it; a body whose card
    is already public teaches nothing, and early on the autopsy is worth keeping.
    """
    option = request.option("inspect")
    if option is None or not option.targets:
        return Pass()
    known = {s for s, _ in r.examined} | r.public_wolves | r.public_goods
    legal = [s for s in option.targets if s not in known]
    if not legal:
        return Pass()
    claims = claimed_roles(r)
    gods = sorted(s for s in legal if (role := claims.get(s)) is not None and is_god(role))
    if gods:
        return Inspect(target=rng.choice(gods))
    return Inspect(target=legal[-1]) if r.day >= 3 else Pass()


THIEF_PREFERENCE = (Role.SEER, Role.WITCH, Role.GUARD, Role.HUNTER, Role.WEREWOLF)
"""The thief's order of preference among cards a table usually deals (others after)."""


def take_card(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Take the strongest legal bottom card: a seer or witch first, a plain villager last.

    A card outside `THIEF_PREFERENCE` (a special god or wolf) ranks after it, the
    villager card last of all: it has no skill.
    """
    option = request.option("take_card")
    if option is None or not option.targets or not r.bottom:
        return request.default

    def rank(card: int) -> tuple[int, float]:
        role = r.bottom[card - 1]
        if role is Role.VILLAGER:
            return (len(THIEF_PREFERENCE) + 1, rng.random())
        index = THIEF_PREFERENCE.index(role) if role in THIEF_PREFERENCE else len(THIEF_PREFERENCE)
        return (index, rng.random())

    return TakeCard(target=min(option.targets, key=rank))


def gargoyle_target(r: Reading, legal: tuple[SeatId, ...], rng: random.Random) -> SeatId | None:
    """The lone gargoyle's strike: a god he identified (not a hunter), else None."""
    gods = sorted(
        s for s, role in r.identified if s in legal and is_god(role) and role is not Role.HUNTER
    )
    return rng.choice(gods) if gods else None


def hunt(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Hunt the seat most surely a wolf, if sure enough; otherwise hunt nobody."""
    option = request.option("hunt")
    if option is None or not option.targets:
        return Pass()
    p = wolf_probabilities(r, own_outlook(r))
    sure = [s for s in option.targets if p.get(s, 0.0) >= HUNT_SURE]
    if not sure:
        return Pass()
    return Hunt(target=max(sure, key=lambda s: (p[s], -s)))


def dream(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Shield the believed seer or sheriff; never last night's dreamer (that kills him)."""
    option = request.option("dream")
    if option is None or not option.targets:
        return request.default
    last = r.dreams[-1][1] if r.dreams and r.dreams[-1][0] == r.day - 1 else None
    legal = [s for s in option.targets if s != last] or list(option.targets)
    o = own_outlook(r)
    believed = believed_seer(r, o, legal)
    if believed is not None:
        return Dream(target=believed)
    if r.sheriff in legal and r.sheriff is not None:
        return Dream(target=r.sheriff)
    p = wolf_probabilities(r, o)
    trusted = [s for s in legal if p.get(s, 1.0) < 0.3]
    return Dream(target=rng.choice(trusted or legal))


def swap(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Swap the believed seer with the most suspected seat, from night 2; else pass.

    The seer is the wolves' usual knife, so the swap turns their knife on a wolf; the
    seer's own check of that suspect would then read the seer himself, a price worth the
    knife (the magician can say so by day).
    """
    option = request.option("swap")
    if option is None or r.day < 2:
        return Pass()
    legal = [s for s in option.targets if s != r.me]
    o = own_outlook(r)
    seer = believed_seer(r, o, legal)
    if seer is None:
        return Pass()
    p = wolf_probabilities(r, o)
    suspects = {s: p[s] for s in legal if s != seer and p.get(s, 0.0) >= SWAP_SUSPECT}
    target = top(suspects, rng)
    return Swap(targets=(seer, target)) if target is not None else Pass()


def admire(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Love a random other seat (night 1: nothing is known yet)."""
    option = request.option("admire")
    if option is None or not option.targets:
        return request.default
    return Admire(target=rng.choice(option.targets))


def trade(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """From night 2: a shield for the believed seer, else a check for a clearly good seat."""
    option = request.option("trade")
    if option is None or r.day < 2:
        return Pass()
    o = own_outlook(r)
    believed = believed_seer(r, o, option.targets, TRADE_SEER)
    if believed is not None:
        return Trade(target=believed, gift=Gift.SHIELD)
    p = wolf_probabilities(r, o)
    clear = {s: p[s] for s in option.targets if p.get(s, 1.0) <= TRADE_CLEAR}
    target = bottom(clear, rng)
    return Trade(target=target, gift=Gift.CHECK) if target is not None else Pass()


def lucky(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Use the gift as its god would; keep it when there is no good use tonight."""
    if request.option("inspect") is not None:
        return seer(r, request, rng)
    o = own_outlook(r)
    poison = request.option("poison")
    if poison is not None:
        p = wolf_probabilities(r, o)
        sure = {t: p.get(t, 0.0) for t in poison.targets if p.get(t, 0.0) >= POISON_SURE}
        target = top(sure, rng)
        return Poison(target=target) if target is not None else Pass()
    shield = request.option("protect")
    if shield is None:
        return Pass()
    believed = believed_seer(r, o, shield.targets)
    if believed is not None:
        return Protect(target=believed)
    return Pass()


def cupid(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Tie himself to a seat drawn among the others (004:3 丘比特本人也可以成為情侶的一方).

    On night 1 nothing is known of anyone; tying himself gives cupid a partner he knows
    and a stake in the couple, the usual table practice, and his partner learns one seat
    it can trust.
    """
    option = request.option("link")
    if option is None or len(option.targets) < 2:
        return request.default
    others = [s for s in option.targets if s != r.me]
    if r.me not in option.targets:
        return Link(targets=tuple(sorted(rng.sample(others, 2))))
    return Link(targets=tuple(sorted((r.me, rng.choice(others)))))


def whisper(
    r: Reading, request: DecisionRequest, seed: int, rng: random.Random, lang: Lang
) -> Action:
    """Propose tonight's knife to the team (and, night 1, maybe volunteer to fake the seer)."""
    option = request.option("whisper")
    living = tuple(
        s for s in r.present if s not in r.team and (not r.knife_limit or s in r.knife_limit)
    )
    target = wolves.knife_preference(r, living, rng)
    if option is None or target is None:
        return Pass()
    return Whisper(text=whisper_text(target, wolves.volunteers(r, seed), lang, option.max_chars))


def knife(r: Reading, request: DecisionRequest, rng: random.Random) -> Action:
    """Nominate the team's knife (see `wolves.knife_choice`)."""
    option = request.option("kill")
    if option is None or not option.targets:
        return request.default
    target = None
    if r.role is Role.GARGOYLE:
        target = gargoyle_target(r, option.targets, rng)
    target = target or wolves.knife_choice(r, option.targets, rng)
    if target is None:
        return Pass() if request.option("pass") is not None else Kill(target=option.targets[0])
    return Kill(target=target)
