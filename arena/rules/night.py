"""The night: each board's own order of steps (001 §二(一)), then the dawn.

Decisions that do not depend on each other are asked together: the dreamweaver, the
guard, the seer and the wolves' first round go out as one batch; the witch waits for the
knife, and the wolf beauty opens her eyes again after her team (001 狼美人+狼人——狼美人).
Events are still written in the board's night order (001 §二(一); 000 夜晚的行動順序).

Resolution (000 夜間結算細節, 003 规则盲点): the guard blocks the knife, not poison; guard
and antidote on one seat follow `guard_and_save`; the witch uses one potion a night; the
knife-first rule (003 (6)) ends the game before the poison lands. 001:1667 (攝夢人): the
dreamer is immune to night harm, dies if the dreamweaver dies that night, and dies when
dreamed two nights running. A wolf beauty who dies takes her charmed seat with her.

001 血月獵魔人 (001:1459, 1589-1591): the night after the blood-moon apostle self-explodes,
every god's night ability is sealed (each is shown `skill_blocked`); from night 2 the demon
hunter may hunt a seat — a wolf dies, a good seat's hunt kills the demon hunter
(backlash, 000:48) — and, by common play, the witch's poison does not kill him.

001 石像鬼守墓人 (001:125, 2337-2339, 2373-2399, 2463-2487): night 1 has its own order. The
gargoyle checks a seat's exact role each night and, once every other wolf is dead, is told
he holds the knife and strikes alone (his strike is the night's knife); the gravekeeper
learns whether the seat exiled the day before was good or a wolf.

001 永序之輪 (001:119, 1883): the eclipse wolf consort opens her eyes first and may block
a seat once a game; its ability fails that night (like a fear, but never the knife).

001 迷霧鴉影 (001:123; roles.md): the alchemist witch opens her eyes first and may lay her
mist once a game (three seats; tonight's knife must fall on one of them), and after the
raven claw, while her snake is unused, is shown the knife and may save it once a game. The
raven claw is sealed until fewer than 3 wolves live at nightfall; then he joins the pack and,
once a game, strikes a seat of his own after the knife, which no protection stops.

001 動物夢境 (001:127; roles.md, `arena.rules.animals`): the fox cub opens his eyes first
and, from night 2 and once a game, may confuse a seat: a wolf confused stops the knife
(`confused`), a confused wolf beauty charms nobody. The bear, the pufferfish and the white
cat only open and close their eyes; a white cat who would die tonight lives on, flipped.

001 純白夜影 (001:121, 2113-2115): the pure-white maiden and then the wolf witch each learn a
seat's exact role (the wolf witch: never a wolf's); from night 2 a wolf the maiden checks
dies, and so does the maiden when the wolf witch checks her (`checked`).

001 狼王魔術師 (001:113, common play, docs/roles.md): the magician opens his eyes first and
may swap two living seats' numbers, each seat once a game (himself included). Tonight the
knife, the guard's protection, the antidote (it follows the knife), the poison and the
seer's check aimed at one of them land on the other; the witch is still shown the seat
the wolves chose, and a death keeps its cause (a knifed wolf king still shoots).

001 奇跡商人 (001:117, common play, docs/roles.md): once a game the miracle merchant may
give another seat a gift — a check, a poison or a shield. A wolf-side seat makes the trade
fail and the merchant dies that night (`failed_trade`); a good seat becomes the lucky one,
is told its gift right after the merchant (…奇跡商人——幸運兒) and may use it once, that
night or a later one.

001 暗戀者 (001:115, common play, docs/roles.md): first of night 1 the secret admirer
chooses the seat she loves and is told its side, which becomes hers: a check reads her as
that side and the win counts her with it (`GameState.wolf_side`, `win_roles`).

000 夜晚的行動順序 (000:17-31) adds four roles for custom boards: the phantom (a wolf) opens his
eyes alone after the nightmare and may mask a wolf, whom the seer's check shows good that
night (000:17 魅影排在預言家之前，所以掩碼會生效); the healer protects another seat from the
knife a limited number of times, never the same seat two nights running, and, like the
guard, is never told whether it worked (000:26, 39); the watchman watches a seat and is
told at dawn whether it used a night skill (000:29; `night_skill_user` says what counts);
the coroner examines a dead seat's body a limited number of times and learns its exact
card (000:30).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
from arena.rules.animals import confused, fox_request, lingers, pickable
from arena.rules.deaths import may_shoot
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.roles import in_pack, is_god, is_wolf, spec
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import DeathCause, Gift, Phase, Role, SeatId, Winner
from arena.rules.visibility import PUBLIC, REFEREE, ToTeam, to_seats
from arena.rules.win import winner


@dataclass
class Acts:
    """What the night's actors chose, filled in step by step."""

    knife: SeatId | None = None
    protected: SeatId | None = None
    saved: bool = False
    poisoned: SeatId | None = None
    dreamer: SeatId | None = None
    """Tonight's dreamer (None: no living dreamweaver)."""
    checked: SeatId | None = None
    """The seat the seer checked tonight."""
    last_dreamer: SeatId | None = None
    """Last night's dreamer, if the dreamweaver chose one then."""
    blocked: SeatId | None = None
    """The seat the nightmare feared tonight: its ability fails (001:1665)."""
    consort_blocked: SeatId | None = None
    """The seat the eclipse wolf consort blocked tonight (001:1925): its ability fails."""
    sealed: frozenset[SeatId] = frozenset()
    """Gods whose abilities the blood moon seals tonight (001:1459, roles.md)."""
    hunted: SeatId | None = None
    """The seat the demon hunter hunted tonight."""
    check_kills: list[SeatId] = field(default_factory=list)
    """Seats checked to death tonight (001:2113 查驗出局)."""
    swap: tuple[SeatId, SeatId] | None = None
    """The two seats the magician swapped tonight (001:113; docs/roles.md)."""
    failed_trade: SeatId | None = None
    """The miracle merchant, when he traded with a wolf-side seat tonight."""
    new_lucky: tuple[SeatId, Gift] | None = None
    """Tonight's trade with a good seat: the lucky one and its gift, told at its step."""
    shielded: SeatId | None = None
    """The seat the lucky one's shield protects from tonight's knife."""
    lucky_poisoned: SeatId | None = None
    """The seat the lucky one's poison is aimed at tonight."""

    def lands(self, seat: SeatId | None) -> SeatId | None:
        """Where an action aimed at `seat` lands tonight: the other seat of a swapped pair."""
        if self.swap is None or seat not in self.swap:
            return seat
        first, second = self.swap
        return second if seat == first else first

    mist: tuple[SeatId, ...] | None = None
    """The alchemist witch's mist tonight: the only seats the knife may fall on."""
    clawed: SeatId | None = None
    """The raven claw's strike tonight."""
    confused: SeatId | None = None
    """The seat the fox cub confused tonight."""
    masked: SeatId | None = None
    """The wolf the phantom masked tonight: the seer's check shows him good (000:24)."""
    healed: SeatId | None = None
    """The seat the healer protected tonight (000:26)."""
    watched: SeatId | None = None
    """The seat the watchman watches tonight; he is told at dawn (000:29)."""

    def fails(self, seat: SeatId | None) -> bool:
        """Whether `seat`'s night ability fails tonight (feared or sealed)."""
        if seat is None:
            return False
        return seat in (self.blocked, self.consort_blocked) or seat in self.sealed


def night(t: Table, n: int) -> Flow[None]:
    """Play night `n` and record its deaths (announced the next morning).

    Raises:
        GameOver: the night's deaths ended the game.
    """
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.NIGHT, day=n))
    start = len(t.events)
    if n == 1 and t.state.bottom:
        yield from _thief(t)
    order = t.board.order_for(n)
    acts = Acts(
        last_dreamer=t.state.dreamer if t.state.dreamer_night == n - 1 else None,
        sealed=blood_moon_seal(t, n),
    )
    if n == 1 and "cupid" in order:
        yield from _cupid(t)
    if "nightmare" in order:
        acts.blocked = yield from _fear(t)
    if "wolf_consort" in order:
        acts.consort_blocked = yield from _consort_block(t)
    _unseal(t, n)
    if "alchemist_mist" in order:
        acts.mist = yield from _lay_mist(t, n, acts)
    if "fox_cub" in order:
        acts.confused = yield from _confuse(t, acts)
    if "phantom" in order:
        acts.masked = yield from _mask(t, acts)
    actors: dict[str, SeatId | None] = {
        step: _actor(t, step) for step in order if step in _ACTOR_ROLE
    }
    first = [
        request
        for step, seat in actors.items()
        if seat is not None and not acts.fails(seat) and step in _FIRST_REQUESTS
        if (request := _FIRST_REQUESTS[step](t, seat)) is not None
    ]
    split = order.index("wolves") if "wolves" in order else 0
    early, late = order[:split], order[split + 1 :]
    wolves = knife_party(t, n)
    if not wolves:  # only a lone gargoyle is left on the wolf side
        answers = yield from t.ask(first)
        _emit_early(t, early, actors, answers, acts)
    elif acts.blocked in wolves and t.rules.fear_cancels_knife:
        answers = yield from t.ask(first)
        _emit_early(t, early, actors, answers, acts)
        channel = t.wolf_channel(wolves)
        t.emit(ev.KnifeChosen(visibility=channel, target=None, how="feared"))
    elif acts.confused is not None and is_wolf(t.role(acts.confused)):
        answers = yield from t.ask(first)
        _emit_early(t, early, actors, answers, acts)
        channel = t.wolf_channel(wolves)
        t.emit(ev.KnifeChosen(visibility=channel, target=None, how="confused"))
    else:
        answers, acts.knife = yield from _wolf_phase(
            t, wolves, first, lambda a: _emit_early(t, early, actors, a, acts), acts.mist
        )
    for step in late:
        seat = actors.get(step)
        if acts.fails(seat):
            assert seat is not None
            t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))
        elif step == "witch":
            acts.saved, acts.poisoned = yield from _witch(t, n, acts.knife)
        elif step == "wolf_beauty" and seat is not None and seat == acts.confused:
            t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))  # 子狐迷惑
        elif step == "wolf_beauty" and seat is not None:
            yield from _charm(t, seat)
        elif step == "seer" and seat is not None:
            acts.checked = _emit_check(t, seat, answers[seat], acts)
        elif step == "demon_hunter" and seat is not None:
            acts.hunted = _emit_hunt(t, seat, answers.get(seat))
        elif step == "gargoyle_check" and seat is not None:
            _emit_role_check(t, seat, answers.get(seat))
        elif step == "pure_white_maiden" and seat is not None:
            target = _emit_role_check(t, seat, answers.get(seat))
            if n >= 2 and target is not None and is_wolf(t.role(target)):
                acts.check_kills.append(target)
        elif step == "wolf_witch" and seat is not None:
            answer = yield from t.ask_one(_wolf_witch_request(t, seat))
            target = _emit_role_check(t, seat, answer)
            if n >= 2 and target is not None and t.role(target) is Role.PURE_WHITE_MAIDEN:
                acts.check_kills.append(target)
        elif step == "gargoyle_knife" and seat is not None:
            acts.knife = yield from _gargoyle_knife(t, n, seat, acts.knife)
        elif step == "gravekeeper" and seat is not None:
            _read_grave(t, n, seat)
        elif step == "raven_claw" and seat is not None:
            acts.clawed = yield from _claw(t, seat)
        elif step == "alchemist_snake" and seat is not None:
            acts.saved = (yield from _snake(t, seat, acts.knife)) or acts.saved
        elif step == "miracle_merchant" and seat is not None:
            _emit_trade(t, seat, answers.get(seat), acts)
        elif step == "lucky_one":
            yield from _lucky(t, acts)
        elif step == "healer" and seat is not None:
            acts.healed = _emit_heal(t, seat, answers.get(seat))
        elif step == "watchman" and seat is not None:
            watch = answers.get(seat)
            acts.watched = watch.target if isinstance(watch, Inspect) else None
        elif step == "coroner" and seat is not None:
            _emit_autopsy(t, seat, answers.get(seat))
        elif step in ("hunter_status", "white_wolf_king_status"):
            status_role = Role.HUNTER if step == "hunter_status" else Role.WHITE_WOLF_KING
            _tell_status(t, status_role, acts)
    _report_watch(t, acts, t.events[start:])
    _resolve(t, n, acts)


_ACTOR_ROLE: dict[str, Role] = {
    "secret_admirer": Role.SECRET_ADMIRER,
    "magician": Role.MAGICIAN,
    "dreamweaver": Role.DREAMWEAVER,
    "guard": Role.GUARD,
    "seer": Role.SEER,
    "wolf_beauty": Role.WOLF_BEAUTY,
    "witch": Role.WITCH,
    "demon_hunter": Role.DEMON_HUNTER,
    "gargoyle_check": Role.GARGOYLE,
    "gargoyle_knife": Role.GARGOYLE,
    "gravekeeper": Role.GRAVEKEEPER,
    "pure_white_maiden": Role.PURE_WHITE_MAIDEN,
    "wolf_witch": Role.WOLF_WITCH,
    "raven_claw": Role.RAVEN_CLAW,
    "alchemist_snake": Role.ALCHEMIST_WITCH,
    "miracle_merchant": Role.MIRACLE_MERCHANT,
    "healer": Role.HEALER,
    "watchman": Role.WATCHMAN,
    "coroner": Role.CORONER,
}


def _actor(t: Table, step: str) -> SeatId | None:
    return _first_living(t, _ACTOR_ROLE[step])


def _emit_early(
    t: Table, early: Sequence[str], actors: dict[str, SeatId | None], answers: Answers, acts: Acts
) -> None:
    """Write the steps before the wolves', in the board's order, from the first batch."""
    for step in early:
        seat = actors.get(step)
        if seat is None:
            continue
        if acts.fails(seat):
            t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))
            continue
        answer = answers.get(seat)
        if answer is None:  # not asked tonight (a magician with nobody left to swap)
            continue
        if step == "guard":
            acts.protected = answer.target if isinstance(answer, Protect) else None
            t.emit(ev.GuardProtected(visibility=to_seats(seat), seat=seat, target=acts.protected))
        elif step == "dreamweaver" and isinstance(answer, Dream):
            acts.dreamer = answer.target
            t.emit(ev.DreamerChosen(visibility=to_seats(seat), seat=seat, target=answer.target))
        elif step == "gargoyle_check":
            _emit_role_check(t, seat, answer)
        elif step == "secret_admirer" and isinstance(answer, Admire):
            wolf_side = t.state.wolf_side(answer.target)
            chose = ev.AdmirerChose(
                visibility=to_seats(seat), seat=seat, target=answer.target, wolf_side=wolf_side
            )
            t.emit(chose)
        elif step == "magician" and isinstance(answer, Swap):
            first, second = answer.targets
            acts.swap = (first, second)
            swapped = ev.SeatsSwapped(
                visibility=to_seats(seat), seat=seat, target=first, other=second
            )
            t.emit(swapped)
        elif step == "healer":
            acts.healed = _emit_heal(t, seat, answers.get(seat))


def _emit_check(t: Table, seer: SeatId, answer: Action, acts: Acts) -> SeatId | None:
    """The seer's check; it reports the side of the seat it lands on (a swap moves it).

    A wolf shows as one unless the phantom masked him tonight (000:24 當晚被查驗時顯示好人).
    Returns the seat checked in truth (the evil knight's reflect answers that one).
    """
    if not isinstance(answer, Inspect):
        return None
    landed = acts.lands(answer.target)
    assert landed is not None
    t.emit(
        ev.SeerChecked(
            visibility=to_seats(seer),
            seat=seer,
            target=answer.target,
            is_wolf=t.state.wolf_side(landed) and landed != acts.masked,
        )
    )
    return landed


def _emit_hunt(t: Table, hunter: SeatId, answer: Action | None) -> SeatId | None:
    if not isinstance(answer, Hunt):
        return None
    t.emit(ev.DemonHunted(visibility=to_seats(hunter), seat=hunter, target=answer.target))
    return answer.target


def _emit_role_check(t: Table, seat: SeatId, answer: Action | None) -> SeatId | None:
    if not isinstance(answer, Inspect):
        return None
    role = t.role(answer.target)
    t.emit(ev.RoleChecked(visibility=to_seats(seat), seat=seat, target=answer.target, role=role))
    return answer.target


def _wolf_witch_request(t: Table, seat: SeatId) -> DecisionRequest:
    """The wolf witch checks a living seat outside the wolf side (001:2113 除狼人陣營外).

    Her check can kill (the maiden, from night 2), so, unlike a harmless check, it may be
    passed and passing is the default: a seat that times out kills nobody by seat order.
    """
    targets = tuple(s for s in t.state.living() if not is_wolf(t.role(s)))
    return _killing_check(t, seat, targets)


def _maiden_request(t: Table, seat: SeatId) -> DecisionRequest:
    """The pure-white maiden checks another living seat (001:2113); passable, as above."""
    return _killing_check(t, seat, tuple(s for s in t.state.living() if s != seat))


def _killing_check(t: Table, seat: SeatId, targets: tuple[SeatId, ...]) -> DecisionRequest:
    options = (
        ActionOption(action="inspect", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(seat, DecisionKind.IDENTIFY, options, Pass())


def _identify_request(t: Table, seat: SeatId) -> DecisionRequest:
    """An exact-role check of another living seat; like the seer's, it has no pass."""
    targets = tuple(s for s in t.state.living() if s != seat)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(seat, DecisionKind.IDENTIFY, options, Inspect(target=targets[0]))


def _trade_request(t: Table, merchant: SeatId) -> DecisionRequest | None:
    """The miracle merchant's one trade: another living seat and a gift, or pass.

    Passing keeps the trade and is the default (a trade with a wolf kills him, so it must
    not be made by seat order); after his trade he is not asked again.
    """
    if t.state.traded:
        return None
    targets = tuple(s for s in t.state.living() if s != merchant)
    options = (
        ActionOption(action="trade", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(merchant, DecisionKind.TRADE, options, Pass())


def _emit_trade(t: Table, merchant: SeatId, answer: Action | None, acts: Acts) -> None:
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


def _lucky(t: Table, acts: Acts) -> Flow[None]:
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


def _gargoyle_knife(
    t: Table, n: int, gargoyle: SeatId, knife: SeatId | None
) -> Flow[SeatId | None]:
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
    options = (
        ActionOption(action="kill", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(gargoyle, DecisionKind.KNIFE, options, Pass()))
    target = answer.target if isinstance(answer, Kill) else None
    t.emit(ev.GargoyleStruck(visibility=to_seats(gargoyle), seat=gargoyle, target=target))
    return target


def _read_grave(t: Table, n: int, keeper: SeatId) -> None:
    """The gravekeeper reads the seat voted out the day before (001:2339).

    守墓人…每晚可以得知一個白天被放逐的玩傢是好人或是狼人; no exile that day: nothing to learn.
    """
    exiled = t.state.last_exiled
    if exiled is None or t.state.last_exiled_day != n - 1:
        return
    wolf = is_wolf(t.role(exiled))
    t.emit(ev.GraveRead(visibility=to_seats(keeper), seat=keeper, target=exiled, is_wolf=wolf))


def blood_moon_seal(t: Table, n: int) -> frozenset[SeatId]:
    """The gods sealed in night `n`.

    Every living god, if a blood-moon apostle exploded the day before (001:1459 血月使徒自爆;
    the night after the explosion, common play).
    """
    exploded = t.state.exploded
    if not any(spec(t.role(s)).explode_seals and day == n - 1 for s, day in exploded.items()):
        return frozenset()
    return frozenset(s for s in t.state.living() if is_god(t.role(s)))


def _tell_status(t: Table, role: Role, acts: Acts) -> None:
    """Thumb up or down (001 你的開槍狀態): could he use his skill if he died tonight.

    A hunter: not when tonight's cause would forbid the shot (poison, a dream death); a
    white wolf king: not when poisoned (001 白狼王守衛 備註 5).
    """
    deaths = night_deaths(t, acts)
    for seat in t.state.seats_with(role):
        if t.state.is_alive(seat):
            cause = deaths.get(seat)
            feared = seat == acts.blocked and t.rules.fear_blocks_death_skill
            if role is Role.HUNTER:
                usable = not feared and (cause is None or may_shoot(role, cause, t.rules))
            else:
                usable = cause is not DeathCause.POISON
            t.emit(ev.SkillStatusTold(visibility=to_seats(seat), seat=seat, usable=usable))


def _confuse(t: Table, acts: Acts) -> Flow[SeatId | None]:
    """The fox cub opens his eyes first (001:127 子狐——狼美人+狼人) and may confuse a seat."""
    fox = _first_living(t, Role.FOX_CUB)
    if fox is None or acts.fails(fox):
        return None
    request = fox_request(t, fox)
    if request is None:
        return None
    answer = yield from t.ask_one(request)
    return confused(t, fox, answer)


def _cupid(t: Table) -> Flow[None]:
    """Cupid ties two living seats on night 1 (000:22 只有第一夜：指定兩人繫紅線).

    Then the lovers open their eyes and meet (004:3 丘比特——情侶). He acts first, alone
    (000:19 月老排在最前面，因此夢魘封不到月老), and may tie himself
    (004:3 丘比特本人也可以成為情侶的一方). The tie has no pass; a seat that times out ties
    the two lowest seats. Each lover learns the other's seat and side, not the card.
    """
    cupid = _first_living(t, Role.CUPID)
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


def _fear(t: Table) -> Flow[SeatId | None]:
    """The nightmare opens his eyes first and may fear another living seat (001:1665)."""
    nightmare = _first_living(t, Role.NIGHTMARE)
    if nightmare is None:
        return None
    targets = tuple(s for s in t.state.living() if s != nightmare)
    options = (
        ActionOption(action="fear", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(nightmare, DecisionKind.FEAR, options, Pass()))
    if not isinstance(answer, Fear):
        return None
    t.emit(ev.SeatFeared(visibility=to_seats(nightmare), seat=nightmare, target=answer.target))
    return answer.target


def _thief(t: Table) -> Flow[None]:
    """The thief's turn, first of night 1 (004:3 盗贼——丘比特——…), then the wolves meet.

    004 给盗贼选牌: he is shown the bottom cards and takes one, burying the other (埋);
    common play: he must take one, and must take a wolf card per `thief_takes_wolf`. When
    the thief card itself lies among the bottom cards nobody acts, and the wolves meet all
    the same, so the table learns nothing either way (004 不能留下场外信息).
    """
    thief = _first_living(t, Role.THIEF)
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


def _mask(t: Table, acts: Acts) -> Flow[SeatId | None]:
    """The phantom opens his eyes alone, after the nightmare, and may mask a living wolf.

    000:24 指定一名狼，當晚被查驗時顯示好人: any wolf of the pack he knows, himself included
    (a lone gargoyle he never met is not his to name), or pass. Feared or blocked earlier
    that night, his mask fails and he is shown so.
    """
    phantom = _first_living(t, Role.PHANTOM)
    if phantom is None:
        return None
    if acts.fails(phantom):
        t.emit(ev.SkillBlocked(visibility=to_seats(phantom), seat=phantom))
        return None
    targets = tuple(s for s in t.state.wolves() if in_pack(t.role(s)))
    options = (
        ActionOption(action="mask", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(phantom, DecisionKind.MASK, options, Pass()))
    if not isinstance(answer, Mask):
        return None
    t.emit(ev.WolfMasked(visibility=to_seats(phantom), seat=phantom, target=answer.target))
    return answer.target


def _heal_request(t: Table, healer: SeatId) -> DecisionRequest | None:
    """The healer protects another living seat, while protections last (000:26).

    限次護衛一人（不可自保，不可連兩晚護同一人）: `healer_protections` in a game, never himself,
    never last night's seat (a night without a protection lifts it, as for the guard,
    000:36). None once they are spent: he opens his eyes to nothing.
    """
    if t.state.healer_used >= t.rules.healer_protections:
        return None
    repeat = t.state.last_healed if t.state.last_healed_night == t.state.day - 1 else None
    targets = tuple(s for s in t.state.living() if s not in (healer, repeat))
    options = (
        ActionOption(action="protect", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(healer, DecisionKind.HEAL, options, Pass())


def _emit_heal(t: Table, healer: SeatId, answer: Action | None) -> SeatId | None:
    if answer is None:
        return None
    target = answer.target if isinstance(answer, Protect) else None
    t.emit(ev.HealerProtected(visibility=to_seats(healer), seat=healer, target=target))
    return target


def _watch_request(t: Table, watchman: SeatId) -> DecisionRequest:
    """The watchman watches another living seat (000:29 盯梢一人); like a check, no pass."""
    targets = tuple(s for s in t.state.living() if s != watchman)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(watchman, DecisionKind.WATCH, options, Inspect(target=targets[0]))


def night_skill_user(event: ev.Event) -> SeatId | None:
    """The seat that used a night skill in `event`, or None (the watchman's 'acted').

    000:29 天亮得知他昨夜有沒有行動 does not say what acting is; the rule here: a seat acted
    when it made a night choice that took effect — a protection, a potion, a check, a
    mask, fear, block, charm, dream, hunt, strike, swap, mist, snake, claw, trade, gift,
    confusion, the secret admirer's love, an autopsy or the thief's take, and for a wolf a knife
    nomination of a seat (taking part in the knife). Passing, whispering in the wolves'
    talk, opening the eyes to be told something (a skill status, the knife shown to the
    witch, a grave read) and a skill that failed (feared or sealed) are not acting.
    """
    match event:
        case (
            ev.GuardProtected(seat=seat, target=target)
            | ev.HealerProtected(seat=seat, target=target)
            | ev.GargoyleStruck(seat=seat, target=target)
            | ev.KnifeNominated(seat=seat, target=target)
        ):
            return seat if target is not None else None
        case ev.WitchActed(seat=seat, saved=saved, poisoned=poisoned):
            return seat if saved is not None or poisoned is not None else None
        case ev.SnakeActed(seat=seat, saved=saved):
            return seat if saved is not None else None
        case (
            ev.SeerChecked(seat=seat)
            | ev.RoleChecked(seat=seat)
            | ev.WolfMasked(seat=seat)
            | ev.SeatFeared(seat=seat)
            | ev.SeatBlocked(seat=seat)
            | ev.BeautyCharmed(seat=seat)
            | ev.DreamerChosen(seat=seat)
            | ev.DemonHunted(seat=seat)
            | ev.BodyExamined(seat=seat)
            | ev.SeatWatched(seat=seat)
            | ev.CardTaken(seat=seat)
            | ev.SeatsSwapped(seat=seat)
            | ev.MistLaid(seat=seat)
            | ev.ClawStruck(seat=seat)
            | ev.GiftGiven(seat=seat)
            | ev.GiftUsed(seat=seat)
            | ev.AdmirerChose(seat=seat)
            | ev.SeatConfused(seat=seat)
        ):
            return seat
    return None


def _report_watch(t: Table, acts: Acts, tonight: Sequence[ev.Event]) -> None:
    """Tell the watchman, at dawn, whether his seat acted at any point of the night."""
    watchman = _first_living(t, Role.WATCHMAN)
    if watchman is None or acts.watched is None:
        return
    acted = any(night_skill_user(e) == acts.watched for e in tonight)
    t.emit(
        ev.SeatWatched(
            visibility=to_seats(watchman), seat=watchman, target=acts.watched, acted=acted
        )
    )


def _autopsy_request(t: Table, coroner: SeatId) -> DecisionRequest | None:
    """The coroner examines a seat the table knows is dead, while autopsies last (000:30).

    限次驗屍: `coroner_autopsies` in a game, one body each; the bodies are the seats
    announced out before tonight (tonight's dead are not known until dawn). Passable.
    """
    if len(t.state.examined) >= t.rules.coroner_autopsies:
        return None
    targets = tuple(s for s in sorted(t.state.out) if s not in t.state.examined)
    if not targets:
        return None
    options = (
        ActionOption(action="inspect", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(coroner, DecisionKind.AUTOPSY, options, Pass())


def _emit_autopsy(t: Table, coroner: SeatId, answer: Action | None) -> None:
    if not isinstance(answer, Inspect):
        return
    role = t.role(answer.target)
    t.emit(
        ev.BodyExamined(visibility=to_seats(coroner), seat=coroner, target=answer.target, role=role)
    )


def _consort_block(t: Table) -> Flow[SeatId | None]:
    """The eclipse wolf consort's block: another living seat, once a game, or pass.

    She opens her eyes alone (001:1925 請選擇你要封鎖的目標; 001:1883 狼妃技能僅生效一次).
    """
    consort = _first_living(t, Role.ECLIPSE_WOLF_CONSORT)
    if consort is None or t.state.consort_used:
        return None
    targets = tuple(s for s in t.state.living() if s != consort)
    options = (
        ActionOption(action="block", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(consort, DecisionKind.BLOCK, options, Pass()))
    if not isinstance(answer, Block):
        return None
    t.emit(ev.SeatBlocked(visibility=to_seats(consort), seat=consort, target=answer.target))
    return answer.target


def _unseal(t: Table, n: int) -> None:
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


def _lay_mist(t: Table, n: int, acts: Acts) -> Flow[tuple[SeatId, ...] | None]:
    """The alchemist witch's mist: three living seats, once a game, or pass (001:123 first).

    未明之霧 (common play, roles.md): tonight the wolves may knife only one of the three
    (they are shown the seats, not who laid them); her own seat and wolves may be among
    them. Not the raven claw's strike, which is his own attack.
    """
    alchemist = _first_living(t, Role.ALCHEMIST_WITCH)
    if alchemist is None or t.state.mist_used or acts.fails(alchemist):
        return None
    if len(t.state.living()) < 3:  # three different seats, or no mist
        return None
    options = (
        ActionOption(action="mist", targets=t.state.living(), target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(alchemist, DecisionKind.MIST, options, Pass()))
    if not isinstance(answer, Mist):
        return None
    mist = tuple(sorted(answer.targets))
    t.emit(ev.MistLaid(visibility=to_seats(alchemist), seat=alchemist, targets=mist))
    wolves = knife_party(t, n)
    if wolves:
        t.emit(ev.KnifeLimited(visibility=t.wolf_channel(wolves), targets=mist))
    return mist


def _claw(t: Table, claw: SeatId) -> Flow[SeatId | None]:
    """The unsealed raven claw's one strike, alone after the knife (001:123 狼人——狼鴉之爪).

    Sealed, or with his strike spent, he only opens and closes his eyes. The strike is once
    a game, so it may be passed, and passing is the default (a timeout spends nothing).
    """
    if not t.state.claw_unsealed or t.state.claw_struck:
        return None
    targets = tuple(s for s in t.state.living() if s != claw)
    options = (
        ActionOption(action="kill", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    answer = yield from t.ask_one(t.request(claw, DecisionKind.CLAW, options, Pass()))
    if not isinstance(answer, Kill):
        return None
    t.emit(ev.ClawStruck(visibility=to_seats(claw), seat=claw, target=answer.target))
    return answer.target


def _snake(t: Table, alchemist: SeatId, knife: SeatId | None) -> Flow[bool]:
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


def _charm(t: Table, beauty: SeatId) -> Flow[None]:
    """The wolf beauty opens her eyes alone and charms another living seat."""
    targets = tuple(s for s in t.state.living() if s != beauty and pickable(t, s))
    if not targets:
        return
    options = (ActionOption(action="charm", targets=targets, target_required=True),)
    request = t.request(beauty, DecisionKind.CHARM, options, Charm(target=targets[0]))
    answer = yield from t.ask_one(request)
    if isinstance(answer, Charm):
        t.emit(ev.BeautyCharmed(visibility=to_seats(beauty), seat=beauty, target=answer.target))


def _hunt_request(t: Table, hunter: SeatId) -> DecisionRequest | None:
    """The demon hunter's hunt: another living seat, or pass; from night 2 (001:1589-1591).

    On night 1 he only opens and closes his eyes (001:1505-1507): no request.
    """
    if t.state.day < 2:
        return None
    targets = tuple(s for s in t.state.living() if s != hunter)
    options = (
        ActionOption(action="hunt", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(hunter, DecisionKind.HUNT, options, Pass())


def _admire_request(t: Table, admirer: SeatId) -> DecisionRequest | None:
    """The secret admirer chooses her love on night 1 only: another living seat, no pass.

    Like the dreamweaver's dream the choice is mandatory (the card has no blank love), so
    a timeout loves the lowest-numbered other seat.
    """
    if t.state.day != 1 or admirer in t.state.admirers:
        return None
    targets = tuple(s for s in t.state.living() if s != admirer)
    options = (ActionOption(action="admire", targets=targets, target_required=True),)
    return t.request(admirer, DecisionKind.ADMIRE, options, Admire(target=targets[0]))


def _swap_request(t: Table, magician: SeatId) -> DecisionRequest | None:
    """The magician's swap: two living seats never swapped before (himself allowed), or pass.

    Each seat may be swapped once a game (common play, docs/roles.md), so once fewer than
    two seats are left he has no swap to make and is not asked.
    """
    targets = tuple(s for s in t.state.living() if s not in t.state.swapped)
    if len(targets) < 2:
        return None
    options = (
        ActionOption(action="swap", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(magician, DecisionKind.SWAP, options, Pass())


def _dream_request(t: Table, dreamweaver: SeatId) -> DecisionRequest:
    """001:1667 攝夢人技能每晚必須選擇一位玩傢: mandatory, another living seat."""
    targets = tuple(s for s in t.state.living() if s != dreamweaver)
    options = (ActionOption(action="dream", targets=targets, target_required=True),)
    return t.request(dreamweaver, DecisionKind.DREAM, options, Dream(target=targets[0]))


def knife_party(t: Table, n: int) -> tuple[SeatId, ...]:
    """Wolves who choose tonight's knife.

    The living wolves of the pack (not a lone gargoyle; a raven claw once unsealed), plus a
    wolf who exploded the day before where `exploded_wolf_joins_knife` (001 自爆狼參與夜間指刀).
    """
    party = {
        s
        for s in t.state.wolves()
        if in_pack(t.role(s)) or (spec(t.role(s)).sealed and t.state.claw_unsealed)
    }
    if t.rules.exploded_wolf_joins_knife:
        party |= {s for s, day in t.state.exploded.items() if day == n - 1}
    return tuple(sorted(party))


def _first_living(t: Table, role: Role) -> SeatId | None:
    return next((s for s in t.state.seats_with(role) if t.state.is_alive(s)), None)


def _guard_request(t: Table, guard: SeatId) -> DecisionRequest:
    targets = tuple(s for s in t.state.living() if s != t.state.last_guarded)
    options = (
        ActionOption(action="protect", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(guard, DecisionKind.GUARD, options, Pass())


def _seer_request(t: Table, seer: SeatId) -> DecisionRequest:
    targets = tuple(s for s in t.state.living() if s != seer)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(seer, DecisionKind.SEER, options, Inspect(target=targets[0]))


_FIRST_REQUESTS: dict[str, Callable[[Table, SeatId], DecisionRequest | None]] = {
    "secret_admirer": _admire_request,
    "magician": _swap_request,
    "miracle_merchant": _trade_request,
    "dreamweaver": _dream_request,
    "guard": _guard_request,
    "seer": _seer_request,
    "demon_hunter": _hunt_request,
    "gargoyle_check": _identify_request,
    "pure_white_maiden": _maiden_request,
    "healer": _heal_request,
    "watchman": _watch_request,
    "coroner": _autopsy_request,
}
"""Steps whose decision needs nothing from the night so far: asked with the wolves."""


def _wolf_phase(
    t: Table,
    wolves: tuple[SeatId, ...],
    others: list[DecisionRequest],
    before_wolves: Callable[[Answers], None],
    limit: tuple[SeatId, ...] | None = None,
) -> Flow[tuple[Answers, SeatId | None]]:
    """Wolf talk rounds, then nomination rounds; `others` ride along in the first batch.

    `before_wolves` receives the first batch's answers before any wolf event is written
    (the guard acts first in the night order). Returns the answers of `others` and the
    knife (None: an empty knife); `limit` is tonight's mist, the only seats it may hit.
    Wolves see each round's nominations before the next, so unanimity can be reached
    (001: 狼人請統一意見; no agreement in time is an empty knife).
    """
    collected: Answers = {}
    pending = list(others)
    channel = t.wolf_channel(wolves)
    for round_ in range(1, t.rules.wolf_talk_rounds + 1):
        options = (
            ActionOption(action="whisper", max_chars=t.rules.last_words_chars),
            ActionOption(action="pass"),
        )
        talk = [t.request(w, DecisionKind.WOLF_TALK, options, Pass()) for w in wolves]
        answers = yield from t.ask([*pending, *talk])
        if pending:
            before_wolves(answers)
        collected |= {seat: a for seat, a in answers.items() if seat not in wolves}
        pending = []
        for seat in wolves:
            said = answers[seat]
            if isinstance(said, Whisper) and said.text.strip():
                t.emit(
                    ev.WolfWhispered(visibility=channel, seat=seat, text=said.text, round=round_)
                )
    rounds = t.rules.knife_rounds if t.rules.knife_decision == "unanimous" else 1
    nominations: dict[SeatId, SeatId | None] = {}
    for round_ in range(1, rounds + 1):
        requests = [_knife_request(t, w, limit) for w in wolves]
        answers = yield from t.ask([*pending, *requests])
        if pending:
            before_wolves(answers)
        collected |= {seat: a for seat, a in answers.items() if seat not in wolves}
        pending = []
        nominations = {}
        for seat in wolves:
            answer = answers[seat]
            nominations[seat] = answer.target if isinstance(answer, Kill) else None
            t.emit(
                ev.KnifeNominated(
                    visibility=channel, seat=seat, target=nominations[seat], round=round_
                )
            )
        if t.rules.knife_decision == "unanimous" and len(set(nominations.values())) == 1:
            target = next(iter(nominations.values()))
            t.emit(
                ev.KnifeChosen(
                    visibility=channel, target=target, how="unanimous" if target else "empty"
                )
            )
            return collected, target
    if t.rules.knife_decision == "unanimous" and t.rules.knife_no_agreement == "empty":
        t.emit(ev.KnifeChosen(visibility=channel, target=None, how="empty"))
        return collected, None
    return collected, _plurality_knife(t, nominations, channel)


def _knife_request(
    t: Table, wolf: SeatId, limit: tuple[SeatId, ...] | None = None
) -> DecisionRequest:
    """A wolf's nomination: a living seat (within tonight's mist, if one was laid).

    A wolf left no legal seat (a mist on himself alone, where he may not knife himself)
    can only pass.
    """
    targets = tuple(
        s
        for s in t.state.living()
        if (t.rules.wolf_may_nominate_self or s != wolf)
        and (limit is None or s in limit)
        and pickable(t, s)
    )
    options = [ActionOption(action="kill", targets=targets, target_required=True)]
    if not targets:
        options = []
    if t.rules.wolves_may_skip or not targets:
        options.append(ActionOption(action="pass"))
    return t.request(wolf, DecisionKind.KNIFE, options, Pass())


def _plurality_knife(
    t: Table, nominations: dict[SeatId, SeatId | None], channel: ToTeam
) -> SeatId | None:
    counts = Counter(target for target in nominations.values() if target is not None)
    if not counts:
        t.emit(ev.KnifeChosen(visibility=channel, target=None, how="empty"))
        return None
    top = max(counts.values())
    tied = tuple(sorted(seat for seat, n in counts.items() if n == top))
    if len(tied) == 1:
        t.emit(ev.KnifeChosen(visibility=channel, target=tied[0], how="plurality"))
        return tied[0]
    chosen = t.draw.pick(tied)
    t.emit(ev.TieBroken(visibility=channel, purpose="knife", among=tied, chosen=(chosen,)))
    t.emit(ev.KnifeChosen(visibility=channel, target=chosen, how="lots"))
    return chosen


def _witch(t: Table, n: int, knife: SeatId | None) -> Flow[tuple[bool, SeatId | None]]:
    """The witch's turn: she sees the knife while her antidote is unused (003 (3)).

    One potion a night; self-save per `witch_self_save`; poison any other living seat.
    """
    witch = _first_living(t, Role.WITCH)
    if witch is None or (t.state.antidote_used and t.state.poison_used):
        return False, None
    options: list[ActionOption] = []
    if not t.state.antidote_used:
        t.emit(ev.KnifeShownToWitch(visibility=to_seats(witch), seat=witch, target=knife))
        rule = t.rules.witch_self_save
        self_ok = rule == "always" or (rule == "first_night" and n == 1)
        if knife is not None and (knife != witch or self_ok):
            options.append(ActionOption(action="save", targets=(knife,)))
    if not t.state.poison_used:
        targets = tuple(s for s in t.state.living() if s != witch)
        options.append(ActionOption(action="poison", targets=targets, target_required=True))
    options.append(ActionOption(action="pass"))
    answer = yield from t.ask_one(t.request(witch, DecisionKind.WITCH, options, Pass()))
    saved = knife if isinstance(answer, Save) else None
    poisoned = answer.target if isinstance(answer, Poison) else None
    t.emit(ev.WitchActed(visibility=to_seats(witch), seat=witch, saved=saved, poisoned=poisoned))
    return saved is not None, poisoned


def _knifed(t: Table, acts: Acts) -> SeatId | None:
    """The knife's victim after swap, protections, antidote, dream and the elder's spare life."""
    reached = _knife_lands(t, acts)
    return None if reached is not None and _withstands(t, reached) else reached


def _withstands(t: Table, seat: SeatId) -> bool:
    """An elder whose spare life is intact survives the knife that reaches him (长老).

    Common play for 004's 长老 (004 names him in the night order and says 长老和守卫两张神牌
    一般不建议同时存在, two protections against the knife): he has two lives against the
    knife only; poison, exile and shots kill him at once.
    """
    return t.role(seat) is Role.ELDER and seat not in t.state.withstood


def _knife_lands(t: Table, acts: Acts) -> SeatId | None:
    """The seat the knife reaches after swap, guard, shield, healer, antidote and dream.

    None: nobody. The knife and the protections land where the magician's swap sends them;
    the antidote answers the knife wherever it landed. The lucky one's shield and the
    healer's protection are the guard's kind, so with the antidote they follow
    `guard_and_save`.
    """
    knife = acts.lands(acts.knife)
    if knife is None or knife == acts.dreamer or t.role(knife) is Role.EVIL_KNIGHT:
        return None
    guarded = knife in (
        acts.lands(acts.protected),
        acts.lands(acts.shielded),
        acts.lands(acts.healed),
    )
    both = guarded and acts.saved
    dies = t.rules.guard_and_save == "dies" if both else not (guarded or acts.saved)
    return knife if dies else None


def night_deaths(t: Table, acts: Acts) -> dict[SeatId, DeathCause]:
    """Who dies tonight and why, from the night's choices (pure; applied by `_resolve`).

    The dreamer is immune to the knife and the poison (not to the raven claw's strike); then
    the links: the dreamweaver's death or a second night in a row takes the dreamer
    (001:1667), and a dying wolf beauty takes her charmed seat.
    """
    deaths: dict[SeatId, DeathCause] = {}
    knifed = _knifed(t, acts)
    if knifed is not None:
        deaths[knifed] = DeathCause.KNIFE
    poisoned = acts.lands(acts.poisoned)
    if poisoned is not None and poisoned != acts.dreamer and not _poison_immune(t, poisoned):
        deaths[poisoned] = DeathCause.POISON  # poison silences the hunter even if knifed
    lucky_poison = acts.lands(acts.lucky_poisoned)
    if lucky_poison is not None and lucky_poison != acts.dreamer:
        if not _poison_immune(t, lucky_poison):
            deaths[lucky_poison] = DeathCause.POISON  # the witch's poison, given as a gift
    if acts.failed_trade is not None:
        deaths.setdefault(acts.failed_trade, DeathCause.FAILED_TRADE)
    _hunt(t, acts, deaths)
    for seat in acts.check_kills:
        deaths.setdefault(seat, DeathCause.CHECKED)
    if acts.clawed is not None:
        deaths.setdefault(acts.clawed, DeathCause.CLAWED)  # no protection stops the claw
    _reflect(t, acts, deaths)
    linked = -1
    while linked != len(deaths):  # a link's death may start another: a lover's, a charmed seat
        linked = len(deaths)
        _links(t, acts, deaths)
    return deaths


def _links(t: Table, acts: Acts, deaths: dict[SeatId, DeathCause]) -> None:
    """Deaths that follow another tonight: the dreamer, the charmed seat, the other lover.

    A lover dies with his partner, the same night (000:22 之後同生共死; 004:3 情侶殉情視為同時
    死亡) — but not an evil knight, who cannot die at night (001:1251).
    """
    dreamer = acts.dreamer
    if dreamer is not None:
        weaver_dies = any(s in deaths for s in t.state.seats_with(Role.DREAMWEAVER))
        if weaver_dies or dreamer == acts.last_dreamer:
            deaths.setdefault(dreamer, DeathCause.DREAM)
    for beauty in t.state.seats_with(Role.WOLF_BEAUTY):
        charmed = t.state.charmed
        if beauty in deaths and charmed is not None and t.state.is_alive(charmed):
            deaths.setdefault(charmed, DeathCause.CHARMED)
    for seat in t.state.lovers or ():
        partner = t.state.partner(seat)
        if seat in deaths and partner is not None and t.state.is_alive(partner):
            if t.role(partner) is not Role.EVIL_KNIGHT:
                deaths.setdefault(partner, DeathCause.LOVER)


def _poison_immune(t: Table, seat: SeatId) -> bool:
    """The demon hunter shrugs off the poison (common play, `demon_hunter_poison_immune`)."""
    return t.role(seat) is Role.DEMON_HUNTER and t.rules.demon_hunter_poison_immune


def _hunt(t: Table, acts: Acts, deaths: dict[SeatId, DeathCause]) -> None:
    """The demon hunter's hunt: a wolf dies (`hunted`), a good seat backlashes.

    The backlash kills the demon hunter (`backlash`, 000:48 被獵魔者反噬). Neither guard nor
    antidote stops either death (they answer the knife).
    """
    if acts.hunted is None:
        return
    hunter = _first_living(t, Role.DEMON_HUNTER)
    if is_wolf(t.role(acts.hunted)):
        deaths.setdefault(acts.hunted, DeathCause.HUNTED)
    elif hunter is not None:
        deaths.setdefault(hunter, DeathCause.BACKLASH)


def _reflect(t: Table, acts: Acts, deaths: dict[SeatId, DeathCause]) -> None:
    """The evil knight never dies at night and reflects once (001:1251).

    The seer who checks him or the witch who poisons him dies instead; both on one night:
    only the seer (若同時吃驗吃毒，則預言傢出局，女巫不出局).
    """
    for knight in t.state.seats_with(Role.EVIL_KNIGHT):
        if not t.state.is_alive(knight):
            continue
        deaths.pop(knight, None)
        if t.state.reflected:
            continue
        seer = _first_living(t, Role.SEER)
        witch = _first_living(t, Role.WITCH)
        if acts.checked == knight and seer is not None:
            deaths[seer] = DeathCause.REFLECTED
        elif acts.lands(acts.poisoned) == knight and witch is not None:
            deaths[witch] = DeathCause.REFLECTED


def _lover_of(t: Table, seat: SeatId) -> tuple[SeatId, ...]:
    """The living partner who dies with `seat` tonight (none for an evil knight, 001:1251)."""
    partner = t.state.partner(seat)
    if partner is None or not t.state.is_alive(partner) or t.role(partner) is Role.EVIL_KNIGHT:
        return ()
    return (partner,)


def _resolve(t: Table, n: int, acts: Acts) -> None:
    """Apply the night's deaths; the table hears of them in the morning."""
    knifed = _knifed(t, acts)
    if knifed is not None and t.role(knifed) is Role.WHITE_CAT:
        knifed = None  # she lives on (flipped): her knife cannot end the game first
    if knifed is not None and t.rules.knife_first:
        dead = t.state.dead | {knifed}
        if winner(t.state.win_roles(), dead, t.rules, t.state.lovers) is Winner.WOLVES:
            t.die(knifed, DeathCause.KNIFE, at_night=True)
            fallen = (knifed, *_lover_of(t, knifed))  # 004:3 情侶殉情視為同時死亡
            for lover in fallen[1:]:
                t.die(lover, DeathCause.LOVER, at_night=True)
            t.end(Winner.WOLVES, "the knife landed first (狼刀在先)", announce=fallen)
    deaths = night_deaths(t, acts)
    reached = _knife_lands(t, acts)
    if reached is not None and reached not in deaths and _withstands(t, reached):
        t.emit(ev.KnifeWithstood(visibility=REFEREE, seat=reached))
    for seat in sorted(deaths):
        if lingers(t, seat, deaths[seat], at_night=True):
            del deaths[seat]
        else:
            t.die(seat, deaths[seat], at_night=True)
    t.check_win(announce=sorted(deaths))
