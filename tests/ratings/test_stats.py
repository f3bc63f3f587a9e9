import pytest

from arena.ratings.board import WinRate
from arena.ratings.ngrams import ngrams, overlap, tokens
from arena.ratings.stats import Mean, Ratio, quantile, wilson


def test_wilson_matches_the_textbook_value_and_stays_in_bounds() -> None:
    interval = wilson(8, 10)
    assert interval is not None
    assert interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)
    zero = wilson(0, 5)
    assert zero is not None and zero.low == 0.0 and 0.0 < zero.high < 0.5
    assert wilson(0, 0) is None


def test_quantile_interpolates_and_rejects_nonsense() -> None:
    assert quantile([3.0, 1.0, 2.0, 4.0], 0.5) == pytest.approx(2.5)
    assert quantile([5.0], 0.975) == 5.0
    with pytest.raises(ValueError):
        quantile([], 0.5)
    with pytest.raises(ValueError):
        quantile([1.0], 1.5)


def test_ratios_and_means_add_and_say_none_without_data() -> None:
    assert (Ratio(num=1, den=2) + Ratio(num=2, den=2)).value == 0.75
    assert Ratio().value is None and Mean().value is None
    assert (Mean(total=1.0, count=1) + Mean(total=2.0, count=3)).value == 0.75


def test_models_round_trip_through_json_with_their_computed_fields() -> None:
    wins = WinRate(wins=3, draws=1, games=5)
    text = wins.model_dump_json()
    assert '"rate":0.6' in text and '"interval"' in text
    assert WinRate.model_validate_json(text) == wins
    with pytest.raises(ValueError):
        Ratio.model_validate({"num": 1, "den": 2, "typo": 3})


def test_tokens_split_cjk_characters_and_latin_words() -> None:
    assert tokens("今晚刀3號, Kill seat 3!") == ["今", "晚", "刀", "3", "號", "kill", "seat", "3"]
    assert ngrams("a b") == frozenset()
    assert overlap("kill seat five now", ngrams("we kill seat five")) == pytest.approx(1 / 2)
    assert overlap("too short", ngrams("too short text")) is None
