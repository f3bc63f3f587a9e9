"""Two real small models sit one exam: SmolLM2-135M and Qwen2.5-Coder-0.5B on llama-server.

Run: .venv/bin/python benchmarks/exam_models.py [--items 200] [--games 20] [--slots 2]
     [--game] [--out DIR]

1. Plays `--games` std9 games of bots (no model played them) and cuts an exam of `--items`
   items from them (every kind; items spread over the games).
2. Starts one llama-server per model (`scripts/real-model.sh`, `scripts/real-model.sh
   qwen`: the binary and models cached in ~/.cache/arena), `--slots` slots each, one
   thread each, and has both sit the exam at once (`arena.exam.sitting.sit`, as `arena
   exam run` does), each within its server's slots.
3. Prints, per model: the wall time, items per minute, the share of answers its own, calls,
   tokens; then the report's paired differences (`arena exam report`'s figures) with their
   intervals clustered by game, Brier and vote first.
4. With `--game`, then plays one std9 game on each server with the model in three seats
   and bots in the rest (as tests/realmodel do) and prints the model's decisions per
   minute of that game, beside its items per minute.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.agents.seats import EndpointSettings, MatchSpec  # noqa: E402
from arena.exam.build import build  # noqa: E402
from arena.exam.contestant import Contestant  # noqa: E402
from arena.exam.files import key_path, read_exam, read_key  # noqa: E402
from arena.exam.judge import judge_speeches  # noqa: E402
from arena.exam.report import report  # noqa: E402
from arena.exam.results import load  # noqa: E402
from arena.exam.sitting import Tally, own_share, sit  # noqa: E402
from arena.match import Limits  # noqa: E402
from arena.rules.config import GameConfig  # noqa: E402
from tests.exam.games import play_games  # noqa: E402
from tests.support.llama_server import serving_models  # noqa: E402
from tests.support.model_games import play_model_seat  # noqa: E402

MODELS = {"smollm2": "smollm2", "qwen": "qwen"}
"""Server alias → the `scripts/real-model.sh` argument that installs it."""


def settings(url: str) -> EndpointSettings:
    """The endpoint settings the real-model tests use (generous limits, short replies)."""
    return EndpointSettings(
        base_url=url, timeout_s=300, retries=1, max_tokens=200,
        decision_timeout_s=400, history_tokens=2500,
    )  # fmt: skip


def cut(folder: Path, games: int, items: int) -> Path:
    """The exam: `items` items drawn evenly from `games` bot games."""
    paths = play_games(folder / "games", seeds=range(1, games + 1))
    exam = folder / "exam.jsonl"
    build(paths, exam, seed=0, kinds=("vote", "belief", "role", "seer", "knife", "speech"),
          per_game=-(-items // games))  # fmt: skip
    return exam


def line(tally: Tally) -> str:
    """One model's sitting in a line."""
    per_minute = tally.asked / (tally.seconds / 60) if tally.seconds else 0.0
    return (
        f"{tally.contestant}: {tally.asked} items in {tally.seconds / 60:.1f} min "
        f"({per_minute:.1f} a minute), {own_share(tally)}, {tally.calls} calls, "
        f"{tally.tokens} tokens"
    )


def paired(out: Path, exam: Path) -> list[str]:
    """The report's headline rows and pairs, as `arena exam report` prints them."""
    from arena.commands.exam_report import table

    found = load([out], exam, None)
    judges = [Contestant("bot", MatchSpec())]
    verdicts = {
        (j.judge, j.contestant, j.item): j
        for j in asyncio.run(judge_speeches(found.exam, found.key, found.sittings, judges, {}))
    }
    done = report(found.exam, found.key, found.sittings, judges=["bot"], verdicts=verdicts)
    return table(done)


def decisions_per_minute(url: str, model: str, folder: Path) -> str:
    """One std9 game with the model in three seats: its decisions a minute of game time."""
    from arena.storage.replay_file import read_replay

    path = folder / f"game-{model}.jsonl"
    started = time.perf_counter()
    play_model_seat(url, path, "openai", "en", 7, GameConfig(board="std9"), model, "1-3")
    minutes = (time.perf_counter() - started) / 60
    replay = read_replay(path)
    asked = {(c.seat, c.step) for c in replay.traces if c.step >= 0}
    return f"{model}: a game of {minutes:.1f} min, {len(asked)} model decisions, " + (
        f"{len(asked) / minutes:.1f} a minute"
    )


def main() -> None:
    """Cut, serve, sit, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--game", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "not-needed")
    folder = args.out or Path(tempfile.mkdtemp(prefix="exam-models-"))
    exam_path = cut(folder, args.games, args.items)
    exam = read_exam(exam_path)
    read_key(key_path(exam_path), exam)
    print(f"{exam.header.items} items from {len(exam.header.sources)} bot games -> {folder}")
    with serving_models(list(MODELS), folder, args.slots) as urls:
        spec = MatchSpec(lang="en", endpoints={f"openai:{a}": settings(u) for a, u in urls.items()})
        seats = [Contestant(f"openai:{alias}", spec) for alias in MODELS]
        started = time.perf_counter()
        limits = Limits(call_timeout_s=400, beliefs="daily")
        tallies = asyncio.run(sit(exam, seats, folder / "answers", limits, lang="en"))
        print(f"both sat in {(time.perf_counter() - started) / 60:.1f} min (wall)")
        for tally in tallies:
            print(line(tally))
        for text in paired(folder / "answers", exam_path):
            print(text)
        if args.game:
            for alias, url in urls.items():
                print(decisions_per_minute(url, alias, folder))


if __name__ == "__main__":
    main()
