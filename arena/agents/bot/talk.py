"""What a bot says: short templated text, always rendered from the speech's own claims.

The text is a reading of the structured `Claims` (plus the seat the speaker wants out), so
what a bot says and what it claims never disagree. Chinese by default, English on request.
Wolf talk uses fixed phrases that teammates parse back (`knife_in`, `jumps`), so a bot
wolf team can agree on the knife; other agents' free text is parsed leniently.
"""

from __future__ import annotations

import re

from arena.rules.actions import CheckClaim, Claims
from arena.rules.roles import spec
from arena.rules.types import SeatId, SpeechContext
from arena.text import Lang

_KNIFE = re.compile(r"(?:刀|knife\s*#?|kill\s*#?)\s*(\d{1,2})", re.IGNORECASE)
_JUMP = re.compile(r"悍跳|claim(?:ing)? (?:the )?seer", re.IGNORECASE)


def _seat(n: SeatId, lang: Lang) -> str:
    return f"{n}號" if lang == "zh" else f"#{n}"


def _seats(ns: tuple[SeatId, ...], lang: Lang) -> str:
    return ("、" if lang == "zh" else ", ").join(_seat(n, lang) for n in ns)


def speech_text(
    claims: Claims, lang: Lang, context: SpeechContext, wanted: SeatId | None, limit: int | None
) -> str:
    """The text of a speech that says exactly `claims`, then whom the speaker wants out."""
    zh = lang == "zh"
    parts: list[str] = []
    if context in ("sheriff", "sheriff_pk"):
        parts.append("我上警，請把警徽給我。" if zh else "I am running for sheriff.")
    if claims.role is not None:
        name = spec(claims.role).zh if zh else spec(claims.role).en.lower()
        parts.append(f"我是{name}。" if zh else f"I am the {name}.")
    if claims.checks:
        verdicts = [_seat(c.seat, lang) + _result(c, lang) for c in claims.checks]
        first = claims.checks[0]
        kind = "autopsy" if first.role is not None else "watch" if first.acted is not None else ""
        zh_head, en_head = _HEADS[kind]
        parts.append(
            (zh_head + "，".join(verdicts) + "。") if zh else (en_head + "; ".join(verdicts) + ".")
        )
    if claims.suspects:
        s = _seats(claims.suspects, lang)
        parts.append(f"我懷疑{s}是狼。" if zh else f"I suspect {s}.")
    if claims.trusts:
        t = _seats(claims.trusts, lang)
        parts.append(f"我相信{t}。" if zh else f"I trust {t}.")
    if wanted is not None and context not in ("sheriff", "sheriff_pk"):
        w = _seat(wanted, lang)
        parts.append(f"今天出{w}。" if zh else f"Vote out {w} today.")
    if len(parts) == int(context in ("sheriff", "sheriff_pk")):
        parts.append("我是好人，沒有更多信息，過。" if zh else "I am good; nothing more to add.")
    text = ("" if zh else " ").join(parts)
    return text[:limit] if limit is not None else text


_HEADS = {
    "": ("查驗：", "My checks: "),
    "autopsy": ("驗屍：", "My autopsies: "),
    "watch": ("盯梢：", "My watches: "),
}
"""How a report of results opens, by the kind of its first result."""


def _result(c: CheckClaim, lang: Lang) -> str:
    """One reported result, after its seat: the card found, whether it acted, or the verdict."""
    zh = lang == "zh"
    if c.role is not None:
        return f"是{spec(c.role).zh}" if zh else f" was the {spec(c.role).en.lower()}"
    if c.acted is not None:
        if zh:
            return "昨夜有行動" if c.acted else "昨夜沒有行動"
        return " acted that night" if c.acted else " did not act that night"
    if zh:
        return "查殺" if c.is_wolf else "金水"
    return " is a wolf" if c.is_wolf else " is good"


def whisper_text(target: SeatId, jump: bool, lang: Lang, limit: int | None) -> str:
    """A wolf's line at night: the knife it proposes, and whether it will fake the seer."""
    if lang == "zh":
        text = f"刀{target}號。" + ("我明天悍跳預言家。" if jump else "")
    else:
        text = f"Knife #{target}." + (" I will claim seer tomorrow." if jump else "")
    return text[:limit] if limit is not None else text


def knife_in(text: str) -> SeatId | None:
    """The seat a line of wolf talk proposes to knife, if it names one."""
    found = _KNIFE.search(text)
    return int(found.group(1)) if found else None


def jumps(text: str) -> bool:
    """Whether a line of wolf talk announces a fake seer claim."""
    return _JUMP.search(text) is not None
