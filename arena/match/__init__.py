"""The match runner: a game's seats asked, their answers checked, the replay written.

One package, a room per concept: the loop (`loop`: the referee's pending decisions asked
concurrently), one question to one agent (`asking`: time limits, slots, re-asks and
defaults), belief rounds (`beliefs`), the limits and the void rule (`limits`), a game's
header and result (`header`), and a whole game to its replay file, new or resumed
(`game`). The names below are the runner's public face; import them from here.
"""

from __future__ import annotations

from arena.match.asking import decide, limit_of, now, timed_call
from arena.match.beliefs import ask_belief
from arena.match.game import resume_game, run_game
from arena.match.header import Entry, new_game_id, new_header, result_of, secret_seed
from arena.match.limits import GameVoided, Limits, Outcome, Tally
from arena.match.loop import play

__all__ = [
    "Entry",
    "GameVoided",
    "Limits",
    "Outcome",
    "Tally",
    "ask_belief",
    "decide",
    "limit_of",
    "new_game_id",
    "new_header",
    "now",
    "play",
    "result_of",
    "resume_game",
    "run_game",
    "secret_seed",
    "timed_call",
]
