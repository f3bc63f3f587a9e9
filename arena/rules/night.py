"""The night: each board's own order of steps (001 §二(一)), then the dawn.

This module runs the order, the wolves' knife, the witch and the night's resolution. Each
other role's request and what its answer writes are in `night_checks` (the checks and the
information roles) and `night_skills` (every other night skill); `night_acts` holds what
the night's actors chose (`Acts`).

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

from arena.rules import events as ev
from arena.rules.actions import (
    Admire,
    Dream,
    Inspect,
    Kill,
    Pass,
    Poison,
    Protect,
    Save,
    Swap,
    Whisper,
)
from arena.rules.animals import lingers, pickable
from arena.rules.deaths import may_shoot
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.night_acts import Acts, first_living, knife_party
from arena.rules.night_checks import (
    autopsy_request,
    emit_autopsy,
    emit_check,
    emit_role_check,
    identify_request,
    maiden_request,
    mask,
    read_grave,
    report_watch,
    seer_request,
    watch_request,
    wolf_witch_request,
)
from arena.rules.night_skills import (
    admire_request,
    blood_moon_seal,
    charm,
    claw,
    confuse,
    consort_block,
    cupid,
    dream_request,
    emit_heal,
    emit_hunt,
    emit_trade,
    fear,
    gargoyle_knife,
    guard_request,
    heal_request,
    hunt_request,
    lay_mist,
    lucky,
    snake,
    swap_request,
    thief,
    trade_request,
    unseal,
)
from arena.rules.roles import is_wolf
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import DeathCause, Phase, Role, SeatId, Winner
from arena.rules.visibility import PUBLIC, REFEREE, ToTeam, to_seats
from arena.rules.win import winner


def night(t: Table, n: int) -> Flow[None]:
    """Play night `n` and record its deaths (announced the next morning).

    Raises:
        GameOver: the night's deaths ended the game.
    """
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.NIGHT, day=n))
    start = len(t.events)
    if n == 1 and t.state.bottom:
        yield from thief(t)
    order = t.board.order_for(n)
    acts = Acts(
        last_dreamer=t.state.dreamer if t.state.dreamer_night == n - 1 else None,
        sealed=blood_moon_seal(t, n),
    )
    if n == 1 and "cupid" in order:
        yield from cupid(t)
    if "nightmare" in order:
        acts.blocked = yield from fear(t)
    if "wolf_consort" in order:
        acts.consort_blocked = yield from consort_block(t)
    unseal(t, n)
    if "alchemist_mist" in order:
        acts.mist = yield from lay_mist(t, n, acts)
    if "fox_cub" in order:
        acts.confused = yield from confuse(t, acts)
    if "phantom" in order:
        acts.masked = yield from mask(t, acts)
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
    told_after = _status_told_after(t, late)
    for step in late:
        seat = actors.get(step)
        if step in told_after:
            pass  # told once the steps that decide it are done (`_status_told_after`)
        elif acts.fails(seat):
            assert seat is not None
            t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))
        elif step == "witch":
            acts.saved, acts.poisoned = yield from _witch(t, n, acts.knife)
        elif step == "wolf_beauty" and seat is not None and seat == acts.confused:
            t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))  # 子狐迷惑
        elif step == "wolf_beauty" and seat is not None:
            yield from charm(t, seat)
        elif step == "seer" and seat is not None:
            acts.checked = emit_check(t, seat, answers[seat], acts)
        elif step == "demon_hunter" and seat is not None:
            acts.hunted = emit_hunt(t, seat, answers.get(seat))
        elif step == "gargoyle_check" and seat is not None:
            emit_role_check(t, seat, answers.get(seat))
        elif step == "pure_white_maiden" and seat is not None:
            target = emit_role_check(t, seat, answers.get(seat))
            if n >= 2 and target is not None and is_wolf(t.role(target)):
                acts.check_kills.append(target)
        elif step == "wolf_witch" and seat is not None:
            answer = yield from t.ask_one(wolf_witch_request(t, seat))
            target = emit_role_check(t, seat, answer)
            if n >= 2 and target is not None and t.role(target) is Role.PURE_WHITE_MAIDEN:
                acts.check_kills.append(target)
        elif step == "gargoyle_knife" and seat is not None:
            acts.knife = yield from gargoyle_knife(t, n, seat, acts.knife)
        elif step == "gravekeeper" and seat is not None:
            read_grave(t, n, seat)
        elif step == "raven_claw" and seat is not None:
            acts.clawed = yield from claw(t, seat)
        elif step == "alchemist_snake" and seat is not None:
            acts.saved = (yield from snake(t, seat, acts.knife)) or acts.saved
        elif step == "miracle_merchant" and seat is not None:
            emit_trade(t, seat, answers.get(seat), acts)
        elif step == "lucky_one":
            yield from lucky(t, acts)
        elif step == "healer" and seat is not None:
            acts.healed = emit_heal(t, seat, answers.get(seat))
        elif step == "watchman" and seat is not None:
            watch = answers.get(seat)
            acts.watched = watch.target if isinstance(watch, Inspect) else None
        elif step == "coroner" and seat is not None:
            emit_autopsy(t, seat, answers.get(seat))
        elif step in _STATUS_ROLE:
            _tell_status(t, _STATUS_ROLE[step], acts)
        for status in (s for s, after in told_after.items() if after == step):
            _tell_status(t, _STATUS_ROLE[status], acts)
    report_watch(t, acts, t.events[start:])
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
    return first_living(t, _ACTOR_ROLE[step])


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
            emit_role_check(t, seat, answer)
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
            acts.healed = emit_heal(t, seat, answers.get(seat))
        elif step == "watchman":
            acts.watched = answer.target if isinstance(answer, Inspect) else None
        elif step == "coroner":
            emit_autopsy(t, seat, answer)


_STATUS_ROLE: dict[str, Role] = {
    "hunter_status": Role.HUNTER,
    "white_wolf_king_status": Role.WHITE_WOLF_KING,
}
_POISONERS: frozenset[str] = frozenset({"witch", "lucky_one"})
"""Steps that may poison: 000:49 被女巫毒死 ❌ (no shot), the lucky one's poison alike."""
_KILLERS: frozenset[str] = _POISONERS | {
    "wolf_beauty",
    "seer",
    "healer",
    "gargoyle_knife",
    "raven_claw",
    "alchemist_snake",
    "demon_hunter",
    "pure_white_maiden",
    "wolf_witch",
    "miracle_merchant",
}
"""Late steps whose answers can add or remove a night death: the knife's, a poison, a check
that kills or reflects, a hunt, a strike, a protection, a failed trade, a charm."""
_LINKERS: frozenset[Role] = frozenset({Role.CUPID, Role.DREAMWEAVER, Role.WOLF_BEAUTY})
"""Roles whose seats die after another's death (lover, dreamer, charmed seat): none of the
three deaths lets the hunter shoot (000:51 與情侶殉情 ❌; 001:1667 the dreamer)."""


def _status_told_after(t: Table, late: Sequence[str]) -> dict[str, str]:
    """The status steps to tell later than their place: each with the step it follows.

    The status is a fact about tonight's deaths (001:259 你的開槍狀態; 000:43-51 the cause
    decides the shot), so it is told only once every step that can change it is done. A
    poison changes it for the hunter and the white wolf king (000:49 被女巫毒死 ❌); where
    lovers, a dreamer or a charm are dealt, any death can take the hunter with a cause that
    does not shoot (000:51), so every killing step decides his. On a custom board the
    canonical order puts the statuses after the seer (001:95-111) but before the miracle
    merchant and the lucky one (001:117), whose poison would come too late: those statuses
    move to just after the last step that decides them. Each built-in board's order already
    tells them after every such step, so its night is unchanged.
    """
    moved: dict[str, str] = {}
    linked = bool(_LINKERS & set(t.board.roles))
    for i, step in enumerate(late):
        if step not in _STATUS_ROLE:
            continue
        deciders = _KILLERS if linked and step == "hunter_status" else _POISONERS
        later = [s for s in late[i + 1 :] if s in deciders]
        if later:
            moved[step] = later[-1]
    return moved


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


_FIRST_REQUESTS: dict[str, Callable[[Table, SeatId], DecisionRequest | None]] = {
    "secret_admirer": admire_request,
    "magician": swap_request,
    "miracle_merchant": trade_request,
    "dreamweaver": dream_request,
    "guard": guard_request,
    "seer": seer_request,
    "demon_hunter": hunt_request,
    "gargoyle_check": identify_request,
    "pure_white_maiden": maiden_request,
    "healer": heal_request,
    "watchman": watch_request,
    "coroner": autopsy_request,
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
    witch = first_living(t, Role.WITCH)
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
    hunter = first_living(t, Role.DEMON_HUNTER)
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
        seer = first_living(t, Role.SEER)
        witch = first_living(t, Role.WITCH)
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
