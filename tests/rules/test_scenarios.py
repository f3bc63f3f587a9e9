"""Every scenario under scenarios/ passes; the format's errors are one line naming the file
and field; the runner is strict; the documented defaults are the core's."""

from __future__ import annotations

import os
import re
from pathlib import Path
from random import Random

import pytest

from arena.cli import main
from arena.rules.actions import ChooseOrder, Inspect, Link, Pass, Speak, TearBadge
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.referee import Referee
from arena.rules.types import Direction
from arena.scenario import ScenarioError, load_scenario, run_scenario, scenario_files
from arena.scenario.notation import parse_action
from tests.conftest import BOARD_REFS

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(scenario_files([ROOT / "scenarios"]))
SEEDS = next(
    (
        p
        for p in (
            *([Path(os.environ["ARENA_SEEDS"])] if os.environ.get("ARENA_SEEDS") else []),
            ROOT / "seeds",
            *(up / "shared" / "seeds" for up in ROOT.parents),
        )
        if p.is_dir()
    ),
    None,
)
"""The seed documents: `$ARENA_SEEDS`, `seeds/`, or `shared/seeds` beside the checkout or
any folder above it (a worktree sits deeper than a clone)."""
DEAL = (
    "[seer, witch, hunter, guard, villager, villager, villager, villager, "
    "werewolf, werewolf, werewolf, white_wolf_king]"
)


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT / "scenarios"))


@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_scenario(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    assert result.passed, "\n".join(result.mismatches)


def test_enough_scenarios_in_every_topic() -> None:
    assert len(SCENARIOS) >= 80
    topics = {p.parent.name for p in SCENARIOS}
    assert {
        "guard",
        "witch",
        "seer",
        "hunter",
        "idiot",
        "wolf_king",
        "white_wolf_king",
        "sheriff",
        "badge",
        "vote",
        "last_words",
        "explosion",
        "knife",
        "win",
    } <= topics


@pytest.mark.skipif(SEEDS is None, reason="the seed documents are not next to the repo")
@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_citation_quotes_its_seed_line(path: Path) -> None:
    assert SEEDS is not None
    for citation in load_scenario(path).source:
        (seed_file,) = SEEDS.glob(f"{citation.seed}_*.txt")
        lines = seed_file.read_text(encoding="utf-8").splitlines()
        cited = "".join(lines[n - 1] for n in citation.lines if n <= len(lines))
        assert _squash(citation.quote) in _squash(cited), f"{citation} is not on that line"


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(body, encoding="utf-8")
    return path


GOOD = f"""
name: a case
source: "003:91 同守同救失效"
board: wwk_guard
deal: {DEAL}
script:
  night 1:
    wolves: {{knife: 5}}
at: night 1
expect:
  deaths: ["5 knife night 1"]
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("board: wwk_guard", "board: chess", "unknown board 'chess'"),
        ("at: night 1", "at: dusk 1", "at: 'dusk 1' is not a check point"),
        ('"5 knife night 1"', '"5 stabbed night 1"', "expect.deaths: unknown cause"),
        ("{knife: 5}", "{knife: kil 5}", "script.night 1.wolves.knife: unknown action 'kil'"),
        ("{knife: 5}", "{knifes: 5}", "script.night 1.wolves.knifes: 'knifes' is neither"),
        ("night 1:\n    wolves", "night one:\n    wolves", "script.night one: 'night one'"),
        ('source: "003:91 同守同救失效"', 'source: "同守同救失效"', "source: '同守同救失效'"),
        ("deaths:", "death:", "expect.death: Extra inputs are not permitted"),
        ("deal: [seer,", "deal: [seer, seer,", "deal does not match board 'wwk_guard'"),
        ("name: a case", "name: [a, case", ":3: not valid YAML: did not find expected"),
    ],
)
def test_malformed_file_is_one_line_naming_file_and_field(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    path = _write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:")  # `PATH:LINE: ` for bad YAML, as every user file
    assert field in message


def test_good_case_passes_and_wrong_expectation_fails(tmp_path: Path) -> None:
    assert run_scenario(load_scenario(_write(tmp_path, GOOD))).passed
    wrong = GOOD.replace('"5 knife night 1"', '"6 knife night 1"')
    result = run_scenario(load_scenario(_write(tmp_path, wrong)))
    assert result.mismatches == ("deaths: expected [6 knife night 1], got [5 knife night 1]",)


def test_unused_script_entry_fails(tmp_path: Path) -> None:
    late = GOOD.replace("at: night 1", "at: night 1\n").replace(
        "    wolves: {knife: 5}", "    wolves: {knife: 5}\n  day 2:\n    5: {vote: 9}"
    )
    result = run_scenario(load_scenario(_write(tmp_path, late)))
    assert result.mismatches == ("script entry never used: day 2 seat 5 vote: vote 9",)


def test_refused_script_answer_fails(tmp_path: Path) -> None:
    bad = GOOD.replace("{knife: 5}", "{knife: 5}\n    1: {seer: 1}")
    result = run_scenario(load_scenario(_write(tmp_path, bad)))
    assert len(result.mismatches) == 1
    assert "night 1 seat 1 seer: scripted 'inspect 1' was refused" in result.mismatches[0]


def test_accepted_refusal_fails(tmp_path: Path) -> None:
    lenient = GOOD.replace(
        "expect:",
        "expect:\n  refused:\n    - {in: night 1, seat: 1, kind: seer, action: inspect 2, "
        "error: nope}",
    )
    result = run_scenario(load_scenario(_write(tmp_path, lenient)))
    assert result.mismatches == (
        "refused: night 1 seat 1 'inspect 2' was accepted, expected a refusal",
    )


def test_check_point_after_the_end_fails(tmp_path: Path) -> None:
    ended = (
        GOOD.replace("board: wwk_guard", "board: wwk_guard\noverrides: {max_days: 1}")
        .replace("at: night 1", "at: exile 3")
        .replace('expect:\n  deaths: ["5 knife night 1"]', "expect: {}")
    )
    result = run_scenario(load_scenario(_write(tmp_path, ended)))
    assert len(result.mismatches) == 1
    assert "before the check point exile 3" in result.mismatches[0]


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, GOOD)
    assert main(["scenario", str(good)]) == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace('"5 knife night 1"', '"6 knife night 1"'), encoding="utf-8")
    assert main(["scenario", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  {bad}  a case: deaths: expected [6 knife night 1]" in out
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [", encoding="utf-8")
    assert main(["scenario", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert f"ERROR {broken}:" in out and ": not valid YAML: " in out
    assert main(["scenario", str(tmp_path / "missing.yaml")]) == 2


def test_compact_answers() -> None:
    assert parse_action(7, "knife").model_dump() == {"kind": "kill", "target": 7}
    assert parse_action("choose_order descending 3", "speech_order") == ChooseOrder(
        direction=Direction.DESCENDING, start=3
    )
    assert parse_action("speak 我是 預言家", "speech") == Speak(text="我是 預言家")
    with pytest.raises(ValueError, match="bare seat number"):
        parse_action(7, "witch")


def _documented_default(request: DecisionRequest) -> object:
    """The defaults docs/scenarios.md lists, per decision kind."""
    match request.kind:
        case DecisionKind.SPEECH:
            return Speak(text="")
        case DecisionKind.SEER | DecisionKind.IDENTIFY if request.option("pass") is None:
            option = request.option("inspect")
            assert option is not None
            return Inspect(target=option.targets[0])
        case DecisionKind.SPEECH_ORDER:
            option = request.option("choose_order")
            assert option is not None
            start = option.targets[0] if option.targets else None
            return ChooseOrder(direction=Direction.ASCENDING, start=start)
        case DecisionKind.BADGE:
            return TearBadge()
        case DecisionKind.CHARM | DecisionKind.DREAM | DecisionKind.ADMIRE:
            option = request.options[0]
            return parse_action({"kind": option.action, "target": option.targets[0]}, "charm")
        case DecisionKind.CUPID:
            return Link(targets=request.options[0].targets[:2])
        case DecisionKind.THIEF | DecisionKind.WATCH:
            option = request.options[0]
            return parse_action({"kind": option.action, "target": option.targets[0]}, "seer")
    return Pass()


@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_every_default_is_the_documented_one(board: str) -> None:
    for preset in ("tournament", "site", "classic"):
        rng = Random(f"{board}/{preset}")
        config = GameConfig(board=BOARD_REFS[board], preset=preset)
        referee = Referee(config, seed=rng.randrange(10**6))
        while not referee.finished:
            for request in referee.pending():
                assert request.default == _documented_default(request), request
                option = rng.choice(request.options)
                data: dict[str, object] = {"kind": option.action}
                if option.targets and option.action == "recommend_exile":
                    data["targets"] = [rng.choice(option.targets)]
                elif option.action == "mist":
                    data["targets"] = rng.sample(option.targets, 3)
                elif option.targets and option.action == "choose_order":
                    data |= {"direction": "ascending", "start": rng.choice(option.targets)}
                elif option.targets and option.action in ("swap", "link"):
                    data["targets"] = rng.sample(option.targets, 2)
                elif option.targets and option.action != "save":
                    data["target"] = rng.choice(option.targets)
                elif option.action == "choose_order":
                    data["direction"] = "descending"
                elif option.action in ("speak", "whisper"):
                    data["text"] = "…"
                if option.action == "trade":
                    data["gift"] = rng.choice(["check", "poison", "shield"])
                if option.action == "self_explode" and option.targets:
                    data["target"] = rng.choice(option.targets)
                referee.submit(request.seat, parse_action(data, request.kind.value))


def test_or_end_accepts_a_game_that_ends_before_the_point(tmp_path: Path) -> None:
    ended = (
        GOOD.replace("board: wwk_guard", "board: wwk_guard\noverrides: {max_days: 1}")
        .replace("at: night 1", "at: exile 3 or end")
        .replace('expect:\n  deaths: ["5 knife night 1"]', "expect: {winner: draw}")
    )
    assert run_scenario(load_scenario(_write(tmp_path, ended))).passed


def test_optional_entry_is_used_if_asked_and_never_reported(tmp_path: Path) -> None:
    maybe = GOOD.replace(
        "    wolves: {knife: 5}", '    wolves: {knife: 5}\n  day 2:\n    5: {"vote?": 9}'
    )
    assert run_scenario(load_scenario(_write(tmp_path, maybe))).passed
    hunter = GOOD.replace("{knife: 5}", '{knife: 3}\n  day 1:\n    3: {"shoot?": 9}').replace(
        '"5 knife night 1"]', '"3 knife night 1", "9 shot day 1"]'
    )
    assert run_scenario(
        load_scenario(_write(tmp_path, hunter.replace("at: night 1", "at: morning 1")))
    ).passed


def test_alive_and_dead_includes_are_subsets(tmp_path: Path) -> None:
    subset = GOOD.replace("expect:", "expect:\n  alive_includes: [1, 6]\n  dead_includes: [5]")
    assert run_scenario(load_scenario(_write(tmp_path, subset))).passed
    wrong = GOOD.replace("expect:", "expect:\n  alive_includes: [5]\n  dead_includes: [6]")
    result = run_scenario(load_scenario(_write(tmp_path, wrong)))
    assert result.mismatches[0].startswith("alive_includes: [5] dead")
    assert result.mismatches[1].startswith("dead_includes: [6] alive")


def test_triggers_says_whether_a_death_skill_was_offered(tmp_path: Path) -> None:
    knifed = GOOD.replace("{knife: 5}", "{knife: 3}").replace(
        '["5 knife night 1"]', '["3 knife night 1"]\n  triggers: {3: true}'
    )
    assert run_scenario(
        load_scenario(_write(tmp_path, knifed.replace("at: night 1", "at: morning 1")))
    ).passed
    poisoned = GOOD.replace("{knife: 5}", "{knife: 5}\n    2: {witch: poison 3}").replace(
        '["5 knife night 1"]', '["5 knife night 1", "3 poison night 1"]\n  triggers: {3: true}'
    )
    result = run_scenario(
        load_scenario(_write(tmp_path, poisoned.replace("at: night 1", "at: morning 1")))
    )
    assert result.mismatches == ("triggers: seat 3 could not use its death trigger",)


def test_exiles_by_lot_is_one_of_the_listed_seats(tmp_path: Path) -> None:
    tie = GOOD.replace(
        "    wolves: {knife: 5}",
        "    wolves: {knife: 5}\n  day 1:\n    6: {vote: 9}\n    7: {vote: 10}",
    ).replace("board: wwk_guard", "board: wwk_guard\noverrides: {exile_tie: lots}")
    lots = tie.replace("at: night 1", "at: exile 1").replace(
        'deaths: ["5 knife night 1"]', "exiles: {1: [9, 10]}"
    )
    assert run_scenario(load_scenario(_write(tmp_path, lots))).passed
    wrong = lots.replace("[9, 10]", "[11, 12]")
    (mismatch,) = run_scenario(load_scenario(_write(tmp_path, wrong))).mismatches
    assert mismatch.startswith("exiles: day 1: expected one of [11, 12], got ")
