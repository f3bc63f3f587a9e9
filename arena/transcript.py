"""Human-readable transcripts, in Chinese or English, rendered from an `Observation`.

A transcript is a projection of the log through `observe`; it never sees an event the
viewer could not, so the terminal, prompts and the dashboard can all use it safely.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from arena.rules import events as ev
from arena.rules.actions import Claims
from arena.rules.observation import Observation, Seen
from arena.rules.roles import spec
from arena.rules.types import DeathCause, Phase, Role, SeatId

Lang = Literal["zh", "en"]

_PHASE = {
    "zh": {
        Phase.NIGHT: "第{d}夜",
        Phase.SHERIFF_ELECTION: "第{d}天 · 警長競選",
        Phase.ANNOUNCEMENT: "第{d}天 · 天亮了",
        Phase.SPEECHES: "第{d}天 · 發言",
        Phase.VOTE: "第{d}天 · 放逐投票",
        Phase.GAME_OVER: "遊戲結束",
    },
    "en": {
        Phase.NIGHT: "Night {d}",
        Phase.SHERIFF_ELECTION: "Day {d} · sheriff election",
        Phase.ANNOUNCEMENT: "Day {d} · dawn",
        Phase.SPEECHES: "Day {d} · speeches",
        Phase.VOTE: "Day {d} · exile vote",
        Phase.GAME_OVER: "Game over",
    },
}
_CONTEXT = {
    "zh": {
        "sheriff": "競選發言",
        "sheriff_pk": "警長PK發言",
        "day": "發言",
        "pk": "PK發言",
        "defence": "辯護",
        "last_words": "遺言",
    },
    "en": {
        "sheriff": "campaign",
        "sheriff_pk": "sheriff PK",
        "day": "speech",
        "pk": "PK",
        "defence": "defence",
        "last_words": "last words",
    },
}
_CAUSE = {
    "zh": {
        DeathCause.KNIFE: "被刀",
        DeathCause.POISON: "被毒",
        DeathCause.EXILE: "被放逐",
        DeathCause.SHOT: "被槍殺",
        DeathCause.TAKEN: "被白狼王帶走",
        DeathCause.EXPLODED: "自爆",
    },
    "en": {
        DeathCause.KNIFE: "knifed",
        DeathCause.POISON: "poisoned",
        DeathCause.EXILE: "exiled",
        DeathCause.SHOT: "shot",
        DeathCause.TAKEN: "taken by the white wolf king",
        DeathCause.EXPLODED: "exploded",
    },
}


_REASON_ZH = {
    "every wolf is dead": "狼人全部出局",
    "the wolves killed every god or every villager": "屠邊：神職或平民全部出局",
    "the wolves took the town": "屠城",
    "the knife landed first (狼刀在先)": "狼刀在先",
}


def reason_text(reason: str, lang: Lang) -> str:
    """The game-end reason in the transcript's language (the log keeps the English one)."""
    if lang == "en":
        return reason
    if reason.startswith("no winner after "):
        return f"{reason.removeprefix('no winner after ').split()[0]}天後仍無勝負"
    return _REASON_ZH.get(reason, reason)


def role_name(role: Role, lang: Lang) -> str:
    """The role's display name."""
    return spec(role).zh if lang == "zh" else spec(role).en


def seat(n: SeatId | None, lang: Lang) -> str:
    """`3號` / `#3`, or `—` for nobody."""
    if n is None:
        return "無" if lang == "zh" else "nobody"
    return f"{n}號" if lang == "zh" else f"#{n}"


def seats(ns: Iterable[SeatId], lang: Lang) -> str:
    """A list of seats."""
    items = [seat(n, lang) for n in ns]
    return ("、" if lang == "zh" else ", ").join(items) or ("無" if lang == "zh" else "none")


def claims_text(claims: Claims, lang: Lang) -> str:
    """The structured part of a speech, compactly."""
    parts = []
    if claims.role is not None:
        parts.append(("自稱" if lang == "zh" else "claims ") + role_name(claims.role, lang))
    for c in claims.checks:
        verdict = (
            ("查殺" if c.is_wolf else "金水") if lang == "zh" else ("wolf" if c.is_wolf else "good")
        )
        parts.append(f"{seat(c.seat, lang)} {verdict}")
    if claims.suspects:
        parts.append(("懷疑 " if lang == "zh" else "suspects ") + seats(claims.suspects, lang))
    if claims.trusts:
        parts.append(("相信 " if lang == "zh" else "trusts ") + seats(claims.trusts, lang))
    return f" [{'; '.join(parts)}]" if parts else ""


def render(event: ev.Event, lang: Lang = "en") -> str | None:  # noqa: C901 - a flat table
    """One line for `event`, or None for events that only carry state."""
    zh = lang == "zh"
    match event:
        case ev.PhaseStarted(phase=phase, day=day):
            return f"── {_PHASE[lang][phase].format(d=day)} ──"
        case ev.GameStarted(board=board, seats=n):
            return f"{board}：{n}人局" if zh else f"Board {board}, {n} players"
        case ev.RolesDealt(roles=roles) | ev.RolesRevealed(roles=roles):
            cards = ", ".join(
                f"{seat(i, lang)} {role_name(r, lang)}" for i, r in enumerate(roles, 1)
            )
            return ("底牌：" if zh else "Roles: ") + cards
        case ev.RoleAssigned(seat=s, role=r):
            return (
                f"{seat(s, lang)} 的身份是 {role_name(r, lang)}"
                if zh
                else (f"{seat(s, lang)} is the {role_name(r, lang)}")
            )
        case ev.WolvesMet(seats=ws):
            return f"狼隊：{seats(ws, lang)}" if zh else f"The wolves are {seats(ws, lang)}"
        case ev.GuardProtected(seat=s, target=t):
            return (
                f"守衛 {seat(s, lang)} 守護 {seat(t, lang)}"
                if zh
                else (f"Guard {seat(s, lang)} protects {seat(t, lang)}")
            )
        case ev.WolfWhispered(seat=s, text=text):
            return f"[狼隊] {seat(s, lang)}：{text}" if zh else f"[wolves] {seat(s, lang)}: {text}"
        case ev.KnifeNominated(seat=s, target=t, round=r):
            return (
                f"[狼隊] {seat(s, lang)} 第{r}輪指刀 {seat(t, lang)}"
                if zh
                else (f"[wolves] {seat(s, lang)} nominates {seat(t, lang)} (round {r})")
            )
        case ev.KnifeChosen(target=t, how=how):
            return (
                f"[狼隊] 今晚刀口：{seat(t, lang)}（{how}）"
                if zh
                else (f"[wolves] tonight's knife: {seat(t, lang)} ({how})")
            )
        case ev.KnifeShownToWitch(target=t):
            return (
                f"女巫看到今晚倒牌的是 {seat(t, lang)}"
                if zh
                else (f"The witch is shown tonight's victim: {seat(t, lang)}")
            )
        case ev.WitchActed(saved=saved, poisoned=poisoned):
            if saved is None and poisoned is None:
                return "女巫沒有用藥" if zh else "The witch uses no potion"
            if saved is not None:
                return (
                    f"女巫救了 {seat(saved, lang)}"
                    if zh
                    else f"The witch saves {seat(saved, lang)}"
                )
            return (
                f"女巫毒了 {seat(poisoned, lang)}"
                if zh
                else f"The witch poisons {seat(poisoned, lang)}"
            )
        case ev.SeerChecked(target=t, is_wolf=w):
            verdict = ("狼人" if w else "好人") if zh else ("a wolf" if w else "good")
            return (
                f"預言家查驗 {seat(t, lang)}：{verdict}"
                if zh
                else (f"The seer checks {seat(t, lang)}: {verdict}")
            )
        case ev.SkillStatusTold(seat=s, usable=u):
            return (
                f"{seat(s, lang)} 的技能狀態：{'可用' if u else '不可用'}"
                if zh
                else (f"{seat(s, lang)}'s skill is {'usable' if u else 'disabled'}")
            )
        case ev.PlayerDied(seat=s, cause=c):
            return (
                f"（{seat(s, lang)} {_CAUSE[lang][c]}）"
                if zh
                else f"({seat(s, lang)} {_CAUSE[lang][c]})"
            )
        case ev.DeathsAnnounced(seats=ds):
            if not ds:
                return "昨夜是平安夜" if zh else "Nobody died last night"
            return f"{seats(ds, lang)} 出局" if zh else f"Out: {seats(ds, lang)}"
        case ev.SheriffCandidates(seats=cs):
            return f"上警：{seats(cs, lang)}" if zh else f"Running for sheriff: {seats(cs, lang)}"
        case ev.SpeakingOrderSet(order=order, context=ctx):
            return (
                f"{_CONTEXT[lang][ctx]}順序：{seats(order, lang)}"
                if zh
                else (f"{_CONTEXT[lang][ctx]} order: {seats(order, lang)}")
            )
        case ev.Spoke(seat=s, text=text, claims=claims, context=ctx):
            body = text.strip() or ("（沒有發言）" if zh else "(says nothing)")
            return (
                f"{seat(s, lang)}（{_CONTEXT[lang][ctx]}）：{body}{claims_text(claims, lang)}"
                if zh
                else (f"{seat(s, lang)} ({_CONTEXT[lang][ctx]}): {body}{claims_text(claims, lang)}")
            )
        case ev.SelfExploded(seat=s):
            return f"{seat(s, lang)} 自爆！" if zh else f"{seat(s, lang)} self-explodes!"
        case ev.SheriffWithdrew(seats=ws):
            return f"退水：{seats(ws, lang)}" if zh else f"Withdrew: {seats(ws, lang)}"
        case ev.VoteCast(voter=v, target=t, weight=w):
            mark = f" ×{w:g}" if w != 1 else ""
            return (
                f"{seat(v, lang)}{mark} 投 {seat(t, lang) if t else '棄票'}"
                if zh
                else (f"{seat(v, lang)}{mark} votes {seat(t, lang) if t else 'abstain'}")
            )
        case ev.VotesCounted(tally=tally, leaders=leaders):
            counts = ", ".join(f"{seat(s, lang)}:{n:g}" for s, n in tally) or "-"
            return (
                f"計票 {counts}；最高 {seats(leaders, lang)}"
                if zh
                else (f"Tally {counts}; leading {seats(leaders, lang)}")
            )
        case ev.TieBroken(among=among, chosen=chosen):
            return (
                f"平票抽籤（{seats(among, lang)}）：{seats(chosen, lang)}"
                if zh
                else (f"Lots among {seats(among, lang)}: {seats(chosen, lang)}")
            )
        case ev.SheriffElected(seat=s):
            return f"{seat(s, lang)} 當選警長" if zh else f"{seat(s, lang)} is elected sheriff"
        case ev.SheriffElectionPostponed():
            return "警長競選延到明天" if zh else "The sheriff election moves to tomorrow"
        case ev.BadgeLost(reason=reason):
            return f"警徽流失（{reason}）" if zh else f"The badge is lost ({reason})"
        case ev.BadgePassed(seat=s, to=to):
            return (
                f"{seat(s, lang)} 把警徽移交給 {seat(to, lang)}"
                if zh
                else (f"{seat(s, lang)} passes the badge to {seat(to, lang)}")
            )
        case ev.ExileRecommended(seat=s, targets=ts):
            return (
                f"警長 {seat(s, lang)} 歸票 {seats(ts, lang)}"
                if zh
                else (f"Sheriff {seat(s, lang)} recommends exiling {seats(ts, lang)}")
            )
        case ev.PlayerExiled(seat=s):
            return f"{seat(s, lang)} 被放逐" if zh else f"{seat(s, lang)} is exiled"
        case ev.IdiotRevealed(seat=s):
            return (
                f"{seat(s, lang)} 翻牌：白痴，免於放逐"
                if zh
                else (f"{seat(s, lang)} flips: the idiot, spared from exile")
            )
        case ev.PlayerShot(seat=s, role=r, target=t):
            return (
                f"{role_name(r, lang)} {seat(s, lang)} 帶走 {seat(t, lang)}"
                if zh
                else (f"The {role_name(r, lang)} {seat(s, lang)} takes {seat(t, lang)}")
            )
        case ev.ActionDefaulted(seat=s, decision=d, reason=reason):
            return (
                f"（{seat(s, lang)} 的 {d} 採用預設：{reason}）"
                if zh
                else (f"({seat(s, lang)}'s {d} defaulted: {reason})")
            )
        case ev.GameEnded(winner=w, reason=reason):
            text = reason_text(reason, lang)
            if w.value == "draw":
                return f"遊戲結束：和局（{text}）" if zh else f"Game over: a draw ({text})"
            side = "好人" if w.value == "good" else "狼人"
            return f"遊戲結束：{side}勝利（{text}）" if zh else f"Game over: {w.value} win ({text})"
    return None


def transcript(observation: Observation, lang: Lang = "en") -> list[str]:
    """The viewer's transcript, one line per visible event that has one."""
    return [line for s in observation.seen if (line := render(s.event, lang)) is not None]


def numbered(seen: Iterable[Seen], lang: Lang = "en") -> list[tuple[int, str]]:
    """(event index, line) pairs, for views that let the reader scrub by step."""
    return [(s.seq, line) for s in seen if (line := render(s.event, lang)) is not None]
