"""Every viewer against every event kind, judged by an oracle independent of `observe`.

Seeded random games on every board under every preset, plus every rules scenario (for
the rare events: explosions, the idiot, the badge passed, lots), are projected for god,
the public, each team and each seat, and compared with `tests/rules/knowledge.py`.
"""

from __future__ import annotations

import typing
from functools import cache
from pathlib import Path

import pytest

from arena.rules import events as ev
from arena.rules import observation
from arena.rules.config import GameConfig
from arena.rules.types import Team
from arena.rules.visibility import TeamViewer, ToSeats, Viewer, Visibility, can_see
from arena.scenario.model import load_scenario
from arena.scenario.runner import play
from tests.conftest import BOARD_REFS, play_random
from tests.rules.knowledge import RULES, audit

PRESETS = ("tournament", "site", "classic")
SEEDS = (1, 2)
SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").rglob("*.yaml"))
Log = tuple[GameConfig, tuple[ev.Event, ...]]


def _kinds() -> set[str]:
    union = typing.get_args(ev.Event)[0]
    return {cls.model_fields["kind"].default for cls in typing.get_args(union)}


@cache
def _games() -> tuple[Log, ...]:
    logs = []
    for board in BOARD_REFS.values():
        for preset in PRESETS:
            config = GameConfig(board=board, preset=preset)
            for seed in SEEDS:
                logs.append((config, tuple(play_random(config, seed).events)))
    return tuple(logs)


@cache
def _scenario_logs() -> tuple[Log, ...]:
    logs = []
    for path in SCENARIOS:
        scenario = load_scenario(path)
        logs.append((scenario.config, play(scenario).events))
    return tuple(logs)


def test_every_event_kind_has_an_oracle_rule() -> None:
    assert set(RULES) == _kinds(), "add a rule to tests/rules/knowledge.py for each new kind"


def test_the_games_and_scenarios_produce_every_event_kind() -> None:
    """An event kind no log produces is never checked: add a scenario that makes one."""
    produced = {e.kind for _, log in (*_games(), *_scenario_logs()) for e in log}
    assert _kinds() - produced == set()


@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_every_viewer_sees_exactly_what_the_rules_allow_in_random_games(board: str) -> None:
    for config, log in _games():
        if config.board_id == board:
            problems = audit(log, config)
            assert problems == [], f"{config.preset}: {problems[:5]}"


def test_every_viewer_sees_exactly_what_the_rules_allow_in_scenarios() -> None:
    for (config, log), path in zip(_scenario_logs(), SCENARIOS, strict=True):
        problems = audit(log, config)
        assert problems == [], f"{path.name}: {problems[:5]}"


def _leaky(viewer: Viewer, visibility: Visibility) -> bool:
    """The mutation of issue 9: the wolves' team view also sees events meant for one seat."""
    if isinstance(viewer, TeamViewer) and viewer.team is Team.WOLF:
        if isinstance(visibility, ToSeats):
            return True
    return can_see(viewer, visibility)


def test_the_oracle_catches_the_wolves_seeing_seat_only_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(observation, "can_see", _leaky)
    config, log = next(g for g in _games() if g[0].board == "std9")
    problems = audit(log, config)
    assert any("seer_checked leaks to team:wolf" in p for p in problems), problems[:5]
    assert any("knife_shown_to_witch leaks to team:wolf" in p for p in problems)
    assert any("role_assigned leaks to team:wolf" in p for p in problems)
