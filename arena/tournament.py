"""Tournament files and their fair schedules.

A tournament file (YAML) names the contestants, the boards and how many games each
pairing plays. Every game is one pairing: one agent plays every wolf-side seat, the
other every good-side seat (a lone agent plays itself). The schedule is fair by
construction:

- **Sides**: with `mirrored: true` (the default) each deal is played twice, same seed and
  same deal, with the sides swapped, so luck of the deal cancels out between the two
  agents. Without it, the agents alternate sides game by game.
- **Seats and roles**: game `g` of a board deals the board's cards in a seeded base order
  rotated by `g` seats, so over as many games as there are seats every seat holds every
  card once. All pairings play the same deals and seeds (a duplicate tournament). The
  base order is drawn with `Sha256Draw` (never `random`, whose shuffles Python does not
  promise to keep), so a tournament file gives the same schedule on every Python: a
  status or a resubmission from another machine names the same seats.
- **Ids**: game `i` of tournament `name` is `name-0000i`; resubmitting the same file
  never duplicates a game, and finished games are skipped.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from arena.agents.plugin import PREFIX, entry_point_agents, is_plugin_spec, unknown_agent
from arena.board_file import board_ref, example_boards, is_board_file
from arena.errors import ArenaError, clip, one_line
from arena.match import Limits
from arena.queue.jobs import AgentEntry, MatchJob
from arena.queue.seating import bare_spec, check_spec, is_model, is_remote
from arena.rules.boards import Board, PresetName, board
from arena.rules.config import GameConfig
from arena.rules.draw import Sha256Draw
from arena.rules.errors import ConfigError
from arena.rules.roles import is_wolf
from arena.rules.types import Role
from arena.text.script import AgentLang
from arena.userfile import read_model

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class BoardEntry(BaseModel):
    """A board of the tournament, with its own preset and knob overrides."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    board: str | Board
    """A built-in board's id, or a custom board (read from its file when the tournament
    file is loaded: a path relative to the tournament file's folder)."""
    preset: PresetName | None = None
    """Default: the tournament's `preset`, else the board's own."""
    overrides: dict[str, Any] = Field(default_factory=dict)
    """Knobs on top of the tournament's `overrides`."""


class TournamentSpec(BaseModel):
    """A tournament file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Names the games (`name-00042`): a changed tournament needs a new name."""
    agents: dict[str, AgentEntry]
    """Contestants by name; a bare string is a spec (`gpt: openai:gpt-4.1-mini`)."""
    boards: tuple[BoardEntry, ...] = (BoardEntry(board="wwk_guard"),)
    preset: PresetName | None = None
    overrides: dict[str, Any] = Field(default_factory=dict)
    games_per_pairing: int = Field(default=2, ge=1)
    """Deals per pairing and board (each played twice when mirrored)."""
    mirrored: bool = True
    base_seed: int = 0
    concurrency: dict[str, int] = Field(default_factory=dict)
    """Most model calls in flight per endpoint label (an agent's `endpoint`, else its
    `base_url`, else its spec's provider prefix such as `openai`), over all workers."""
    limits: Limits = Limits()
    max_attempts: int = Field(default=3, ge=1)
    """Starts of a game (failures, lost workers) before it is dead-lettered."""
    lang: AgentLang = "zh"
    """The tables' language (`zh`, `zh-Hans` or `en`): the model seats' prompts and the
    bots' speeches. Every game of a tournament is played in it; `zh-Hans` is Chinese shown
    in Simplified characters, which the model seats read too (their prompts, the
    speeches they hear), and the replays' header records it."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME.match(value):
            raise ValueError("use 1-64 letters, digits, '.', '_' or '-'")
        return value

    @field_validator("agents", mode="before")
    @classmethod
    def _agents(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: {"spec": v} if isinstance(v, str) else v for k, v in value.items()}
        return value

    @field_validator("boards", mode="before")
    @classmethod
    def _boards(cls, value: Any, info: ValidationInfo) -> Any:
        """Bare ids become entries; board files and example boards are read into them.

        A file is relative to the tournament file; an example board is named by its id.
        Either way the entry holds the custom board whole, as a queued job does.
        """
        if not isinstance(value, list | tuple):
            return value
        base = (info.context or {}).get("base")
        entries = [{"board": v} if isinstance(v, str) else v for v in value]
        for index, entry in enumerate(entries):
            ref = entry.get("board") if isinstance(entry, dict) else None
            if isinstance(ref, str) and (is_board_file(ref) or ref in example_boards()):
                try:
                    entries[index] = {**entry, "board": board_ref(ref, base)}
                except ConfigError as exc:
                    raise ValueError(f"{index}: {exc}") from None
        return entries

    @field_validator("concurrency")
    @classmethod
    def _concurrency(cls, value: dict[str, int]) -> dict[str, int]:
        for endpoint, limit in value.items():
            if limit < 1:
                raise ValueError(f"{endpoint}: a limit must be at least 1")
        return value

    @model_validator(mode="after")
    def _check(self) -> TournamentSpec:
        if not self.agents:
            raise ValueError("agents: name at least one agent")
        if not self.boards:
            raise ValueError("boards: name at least one board")
        for name, entry in self.agents.items():
            if not NAME.match(name):
                raise ValueError(f"agents.{name}: use letters, digits, '.', '_' or '-'")
            try:
                _check_entry(entry)
            except ArenaError as exc:
                raise ValueError(f"agents.{name}: {clip(str(exc))}") from None
        labels = {e.endpoint_label for e in self.agents.values()} - {None}
        for endpoint in self.concurrency:
            if endpoint not in labels:
                raise ValueError(
                    f"concurrency.{endpoint}: no agent uses this endpoint "
                    f"(endpoints: {', '.join(sorted(str(x) for x in labels)) or 'none'})"
                )
        for index, board_entry in enumerate(self.boards):
            try:
                self.config(board_entry)
            except ValidationError as exc:
                raise ValueError(f"boards.{index}: {one_line(exc)}") from None
            except ConfigError as exc:
                raise ValueError(f"boards.{index}: {clip(str(exc))}") from None
        return self

    def config(self, entry: BoardEntry, deal: tuple[Role, ...] | None = None) -> GameConfig:
        """The `GameConfig` of a game on `entry`'s board.

        Raises:
            ConfigError: an unknown board, preset or knob.
        """
        return GameConfig(
            board=entry.board,
            preset=entry.preset or self.preset,
            overrides={**self.overrides, **entry.overrides},
            deal=deal,
        )


def _check_entry(entry: AgentEntry) -> None:
    """Refuse an agent no worker could seat.

    Its spec's form is checked; options are only for plug-ins, a token and a clock only
    for remote agents.

    A plug-in is not imported here (`arena tournament status` must work on a machine
    without it; an installed agent's name must be installed): `arena tournament
    run|submit` make each one before anything is queued.

    Raises:
        ArenaError: naming what is wrong.
    """
    check_spec(entry.spec)
    bare = bare_spec(entry.spec)
    if is_plugin_spec(bare):
        if not bare.startswith(PREFIX) and bare not in entry_point_agents():
            raise ConfigError(unknown_agent(bare))
        return
    if entry.options:
        raise ConfigError(
            f"options are settings for a plug-in's factory (py:MODULE:FACTORY or an installed "
            f"agent's name), not for {entry.spec}"
        )
    remote = {"token_env", "overage_s"} & entry.model_fields_set
    if remote and not is_remote(entry):
        raise ConfigError(
            f"{', '.join(sorted(remote))}: settings of a remote agent (an http(s):// URL), "
            f"not of {entry.spec}"
        )
    model = {"timeout_s", "reply_tokens", "temperature", "history_tokens"} & entry.model_fields_set
    if model and not is_model(entry):
        raise ConfigError(
            f"{', '.join(sorted(model))}: settings of a model agent (openai:MODEL or "
            f"langchain:PROVIDER:MODEL), not of {entry.spec}"
        )


def load_spec(path: Path) -> TournamentSpec:
    """Read and validate a tournament file (through the one user-file reader).

    Raises:
        ConfigError: unreadable or too large file, bad YAML, or a bad field (named, one line).
    """
    return read_model(
        path,
        TournamentSpec,
        what="tournament file",
        mapping="a tournament file is a mapping (name:, agents:, boards:, …)",
        error=ConfigError,
        named=(ConfigError,),
    )


def game_seed(base_seed: int, board_index: int, game: int) -> int:
    """The seed of deal `game` on the tournament's `board_index`-th board (stable hash)."""
    digest = hashlib.sha256(f"{base_seed}/{board_index}/{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def deal_seed(base_seed: int, board_name: str) -> int:
    """The seed of a board's base order of cards (a stable hash of the two)."""
    digest = hashlib.sha256(f"{base_seed}/{board_name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rotated_deal(which: str | Board, base_seed: int, game: int) -> tuple[Role, ...]:
    """The board's cards in a seeded base order, rotated by `game` seats.

    The base order is `Sha256Draw(deal_seed(base_seed, board_id)).shuffled(cards)`: its
    output is defined by SHA-256 alone, so it is the same on every Python version.
    """
    seed = deal_seed(base_seed, which.id if isinstance(which, Board) else which)
    cards = Sha256Draw(seed).shuffled(board(which).roles)
    shift = game % len(cards)
    return tuple(cards[-shift:] + cards[:-shift]) if shift else tuple(cards)


def pairings(names: list[str]) -> list[tuple[str, str]]:
    """Every unordered pair of agents, in file order (a lone agent plays itself)."""
    if len(names) == 1:
        return [(names[0], names[0])]
    return list(itertools.combinations(names, 2))


def schedule(spec: TournamentSpec) -> list[MatchJob]:
    """Every game of the tournament, in the order they are queued.

    Deals come first in the loop order, so a partial run has played every pairing
    about equally.
    """
    jobs: list[MatchJob] = []
    pairs = pairings(list(spec.agents))
    for board_index, entry in enumerate(spec.boards):
        for game in range(spec.games_per_pairing):
            seed = game_seed(spec.base_seed, board_index, game)
            deal = rotated_deal(entry.board, spec.base_seed, game)
            config = spec.config(entry, deal)
            for a, b in pairs:
                sides = (
                    [(a, b), (b, a)]
                    if spec.mirrored and a != b
                    else [(a, b) if game % 2 == 0 else (b, a)]
                )
                for wolves, good in sides:
                    seats = tuple(wolves if is_wolf(role) else good for role in deal)
                    jobs.append(
                        MatchJob(
                            game_id=f"{spec.name}-{len(jobs):05d}",
                            tournament=spec.name,
                            index=len(jobs),
                            config=config,
                            seed=seed,
                            seats=seats,
                            agents={n: spec.agents[n] for n in sorted({wolves, good})},
                            concurrency=spec.concurrency,
                            limits=spec.limits,
                            max_attempts=spec.max_attempts,
                            lang=spec.lang,
                        )
                    )
    return jobs
