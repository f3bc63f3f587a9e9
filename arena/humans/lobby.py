"""Creating a game with people: its card on the `Desk`, and one join token per person.

The tokens are returned once (for the join links) and only their hashes are kept. This
module starts nothing: a game is hosted by `host.host_game`, here or on a worker. Game
ids are opaque (`new_game_id`): they never name the seed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from urllib.parse import urlsplit

from pydantic import ValidationError

from arena.agents.noisy import is_noisy, parse_noisy
from arena.agents.plugin import entry_point_agents, is_plugin_ref
from arena.errors import ArenaError, one_line
from arena.humans.access import new_token, token_hash
from arena.rules.boards import Board, board_id
from arena.rules.config import GameConfig
from arena.rules.errors import ConfigError
from arena.storage.desk import Desk, Pace, SeatPlan, Table
from arena.text.script import Display
from arena.transcript import Lang

MODEL_SPEC = (
    "a model seat needs openai:MODEL, langchain:PROVIDER:MODEL, a remote agent's http(s):// "
    "URL, py:MODULE:FACTORY, an installed agent's name or noisy:P:AGENT"
)


def is_model_spec(name: str) -> bool:
    """Whether `name` has the form of a model seat's agent, a remote agent's URL or a plug-in.

    `openai:…`, `langchain:…:…`, `http(s)://…`, `py:MODULE:FACTORY` or an installed agent's
    name, or any of them, `bot` or `random` as the skill dial's `noisy:P:AGENT`
    (`arena.agents.noisy`). Only the form: the host's preflight finds out whether the model
    or agent can play (a plug-in is imported when the host builds the seats).
    """
    name = name.strip()
    if is_noisy(name):
        try:
            inner = parse_noisy(name).inner
        except ArenaError:
            return False
        return inner in ("bot", "random") or is_model_spec(inner)
    if name.startswith(("http://", "https://")):
        return _is_agent_url(name)
    if is_plugin_ref(name) or name in entry_point_agents():  # your own agent (docs/agents.md)
        return True
    kind, _, model = name.partition(":")
    if kind == "openai":
        return bool(model)
    provider, _, rest = model.partition(":")
    return kind == "langchain" and bool(provider) and bool(rest)


def _is_agent_url(url: str) -> bool:
    """Whether `url` has the form `arena.agents.remote.seat.check_url` accepts.

    That module is not imported: the dashboard imports this one, and nothing that can
    call an agent.
    """
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return False
    return bool(parts.hostname) and " " not in url and not parts.fragment


def new_game_id(board: str | Board) -> str:
    """A fresh opaque game id (the same form as `arena.match.new_game_id`).

    It starts with the board's id (a custom board's own, as `arena play --board FILE`
    names its games), then random letters: never the seed.
    """
    return f"{board_id(board)}-{secrets.token_hex(5)}"


def game_config(board: str | Board, preset: str | None) -> GameConfig:
    """The config a created game will be hosted with.

    Raises:
        ConfigError: one line, also for what pydantic refuses (a preset that is not one,
            a custom board with a built-in board's id).
    """
    try:
        return GameConfig.model_validate({"board": board, "preset": preset})
    except ValidationError as exc:
        raise ConfigError(one_line(exc)) from None


def create_game(
    desk: Desk,
    board: str | Board,
    seats: Mapping[int, SeatPlan],
    *,
    preset: str | None = None,
    lang: Lang = "zh",
    display: Display | None = None,
    decision_timeout_s: float = 180.0,
    speech_timeout_s: float = 300.0,
    handover_after: int = 2,
    pace: Pace | None = None,
) -> tuple[str, dict[int, str]]:
    """Write a new game's card; returns its id and each human seat's join token.

    `board` is a built-in board's id or a custom `Board` (`arena.board_file`), which the
    card then carries whole. `display` is the script the game is shown and recorded in
    when `lang` does not say it (`zh-Hans`: `Table.display`).

    Raises:
        ArenaError: an unknown board or preset, a custom board the rules refuse, seats
            that do not cover the board, no human seat, or a model seat that names no model.
    """
    config = game_config(board, preset)
    expected = set(range(1, config.board_spec.seats + 1))
    if set(seats) != expected:
        raise ArenaError(f"seats must be 1-{len(expected)}, got {sorted(seats)}")
    for seat, plan in sorted(seats.items()):
        if plan.kind == "model" and not is_model_spec(plan.name):
            raise ArenaError(f"seat {seat}: {MODEL_SPEC}, got {plan.name.strip()!r}")
    tokens = {s: new_token() for s, plan in sorted(seats.items()) if plan.kind == "human"}
    if not tokens:
        raise ArenaError("a game to play needs at least one human seat")
    game_id = new_game_id(board)
    desk.put_table(
        Table(
            game_id=game_id,
            board=board,
            preset=preset,
            lang=lang,
            display=display,
            seats=dict(seats),
            token_hashes={s: token_hash(t) for s, t in tokens.items()},
            decision_timeout_s=decision_timeout_s,
            speech_timeout_s=speech_timeout_s,
            handover_after=handover_after,
            pace=pace or Pace(),
        )
    )
    return game_id, tokens
