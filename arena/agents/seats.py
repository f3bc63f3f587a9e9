"""Seat specs → agents: the one seat builder.

A seat spec maps seats to an agent: `1-6=openai:gpt-4.1-mini`, `7-12=bot`,
`3=langchain:anthropic:claude-sonnet-4-5`, `5=random`, `1,3,5=bot`, `4=http://host:9000/agent`
(a remote agent, `arena.agents.remote`), `2=noisy:0.3:bot` (the bot with 30 % of its
decisions answered at random, `arena.agents.noisy`). Later specs override
earlier ones and unassigned seats are `bot`, the embedded default. Endpoints and keys come
from the SDKs' usual environment variables (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
`ANTHROPIC_API_KEY`, …) or from a YAML spec file (`load_spec_file`); keys themselves never
go in the file, only the name of the variable holding them.

This is the one place seats are built from specs, for `arena play`, the queue's workers
(`arena.queue.seating`, which turns a job's entries into these specs), the Play page's host
(`arena.humans.host`) and the golden games (`arena.golden`), and the one place a seat's
seed is derived from the game's (`seat_seed`).

Seats with the same agent spec and endpoint share one chat model, so an endpoint is probed
once (`arena.agents.preflight`) and keeps one connection pool.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from arena.agents.base import DECISION_TIMEOUT_S, Agent
from arena.agents.chat_models import chat_model as chat_model
from arena.agents.match_spec import DEFAULT_TIMEOUT_S as DEFAULT_TIMEOUT_S
from arena.agents.match_spec import EndpointSettings as EndpointSettings
from arena.agents.match_spec import MatchSpec as MatchSpec
from arena.agents.match_spec import endpoint_settings as endpoint_settings
from arena.agents.match_spec import told_lang
from arena.agents.match_spec import with_endpoint_flags as with_endpoint_flags
from arena.agents.model.agent import Beliefs, LLMAgent
from arena.agents.noisy import PREFIX as NOISY
from arena.agents.noisy import Noisy, is_noisy, parse_noisy
from arena.agents.plugin import (
    PREFIX,
    entry_point_agents,
    is_plugin_ref,
    is_plugin_spec,
    plugin_agent,
    unknown_agent,
)
from arena.agents.random_agent import RandomAgent
from arena.agents.remote.seat import (
    RemoteSettings,
    check_url,
    is_url,
    remote_agent,
)
from arena.agents.stock import make_bot
from arena.agents.terminal import TerminalHuman
from arena.errors import ArenaError, clip, one_line
from arena.llm.base import ChatModel
from arena.rules.config import GameConfig
from arena.rules.types import SeatId
from arena.text import refusal
from arena.transcript import Lang
from arena.userfile import read_yaml

AgentKind = Literal["bot", "random", "human", "openai", "langchain", "remote", "plugin"]


class SeatSpec(BaseModel):
    """What plays a seat: a kind and, for model seats, the model."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: AgentKind
    model: str | None = None
    """`gpt-4.1-mini` for `openai`; `provider:model` for `langchain`; the URL for `remote`;
    the whole spec (`py:MODULE:FACTORY` or an installed agent's name) for `plugin`."""
    noise: str | None = None
    """The share P of `noisy:P:SPEC` as written (`arena.agents.noisy`): the seat is the
    agent above, with that share of its decisions answered at random."""

    @property
    def label(self) -> str:
        """The spec as written: `bot`, `openai:gpt-4.1-mini`, `noisy:0.3:bot`, a URL."""
        return self.base_label if self.noise is None else f"{NOISY}{self.noise}:{self.base_label}"

    @property
    def base_label(self) -> str:
        """The spec without its `noisy:P:`: what endpoint settings and options are keyed by."""
        if self.kind in ("remote", "plugin") and self.model is not None:
            return self.model
        return self.kind if self.model is None else f"{self.kind}:{self.model}"


_SEATS = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")


def parse_seat_spec(text: str, seats: int) -> dict[SeatId, SeatSpec]:
    """Parse one `SEATS=AGENT` spec for a table of `seats`.

    Raises:
        ArenaError: naming the spec and what is wrong with it.
    """
    left, sep, right = (part.strip() for part in text.partition("="))
    if not sep or not _SEATS.match(left.replace(" ", "")):
        raise refusal("error.seat_form", spec=clip(repr(text)))
    numbers: list[int] = []
    for chunk in left.replace(" ", "").split(","):
        low, _, high = chunk.partition("-")
        first, last = int(low), int(high or low)
        if first > last:
            raise refusal(
                "error.seat_order", spec=clip(repr(text)), chunk=chunk, flipped=f"{last}-{first}"
            )
        if not 1 <= first <= last <= seats:
            raise refusal("error.seat_range", spec=clip(repr(text)), seats=seats)
        if set(numbers) & set(range(first, last + 1)):
            raise refusal("error.seat_twice", spec=clip(repr(text)))
        numbers.extend(range(first, last + 1))
    return dict.fromkeys(numbers, _agent_spec(right, text))


def to_seat_spec(agent: str) -> SeatSpec:
    """The seat spec of one agent as a spec names it (`bot`, `openai:MODEL`, a URL, …).

    Raises:
        ArenaError: naming the agent and what is wrong with it.
    """
    return _agent_spec(agent, agent)


def _agent_spec(agent: str, text: str) -> SeatSpec:
    if is_noisy(agent):
        share, inner = parse_noisy(agent)
        return _agent_spec(inner, text).model_copy(update={"noise": share})
    if is_url(agent):
        return SeatSpec(kind="remote", model=check_url(agent))
    kind, _, model = agent.partition(":")
    if kind not in ("openai", "langchain") and is_plugin_spec(agent):
        if agent.startswith(PREFIX) and not is_plugin_ref(agent):
            raise ArenaError(
                f"bad seat spec {text!r}: use py:MODULE:FACTORY, e.g. py:my_pkg.agents:make_agent"
            )
        if not agent.startswith(PREFIX) and agent not in entry_point_agents():
            raise ArenaError(f"bad seat spec {text!r}: {unknown_agent(agent)}")
        return SeatSpec(kind="plugin", model=agent)
    if kind == "bot" and not model:
        return SeatSpec(kind="bot")
    if kind == "random" and not model:
        return SeatSpec(kind="random")
    if kind == "human" and re.fullmatch(r"[\w.-]{0,40}", model):
        return SeatSpec(kind="human", model=model or None)  # `human:ann`: rated as that name
    if kind == "openai" and model:
        return SeatSpec(kind="openai", model=model)
    if kind == "langchain" and ":" in model.strip(":"):
        return SeatSpec(kind="langchain", model=model)
    raise refusal("error.seat_agent", spec=clip(repr(text)))


def parse_seats(
    specs: Sequence[str], seats: int, *, overrides: Sequence[str] = ()
) -> dict[SeatId, SeatSpec]:
    """Every seat's spec; seats no spec names are `bot`.

    `overrides` (the command line's `--seat`) replace `specs` (a spec file's) seat by seat.
    Within either list each seat may be named once: `1-6=bot` with `5-8=random` is an error,
    not a silent choice of one.

    Raises:
        ArenaError: a bad spec, a seat named twice in one list, or more than one human seat
            (one terminal, one reader).
    """
    table = dict.fromkeys(range(1, seats + 1), SeatSpec(kind="bot"))
    table.update(_assigned(specs, seats))
    table.update(_assigned(overrides, seats))
    humans = [seat for seat, spec in table.items() if spec.kind == "human"]
    if len(humans) > 1:
        raise ArenaError(f"only one human seat per terminal; got seats {humans}")
    return table


def _assigned(specs: Sequence[str], seats: int) -> dict[SeatId, SeatSpec]:
    assigned: dict[SeatId, SeatSpec] = {}
    named_by: dict[SeatId, str] = {}
    for text in specs:
        for seat, spec in parse_seat_spec(text, seats).items():
            if seat in named_by:
                raise ArenaError(
                    f"seat {seat} is named twice: by {clip(repr(named_by[seat]))} "
                    f"and by {clip(repr(text))}"
                )
            named_by[seat], assigned[seat] = text, spec
    return assigned


def load_spec_file(path: Path) -> MatchSpec:
    """Read a YAML match spec (through the one user-file reader).

    Raises:
        ArenaError: `PATH: problem`, one line: the file is missing, too large, not YAML,
            or has an unknown or invalid field.
    """
    data = read_yaml(path, what="spec file") or {}
    try:
        return MatchSpec.model_validate(data)
    except ValidationError as exc:
        raise ArenaError(f"{path}: {one_line(exc)}") from None


SEAT_SEED_STRIDE = 1000
"""Seat seeds of a game are `seed * SEAT_SEED_STRIDE + seat`: distinct for every seat of
every game whose seed differs, since no board has this many seats."""


def seat_seed(seed: int, seat: SeatId) -> int:
    """The seed of the agent at `seat` in the game seeded `seed`.

    One formula wherever a game runs (`arena play`, a worker, the Play page's host), so the
    same spec plays a seat the same way everywhere, and a resumed game's fresh agents are
    the ones it started with.
    """
    return seed * SEAT_SEED_STRIDE + seat


def build_agents(
    seats: Mapping[SeatId, SeatSpec],
    config: GameConfig,
    seed: int,
    spec: MatchSpec | None = None,
    *,
    beliefs: Beliefs = "daily",
    game_id: str | None = None,
    names: Mapping[SeatId, str] | None = None,
    models: dict[str, ChatModel] | None = None,
) -> dict[SeatId, Agent]:
    """One agent per seat; seats of one model spec share its chat model (kept in `models`).

    `beliefs` is the match's belief schedule (`Limits.beliefs`): model seats fold the
    daily report into their exile vote. `game_id` is sent to remote agents (a fresh one
    when not given); each remote seat gets its own secret for the game, and is known by
    its name in `names` when it has one there (a tournament's entry name).

    Raises:
        ArenaError: a remote agent's token variable is named but not set.
    """
    spec, models = spec or MatchSpec(), {} if models is None else models
    agents: dict[SeatId, Agent] = {}
    for seat, seat_spec in sorted(seats.items()):
        if seat_spec.kind == "bot":
            agents[seat] = _bot(seat_seed(seed, seat), spec.lang)
        elif seat_spec.kind == "random":
            agents[seat] = RandomAgent(seat_seed(seed, seat), spec.lang)
        elif seat_spec.kind == "human":
            agents[seat] = TerminalHuman(lang=spec.lang, person=seat_spec.model)
        elif seat_spec.kind == "plugin":
            agents[seat] = _plugin(seat_spec, seat, seat_seed(seed, seat), spec)
        elif seat_spec.kind == "remote":
            game = game_id or f"game-{secrets.token_hex(5)}"
            agents[seat] = _remote(seat_spec, spec, game, (names or {}).get(seat))
        else:
            key = seat_spec.base_label
            settings = endpoint_settings(seat_spec, spec)
            if key not in models:
                models[key] = chat_model(seat_spec, settings)
            agents[seat] = LLMAgent(
                models[key],
                lang=told_lang(spec),
                rules=config.rules,
                label=key,
                prompt_version=spec.prompt_version,
                explosion_windows=spec.explosion_windows,
                beliefs=beliefs,
                history_tokens=settings.history_tokens,
                decision_timeout_s=settings.decision_timeout_s,
            )
        if seat_spec.noise is not None:
            share, own = float(seat_spec.noise), seat_seed(seed, seat)
            agents[seat] = Noisy(agents[seat], share, own, seat_spec.label, spec.lang)
    return agents


def _plugin(seat_spec: SeatSpec, seat: SeatId, seed: int, spec: MatchSpec) -> Agent:
    """A plug-in's seat: its factory called with the spec file's options for it."""
    assert seat_spec.model is not None
    settings = endpoint_settings(seat_spec, spec)
    return plugin_agent(
        seat_spec.model,
        seat=seat,
        seed=seed,
        lang=told_lang(spec),
        options=spec.options.get(seat_spec.base_label),
        decision_timeout_s=settings.decision_timeout_s,
    )


def check_options(seats: Mapping[SeatId, SeatSpec], spec: MatchSpec) -> None:
    """Refuse options for a plug-in no seat plays (a misspelt key would be ignored).

    Raises:
        ArenaError: naming the key and the plug-ins that are seated.
    """
    seated = {s.base_label for s in seats.values() if s.kind == "plugin"}
    for key in spec.options:
        if key not in seated:
            known = ", ".join(sorted(seated)) or "none"
            raise ArenaError(f"options.{key}: no seat plays this plug-in (seated: {known})")


def _remote(seat: SeatSpec, spec: MatchSpec, game_id: str, name: str | None) -> Agent:
    """A remote agent's seat, timed and signed as its `endpoints` entry says."""
    assert seat.model is not None
    settings = endpoint_settings(seat, spec)
    remote = RemoteSettings(
        token_env=settings.token_env,
        decision_timeout_s=settings.decision_timeout_s or DECISION_TIMEOUT_S,
        overage_s=settings.overage_s,
        lang=told_lang(spec),
    )
    agent: Agent = remote_agent(seat.model, remote, game_id=game_id, name=name)
    return agent


def _bot(seed: int, lang: Lang) -> Agent:
    """The heuristic bot (`arena.agents.stock`, which imports it only when asked)."""
    return make_bot(seed, lang)
