from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import arena.api
from arena.agents.base import CONTRACT_VERSION, Believer, Learner
from arena.agents.plugin import (
    ENTRY_POINT_GROUP,
    PluginAgent,
    check_plugin,
    entry_point_agents,
    is_plugin_spec,
    load_factory,
    plugin_agent,
)
from arena.agents.random_agent import RandomAgent
from arena.agents.seats import (
    EndpointSettings,
    MatchSpec,
    build_agents,
    check_options,
    parse_seats,
)
from arena.errors import ArenaError
from arena.match import Limits, new_header, run_game
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.outcome import seat_rewards, seat_side
from arena.storage.replay_file import read_replay
from tests.support import plugins

CONFIG = GameConfig(board="wwk_guard")
FAST = Limits(call_timeout_s=0.1, retries=1)
P = "py:tests.support.plugins"


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on `sys.path` for throwaway modules, forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_a_class_is_a_factory_and_its_name_is_the_spec() -> None:
    agent = plugin_agent(f"{P}:Polite", seat=3, seed=7)
    assert isinstance(agent, PluginAgent) and not isinstance(agent, Believer)
    assert agent.name == f"{P}:Polite" and agent.model == "polite"
    assert agent.accountable


def test_the_factory_gets_the_arguments_it_names_and_a_copy_of_the_options() -> None:
    plugins.Seeded.made.clear()
    options = {"style": "bold"}
    agent = plugin_agent(f"{P}:Seeded", seat=4, seed=41, lang="en", options=options)
    plugin_agent(f"{P}:make_anything", seat=5, seed=9, lang="en", options=options)
    first, everything = plugins.Seeded.made
    assert first == {"seat": 4, "seed": 41, "options": {"style": "bold"}}
    assert everything == {"seat": 5, "seed": 9, "lang": "en", "options": {"style": "bold"}}
    assert first["options"] is not options and agent.model == "seeded-bold"


def test_a_believer_stays_a_believer() -> None:
    assert isinstance(plugin_agent(f"{P}:Believing", seat=1, seed=0), Believer)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("py:tests.support.plugins", "use py:MODULE:FACTORY"),
        ("py:no_such_module_xyz:make", "no module named 'no_such_module_xyz'"),
        (f"{P}:Nope", "tests.support.plugins has no attribute 'Nope'"),
        (f"{P}:Polite.nope", "has no attribute 'Polite.nope'"),
        (f"{P}:NOT_CALLABLE", "int is not a class or factory"),
        (f"{P}:not_an_agent", "returned str, not an Agent"),
        (f"{P}:the_class", "returned the class Polite, not an instance"),
        (f"{P}:needs_model", "needs argument 'model', which the arena does not pass"),
        (f"{P}:broken_factory", "factory raised RuntimeError: cannot load the checkpoint"),
        ("no-such-agent-xyz", "unknown agent spec 'no-such-agent-xyz'"),
    ],
)
def test_a_plugin_that_cannot_be_made_is_one_line(spec: str, says: str) -> None:
    with pytest.raises(ArenaError) as caught:
        plugin_agent(spec, seat=1, seed=0)
    message = str(caught.value)
    assert says in message and "\n" not in message
    assert message.startswith(spec) or spec in message


def test_import_failures_inside_the_module_are_told_apart(modules: Path) -> None:
    (modules / "needs_torch_xyz.py").write_text("import torch_not_installed_xyz\n")
    (modules / "crashes_xyz.py").write_text("raise ValueError('bad\\nconfig')\n")
    with pytest.raises(ArenaError, match="importing needs_torch_xyz failed: No module named"):
        load_factory("py:needs_torch_xyz:make")
    with pytest.raises(ArenaError) as caught:
        check_plugin("py:crashes_xyz:make")
    assert (
        str(caught.value)
        == "py:crashes_xyz:make: importing crashes_xyz failed: ValueError: bad config"
    )


def test_check_plugin_imports_without_calling_unless_asked() -> None:
    check_plugin(f"{P}:broken_factory")
    with pytest.raises(ArenaError, match="factory raised"):
        check_plugin(f"{P}:broken_factory", build=True)


def _install_entry_points(folder: Path, lines: list[str], dist: str = "fake_agents") -> None:
    info = folder / f"{dist}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    body = "\n".join(lines)
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{body}\n")


def test_an_entry_point_name_loads_its_agent(modules: Path) -> None:
    _install_entry_points(modules, ["polite-xyz = tests.support.plugins:Polite"])
    assert is_plugin_spec("polite-xyz") and not is_plugin_spec("openai:gpt")
    assert not any(map(is_plugin_spec, ["bot", "random", "human", "http://h/agent"]))
    assert "polite-xyz" in entry_point_agents()
    agent = plugin_agent("polite-xyz", seat=2, seed=0)
    assert agent.name == "polite-xyz" and agent.model == "polite"


def test_a_name_two_packages_register_is_refused(modules: Path) -> None:
    _install_entry_points(modules, ["twice-xyz = tests.support.plugins:Polite"], "one")
    _install_entry_points(modules, ["twice-xyz = tests.support.plugins:Seeded"], "two")
    assert "twice-xyz" not in entry_point_agents()
    with pytest.raises(ArenaError, match="registered twice"):
        load_factory("twice-xyz")


def _play(tmp_path: Path, spec: str, limits: Limits = FAST) -> tuple[Path, object]:
    agents: dict = {s: RandomAgent(s) for s in range(1, 13)}
    agents[3] = plugin_agent(spec, seat=3, seed=3)
    path = tmp_path / "game.jsonl"
    referee = asyncio.run(run_game(new_header("g", CONFIG, 5, agents), agents, path, limits=limits))
    assert check_replay(path).ok
    return path, referee


@pytest.mark.parametrize("kind", ["Polite", "SyncBareAction", "Believing"])
def test_a_table_of_good_plugins_plays_a_whole_game_without_defaults(
    tmp_path: Path, kind: str
) -> None:
    spec = f"{P}:{kind}"
    agents = {s: plugin_agent(spec, seat=s, seed=s) for s in range(1, 13)}
    path = tmp_path / "game.jsonl"
    header = new_header("g", CONFIG, 5, agents)
    asyncio.run(run_game(header, agents, path, limits=Limits(call_timeout_s=5)))
    replay = read_replay(path)
    assert check_replay(path).ok
    assert replay.header.result is not None and not replay.header.result.void
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert {s.agent for s in replay.header.seats} == {spec}
    assert bool(replay.beliefs) == (kind == "Believing")


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("Raising", "the agent raised KeyError: 'no such feature'"),
        ("Garbage", "the agent returned str, not an AgentReply"),
        ("Hanging", "no answer within 0.1 s"),
        ("BlockingHang", "no answer within 0.1 s"),
        ("Illegal", "legal: "),
    ],
)
def test_a_faulty_plugin_gets_recorded_defaults_and_voids_the_game(
    tmp_path: Path, kind: str, reason: str
) -> None:
    path, referee = _play(tmp_path, f"{P}:{kind}")
    replay = read_replay(path)
    defaults = [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert defaults and {e.seat for e in defaults} == {3}
    assert reason in defaults[0].reason
    result = replay.header.result
    assert result is not None
    # a plug-in is accountable: a game it mostly defaulted is voided, not rated
    assert result.void or len(defaults) < FAST.void_after_defaults


def test_the_public_api_is_pinned() -> None:
    """Changing this list is changing the contract: bump CONTRACT_VERSION if it breaks."""
    assert CONTRACT_VERSION == arena.api.CONTRACT_VERSION == 1
    assert sorted(arena.api.__all__) == sorted(
        [
            "CONTRACT_VERSION",
            "Action",
            "ActionOption",
            "Agent",
            "AgentLang",
            "AgentReply",
            "BeliefReport",
            "Believer",
            "DecisionKind",
            "DecisionRequest",
            "GameOver",
            "IllegalActionError",
            "InvalidActionError",
            "Knowledge",
            "Learner",
            "Observation",
            "Role",
            "RoleGuess",
            "RoleGuesser",
            "Seen",
            "Side",
            "Winner",
            "actions",
            "check_legal",
            "events",
            "make_bot",
            "make_random",
            "parse_action",
            "random_answer",
        ]
    )
    assert all(hasattr(arena.api, name) for name in arena.api.__all__)


def test_seat_specs_name_plugins_and_spec_files_give_them_options() -> None:
    seats = parse_seats([f"1-2={P}:Seeded"], 12, overrides=[f"3={P}:Polite"])
    assert seats[1].kind == "plugin" and seats[1].label == f"{P}:Seeded"
    spec = MatchSpec(lang="en", options={f"{P}:Seeded": {"style": "terse"}})
    check_options(seats, spec)
    plugins.Seeded.made.clear()
    agents = build_agents(seats, CONFIG, 7, spec)
    assert agents[1].name == f"{P}:Seeded" and agents[3].name == f"{P}:Polite"
    assert plugins.Seeded.made == [
        {"seat": 1, "seed": 7001, "options": {"style": "terse"}},
        {"seat": 2, "seed": 7002, "options": {"style": "terse"}},
    ]
    timed = MatchSpec(endpoints={"py": EndpointSettings(decision_timeout_s=5)})
    assert build_agents(seats, CONFIG, 7, timed)[3].decision_timeout_s == 5  # type: ignore[attr-defined]
    with pytest.raises(ArenaError, match=r"options.py:x:y: no seat plays this plug-in \(seated: "):
        check_options(seats, MatchSpec(options={"py:x:y": {}}))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("3=py:nocolon", "bad seat spec '3=py:nocolon': use py:MODULE:FACTORY"),
        ("3=no-such-agent-xyz", "bad seat spec '3=no-such-agent-xyz': unknown agent spec"),
    ],
)
def test_a_malformed_or_unknown_plugin_spec_is_refused_when_parsed(text: str, says: str) -> None:
    with pytest.raises(ArenaError, match=re.escape(says)):
        parse_seats([], 12, overrides=[text])


def test_a_plugin_that_learns_is_told_how_each_game_ended(tmp_path: Path) -> None:
    """Every seat gets the result, every card, its side and its reward, once, at the end.

    On the old runner nobody was told: `knowledge.winner` was never seen by an agent.
    """
    plugins.Learning.told.clear()
    plugins.Learning.sides.clear()
    agents = {s: plugin_agent(f"{P}:Learning", seat=s, seed=s) for s in range(1, 13)}
    assert all(isinstance(a, Learner) for a in agents.values())
    header = new_header("g", CONFIG, 5, agents)
    referee = asyncio.run(run_game(header, agents, tmp_path / "g.jsonl", limits=FAST))
    told = {end.seat: (end, view) for end, view in plugins.Learning.told}
    assert sorted(told) == list(range(1, 13)) and len(plugins.Learning.told) == 12
    state = referee.state
    for seat, (end, view) in told.items():
        assert end.winner == state.winner is not None and not end.voided
        assert end.roles == {s: state.role(s) for s in range(1, 13)}
        assert end.side == seat_side(state, seat) == view.knowledge.side
        assert end.reward == seat_rewards(state)[seat] != 0
        assert view.knowledge.winner == state.winner and view.viewer.seat == seat  # type: ignore[union-attr]
        assert plugins.Learning.sides[seat] == end.side  # every request said the side


def test_a_plugin_that_fails_to_learn_loses_nothing(tmp_path: Path) -> None:
    agents = {s: plugin_agent(f"{P}:SyncLearningBadly", seat=s, seed=s) for s in range(1, 13)}
    header = new_header("g", CONFIG, 5, agents)
    asyncio.run(run_game(header, agents, tmp_path / "g.jsonl", limits=FAST))
    result = read_replay(tmp_path / "g.jsonl").header.result
    assert result is not None and not result.void and check_replay(tmp_path / "g.jsonl").ok
    assert all(isinstance(a, PluginAgent) and a.faults == 1 for a in agents.values())
    assert not isinstance(plugin_agent(f"{P}:Polite", seat=1, seed=0), Learner)
