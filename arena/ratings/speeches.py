"""Which speeches said nothing: empty, a placeholder, or another seat's words copied.

A model seat can fill every speech turn with a legal answer and still never speak: small
models copy the question's placeholder (`"…"`) or a speech they just heard, word for word.
Counted as speeches, that silence would be rated as play. So a public speech (`Spoke`,
last words included) *said nothing* when its text

- is empty (a defaulted speech is one) or has no letter or digit at all (`…`, `...`, `?`);
- is a placeholder: wholly in angle brackets (`<your speech>`, the shape the legal
  answers give a text's place), or the words of such a place in any prompt language
  without their brackets, whole or any run of them (SmolLM2 and Qwen spoke
  `你怎麼看場上、懷疑誰、為什麼` and `你自己的發言；`, pieces of the 繁體 place, in a
  12-seat game: `benchmarks/model_seats.py`);
- or copies a speech another seat gave first, earlier in the game: the same tokens
  (`arena.ratings.ngrams.tokens`: letters and digits, one CJK character each, lowercased),
  so a copy with other spacing or punctuation is a copy too, and one in the other
  script (`arena.text.hans`): a seat of a `zh-Hans` game reads the others' speeches in
  Simplified characters, and a copy of what it read is a copy of what they said.

The structured claims are not words: a speech that only fills `claimed_role` says nothing
in this sense. The rule reads the text as written and nothing else, so it is the same for
every agent: two bots whose fixed phrases come out identical (`我是好人，沒有更多信息，過。`)
count the second as a copy too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from arena.agents.model.library import prompt_root
from arena.ratings.ngrams import tokens
from arena.ratings.stats import Ratio
from arena.rules.events import Event, Spoke
from arena.rules.types import SeatId
from arena.text.hans import to_hans
from arena.userfile import read_yaml


def is_placeholder(text: str) -> bool:
    """Whether `text` stands for a speech instead of being one (see the module docstring)."""
    words = _folded(text)
    if not words:
        return True
    stripped = text.strip()
    if stripped.startswith("<") and stripped.endswith(">"):
        return True
    return any(_within(tuple(words), slot) for slot in _slot_words())


def _within(run: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    """Whether `run` stands in `whole` as consecutive tokens."""
    n = len(run)
    return any(whole[i : i + n] == run for i in range(len(whole) - n + 1))


def _folded(text: str) -> list[str]:
    """`text`'s tokens with Chinese in Simplified characters, whichever it was written in."""
    return tokens(to_hans(text))


@functools.cache
def _slot_words() -> frozenset[tuple[str, ...]]:
    """The tokens of every text place the prompt libraries write (`*.slot` tool fields).

    Folded to Simplified characters: a `zh-Hans` seat reads them so (`_folded`).
    """
    found: set[tuple[str, ...]] = set()
    for version in prompt_root().iterdir():
        for lang in version.iterdir() if version.is_dir() else ():
            tools = lang / "tools.yaml"
            if not tools.is_file():
                continue
            fields = read_yaml(tools, "prompts file tools.yaml").get("fields", {})
            found |= {tuple(_folded(v)) for k, v in fields.items() if k.endswith(".slot")}
    return frozenset(found)


def said_nothing(events: Iterable[Event]) -> list[tuple[Spoke, bool]]:
    """Every public speech of the log in order, with whether it said nothing."""
    first: dict[tuple[str, ...], SeatId] = {}
    out: list[tuple[Spoke, bool]] = []
    for event in events:
        if not isinstance(event, Spoke):
            continue
        words = tuple(_folded(event.text))
        copied = first.setdefault(words, event.seat) != event.seat
        out.append((event, copied or is_placeholder(event.text)))
    return out


def spoke_ratios(events: Sequence[Event]) -> dict[SeatId, Ratio]:
    """Per seat: speeches that said something / public speeches it gave."""
    ratios: dict[SeatId, Ratio] = {}
    for speech, silent in said_nothing(events):
        ratios[speech.seat] = ratios.get(speech.seat, Ratio()) + Ratio(num=int(not silent), den=1)
    return ratios
