"""How fast the dashboard opens a replay and lists a large replay folder.

Run: .venv/bin/python benchmarks/dashboard_load.py [--headers 10000] [--repeat 5]

1. Opening a 12-player replay: a wwk_guard game of scripted bots with a belief report
   after every speech and, per decision, a model-call trace the size of an LLM prompt
   (about 8 KB, as an LLM seat would leave); timed as parse (`load`), the projections a
   page needs (god and one seat at the last step), and a whole Streamlit render of the
   player page (AppTest, no browser).
2. Listing N replay headers: N files in a temporary folder, each a real header line (with
   a distinct id, board, tournament and date) and a short body; timed as a cold scan (every
   header parsed), a warm rescan (nothing changed: a stat per file), a filter, and the
   whole Replays page (AppTest: first render in a fresh process-wide cache, then warm).
3. The Leaderboard page over M finished bot games (`--games`, default bootstrap 200):
   cold (nothing cached), the same folder again, after one new game, and with the page's
   report cache cleared but the ratings' per-file facts cache warm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from arena.agents.base import AgentReply, BeliefReport  # noqa: E402
from arena.agents.bot.agent import BotAgent  # noqa: E402
from arena.dashboard.catalog import Filters, HeaderIndex, select  # noqa: E402
from arena.dashboard.loading import load  # noqa: E402
from arena.dashboard.projection import project  # noqa: E402
from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, Usage  # noqa: E402
from arena.match import Limits, new_header, run_game  # noqa: E402
from arena.rules.config import GameConfig  # noqa: E402
from arena.rules.decisions import DecisionRequest  # noqa: E402
from arena.rules.observation import Observation  # noqa: E402
from arena.rules.visibility import GodViewer, SeatViewer  # noqa: E402

APP = ROOT / "dashboard" / "app.py"
PROMPT = "你是狼人殺玩家。" * 1000


class TracedBot:
    """A scripted bot that also leaves an LLM-sized trace per decision."""

    def __init__(self, seed: int) -> None:
        self._bot = BotAgent(seed=seed)

    @property
    def name(self) -> str:
        return "traced-bot"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        reply = await self._bot.decide(view, request, feedback)
        call = ModelCallRecord(
            seat=request.seat, step=request.step, attempt=1, model="bench-model",
            prompt_id="bench@1", messages=(ChatMessage(role="user", content=PROMPT),),
            tools=(), reply=ModelReply(text="ok"), usage=Usage(prompt_tokens=3000),
        )  # fmt: skip
        return reply.model_copy(update={"calls": (call,)})

    async def believe(self, view: Observation) -> BeliefReport | None:
        return await self._bot.believe(view)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def open_replay(folder: Path, repeat: int) -> None:
    config = GameConfig(board="wwk_guard")
    agents = {s: TracedBot(seed=s) for s in range(1, 13)}
    path = folder / "game.jsonl"
    header = new_header("bench-12", config, 1, agents)
    asyncio.run(run_game(header, agents, path, limits=Limits(beliefs="per_speech")))
    loaded = load(path)
    replay, end = loaded.replay, len(loaded.replay.events)
    size = path.stat().st_size / 1024
    print(f"12-player replay: {end} events, {len(replay.traces)} traces, "
          f"{len(replay.beliefs)} belief reports, {size:.0f} KiB")  # fmt: skip
    print(f"  parse (load)                {median_ms(lambda: load(path), repeat):8.1f} ms")
    god = median_ms(lambda: project(loaded, GodViewer(), end, "en"), repeat)
    seat = median_ms(lambda: project(loaded, SeatViewer(seat=5), end, "en"), repeat)
    print(f"  project god / seat 5        {god:8.1f} / {seat:.1f} ms")
    os.environ["ARENA_REPLAYS"] = str(folder)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()

    def render(view: str) -> None:
        at.switch_page("screens/player.py")
        at.query_params.update({"game": "game.jsonl", "view": view, "step": "end"})
        at.run()
        assert not at.exception, at.exception

    render("public")
    for view in ("god", "seat:5"):
        took = median_ms(lambda v=view: render(v), repeat)
        print(f"  player page render ({view:<6}) {took:8.1f} ms")


def list_headers(folder: Path, count: int, repeat: int) -> None:
    source = folder / "game.jsonl"
    head, *body = source.read_text("utf-8").splitlines()[:12]
    header = json.loads(head)
    boards = ["wwk_guard", "std9", "idiot12", "yunv"]
    many = folder / "many"
    many.mkdir()
    for i in range(count):
        header.update(
            game_id=f"g{i:05d}",
            tournament=f"t{i % 7}",
            created_at=f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T00:00:00+00:00",
        )
        header["config"]["board"] = boards[i % len(boards)]
        text = json.dumps(header, ensure_ascii=False, separators=(",", ":"))
        (many / f"g{i:05d}.jsonl").write_text("\n".join([text, *body]) + "\n", "utf-8")
    cold = median_ms(lambda: HeaderIndex().scan(many), repeat)
    index = HeaderIndex()
    listing = index.scan(many)
    warm = median_ms(lambda: index.scan(many), repeat)
    wanted = Filters(boards={"std9"}, tournaments={"t3"})
    filtered = median_ms(lambda: select(listing.rows, wanted), repeat)
    print(
        f"{count} replay headers: {len(listing.rows)} listed, {len(listing.unreadable)} unreadable"
    )
    print(f"  cold scan (parse every header) {cold:8.1f} ms")
    print(f"  warm rescan (stat only)        {warm:8.1f} ms")
    print(f"  filter (board + tournament)    {filtered:8.1f} ms")
    os.environ["ARENA_REPLAYS"] = str(many)
    at = AppTest.from_file(str(APP), default_timeout=120)
    first = median_ms(at.run, 1)
    again = median_ms(at.run, repeat)
    assert not at.exception, at.exception
    print(f"  Replays page render, first / warm {first:8.1f} / {again:.1f} ms")


def play_bots(folder: Path, count: int, first_seed: int = 1) -> None:
    """`count` distinct finished bot games (std9) under `folder`."""
    config = GameConfig(board="std9")
    for seed in range(first_seed, first_seed + count):
        agents = {s: BotAgent(seed=seed * 100 + s) for s in range(1, 10)}
        header = new_header(f"lb-{seed:05d}", config, seed, agents)
        asyncio.run(run_game(header, agents, folder / f"lb-{seed:05d}.jsonl"))


def leaderboard(folder: Path, count: int) -> None:
    """The Leaderboard page over `count` games: cold, unchanged, one new game, warm cache."""
    games = folder / "rated"
    games.mkdir()
    start = time.perf_counter()
    play_bots(games, count)
    print(f"{count} bot games (std9) played in {time.perf_counter() - start:.1f} s")
    os.environ["ARENA_REPLAYS"] = str(games)

    def page() -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=600)
        at.run()
        at.switch_page("screens/leaderboard.py")
        return at

    at = page()
    cold = median_ms(at.run, 1)
    assert not at.exception, at.exception
    unchanged = median_ms(at.run, 1)
    play_bots(games, 1, first_seed=count + 1)
    one_new = median_ms(at.run, 1)
    st.cache_resource.clear()  # as after a restart: only the on-disk facts cache remains
    fresh = page()
    warm = median_ms(fresh.run, 1)
    assert not fresh.exception, fresh.exception
    print(f"  Leaderboard page, cold (no facts cache)     {cold / 1000:8.1f} s")
    print(f"  same folder again (report kept)             {unchanged / 1000:8.1f} s")
    print(f"  after one new game (one file read)          {one_new / 1000:8.1f} s")
    print(f"  report cache cleared, facts cache warm      {warm / 1000:8.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--headers", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        open_replay(folder, args.repeat)
        list_headers(folder, args.headers, args.repeat)
        leaderboard(folder, args.games)


if __name__ == "__main__":
    main()
