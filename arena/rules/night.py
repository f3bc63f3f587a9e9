"""The night: each board's own order of steps (001 §二(一)), walked as a table, then the dawn.

Each step of a board's order (`NightStep`) is a row of `STEPS` (`arena.rules.night_steps.Step`):
the role whose first living seat acts, the question asked in the first batch, and what the
step does at its place. The night loop walks the order and the table; it knows no role by
name, so a new role is a new row. The order rules the loop keeps:

1. The thief takes his card before anyone, on night 1 (004:3 盗贼——丘比特——…).
2. `OPENINGS` are asked alone, before anyone else, in that fixed order whatever their place
   in the board's order: cupid first (000:19 月老排在最前面，因此夢魘封不到月老), then the
   blockers — the nightmare (000:23) and the eclipse wolf consort (001:119) — whose fear
   or block fails a seat's ability tonight (`Acts.fails`); at nightfall the raven claw may
   join the pack (001:123); then the steps whose answer shapes the others' options: the
   alchemist witch's mist (001:123), the fox cub's confusion (001:127), and the phantom's
   mask, before the seer (000:17 魅影排在預言家之前，所以掩碼會生效).
3. Every other decision that depends on nothing the night chose goes out in one batch with
   the wolves' first round (a row's `ask`: the dreamweaver, the guard, the seer, …); a
   blocked actor is not asked and is shown `skill_blocked` at his step. The steps before
   `wolves` are written, in the board's order, before any wolf event (000 夜晚的行動順序:
   守衛 4 before 狼人 6); then the knife (`arena.rules.knife`), unless the wolves were
   feared (`fear_cancels_knife`) or one of them confused, which empties it.
4. The steps after `wolves` follow in the board's order (001 §二(一); 000:24-31): a row
   writes its first-batch answer there, or asks its own question there when it needs the
   knife or another earlier choice (the witch waits for the knife; the wolf beauty opens
   her eyes again after her team, 001 狼美人+狼人——狼美人). A status step (001:259 你的開槍
   狀態) is told only once every step that can change it is done (`_status_told_after`).
5. At dawn the watchman hears whether his seat acted (000:29); then the night is resolved
   (`arena.rules.dawn`).

Each role's request and what its answer writes are in `night_checks` (the checks and the
information roles) and `night_skills` (every other night skill); `night_acts` holds what
the night's actors chose (`Acts`).

Resolution (`arena.rules.dawn`; 000 夜間結算細節, 003 规则盲点): the guard blocks the
knife, not poison; guard and antidote on one seat follow `guard_and_save`; the witch uses
one potion a night; the knife-first rule (003 (6)) ends the game before the poison lands.
001:1667 (攝夢人): the dreamer is immune to night harm, dies if the dreamweaver dies that
night, and dies when dreamed two nights running. A wolf beauty who dies takes her charmed
seat with her.

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

from collections.abc import Sequence
from typing import Literal

from arena.rules import events as ev
from arena.rules.boards import NightStep
from arena.rules.dawn import resolve
from arena.rules.decisions import DecisionRequest
from arena.rules.knife import wolf_phase
from arena.rules.night_acts import Acts, first_living, knife_party
from arena.rules.night_checks import (
    autopsy_request,
    identify_request,
    maiden_request,
    report_watch,
    seer_request,
    watch_request,
)
from arena.rules.night_skills import (
    admire_request,
    blood_moon_seal,
    dream_request,
    guard_request,
    heal_request,
    hunt_request,
    swap_request,
    thief,
    trade_request,
)
from arena.rules.night_steps import (
    Harm,
    Night,
    Run,
    Step,
    block_a_seat,
    charm_a_seat,
    check_as_wolf_witch,
    confuse_a_seat,
    fear_a_seat,
    knife_as_gargoyle,
    lay_the_mist,
    lucky_turn,
    mask_a_wolf,
    read_the_grave,
    save_with_snake,
    strike_as_claw,
    tell_status,
    tie_lovers,
    unseal_the_claw,
    witch_turn,
    write_admirer,
    write_autopsy,
    write_dream,
    write_guard,
    write_heal,
    write_hunt,
    write_maiden,
    write_role_check,
    write_seer,
    write_swap,
    write_trade,
    write_watch,
)
from arena.rules.roles import is_wolf
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import Phase, Role, SeatId
from arena.rules.visibility import PUBLIC, to_seats

OPENINGS: tuple[tuple[NightStep | None, Run], ...] = (
    ("cupid", tie_lovers),  # 000:19 月老排在最前面; night 1 only (000:22)
    ("nightmare", fear_a_seat),  # 000:23 夢魘 2
    ("wolf_consort", block_a_seat),  # 001:119 蝕時狼妃 first
    (None, unseal_the_claw),  # every night, at nightfall (001:123)
    ("alchemist_mist", lay_the_mist),  # 001:123 煉金魔女 first
    ("fox_cub", confuse_a_seat),  # 001:127 子狐 first
    ("phantom", mask_a_wolf),  # 000:24 魅影 3, before the seer (000:17)
)
"""The steps asked alone, before anyone else, in this order whatever their place (None: not
a step, done every night); each runs where its step is in the night's order."""

STEPS: dict[NightStep, Step] = {
    "secret_admirer": Step(Role.SECRET_ADMIRER, ask=admire_request, write=write_admirer),  # 001:115
    "magician": Step(Role.MAGICIAN, ask=swap_request, write=write_swap),  # 001:113
    "dreamweaver": Step(Role.DREAMWEAVER, ask=dream_request, write=write_dream),  # 001:111
    "gargoyle_check": Step(Role.GARGOYLE, ask=identify_request, write=write_role_check),  # 001:125
    "guard": Step(Role.GUARD, ask=guard_request, write=write_guard),  # 000:25
    "healer": Step(Role.HEALER, ask=heal_request, write=write_heal, harm="death"),  # 000:26
    "gargoyle_knife": Step(Role.GARGOYLE, turn=knife_as_gargoyle, harm="death"),  # 001:125
    "raven_claw": Step(Role.RAVEN_CLAW, turn=strike_as_claw, harm="death"),  # 001:123
    "alchemist_snake": Step(Role.ALCHEMIST_WITCH, turn=save_with_snake, harm="death"),  # 001:123
    "wolf_beauty": Step(Role.WOLF_BEAUTY, turn=charm_a_seat, harm="death"),  # 001:101
    "seer": Step(Role.SEER, ask=seer_request, write=write_seer, harm="death"),  # 000:28
    "watchman": Step(Role.WATCHMAN, ask=watch_request, write=write_watch),  # 000:29
    "coroner": Step(Role.CORONER, ask=autopsy_request, write=write_autopsy),  # 000:30
    "witch": Step(Role.WITCH, run=witch_turn, harm="poison"),  # 000:31
    "hunter_status": Step(status=Role.HUNTER, heeds="death"),  # 001:95-111
    "white_wolf_king_status": Step(status=Role.WHITE_WOLF_KING),  # 001:105
    "demon_hunter": Step(  # 001:99
        Role.DEMON_HUNTER, ask=hunt_request, write=write_hunt, harm="death"
    ),
    "gravekeeper": Step(Role.GRAVEKEEPER, turn=read_the_grave),  # 001:125
    "pure_white_maiden": Step(
        Role.PURE_WHITE_MAIDEN, ask=maiden_request, write=write_maiden, harm="death"
    ),  # 001:121
    "wolf_witch": Step(Role.WOLF_WITCH, turn=check_as_wolf_witch, harm="death"),  # 001:121
    "miracle_merchant": Step(
        Role.MIRACLE_MERCHANT, ask=trade_request, write=write_trade, harm="death"
    ),  # 001:117
    "lucky_one": Step(run=lucky_turn, harm="poison"),  # 001:117 奇跡商人——幸運兒
}
"""What each step of the board's order does, in canonical order (`CANONICAL_ORDER`).

`harm` marks the steps whose answers can add or remove a night death: the poisons (the
witch's, and the lucky one's alike: 000:49 被女巫毒死 ❌ no shot), and a knife, a check that
kills or reflects, a hunt, a strike, a protection, a failed trade, a charm."""

EYES_ONLY: frozenset[NightStep] = frozenset(
    {"gargoyle", "elder", "bear", "pufferfish", "white_cat", "knight", "prince", "idiot"}
)
"""Steps in which a role only opens and closes its eyes: they write nothing (`NightStep`).
With `wolves` (the knife), `thief` (step 1 above) and `OPENINGS`, every step has one home."""

_LINKERS: frozenset[Role] = frozenset({Role.CUPID, Role.DREAMWEAVER, Role.WOLF_BEAUTY})
"""Roles whose seats die after another's death (lover, dreamer, charmed seat): none of the
three deaths lets the hunter shoot (000:51 與情侶殉情 ❌; 001:1667 the dreamer)."""


def night(t: Table, n: int) -> Flow[None]:
    """Play night `n` and record its deaths (announced the next morning).

    Raises:
        GameOver: the night's deaths ended the game.
    """
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.NIGHT, day=n))
    start = len(t.events)
    if n == 1 and t.state.bottom:
        yield from thief(t)
    acts = Acts(
        last_dreamer=t.state.dreamer if t.state.dreamer_night == n - 1 else None,
        sealed=blood_moon_seal(t, n),
    )
    tonight = Night(t, n, t.board.order_for(n), acts)
    for step, opening in OPENINGS:
        if step is None or step in tonight.order:
            yield from opening(tonight)
    tonight.seats = {
        step: first_living(t, row.role)
        for step in tonight.order
        if (row := STEPS.get(step)) is not None and row.role is not None
    }
    order = tonight.order
    split = order.index("wolves") if "wolves" in order else 0
    yield from _first_batch_and_knife(tonight, order[:split])
    yield from _after_wolves(tonight, order[split + 1 :])
    report_watch(t, acts, t.events[start:])
    resolve(t, n, acts)


def _first_batch(night: Night) -> list[DecisionRequest]:
    """The questions that need nothing the night chose, in the board's order."""
    requests: list[DecisionRequest] = []
    for step, seat in night.seats.items():
        ask = STEPS[step].ask
        if seat is None or night.acts.fails(seat) or ask is None:
            continue
        request = ask(night.t, seat)
        if request is not None:
            requests.append(request)
    return requests


def _first_batch_and_knife(night: Night, early: Sequence[NightStep]) -> Flow[None]:
    """Ask the first batch with the wolves' first round; write `early`, then the knife."""
    t = night.t
    first = _first_batch(night)
    wolves = knife_party(t, night.n)
    stopped = _knife_stopped(night, wolves)
    if wolves and stopped is None:
        night.answers, night.acts.knife = yield from wolf_phase(
            t, wolves, first, lambda a: _write_early(night, early, a), night.acts.mist
        )
        return
    night.answers = yield from t.ask(first)  # no wolf asked: only a lone gargoyle, or stopped
    _write_early(night, early, night.answers)
    if stopped is not None:
        t.emit(ev.KnifeChosen(visibility=t.wolf_channel(wolves), target=None, how=stopped))


def _knife_stopped(
    night: Night, wolves: tuple[SeatId, ...]
) -> Literal["feared", "confused"] | None:
    """Why tonight has no knife before the wolves wake, if it has none; None: it may have one.

    A feared wolf cancels it (001:1665, `fear_cancels_knife`); a confused wolf stops it
    (001:127 子狐: `confused`). Without wolves (a lone gargoyle) nothing is told.
    """
    acts = night.acts
    if not wolves:
        return None
    if acts.blocked in wolves and night.t.rules.fear_cancels_knife:
        return "feared"
    if acts.confused is not None and is_wolf(night.t.role(acts.confused)):
        return "confused"
    return None


def _write_early(night: Night, early: Sequence[NightStep], answers: Answers) -> None:
    """Write the steps before the wolves', in the board's order, from the first batch.

    Only answer-writing rows can stand there (`check_board` keeps every turn after the
    wolves); a row not asked tonight (a magician with nobody left to swap) writes nothing.
    """
    for step in early:
        seat = night.seats.get(step)
        if seat is None:
            continue
        if night.acts.fails(seat):
            night.t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))
            continue
        answer = answers.get(seat)
        write = STEPS[step].write
        if answer is not None and write is not None:
            write(night, seat, answer)


def _after_wolves(night: Night, late: Sequence[NightStep]) -> Flow[None]:
    """Play the steps after the wolves', in the board's order, and tell the moved statuses."""
    told_after = _status_told_after(night.t, late)
    for step in late:
        if step not in told_after:
            yield from _play(night, step)
        for status, after in told_after.items():
            if after == step:
                tell_status(night, _status_role(status))


def _play(night: Night, step: NightStep) -> Flow[None]:
    """One step after the wolves': blocked, a status, a turn, or its first-batch answer."""
    row = STEPS.get(step)
    if row is None:
        return  # the eyes open and close
    seat = night.seats.get(step)
    if night.acts.fails(seat):
        assert seat is not None
        night.t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))
    elif row.status is not None:
        tell_status(night, row.status)
    elif row.run is not None:
        yield from row.run(night)
    elif seat is None:
        return
    elif row.turn is not None:
        yield from row.turn(night, seat)
    elif row.write is not None and (answer := night.answers.get(seat)) is not None:
        row.write(night, seat, answer)


def _status_role(step: NightStep) -> Role:
    status = STEPS[step].status
    assert status is not None
    return status


def _status_told_after(t: Table, late: Sequence[NightStep]) -> dict[NightStep, NightStep]:
    """The status steps to tell later than their place: each with the step it follows.

    The status is a fact about tonight's deaths (001:259 你的開槍狀態; 000:43-51 the cause
    decides the shot), so it is told only once every step that can change it is done. A
    poison changes it for the hunter and the white wolf king (000:49 被女巫毒死 ❌); where
    lovers, a dreamer or a charm are dealt, any death can take the hunter with a cause that
    does not shoot (000:51), so every killing step decides his (`Step.heeds`). On a custom
    board the canonical order puts the statuses after the seer (001:95-111) but before the
    miracle merchant and the lucky one (001:117), whose poison would come too late: those
    statuses move to just after the last step that decides them. Each built-in board's
    order already tells them after every such step, so its night is unchanged.
    """
    moved: dict[NightStep, NightStep] = {}
    linked = bool(_LINKERS & set(t.board.roles))
    for i, step in enumerate(late):
        row = STEPS.get(step)
        if row is None or row.status is None:
            continue
        heeds: set[Harm] = {"poison", "death"} if linked and row.heeds == "death" else {"poison"}
        later = [s for s in late[i + 1 :] if (r := STEPS.get(s)) is not None and r.harm in heeds]
        if later:
            moved[step] = later[-1]
    return moved
