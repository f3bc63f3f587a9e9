"""A game started from a 简体 Play page is a zh-Hans game, as `arena play --lang zh-Hans` is.

The Play page offers Chinese or English as the game's language; on a 简体 page a Chinese
game was recorded `zh-Hant` (the card knew only `zh`), so `arena replay` printed it in
Traditional characters and the seats that write their own words were told `zh`.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from arena.agents.stock import make_bot
from arena.humans.host import host_game
from arena.humans.hosting import HostedGames, start_game
from arena.storage.desk import MemoryDesk
from arena.storage.replay_file import read_replay
from tests.agents.model.test_script import TRADITIONAL_ONLY, _read
from tests.humans.test_hosted_game import NO_PACE, SEED, person
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubServer

TOLD: list[str] = []
"""The language each plug-in seat below was told, in the order they were made."""


def make_agent(seed: int = 0, lang: str = "zh") -> object:
    """A plug-in seat that notes the language it is told, then plays as the bot."""
    TOLD.append(lang)
    return make_bot(seed, "zh")


def started(tmp_path: Path, page_lang: str, game_lang: str, model: str = "") -> Path:
    """Start a game as the Play page does (from a page in `page_lang`); play it out.

    Seat 5 is the plug-in below, seat 7 the model `model` if one is named.
    """
    desk = MemoryDesk()
    seats = {n: ("bot", "") for n in range(1, 10)}
    seats[2] = ("human", "ann")
    seats[5] = ("model", f"py:{__name__}:make_agent")
    if model:
        seats[7] = ("model", model)
    made = start_game(
        desk, "std9", seats, preset=None, lang=game_lang, limits=(30.0, 30.0),  # type: ignore[arg-type]
        pace=NO_PACE, where="worker", page_lang=page_lang, replays=tmp_path / "r",
        hosted=HostedGames(),
    )  # fmt: skip
    assert made.game_id is not None and made.error is None
    (link,) = made.links
    token = parse_qs(link.query)["token"][0]

    async def main() -> Path:
        path, _ = await asyncio.gather(
            host_game(desk, made.game_id, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005),
            person(desk, made.game_id, 2, token, random.Random(2), []),
        )
        return path

    return asyncio.run(main())


def test_a_chinese_game_from_a_simplified_page_is_recorded_and_told_zh_hans(
    tmp_path: Path,
) -> None:
    TOLD.clear()
    path = started(tmp_path, "zh-Hans", "zh")
    assert read_replay(path).header.lang == "zh-Hans"
    assert TOLD == ["zh-Hans"]


def test_other_pages_keep_their_games_languages(tmp_path: Path) -> None:
    TOLD.clear()
    hant = read_replay(started(tmp_path / "hant", "zh-Hant", "zh")).header.lang
    english = read_replay(started(tmp_path / "en", "zh-Hans", "en")).header.lang
    assert (hant, english) == ("zh-Hant", "en")
    assert TOLD == ["zh", "en"]


def test_the_model_seats_of_a_game_from_a_simplified_page_read_simplified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "stub")
    with StubServer(models={"stub": random_legal(4)}) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        path = started(tmp_path, "zh-Hans", "zh", model="openai:stub")
        read = _read(server.requests_for("stub"))
    assert "狼人杀" in read
    assert not TRADITIONAL_ONLY & set(read), sorted(TRADITIONAL_ONLY & set(read))
    assert all(t.prompt_id.startswith("werewolf-zh-Hans@") for t in read_replay(path).traces)
