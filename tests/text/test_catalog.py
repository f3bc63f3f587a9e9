import re
import typing
from enum import StrEnum
from pathlib import Path

import pytest

from arena.rules import events as ev
from arena.rules.boards import WinMode
from arena.rules.decisions import DecisionKind
from arena.rules.types import DeathCause, Phase, SpeechContext, Winner
from arena.text import LANGS, Lang, MissingText, keys, t
from arena.text.catalog import fields
from arena.transcript import RENDERERS, render
from tests.text.samples import event_kinds, samples


def test_every_key_exists_in_every_language_with_the_same_fields() -> None:
    reference = keys("en")
    for lang in LANGS:
        assert keys(lang) == reference, f"{lang}: {sorted(keys(lang) ^ reference)}"
        for key in reference:
            assert fields(t(key, lang)) == fields(t(key, "en")), (lang, key)


def test_a_missing_key_is_an_error_not_a_raw_identifier() -> None:
    with pytest.raises(MissingText, match="no zh text for 'event.nonsense'"):
        t("event.nonsense", "zh")


def _literal(kind: type, field: str) -> tuple[str, ...]:
    return typing.get_args(kind.model_fields[field].annotation)  # type: ignore[attr-defined]


CLOSED_SETS: dict[str, tuple[str, ...]] = {
    "phase": tuple(Phase),
    "cause": tuple(DeathCause),
    "decision": tuple(DecisionKind),
    "ask": tuple(DecisionKind),
    "winner": tuple(Winner),
    "outcome": tuple(Winner),
    "speech": typing.get_args(SpeechContext),
    "knife_how": _literal(ev.KnifeChosen, "how"),
    "badge_lost": _literal(ev.BadgeLost, "reason"),
    "win_mode": typing.get_args(WinMode),
}


@pytest.mark.parametrize("area", CLOSED_SETS)
def test_every_value_of_a_closed_set_has_a_text(area: str) -> None:
    values = {v.value if isinstance(v, StrEnum) else v for v in CLOSED_SETS[area]}
    assert {k.removeprefix(f"{area}.") for k in keys("en") if k.startswith(f"{area}.")} == values


def test_every_event_kind_has_a_renderer() -> None:
    assert set(event_kinds()) <= set(RENDERERS)


_ALLOWED_LATIN = {"PK"}
"""Latin words that are ordinary Chinese game vocabulary."""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", event_kinds(), ids=lambda k: k.__name__)
def test_every_event_renders_without_raw_identifiers(kind: type, lang: Lang) -> None:
    for event in samples(kind, lang):
        line = render(event, lang)  # type: ignore[arg-type]
        if isinstance(event, ev.PlayerDied) and event.cause is DeathCause.EXPLODED:
            assert line is None  # `SelfExploded` says it: the god view said it twice
            continue
        assert line, event
        assert "{" not in line and "}" not in line, line
        assert not re.search(r"[a-z]_[a-z]", line), line
        if lang == "zh":
            latin = set(re.findall(r"[A-Za-z]+", line)) - _ALLOWED_LATIN
            assert not latin, f"{line!r} has {latin}"
        else:  # an English transcript of a Chinese game ended "(狼刀在先)"
            assert not re.search(r"[\u4e00-\u9fff]", line), line


def test_chinese_knife_and_badge_lines_are_chinese() -> None:
    from arena.rules.visibility import PUBLIC

    knife = ev.KnifeChosen(visibility=PUBLIC, target=3, how="unanimous")
    assert render(knife, "zh") == "[狼隊] 今晚刀口：3號（意見一致）"
    badge = ev.BadgeLost(visibility=PUBLIC, reason="no_candidates")
    assert render(badge, "zh") == "警徽流失（無人競選）"


def test_no_text_or_prompt_file_names_a_key_twice() -> None:
    """YAML keeps the last of two equal keys silently: a second `play.link` once hid the
    Play page's "Paste a join link" label. Every catalog and prompt file is checked."""
    import yaml  # noqa: PLC0415

    root = Path(__file__).resolve().parents[2]
    files = sorted([*(root / "arena" / "text").glob("*.yaml"), *(root / "prompts").rglob("*.yaml")])
    twice: list[str] = []

    class Strict(yaml.SafeLoader):
        def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:  # type: ignore[override]
            seen: set[object] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
                if key in seen:
                    twice.append(f"{self.name}:{key_node.start_mark.line + 1}: {key}")
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    for file in files:
        with file.open(encoding="utf-8") as stream:
            yaml.load(stream, Loader=Strict)  # noqa: S506
    assert len(files) >= 10
    assert not twice, twice
