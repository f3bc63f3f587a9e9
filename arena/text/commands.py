"""What a person types at a seat, in Chinese or English, and the menu they choose from.

A `Menu` is built from a `DecisionRequest`'s legal options, so it offers nothing the
referee would refuse. Seat choices are keyed by the seat number itself (a bare `3` at a
vote prompt votes for seat 3); `0` is always the passive answer; the other answers are
numbered from 1 when the request takes no seat, else keyed by a letter. Enter takes the
request's default, and any prompt also accepts the full command words of `help`
(`vote 3`, `投票 3`, `speak … | claim=seer check=3:wolf`).

Speech and wolf-talk prompts take the typed line as the text itself; structured claims
follow a `|`: `claim=ROLE` (`身份=`), `check=SEAT:wolf|good` (`查驗=3:狼`),
`suspect=3,5` (`懷疑=`), `trust=7` (`信任=`). A check may add, after its verdict, what a
reported result tells beyond it where the board deals the role that learns it
(`report_fields`): the card a coroner found (`check=5:good:seer`, `查驗=5:好:預言家`),
whether a watched seat acted (`check=5:wolf:acted`, `check=5:good:idle`, `查驗=5:狼:有行動`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arena.rules.actions import Action, parse_action
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.roles import ReportField, spec
from arena.rules.types import Role
from arena.text import LANGS, Lang, has, keys, t

WORDS: dict[str, str] = {
    "vote": "vote", "投票": "vote", "投": "vote", "票": "vote",
    "pass": "pass", "abstain": "pass", "skip": "pass", "no": "pass", "stay": "pass",
    "過": "pass", "过": "pass", "棄權": "pass", "弃权": "pass", "跳過": "pass", "跳过": "pass",
    "不": "pass", "棄票": "pass", "弃票": "pass",
    "inspect": "inspect", "check": "inspect", "查驗": "inspect", "查验": "inspect", "驗": "inspect",
    "验": "inspect", "查": "inspect",
    "protect": "protect", "guard": "protect", "守護": "protect", "守护": "protect", "守": "protect",
    "kill": "kill", "knife": "kill", "殺": "kill", "杀": "kill", "刀": "kill",
    "save": "save", "救": "save", "解藥": "save", "解药": "save",
    "poison": "poison", "毒": "poison", "毒藥": "poison", "毒药": "poison",
    "shoot": "shoot", "開槍": "shoot", "开枪": "shoot", "槍": "shoot", "枪": "shoot",
    "explode": "self_explode", "self_explode": "self_explode", "自爆": "self_explode",
    "爆": "self_explode",
    "run": "run_for_sheriff", "run_for_sheriff": "run_for_sheriff", "上警": "run_for_sheriff",
    "withdraw": "withdraw", "退水": "withdraw",
    "order": "choose_order", "choose_order": "choose_order", "順序": "choose_order",
    "顺序": "choose_order",
    "recommend": "recommend_exile", "recommend_exile": "recommend_exile", "歸票": "recommend_exile",
    "归票": "recommend_exile",
    "badge": "pass_badge", "pass_badge": "pass_badge", "移交": "pass_badge", "警徽": "pass_badge",
    "tear": "tear_badge", "tear_badge": "tear_badge", "撕": "tear_badge", "撕警徽": "tear_badge",
    "speak": "speak", "say": "speak", "發言": "speak", "发言": "speak", "說": "speak",
    "说": "speak",
    "whisper": "whisper", "密語": "whisper", "密语": "whisper", "狼語": "whisper",
    "charm": "charm", "魅惑": "charm", "dream": "dream", "攝夢": "dream", "摄梦": "dream",
    "duel": "duel", "決鬥": "duel", "决斗": "duel",
    "fear": "fear", "恐懼": "fear", "恐惧": "fear",
    "hunt": "hunt", "獵殺": "hunt", "猎杀": "hunt",
    "block": "block", "封鎖": "block", "封锁": "block",
    "mask": "mask", "掩碼": "mask", "掩码": "mask",
    "take": "take_card", "take_card": "take_card", "拿牌": "take_card", "選牌": "take_card",
    "选牌": "take_card",
    "reveal": "reveal", "flip": "reveal", "翻牌": "reveal",
    "swap": "swap", "交換": "swap", "交换": "swap", "換": "swap", "换": "swap",
    "mist": "mist", "霧": "mist", "雾": "mist", "未明之霧": "mist", "未明之雾": "mist",
    "snake": "save", "法老之蛇": "save", "蛇": "save",
    "confuse": "confuse", "迷惑": "confuse",
    "claw": "kill", "爪": "kill", "襲擊": "kill", "袭击": "kill",
    "trade": "trade", "gift": "trade", "交易": "trade",
    "admire": "admire", "love": "admire", "暗戀": "admire", "暗恋": "admire",
    "link": "link", "tie": "link", "繫": "link", "系": "link", "紅線": "link", "红线": "link",
}  # fmt: skip
GIFTS = {
    "check": "check", "查驗": "check", "查验": "check", "驗": "check", "验": "check",
    "poison": "poison", "毒": "poison", "毒藥": "poison", "毒药": "poison",
    "shield": "shield", "guard": "shield", "守護": "shield", "守护": "shield", "守": "shield",
}  # fmt: skip
"""Gift words of `trade 3 check` / `交易 3 毒`."""
"""Command word → action kind, English and Chinese (traditional and simplified)."""
HELP_WORDS = frozenset({"help", "h", "?", "？", "說明", "说明", "幫助", "帮助"})
DIRECTIONS = {
    "asc": "ascending", "ascending": "ascending", "順": "ascending", "顺": "ascending",
    "順序": "ascending", "顺序": "ascending",
    "desc": "descending", "descending": "descending", "逆": "descending", "逆序": "descending",
}  # fmt: skip
TAGS = {
    "claim": "claim", "身份": "claim", "身分": "claim", "跳": "claim",
    "check": "check", "查驗": "check", "查验": "check", "驗": "check", "验": "check",
    "suspect": "suspect", "懷疑": "suspect", "怀疑": "suspect", "踩": "suspect",
    "trust": "trust", "信任": "trust", "保": "trust",
}  # fmt: skip
ACTED_WORDS = frozenset({"acted", "act", "有行動", "有行动", "行動", "行动", "有動", "有动"})
IDLE_WORDS = frozenset({
    "idle", "still", "沒行動", "没行动", "沒有行動", "没有行动", "未行動", "未行动", "沒動", "没动",
})  # fmt: skip
"""Words after a check's verdict saying whether the watched seat acted (`check=5:wolf:acted`)."""
WOLF_WORDS = frozenset({"wolf", "w", "狼", "狼人", "查殺", "查杀", "bad"})
GOOD_WORDS = frozenset({"good", "g", "好", "好人", "金水", "villager"})
SEAT_KINDS = (
    "vote", "shoot", "pass_badge", "protect", "kill", "poison", "inspect", "charm", "dream",
    "fear", "hunt", "block", "admire", "confuse", "mask", "take_card",
)  # fmt: skip
"""Actions that take exactly one seat: a bare seat number picks one of these."""
TEXT_KINDS = ("speak", "whisper")
MULTI_SEAT_KINDS = ("recommend_exile", "mist")
"""Actions that take several seats: typed as `3 8` (a recommendation) or `2 5 9` (a mist)."""


def _role_names() -> dict[str, Role]:
    names: dict[str, Role] = {}
    for role in Role:
        names[role.value] = role
        names[spec(role).zh] = role
        names[spec(role).en.lower()] = role
        names[spec(role).en.lower().replace(" ", "_")] = role
    return names


ROLE_NAMES = _role_names()


def claim_roles(role_counts: Mapping[Role, int]) -> tuple[Role, ...]:
    """The roles a speech's claim may name on this board: its cards, in `Role` order.

    `role_counts` is the board's public composition (`GameStarted`, in every seat's view),
    the thief's two bottom cards included: any card of the pack may be claimed, since a
    card may have been buried or taken (004 底牌), and the wolf cards too, since a wolf may
    pose as one of his own kind's cards as well as a god. A card the board does not deal
    is never a sensible claim, so neither the terminal nor the Play page offers it.
    """
    return tuple(role for role in Role if role_counts.get(role, 0) > 0)


def report_fields(roles: Iterable[Role]) -> frozenset[ReportField]:
    """What a claimed check may tell beyond wolf or good on a board with these cards.

    The board decides, not the speaker's card (`RoleSpec.reports`, as the model seats'
    tool: `arena.agents.model.tools.reported_fields`): a card found needs a coroner dealt (000:30
    得知死者的確切角色), an acted-or-not a watchman (000:29), and any seat may claim either
    (a wolf posing as the coroner too), just as a claim may name any of the board's cards.
    On a board with neither the fields would only ever be lies no card could back, so they
    are not offered.
    """
    return frozenset(f for r in roles for f in spec(r).reports)


class ClaimRefused(InvalidActionError):
    """A speech tag the board cannot back, said in either language (catalog `claim_error`).

    The message (`str`) is the English one; `say(lang)` is the one a person reads. Values
    that are roles or tuples of roles are named in the language asked for.
    """

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(self.say("en"))

    def say(self, lang: Lang) -> str:
        """The refusal in `lang`, one line."""

        def name(role: Role) -> str:
            return spec(role).zh if lang == "zh" else role.value

        shown = {
            k: t("claim_error.sep", lang).join(map(name, v)) if isinstance(v, tuple)
            else name(v) if isinstance(v, Role) else v
            for k, v in self.values.items()
        }  # fmt: skip
        return t(f"claim_error.{self.key}", lang, **shown)


def seat_number(text: str, what: str) -> int:
    """A seat number typed as `3`, `#3` or `3號`.

    Raises:
        InvalidActionError: not a number.
    """
    cleaned = text.strip().lstrip("#").removesuffix("號").removesuffix("号")
    if not cleaned.isdigit():
        raise InvalidActionError(f"{what} needs a seat number, got {text or 'nothing'!r}")
    return int(cleaned)


def parse_command(line: str, roles: tuple[Role, ...] = ()) -> Action:
    """Turn a typed command (English or Chinese words) into an action.

    `roles`: the cards a speech may claim (`claim_roles`); empty: any role.

    Raises:
        InvalidActionError: an unknown command or a missing or malformed argument.
    """
    head, _, rest = line.strip().partition(" ")
    kind = WORDS.get(head.lower())
    if kind is None:
        raise InvalidActionError(f"unknown command {line.strip()!r}")
    rest = rest.strip()
    if kind in TEXT_KINDS:
        return parse_speech(kind, rest, roles)
    args = rest.split()
    if kind in SEAT_KINDS:
        return parse_action({"kind": kind, "target": seat_number(args[0] if args else "", kind)})
    if kind == "self_explode":
        target = seat_number(args[0], kind) if args else None
        return parse_action({"kind": kind, "target": target})
    if kind == "duel":
        return parse_action({"kind": kind, "target": seat_number(args[0] if args else "", kind)})
    if kind in MULTI_SEAT_KINDS:
        return parse_action({"kind": kind, "targets": [seat_number(a, kind) for a in args]})
    if kind in ("swap", "link"):
        return _pair(kind, args)
    if kind == "trade":
        gift = GIFTS.get(args[1].lower(), "") if len(args) == 2 else ""
        if not gift:
            raise InvalidActionError("trade needs a seat and a gift: trade 3 check|poison|shield")
        return parse_action({"kind": kind, "target": seat_number(args[0], kind), "gift": gift})
    if kind == "choose_order":
        direction = DIRECTIONS.get(args[0].lower() if args else "", "")
        if not direction:
            raise InvalidActionError("order needs a direction: asc or desc (順 or 逆)")
        start = seat_number(args[1], kind) if len(args) > 1 else None
        return parse_action({"kind": kind, "direction": direction, "start": start})
    if args and kind in ("pass", "run_for_sheriff", "withdraw", "tear_badge", "save"):
        raise InvalidActionError(f"{head} takes no seat")
    return parse_action({"kind": kind})


def _pair(kind: str, args: list[str]) -> Action:
    """`swap 3 5`, `link 3 5`: the magician's or cupid's two seats.

    Raises:
        InvalidActionError: not exactly two seat numbers.
    """
    if len(args) != 2:
        raise InvalidActionError(f"{kind} needs two seat numbers, e.g. {kind} 3 5")
    first, second = (seat_number(a, kind) for a in args)
    return parse_action({"kind": kind, "targets": [first, second]})


def parse_speech(kind: str, rest: str, roles: tuple[Role, ...] = ()) -> Action:
    """A speech or whisper: the text, then optional claim tags after a `|`.

    `roles`: the cards a claim may name (`claim_roles`, this board's); empty: any role.

    Raises:
        InvalidActionError: an unknown tag, role or seat in the tags, or a claimed role,
            a check's card or a check's field the board does not deal (`_check`).
    """
    text, _, tags = rest.partition("|")
    if kind == "whisper":
        return parse_action({"kind": kind, "text": rest.strip()})
    claims: dict[str, object] = {}
    checks: list[dict[str, object]] = []
    for tag in tags.replace("＝", "=").replace("，", ",").replace("：", ":").split():
        key, _, value = tag.partition("=")
        match TAGS.get(key.lower()):
            case "claim":
                role = ROLE_NAMES.get(value.lower())
                if role is None:
                    raise InvalidActionError(f"unknown role {value!r} in claim=")
                if roles and role not in roles:
                    cards = ", ".join(r.value for r in roles)
                    raise InvalidActionError(
                        f"no {role.value} card on this board in claim=; its cards: {cards}"
                    )
                claims["role"] = role
            case "check":
                checks.append(_check(value, roles))
            case "suspect" | "trust" as which:
                claims[which + "s"] = [seat_number(s, which) for s in value.split(",") if s]
            case _:
                raise InvalidActionError(
                    f"unknown speech tag {tag!r}; use claim=, check=, suspect=, trust="
                )
    if checks:
        claims["checks"] = checks
    return parse_action({"kind": kind, "text": text.strip(), "claims": claims})


def _check(value: str, roles: tuple[Role, ...]) -> dict[str, object]:
    """One `check=` value: `SEAT:wolf|good`, then optionally `:CARD` and `:acted|idle`.

    `roles`: the board's cards (`claim_roles`); empty: any card and either field. A card
    found needs a coroner on the board and must be one of its cards; acted or idle needs a
    watchman (`report_fields`).

    Raises:
        InvalidActionError: a bad seat or verdict, an unknown word, a word given twice, or
            a card or field the board does not have (`ClaimRefused`, in both languages).
    """
    seat, _, rest = value.partition(":")
    verdict, *extras = rest.split(":")
    if verdict.lower() not in WOLF_WORDS | GOOD_WORDS:
        raise ClaimRefused("verdict", value=value)
    check: dict[str, object] = {
        "seat": seat_number(seat, "check"), "is_wolf": verdict.lower() in WOLF_WORDS,
    }  # fmt: skip
    fields = report_fields(roles) if roles else frozenset[ReportField](("role", "acted"))
    for word in extras:
        lowered = word.lower()
        if lowered in ACTED_WORDS | IDLE_WORDS:
            field: ReportField = "acted"
            found: object = lowered in ACTED_WORDS
        elif (card := ROLE_NAMES.get(lowered)) is not None:
            field, found = "role", card
        else:
            raise ClaimRefused("unknown", word=word, value=value)
        if field in check:
            raise ClaimRefused("twice", value=value)
        if field not in fields:
            raise ClaimRefused("no_coroner" if field == "role" else "no_watchman", value=value)
        if field == "role" and roles and found not in roles:
            raise ClaimRefused("no_card", role=found, cards=roles)
        check[field] = found
    return check


@dataclass(frozen=True, slots=True)
class Choice:
    """One line of a menu: the key to type, and the action it stands for."""

    key: str
    action: Action
    label: str


@dataclass(frozen=True, slots=True)
class Menu:
    """The answers a request offers, keyed for typing."""

    request: DecisionRequest
    choices: tuple[Choice, ...]
    text_kind: str | None
    """`speak` or `whisper` when the prompt takes free text."""
    roles: tuple[Role, ...] = ()
    """The cards a speech's claim may name (`claim_roles`); empty: any role."""

    def pick(self, line: str) -> Action:
        """The action a typed line stands for (not yet checked against the rules).

        Raises:
            InvalidActionError: the line is neither a key, seats, nor a command.
        """
        stripped = line.strip()
        keyed = {c.key: c.action for c in self.choices}
        if stripped.lower() in keyed:
            return keyed[stripped.lower()]
        seat_kind = self._seat_kind()
        parts = stripped.replace(",", " ").split()
        if parts and all(_is_seat(p) for p in parts):
            if seat_kind in MULTI_SEAT_KINDS:
                targets = [seat_number(p, seat_kind) for p in parts]
                return parse_action({"kind": seat_kind, "targets": targets})
            if seat_kind in ("swap", "link"):
                return _pair(seat_kind, parts)
            if seat_kind is not None and len(parts) == 1:
                return parse_action({"kind": seat_kind, "target": seat_number(parts[0], "")})
            raise InvalidActionError(f"{stripped!r} is not one of the choices shown")
        head = stripped.partition(" ")[0].lower()
        if head in WORDS or self.text_kind is None:
            return parse_command(stripped, self.roles)
        return parse_speech(self.text_kind, stripped, self.roles)

    def _seat_kind(self) -> str | None:
        kinds = [
            o.action
            for o in self.request.options
            if o.targets and o.action in (*SEAT_KINDS, *MULTI_SEAT_KINDS, "swap", "link")
        ]
        return kinds[0] if len(kinds) == 1 else None


def _is_seat(text: str) -> bool:
    return text.lstrip("#").removesuffix("號").removesuffix("号").isdigit()


def build_menu(request: DecisionRequest, lang: Lang, roles: tuple[Role, ...] = ()) -> Menu:
    """The menu of `request`: seats by number, `0` for the passive answer, others keyed.

    `roles`: the cards a speech's claim may name (`claim_roles` of the board); empty: any.
    """
    choices: list[Choice] = []
    others: list[tuple[str, Action, str]] = []
    has_seats = any(
        o.targets and o.action in (*SEAT_KINDS, *MULTI_SEAT_KINDS, "swap", "link")
        for o in request.options
    )
    text_kind: str | None = None
    for option in request.options:
        kind = option.action
        if kind in SEAT_KINDS:
            for seat in option.targets:
                action = parse_action({"kind": kind, "target": seat})
                choices.append(Choice(str(seat), action, label(action, lang)))
        elif kind == "recommend_exile":
            for seat in option.targets:
                action = parse_action({"kind": kind, "targets": [seat]})
                choices.append(Choice(str(seat), action, label(action, lang)))
        elif kind in ("swap", "mist", "trade", "link"):
            continue  # typed (`3 5`, `2 5 9`, `trade 3 check`), as the prompt title says
        elif kind == "pass":
            choices.append(Choice("0", parse_action({"kind": "pass"}), pass_label(request, lang)))
        elif kind in TEXT_KINDS:
            text_kind = kind
        elif kind == "choose_order":
            for start in option.targets or (None,):
                for direction in ("ascending", "descending"):
                    action = parse_action({"kind": kind, "direction": direction, "start": start})
                    others.append(("", action, label(action, lang)))
        elif kind == "duel":
            for seat in option.targets:
                action = parse_action({"kind": kind, "target": seat})
                others.append((f"d{seat}", action, label(action, lang)))
        elif kind == "self_explode":
            if not option.target_required:
                action = parse_action({"kind": kind})
                others.append(("x", action, label(action, lang)))
            for seat in option.targets:
                action = parse_action({"kind": kind, "target": seat})
                others.append((f"x{seat}", action, label(action, lang)))
        else:
            action = parse_action({"kind": kind})
            letters = {"save": "s", "tear_badge": "t", "run_for_sheriff": "r", "withdraw": "w"}
            text = label(action, lang, option.targets)
            if kind == "reveal" and request.kind is DecisionKind.PUFFER:
                text = t("act.reveal_puffer", lang)  # the pufferfish's flip, not the prince's
            others.append((letters.get(kind, kind[0]), action, text))
    for number, (letter, action, text) in enumerate(others, start=1):
        key = letter if has_seats or text_kind is not None else str(number)
        choices.append(Choice(key or str(number), action, text))
    return Menu(request, tuple(choices), text_kind, roles)


def _table(area: str, lang: Lang, names: tuple[str, ...]) -> dict[str, str]:
    """The catalog texts `area.NAME` of `lang` that exist, keyed by NAME."""
    return {n: t(f"{area}.{n}", lang) for n in names if has(f"{area}.{n}", lang)}


_ACTION: dict[Lang, dict[str, str]] = {
    lang: {key.removeprefix("act."): t(key, lang) for key in keys(lang) if key.startswith("act.")}
    for lang in LANGS
}
"""Each action's menu words (catalog area `act`), `{s}` for its seat."""
_PASS: dict[Lang, dict[str, str]] = {
    lang: _table("pass_as", lang, tuple(DecisionKind)) for lang in LANGS
}
"""What passing means for a decision kind (catalog area `pass_as`)."""
TITLES: dict[Lang, dict[str, str]] = {
    lang: _table("ask", lang, tuple(DecisionKind)) for lang in LANGS
}
"""What each decision asks, as a prompt title (catalog area `ask`), keyed by `DecisionKind`."""


def seat_name(seat: int | None, lang: Lang) -> str:
    """`3號` or `#3` (catalog `seat.one`)."""
    return "" if seat is None else t("seat.one", lang, n=seat)


def pass_label(request: DecisionRequest, lang: Lang) -> str:
    """What passing means for this request (abstain, don't shoot, …)."""
    return _PASS[lang].get(request.kind, _ACTION[lang]["pass"])


def label_template(kind: str, lang: Lang) -> str:
    """The description of a seat action with `{s}` for the seat."""
    return _ACTION[lang].get(kind, kind)


def label(action: Action, lang: Lang, targets: tuple[int, ...] = ()) -> str:
    """A short description of `action` in `lang`."""
    words = _ACTION[lang]
    target = getattr(action, "target", None)
    match action.kind:
        case "recommend_exile" | "mist":
            seats = t("seat.sep", lang).join(
                seat_name(s, lang) for s in getattr(action, "targets", ())
            )
            return words[action.kind].format(s=seats)
        case "choose_order":
            direction = str(getattr(action, "direction", "ascending"))
            start = getattr(action, "start", None)
            tail = words["from"].format(s=seat_name(start, lang)) if start else ""
            return words[direction] + tail
        case "self_explode" if target is not None:
            return words["self_explode_t"].format(s=seat_name(target, lang))
        case "trade":
            gift = t(f"gift.{getattr(action, 'gift', 'check')}", lang)
            return words["trade"].format(s=seat_name(target, lang), g=gift)
        case "swap" | "link":
            first, second = (seat_name(s, lang) for s in getattr(action, "targets", (None, None)))
            return words[action.kind].format(s=first, o=second)
        case "save":
            return words["save"].format(s=seat_name(targets[0] if targets else None, lang)).strip()
        case "speak":
            text = getattr(action, "text", "")
            return words["speak"] + (f"「{text}」" if text else "")
        case kind:
            return words.get(kind, kind).format(s=seat_name(target, lang))
