"""`arena agent check SPEC`: is an agent fit to sit at the table? (docs/agents.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from arena.agents.base import DECISION_TIMEOUT_S, Agent
from arena.agents.preflight import aclose_models, preflight
from arena.agents.seats import MatchSpec, build_agents, parse_seats, with_endpoint_flags
from arena.board_file import board_ref
from arena.conformance import Report, check_agent
from arena.errors import ArenaError
from arena.rules.config import GameConfig
from arena.rules.types import SeatId
from arena.text.script import CLI_CHOICES, agent_lang, game_lang, parse_display


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena agent check`."""
    agent = sub.add_parser("agent", help="check an agent before it plays (docs/agents.md)")
    actions = agent.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="play a few short seeded games with SPEC in one seat (bots in the rest) and "
        "report legality, latency and timeouts; exit 1 if it is not conformant",
    )
    check.add_argument(
        "spec",
        metavar="SPEC",
        help="the agent, as a seat spec names it: bot, random, openai:MODEL, "
        "langchain:PROVIDER:MODEL, py:MODULE:FACTORY, an installed agent's name, a URL, "
        "or noisy:P:SPEC",
    )
    check.add_argument("--games", type=_count, default=3, help="games to play")
    check.add_argument(
        "--board", default="wwk_guard", help="board id (see `arena boards`) or a board file"
    )
    check.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 …)")
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds one decision may take, whatever the agent's kind, as `arena play "
        "--decision-timeout` (default: the spec file's, else 60)",
    )
    check.add_argument(
        "--max-refused",
        type=_share,
        default=0.05,
        metavar="SHARE",
        help="largest share of answers that may be refused or late (0-1)",
    )
    check.add_argument(
        "--lang",
        choices=CLI_CHOICES,
        default="en",
        help="the games' language, as `arena play` takes it: en, zh-Hant (zh) or zh-Hans",
    )
    check.add_argument(
        "--spec-file",
        "--spec",
        dest="spec_file",
        type=Path,
        default=None,
        metavar="FILE",
        help="a match spec (YAML) whose endpoints and options apply to SPEC",
    )
    check.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="keep the games' replays here"
    )
    check.add_argument("--json", action="store_true", help="machine-readable output")
    check.set_defaults(handler=_check)


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _share(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def seat_agent(spec: str, seat: SeatId, config: GameConfig, seed: int, match: MatchSpec) -> Agent:
    """The agent `spec` names for `seat` of a game of `seed`, as `arena play` seats it.

    Raises:
        ArenaError: the spec is malformed, names a person, or cannot be built.
    """
    if spec == "human" or spec.startswith("human:"):
        raise ArenaError("a person cannot be checked: `arena agent check` plays unattended")
    seats = parse_seats([], config.board_spec.seats, overrides=[f"{seat}={spec}"])
    built: dict[SeatId, Agent] = build_agents({seat: seats[seat]}, config, seed, match)
    return built[seat]


def _check(args: argparse.Namespace) -> int:
    config = GameConfig(board=board_ref(args.board))
    display = parse_display(args.lang)
    told = {"lang": game_lang(display), "agent_lang": agent_lang(display)}
    match = MatchSpec.model_validate(told)
    if args.spec_file is not None:
        from arena.agents.seats import load_spec_file

        match = load_spec_file(args.spec_file).model_copy(update=told)
    match = with_endpoint_flags(match, decision_timeout_s=args.timeout)
    seat_agent(args.spec, 1, config, args.seed, match)  # a spec that cannot be built: one line
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    report = asyncio.run(_run(args, config, match))
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report_lines(report)))
    return 0 if report.conformant else 1


async def _run(args: argparse.Namespace, config: GameConfig, match: MatchSpec) -> Report:
    built: list[dict[SeatId, Agent]] = []

    async def before(agents: dict[SeatId, Agent]) -> None:
        built.append(agents)
        await preflight(agents, timeout_s=args.timeout or DECISION_TIMEOUT_S)

    try:
        return await check_agent(
            args.spec,
            lambda seat, seed: seat_agent(args.spec, seat, config, seed, match),
            lambda seat, seed: seat_agent("bot", seat, config, seed, match),
            config,
            games=args.games,
            seed=args.seed,
            timeout_s=match.decision_timeout_s or DECISION_TIMEOUT_S,
            max_refused=args.max_refused,
            replays=args.out,
            before=before,
        )
    finally:
        for agents in built:
            await aclose_models(agents)


def report_lines(report: Report) -> list[str]:
    """The report for people: one line per game, the counts, the latency, the verdict."""
    lines = [f"{report.spec} on {report.board}:"]
    for game in report.games:
        lines.append(
            f"  seed {game.seed}, seat {game.seat} ({game.role}): {game.result}; "
            f"decisions {game.decisions}, defaulted {len(game.defaults)}; end {game.end}"
            + (f" — replay {game.replay}" if game.replay is not None else "")
        )
    calls = len(report.calls)
    lines.append(
        f"answers {calls}: accepted {report.count('accepted')}, refused "
        f"{report.count('refused')}, timeouts {report.count('timeout')}, crashes "
        f"{report.count('crash')}; decisions defaulted {report.defaults}"
    )
    latency = report.latency_ms()
    lines.append(
        f"latency p50 {_ms(latency['p50'])}, p95 {_ms(latency['p95'])}, "
        f"max {_ms(latency['max'])} (limit {report.timeout_s:g} s"
        + (f", and {report.overage_s:g} s of overage per game)" if report.overage_s else ")")
    )
    for example in report.examples():
        lines.append(f"  {example}")
    if report.conformant:
        lines.append("conformant")
    else:
        lines.append("NOT conformant: " + "; ".join(report.problems))
    return lines


def _ms(value: float) -> str:
    return f"{value:.1f} ms" if value < 1000 else f"{value / 1000:.2f} s"
