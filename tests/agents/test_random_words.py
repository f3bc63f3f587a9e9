"""The `random` seat's words (and a noisy seat's random answers) are in the game's language."""

import asyncio
import re

import pytest

from arena.agents.seats import MatchSpec, build_agents, parse_seats
from arena.match import new_header, run_game
from arena.rules.config import GameConfig
from arena.rules.events import Spoke, WolfWhispered
from arena.text.catalog import Lang

CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")
CONFIG = GameConfig(board="wwk_guard")


def words(lang: Lang) -> tuple[list[str], list[str]]:
    """The speeches and the wolves' whispers of a random table with noisy bots, in `lang`."""
    seats = parse_seats(("1-6=random", "7-12=noisy:1:bot"), CONFIG.board_spec.seats)
    agents = build_agents(seats, CONFIG, 3, MatchSpec(lang=lang))
    referee = asyncio.run(run_game(new_header("g", CONFIG, 3, agents), agents, None))
    said = [e.text for e in referee.events if isinstance(e, Spoke)]
    whispered = [e.text for e in referee.events if isinstance(e, WolfWhispered)]
    return said, whispered


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_random_seats_speak_and_whisper_in_the_games_language(lang: Lang) -> None:
    said, whispered = words(lang)
    assert said and whispered
    chinese = [text for text in said + whispered if CJK.search(text)]
    assert (chinese == []) if lang == "en" else (len(chinese) == len(said + whispered))
