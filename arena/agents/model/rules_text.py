"""The rules summary of a prompt, sentence by sentence, from the board and the `RuleSet`.

Each knob value has one sentence in `prompts/<version>/<lang>/rules.yaml`; a role's
sentences (`role_rules`) appear only when the board deals that role, so the summary
describes this game and nothing else. Only public facts are used: the board's card
counts, never a deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.rules.boards import Board
from arena.rules.config import RuleSet
from arena.rules.types import Role
from arena.transcript import Lang, role_name


def rule_lines(board: Board, rules: RuleSet, texts: Mapping[str, Any], lang: Lang) -> list[str]:
    """The summary's sentences, in a fixed order."""
    roles = board.role_counts()
    sep = "、" if lang == "zh" else ", "
    cards = sep.join(f"{role_name(r, lang)}×{n}" for r, n in roles.items())
    name = board.zh if lang == "zh" else board.en
    steps = sep.join(texts["night_steps"][step] for step in board.night_order)
    night = texts["night"].format(order=steps)
    if board.first_night_order is not None:  # 石像鬼守墓人: the first night differs (001:125)
        first = sep.join(texts["night_steps"][step] for step in board.first_night_order)
        night = texts["night_first"].format(first=first, order=steps)
    lines = [
        texts["board"].format(name=name, seats=board.seats, roles=cards),
        _win(rules, texts),
        night,
        *_knife(rules, texts),
        *_role_lines(roles, rules, texts),
        *_day(rules, texts),
        *_explode(roles, rules, texts, sep),
        texts["limits"].format(
            speech=rules.speech_chars,
            sheriff=rules.sheriff_speech_chars,
            last=rules.last_words_chars,
        ),
        texts["max_days"].format(days=rules.max_days),
    ]
    return lines


def _win(rules: RuleSet, texts: Mapping[str, Any]) -> str:
    win = texts["win"]
    if rules.win == "city":
        return str(win["city_parity" if rules.city_win == "parity" else "city_all"])
    if rules.side_villagers_needed is not None:
        return str(win["side_some"]).format(n=rules.side_villagers_needed)
    return str(win["side"])


def _knife(rules: RuleSet, texts: Mapping[str, Any]) -> list[str]:
    if rules.knife_decision == "plurality":
        lines = [texts["knife"]["plurality"]]
    else:
        lines = [
            texts["knife"]["unanimous"].format(rounds=rules.knife_rounds),
            texts["knife_no_agreement"][rules.knife_no_agreement],
        ]
    if rules.wolves_may_skip:
        lines.append(texts["wolves_may_skip"])
    if not rules.wolf_may_nominate_self:
        lines.append(texts["wolf_may_not_nominate_self"])
    return lines


def _role_lines(roles: Mapping[Role, int], rules: RuleSet, texts: Mapping[str, Any]) -> list[str]:
    """The sentences of `role_rules` for every role dealt, in the data's order.

    An entry is a sentence, or a sentence per value of a rules knob (`knob`, `values`; a
    value without one says nothing), optionally only when another role is dealt as well
    (`with`). A count knob (the healer's protections, the coroner's autopsies: 000:26/30
    限次, any number a board sets) also has `count`, a sentence with `{n}` for every value
    `values` does not name, so a board with 7 uses is told 7 rather than nothing. A role
    added to the rules needs only its entries in `rules.yaml`.
    """
    dealt = {role.value for role in roles}
    lines: list[str] = []
    for role, entries in texts.get("role_rules", {}).items():
        if role not in dealt:
            continue
        for entry in entries:
            if isinstance(entry, str):
                lines.append(entry)
            elif entry.get("with") is None or entry["with"] in dealt:
                value = getattr(rules, entry["knob"])
                key = str(value).lower() if isinstance(value, bool) else str(value)
                if key in entry.get("values", {}):
                    lines.append(str(entry["values"][key]))
                elif "count" in entry:
                    lines.append(str(entry["count"]).format(n=value))
    return lines


def _day(rules: RuleSet, texts: Mapping[str, Any]) -> list[str]:
    lines = [
        texts["sheriff"].format(weight=f"{rules.sheriff_vote_weight:g}")
        if rules.sheriff
        else texts["no_sheriff"]
    ]
    if rules.sheriff and rules.sheriff_pk_voters == "off_stage":
        lines.append(texts["sheriff_pk_off_stage"])
    if rules.sheriff and rules.sheriff_direction == "alternate":
        lines.append(texts["sheriff_direction_alternate"])
    if rules.exile_nomination:
        lines.append(texts["exile_nomination"])
    lines.append(texts["exile_tie"][rules.exile_tie])
    if rules.exile_tie == "pk":
        lines.append(texts["exile_second_tie"][rules.exile_second_tie])
    if rules.last_words_per_wolf:
        lines.append(texts["last_words_per_wolf"])
    else:
        lines.append(texts["last_words"][rules.last_words_night])
    if rules.shot_dies_with_shooter:
        lines.append(texts["shot_dies_with_shooter"])
    if rules.knife_first:
        lines.append(texts["knife_first"])
    return [str(line) for line in lines]


def _explode(
    roles: Mapping[Role, int], rules: RuleSet, texts: Mapping[str, Any], sep: str
) -> list[str]:
    if rules.ordinary_wolves_explode and rules.explode_phases:
        order = ("sheriff_speech", "sheriff_withdraw", "day_speech")
        phases = sep.join(texts["explode_phases"][p] for p in order if p in rules.explode_phases)
        return [str(texts["explode"]).format(phases=phases)]
    if Role.WHITE_WOLF_KING in roles:
        return [str(texts["explode_wwk_only"])]
    return []
