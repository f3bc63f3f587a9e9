"""Small additive statistics: counted ratios, running means, and their intervals.

Every metric is kept as a numerator and a denominator (or a total and a count), never as
a finished average, so per-seat tallies add up into per-agent tallies exactly and an
empty tally says "no data" (`value is None`) instead of pretending to be 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Self, cast

from pydantic import BaseModel, ConfigDict, computed_field, model_validator

Z_95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


class FrozenModel(BaseModel):
    """Base of every `arena.ratings` model: frozen, strict about unknown fields.

    Computed fields (`Ratio.value`, `WinRate.interval`, ...) are written to JSON for
    readers, and dropped again on the way in, so an exported report loads back with
    `model_validate_json` and its derived numbers are recomputed, never trusted.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _drop_computed(cls, data: Any) -> Any:
        computed = cls.__pydantic_computed_fields__  # the class dict: fast, unlike the property
        if computed and isinstance(data, dict) and not computed.keys().isdisjoint(data):
            return {k: v for k, v in data.items() if k not in computed}
        return data


class Summed(FrozenModel):
    """A tally whose sum is the sum of each field (`Ratio`, `Mean`, `Tallies`, ...).

    Sums of valid counts are valid, so a sum is not validated again: a large report adds
    thousands of these.
    """

    def __add__(self, other: Self) -> Self:
        fields = type(self).model_fields
        sums = {name: getattr(self, name) + getattr(other, name) for name in fields}
        return cast(Self, self.model_construct(**sums))  # the plugin types it as `Summed`


class Ratio(Summed):
    """`num` hits out of `den` chances (for example wolf votes out of votes cast)."""

    num: int = 0
    den: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def value(self) -> float | None:
        """`num / den`, or None when there was no chance at all."""
        return self.num / self.den if self.den else None


class Mean(Summed):
    """A running mean kept as its `total` over `count` observations."""

    total: float = 0.0
    count: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def value(self) -> float | None:
        """The mean, or None without observations."""
        return self.total / self.count if self.count else None


def mean_of(values: Sequence[float]) -> Mean:
    """A `Mean` holding `values`."""
    return Mean(total=float(sum(values)), count=len(values))


class Interval(FrozenModel):
    """A two-sided confidence interval."""

    low: float
    high: float


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval | None:
    """The Wilson score interval of a binomial proportion (None without trials).

    Wilson rather than the normal approximation because tournament cells are small and
    win rates near 0 or 1 are common; its bounds never leave [0, 1].
    """
    if trials <= 0:
        return None
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Interval(low=max(0.0, centre - half), high=min(1.0, centre + half))


def quantile(values: Sequence[float], q: float) -> float:
    """The `q` quantile of `values` by linear interpolation between order statistics.

    Raises:
        ValueError: `values` is empty or `q` is outside [0, 1].
    """
    if not values:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} is outside [0, 1]")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)
