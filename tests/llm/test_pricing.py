from arena.llm.pricing import PRICES, Price, cost_usd, price_of
from arena.llm.types import Usage


def test_exact_snapshot_and_gateway_names_find_a_price() -> None:
    assert price_of("gpt-4.1-mini") == PRICES["gpt-4.1-mini"]
    assert price_of("gpt-4.1-mini-2025-04-14") == PRICES["gpt-4.1-mini"]
    assert price_of("gpt-4.1-2025-04-14") == PRICES["gpt-4.1"]
    assert price_of("openai/gpt-4o-mini") == PRICES["gpt-4o-mini"]


def test_unknown_models_have_no_price_and_cost_nothing() -> None:
    assert price_of("qwen2.5-7b-instruct") is None
    assert cost_usd(Usage(prompt_tokens=10**6, completion_tokens=10**6), None) == 0.0


def test_cached_prompt_tokens_are_billed_at_the_cached_rate() -> None:
    price = Price(input=2.0, output=8.0, cached_input=0.5)
    usage = Usage(prompt_tokens=1_000_000, completion_tokens=500_000, cached_tokens=400_000)
    assert cost_usd(usage, price) == 600_000 * 2.0 / 1e6 + 400_000 * 0.5 / 1e6 + 4.0
    assert cost_usd(usage, Price(1.0, 1.0)) == 1.5
