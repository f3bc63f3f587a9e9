"""Can this model server play every role? One model seat per role, on the role's board.

For each (board, role) it plays one short game (two days, short speeches) with the model
in seat 1 holding the role (a fixed deal, the other cards shuffled from the seed) and the
built-in bots in every other seat, through the OpenAI provider, and prints how many of
the seat's decisions were its own (not the referee's defaults, with why), and each kind
of decision it was asked with the actions it answered. The replays validate or the row
says why not.

Against the real small model of the tests (`make model`; see ../shared/real-models.md),
started by hand on port 8765 as the tests start it (tests/support/llama_server.py):
`$(bash scripts/llama-server.sh) -m $(bash scripts/real-model.sh) --alias smollm2
--parallel 4 -c 32768 --jinja --port 8765`, then:

    PYTHONPATH=. .venv/bin/python benchmarks/model_roles.py --base-url http://127.0.0.1:8765/v1
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from arena.replay_check import check_replay
from arena.rules.types import Role
from arena.storage.replay_file import read_replay
from tests.support.model_games import answers_by_kind, play_model_seat, seat_one_holds

ROLES = [
    ("wolfking_magician", Role.MAGICIAN, "en"),
    ("mist_raven", Role.ALCHEMIST_WITCH, "zh"),
    ("wolf_beauty_knight", Role.KNIGHT, "en"),
    ("nightmare", Role.NIGHTMARE, "zh"),
    ("animal_dream", Role.PUFFERFISH, "en"),
]
"""Roles whose decisions take shapes the standard boards never ask: two seats (swap),
three (mist), a duel offered beside a speech, a night fear, a flip after a vote."""


def one_game(board: str, role: Role, lang: str, url: str, model: str, path: Path) -> str:
    """Play one game with the model holding `role` in seat 1; the row to print."""
    seed = 5
    config = seat_one_holds(board, role, seed)
    play_model_seat(url, path, "openai", lang, seed, config, model)
    asked = answers_by_kind(read_replay(path), config, seat=1)
    mine = [a for answers in asked.values() for a in answers]
    own = sum(a.defaulted is None for a in mine)
    why = [a.defaulted for a in mine if a.defaulted]
    report = check_replay(path)
    kinds = "; ".join(f"{k}: {', '.join(a.action.kind for a in v)}" for k, v in asked.items())
    valid = "valid" if report.ok else f"INVALID: {report.message}"
    return f"{board} / {role}: {own} of {len(mine)} own {why or ''} — {valid}\n    {kinds}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="an OpenAI-compatible server's /v1 URL")
    parser.add_argument("--model", default="smollm2", help="the model name the server serves")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for board, role, lang in ROLES:
            path = Path(tmp) / f"{board}.jsonl"
            print(one_game(board, role, lang, args.base_url, args.model, path))


if __name__ == "__main__":
    main()
