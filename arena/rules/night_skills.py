"""The night skills that are not checks: each role's request and what its answer writes.

The guard, the dreamweaver, the demon hunter, the secret admirer, the magician, cupid, the
thief, the nightmare, the eclipse wolf consort, the blood moon's seal, the fox cub, the
alchemist witch's mist and snake, the raven claw, the wolf beauty's charm, the miracle
merchant and the lucky one, the healer and the gargoyle's lone knife. The rules of each are
in `arena.rules.night`'s docstring and docs/roles.md; the order is there, the resolution in
`arena.rules.dawn`.
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.actions import (
    Action,
    ActionKind,
    Admire,
    Block,
    Charm,
    Dream,
    Fear,
    Hunt,
    Kill,
    Link,
    Mist,
    Pass,
    Protect,
    Save,
    TakeCard,
    Trade,
)
from arena.rules.animals import confused, fox_request, pickable
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, pick_or_pass
from arena.rules.night_acts import Acts, first_living, knife_party
from arena.rules.roles import is_god, is_wolf, spec
from arena.rules.table import Flow, Table
from arena.rules.types import Gift, Role, SeatId
from arena.rules.visibility import to_seats


def guard_request(t: Table, guard: SeatId) -> DecisionRequest:
    """The guard protects a living seat, himself allowed, not last night's (000:36), or passes."""
    targets = tuple(s for s in t.state.living() if s != t.state.last_guarded)
    options = pick_or_pass("protect", targets)
    return t.request(guard, DecisionKind.GUARD, options, Pass())


def dream_request(t: Table, dreamweaver: SeatId) -> DecisionRequest:
    """001:1667 攝夢人技能每晚必須選擇一位玩傢: mandatory, another living seat."""
    targets = tuple(s for s in t.state.living() if s != dreamweaver)
    options = (ActionOption(action="dream", targets=targets, target_required=True),)
    return t.request(dreamweaver, DecisionKind.DREAM, options, Dream(target=targets[0]))


def hunt_request(t: Table, hunter: SeatId) -> DecisionRequest | None:
    """The demon hunter's hunt: another living seat, or pass; from night 2 (001:1589-1591).

    On night 1 he only opens and closes his eyes (001:1505-1507): no request.
    """
    if t.state.day < 2:
        return None
    targets = tuple(s for s in t.state.living() if s != hunter)
    options = pick_or_pass("hunt", targets)
    return t.request(hunter, DecisionKind.HUNT, options, Pass())


def emit_hunt(t: Table, hunter: SeatId, answer: Action | None) -> SeatId | None:
    """Write the demon hunter's hunt (to him alone); the seat hunted, if any."""
    if not isinstance(answer, Hunt):
        return None
    t.emit(ev.DemonHunted(visibility=to_seats(hunter), seat=hunter, target=answer.target))
    return answer.target


def admire_request(t: Table, admirer: SeatId) -> DecisionRequest | None:
    """The secret admirer chooses her love on night 1 only: another living seat, no pass.

    Like the dreamweaver's dream the choice is mandatory (the card has no blank love), so
    a timeout loves the lowest-numbered other seat.
    """
    if t.state.day != 1 or admirer in t.state.admirers:
        return None
    targets = tuple(s for s in t.state.living() if s != admirer)
    options = (ActionOption(action="admire", targets=targets, target_required=True),)
    return t.request(admirer, DecisionKind.ADMIRE, options, Admire(target=targets[0]))


def swap_request(t: Table, magician: SeatId) -> DecisionRequest | None:
    """The magician's swap: two living seats never swapped before (himself allowed), or pass.

    Each seat may be swapped once a game (common play, docs/roles.md), so once fewer than
    two seats are left he has no swap to make and is not asked.
    """
    targets = tuple(s for s in t.state.living() if s not in t.state.swapped)
    if len(targets) < 2:
        return None
    options = pick_or_pass("swap", targets)
    return t.request(magician, DecisionKind.SWAP, options, Pass())


def cupid(t: Table) -> Flow[None]:
    """Cupid ties two living seats on night 1 (000:22 只有第一夜：指定兩人繫紅線).

    Then the lovers open their eyes and meet (004:3 丘比特——情侶). He acts first, alone
    (000:19 月老排在最前面，因此夢魘封不到月老), and may tie himself
    (004:3 丘比特本人也可以成為情侶的一方). The tie has no pass; a seat that times out ties
    the two lowest seats. Each lover learns the other's seat and side, not the card.
    """
    cupid = first_living(t, Role.CUPID)
    if cupid is None:
        return
    seats = t.state.living()
    options = (ActionOption(action="link", targets=seats, target_required=True),)
    request = t.request(cupid, DecisionKind.CUPID, options, Link(targets=seats[:2]))
    answer = yield from t.ask_one(request)
    chosen = answer.targets if isinstance(answer, Link) else seats[:2]
    first, second = sorted(chosen)
    t.emit(ev.LoversLinked(visibility=to_seats(cupid), seat=cupid, lovers=(first, second)))
    for lover, partner in ((first, second), (second, first)):
        wolf = is_wolf(t.role(partner))
        t.emit(
            ev.LoverMet(
                visibility=to_seats(lover), seat=lover, partner=partner, partner_is_wolf=wolf
            )
        )


def thief(t: Table) -> Flow[None]:
    """The thief's turn, first of night 1 (004:3 盗贼——丘比特——…), then the wolves meet.

    004 给盗贼选牌: he is shown the bottom cards and takes one, burying the other (埋);
    common play: he must take one, and must take a wolf card per `thief_takes_wolf`. When
    the thief card itself lies among the bottom cards nobody acts, and the wolves meet all
    the same, so the table learns nothing either way (004 不能留下场外信息).
    """
    thief = first_living(t, Role.THIEF)
    if thief is not None:
        cards = t.state.bottom
        t.emit(ev.BottomCardsShown(visibility=to_seats(thief), seat=thief, cards=cards))
        numbers = tuple(range(1, len(cards) + 1))
        wolves = tuple(i for i in numbers if is_wolf(cards[i - 1]))
        forced = wolves and (t.rules.thief_takes_wolf == "any" or len(wolves) == len(cards))
        legal = wolves if forced else numbers
        options = (ActionOption(action="take_card", targets=legal, target_required=True),)
        request = t.request(thief, DecisionKind.THIEF, options, TakeCard(target=legal[0]))
        answer = yield from t.ask_one(request)
        card = answer.target if isinstance(answer, TakeCard) else legal[0]
        role = cards[card - 1]
        t.emit(ev.CardTaken(visibility=to_seats(thief), seat=thief, card=card, role=role))
        t.emit(ev.RoleAssigned(visibility=to_seats(thief), seat=thief, role=role))
    t.meet_wolves()


def fear(t: Table) -> Flow[SeatId | None]:
    """The nightmare opens his eyes first and may fear another living seat (001:1665)."""
    nightmare = first_living(t, Role.NIGHTMARE)
    if nightmare is None:
        return None
    targets = tuple(s for s in t.state.living() if s != nightmare)
    return (
        yield from t.ask_aim(nightmare, DecisionKind.FEAR, "fear", targets, Fear, ev.SeatFeared)
    )


def consort_block(t: Table) -> Flow[SeatId | None]:
    """The eclipse wolf consort's block: another living seat, once a game, or pass.

    She opens her eyes alone (001:1925 請選擇你要封鎖的目標; 001:1883 狼妃技能僅生效一次).
    """
    consort = first_living(t, Role.ECLIPSE_WOLF_CONSORT)
    if consort is None or t.state.consort_used:
        return None
    targets = tuple(s for s in t.state.living() if s != consort)
    return (
        yield from t.ask_aim(consort, DecisionKind.BLOCK, "block", targets, Block, ev.SeatBlocked)
    )


def blood_moon_seal(t: Table, n: int) -> frozenset[SeatId]:
    """The gods sealed in night `n`.

    Every living god, if a blood-moon apostle exploded the day before (001:1459 血月使徒自爆;
    the night after the explosion, common play).
    """
    exploded = t.state.exploded
    if not any(spec(t.role(s)).explode_seals and day == n - 1 for s, day in exploded.items()):
        return frozenset()
    return frozenset(s for s in t.state.living() if is_god(t.role(s)))


def unseal(t: Table, n: int) -> None:
    """Fewer than 3 wolves alive at nightfall: the raven claw joins the pack for good.

    狼鴉之爪 (001:123; common play, roles.md): sealed, he neither meets the wolves nor joins
    their knife; once fewer than 3 wolf-side seats live at nightfall, he meets the living
    wolves (who knew him from the deal) and knifes with them from that night on.
    """
    if t.state.claw_unsealed:
        return
    wolves = t.state.wolves()
    claws = [s for s in wolves if spec(t.role(s)).sealed]
    if not claws or len(wolves) >= 3:
        return
    met = tuple(s for s in wolves if not spec(t.role(s)).lone)
    t.emit(
        ev.ClawUnsealed(
            visibility=t.wolf_channel({*met, *knife_party(t, n)}),
            seat=claws[0],
            wolves=met,
            roles=tuple(t.role(s) for s in met),
        )
    )


def confuse(t: Table, acts: Acts) -> Flow[SeatId | None]:
    """The fox cub opens his eyes first (001:127 子狐——狼美人+狼人) and may confuse a seat."""
    fox = first_living(t, Role.FOX_CUB)
    if fox is None or acts.fails(fox):
        return None
    request = fox_request(t, fox)
    if request is None:
        return None
    answer = yield from t.ask_one(request)
    return confused(t, fox, answer)


def lay_mist(t: Table, n: int, acts: Acts) -> Flow[tuple[SeatId, ...] | None]:
    """The alchemist witch's mist: three living seats, once a game, or pass (001:123 first).

    未明之霧 (common play, roles.md): tonight the wolves may knife only one of the three
    (they are shown the seats, not who laid them); her own seat and wolves may be among
    them. Not the raven claw's strike, which is his own attack.
    """
    alchemist = first_living(t, Role.ALCHEMIST_WITCH)
    if alchemist is None or t.state.mist_used or acts.fails(alchemist):
        return None
    if len(t.state.living()) < 3:  # three different seats, or no mist
        return None
    answer = yield from t.ask_pick(alchemist, DecisionKind.MIST, "mist", t.state.living(), Mist)
    if answer is None:
        return None
    mist = tuple(sorted(answer.targets))
    t.emit(ev.MistLaid(visibility=to_seats(alchemist), seat=alchemist, targets=mist))
    wolves = knife_party(t, n)
    if wolves:
        t.emit(ev.KnifeLimited(visibility=t.wolf_channel(wolves), targets=mist))
    return mist


def claw(t: Table, claw: SeatId) -> Flow[SeatId | None]:
    """The unsealed raven claw's one strike, alone after the knife (001:123 狼人——狼鴉之爪).

    Sealed, or with his strike spent, he only opens and closes his eyes. The strike is once
    a game, so it may be passed, and passing is the default (a timeout spends nothing).
    """
    if not t.state.claw_unsealed or t.state.claw_struck:
        return None
    targets = tuple(s for s in t.state.living() if s != claw)
    return (yield from t.ask_aim(claw, DecisionKind.CLAW, "kill", targets, Kill, ev.ClawStruck))


def snake(t: Table, alchemist: SeatId, knife: SeatId | None) -> Flow[bool]:
    """The alchemist witch's snake: while unused she is shown the knife and may save it.

    法老之蛇 (001:123 …狼鴉之爪——煉金魔女; common play, roles.md): once a game, spent only
    when used; she may save herself. An empty knife is shown too, and asks nothing.
    """
    if t.state.snake_used:
        return False
    t.emit(ev.KnifeShownToWitch(visibility=to_seats(alchemist), seat=alchemist, target=knife))
    if knife is None:
        return False
    options = (ActionOption(action="save", targets=(knife,)), ActionOption(action="pass"))
    answer = yield from t.ask_one(t.request(alchemist, DecisionKind.SNAKE, options, Pass()))
    saved = knife if isinstance(answer, Save) else None
    t.emit(ev.SnakeActed(visibility=to_seats(alchemist), seat=alchemist, saved=saved))
    return saved is not None


def charm(t: Table, beauty: SeatId) -> Flow[None]:
    """The wolf beauty opens her eyes alone and charms another living seat."""
    targets = tuple(s for s in t.state.living() if s != beauty and pickable(t, s))
    if not targets:
        return
    options = (ActionOption(action="charm", targets=targets, target_required=True),)
    request = t.request(beauty, DecisionKind.CHARM, options, Charm(target=targets[0]))
    answer = yield from t.ask_one(request)
    if isinstance(answer, Charm):
        t.emit(ev.BeautyCharmed(visibility=to_seats(beauty), seat=beauty, target=answer.target))


def trade_request(t: Table, merchant: SeatId) -> DecisionRequest | None:
    """The miracle merchant's one trade: another living seat and a gift, or pass.

    Passing keeps the trade and is the default (a trade with a wolf kills him, so it must
    not be made by seat order); after his trade he is not asked again.
    """
    if t.state.traded:
        return None
    targets = tuple(s for s in t.state.living() if s != merchant)
    options = pick_or_pass("trade", targets)
    return t.request(merchant, DecisionKind.TRADE, options, Pass())


def emit_trade(t: Table, merchant: SeatId, answer: Action | None, acts: Acts) -> None:
    """Write the trade; a wolf-side target fails it (the merchant dies tonight)."""
    if not isinstance(answer, Trade):
        return
    t.emit(
        ev.GiftGiven(
            visibility=to_seats(merchant), seat=merchant, target=answer.target, gift=answer.gift
        )
    )
    if t.state.wolf_side(answer.target):
        acts.failed_trade = merchant
    else:
        acts.new_lucky = (answer.target, answer.gift)


_GIFT_ACTION: dict[Gift, ActionKind] = {
    Gift.CHECK: "inspect",
    Gift.POISON: "poison",
    Gift.SHIELD: "protect",
}


def lucky(t: Table, acts: Acts) -> Flow[None]:
    """The lucky one's step (001:117 奇跡商人——幸運兒).

    The night of the trade it is told its gift; then, that night or any later one, while
    alive and the gift unused, it may use the gift once or keep it (the default). A check
    reads a seat's side like the seer's; a poison kills like the witch's; a shield protects
    a seat (itself allowed) from the knife like the guard's.
    """
    if acts.new_lucky is not None:
        seat, given = acts.new_lucky
        t.emit(ev.GiftReceived(visibility=to_seats(seat), seat=seat, gift=given))
    lucky, gift = t.state.lucky, t.state.lucky_gift
    if lucky is None or gift is None or t.state.gift_used or not t.state.is_alive(lucky):
        return
    living = t.state.living()
    targets = living if gift is Gift.SHIELD else tuple(s for s in living if s != lucky)
    options = (
        ActionOption(action=_GIFT_ACTION[gift], targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(lucky, DecisionKind.LUCKY, options, Pass()))
    target = getattr(answer, "target", None)
    if isinstance(answer, Pass) or target is None:
        return
    landed = acts.lands(target)
    assert landed is not None
    verdict = t.state.wolf_side(landed) if gift is Gift.CHECK else None
    t.emit(
        ev.GiftUsed(
            visibility=to_seats(lucky), seat=lucky, gift=gift, target=target, is_wolf=verdict
        )
    )
    if gift is Gift.SHIELD:
        acts.shielded = target
    elif gift is Gift.POISON:
        acts.lucky_poisoned = target


def heal_request(t: Table, healer: SeatId) -> DecisionRequest | None:
    """The healer protects another living seat, while protections last (000:26).

    限次護衛一人（不可自保，不可連兩晚護同一人）: `healer_protections` in a game, never himself,
    never last night's seat (a night without a protection lifts it, as for the guard,
    000:36). None once they are spent: he opens his eyes to nothing.
    """
    if t.state.healer_used >= t.rules.healer_protections:
        return None
    repeat = t.state.last_healed if t.state.last_healed_night == t.state.day - 1 else None
    targets = tuple(s for s in t.state.living() if s not in (healer, repeat))
    options = pick_or_pass("protect", targets)
    return t.request(healer, DecisionKind.HEAL, options, Pass())


def emit_heal(t: Table, healer: SeatId, answer: Action | None) -> SeatId | None:
    """Write the healer's protection or pass (to the healer alone); the seat protected."""
    if answer is None:
        return None
    target = answer.target if isinstance(answer, Protect) else None
    t.emit(ev.HealerProtected(visibility=to_seats(healer), seat=healer, target=target))
    return target


def gargoyle_knife(t: Table, n: int, gargoyle: SeatId, knife: SeatId | None) -> Flow[SeatId | None]:
    """The gargoyle's knife status and strike (001:2475 您今晚的帶刀狀態是…請選擇今晚要擊殺的目標).

    He is told whether he holds the knife — only once every other wolf is dead (001:2337)
    — and, if he does, may strike a seat. His strike is the night's knife (the guard and
    the antidote answer it).
    """
    armed = not knife_party(t, n)
    t.emit(ev.SkillStatusTold(visibility=to_seats(gargoyle), seat=gargoyle, usable=armed))
    if not armed:
        return knife
    targets = tuple(s for s in t.state.living() if s != gargoyle)
    answer = yield from t.ask_pick(gargoyle, DecisionKind.KNIFE, "kill", targets, Kill)
    target = None if answer is None else answer.target
    t.emit(ev.GargoyleStruck(visibility=to_seats(gargoyle), seat=gargoyle, target=target))
    return target
