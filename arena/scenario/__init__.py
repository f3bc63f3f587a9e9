"""Declarative rule scenarios: a fixed game, a script, a check point, expected outcomes.

`load_scenario(path)` reads a YAML file (docs/scenarios.md), `run_scenario(scenario)`
plays it and returns a `ScenarioResult` whose `mismatches` list what did not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.scenario.check import mismatches
from arena.scenario.model import Scenario, ScenarioError, load_scenario
from arena.scenario.runner import Run, play

__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "load_scenario",
    "run_scenario",
    "scenario_files",
]


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """The outcome of one scenario."""

    scenario: Scenario
    run: Run
    mismatches: tuple[str, ...]
    """Problems while playing (then the expectations are not checked: the game went off
    script), else failed expectations; empty when the scenario passes."""

    @property
    def passed(self) -> bool:
        """Whether every expectation held."""
        return not self.mismatches


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """Play `scenario` and check its expectations."""
    run = play(scenario)
    found = list(run.problems) or mismatches(scenario, run)
    return ScenarioResult(scenario=scenario, run=run, mismatches=tuple(found))


def scenario_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The scenario files named by `paths`, in order.

    Files are taken as given; folders are searched for `*.yaml` and `*.yml`, sorted.

    Raises:
        ScenarioError: a path that does not exist.
    """
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        elif path.exists():
            yield path
        else:
            raise ScenarioError(f"{path}: no such file or folder")
