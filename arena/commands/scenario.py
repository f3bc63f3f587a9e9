"""`arena scenario FILE...`: run declarative rule scenarios and report pass or fail."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena.rules.observation import observe
from arena.rules.visibility import GodViewer
from arena.scenario import ScenarioResult, load_scenario, run_scenario, scenario_files
from arena.scenario.model import ScenarioError
from arena.text import inert
from arena.transcript import render


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena scenario`."""
    cmd = sub.add_parser(
        "scenario",
        help="run rule scenarios (YAML files or folders) and report each pass or fail",
        description="Run rule scenarios (docs/scenarios.md). Exit code 1 if any fails, "
        "2 if a file cannot be read.",
    )
    cmd.add_argument("paths", nargs="+", type=Path, metavar="FILE", help="scenario file or folder")
    cmd.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    cmd.add_argument(
        "--log", action="store_true", help="print the god-view log of each failing scenario"
    )
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run every scenario named; a malformed file is reported and the rest still run."""
    passed = failed = broken = 0
    for path in scenario_files(args.paths):
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            broken += 1
            print(inert(f"ERROR {exc}"))
            continue
        result = run_scenario(scenario)
        if result.passed:
            passed += 1
            if not args.quiet:
                print(inert(f"PASS  {path}  {scenario.name}"))
            continue
        failed += 1
        more = len(result.mismatches) - 1
        extra = f" (+{more} more)" if more else ""
        print(inert(f"FAIL  {path}  {scenario.name}: {result.mismatches[0]}{extra}"))
        if args.log:
            _print_log(result)
    total = passed + failed + broken
    print(f"{total} scenarios: {passed} passed, {failed} failed, {broken} unreadable")
    if broken:
        return 2
    return 1 if failed else 0


def _print_log(result: ScenarioResult) -> None:
    for mismatch in result.mismatches:
        print(inert(f"      - {mismatch}"))
    seen = observe(result.run.events, GodViewer()).seen
    for item in seen:
        line = render(item.event, "en")
        if line is not None:
            print(inert(f"      {result.run.phases[item.seq]:>8} | {line}"))
