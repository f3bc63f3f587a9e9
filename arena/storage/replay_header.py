"""Line 1 of a replay: the header, readable alone, and the version of the whole format.

The header names the game (id, board and rules, seed, how the referee drew), who played
each seat, the endpoints' probed capabilities, and, once the game ends, its result. Field
order and names change only with `SCHEMA_VERSION` (docs/replay-format.md); a reader takes
it through `arena.storage.replay_file`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from arena import __version__
from arena.rules.config import GameConfig
from arena.rules.draw import LEGACY_DRAW, DrawName
from arena.rules.types import Winner
from arena.text.script import Display

SCHEMA_VERSION = 2
"""2: a finished file ends with a `signature` line. Version 1 files have none: they load
unchanged and are reported `unsigned`."""


class SeatAgent(BaseModel):
    """What played a seat."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    agent: str
    """The competitor the seat is rated as: a tournament entry's name (`mine`), else the
    agent spec (`bot`, `random`, `openai:gpt-4.1-mini`, `human`, a URL)."""
    spec: str | None = None
    """The agent spec the seat was built from, when `agent` is a tournament entry's name
    that differs from it (an entry `mine` playing `http://host:9000/agent`). Written only
    then, so a file without names reads as before, and files written before names were
    kept (where `agent` is the spec) load unchanged."""
    model: str | None = None
    prompt_version: str | None = None

    @property
    def agent_spec(self) -> str:
        """The spec that played the seat: `spec`, or `agent` when the seat has no name."""
        return self.spec if self.spec is not None else self.agent

    @model_serializer(mode="wrap")
    def _drop_absent_spec(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("spec") is None:
            data.pop("spec", None)
        return data


class SeatHandover(BaseModel):
    """A person's seat handed to a bot mid-game, after repeated timeouts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    step: int
    """The first request step the bot answered."""
    agent: str
    """The agent that took over, e.g. `bot`."""
    reason: str


class ReplayResult(BaseModel):
    """How the game ended."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    winner: Winner | None
    """None only for a voided game."""
    reason: str
    days: int
    events: int
    void: bool = False
    """The game was stopped because a model seat kept falling back to defaults (`reason`
    says which); it is left out of ratings."""


class ReplayHeader(BaseModel):
    """Line 1 of a replay. The order of these fields is part of the file format."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["header"] = "header"
    schema_version: int = SCHEMA_VERSION
    game_id: str
    created_at: str
    """ISO-8601 UTC time the game started (set by the runner; the referee has no clock)."""
    software_version: str = __version__
    config: GameConfig
    seed: int
    draw: DrawName = LEGACY_DRAW
    """How the referee drew from `seed` (`arena.rules.draw`); absent in files written before
    the draw was fixed, which were dealt by `python_random`. New games record `CURRENT_DRAW`."""
    seats: tuple[SeatAgent, ...] = ()
    tournament: str | None = None
    endpoints: dict[str, Any] = Field(default_factory=dict)
    """Per model endpoint: the capabilities probed and the fallbacks in use."""
    result: ReplayResult | None = None
    handovers: tuple[SeatHandover, ...] = ()
    """Seats whose person was replaced by a bot (written only when there are some, so
    files without handovers are unchanged and older readers still load them)."""
    lang: Display | None = None
    """The language and script the game was played in (`en`, `zh-Hant`, `zh-Hans`): what
    `arena replay` prints in when `--lang` is not given. Absent in files written before it
    (and in games started without a language: the golden games, `arena agent check`),
    which `arena replay` shows in Traditional Chinese, its default before."""

    @model_serializer(mode="wrap")
    def _drop_empty(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """`handovers` and `lang` are written only when set: a file without them is as before."""
        data: dict[str, Any] = handler(self)
        if not data.get("handovers"):
            data.pop("handovers", None)
        if data.get("lang") is None:
            data.pop("lang", None)
        return data
