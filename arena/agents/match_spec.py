"""A spec file's settings: its endpoints, its plug-ins' options, every seat's clock.

`MatchSpec` is what a spec file (`arena play --spec`) holds besides its seats' specs, and
what a tournament entry is turned into on a worker; `endpoint_settings` finds the entry
that applies to one seat. The seats themselves are built in `arena.agents.seats`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from arena.agents.model.library import DEFAULT_VERSION
from arena.llm.base import AnswerMode
from arena.text.script import AgentLang
from arena.transcript import Lang

if TYPE_CHECKING:
    from arena.agents.seats import SeatSpec


DEFAULT_TIMEOUT_S = 300.0
"""One request's default limit: a slow local server (two cores, a small model) reads a
game's first 4,000-token prompt at 20-200 tokens/s and may queue behind other seats."""


class EndpointSettings(BaseModel):
    """How to reach one provider or model (a spec file's `endpoints` entry)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str | None = None
    api_key_env: str | None = None
    """The environment variable holding the key (the SDK's usual one when omitted)."""
    timeout_s: float = Field(DEFAULT_TIMEOUT_S, gt=0)
    """One request's limit, in seconds."""
    probe_timeout_s: float | None = Field(None, gt=0)
    """The pre-game probe's limit (default: as long as its four usual requests may each take,
    4 × `timeout_s`)."""
    slots: int | None = Field(None, gt=0)
    """Calls in flight at most on this endpoint in `arena play` (default: the server's slot
    count when it reports one, as llama-server does; else no limit). A seat waits for a
    free one before its decision's clock starts."""
    pin_slots: bool = True
    """Keep each seat's conversation on a server slot of its own (llama-server's
    `id_slot`) when the server has one for every seat; turn it off when other games share
    the server, as a tournament's do (their seats would be pinned to the same slots)."""
    retries: int = Field(3, ge=0)
    mode: AnswerMode | None = None
    """Skip the search for the best answer mode and use this one (still checked)."""
    temperature: float | None = None
    max_tokens: int | None = Field(None, gt=0)
    """The reply's token limit (the server's default when omitted)."""
    decision_timeout_s: float | None = Field(None, gt=0)
    """The time limit of one decision of a seat this entry applies to, whatever its kind
    (the spec's `decision_timeout_s` otherwise, else the match's)."""
    token_env: str | None = None
    """A remote agent's token: the environment variable holding it (docs/agents.md)."""
    overage_s: float = Field(0.0, ge=0)
    """A remote agent's overage budget per game, beyond its per-decision limits (none
    unless given)."""
    history_tokens: int = Field(24_000, gt=0)
    """The conversation's budget in the endpoint's tokens; older days are condensed past it."""
    options: dict[str, Any] = Field(default_factory=dict)
    """Extra keyword arguments for `init_chat_model` (LangChain seats)."""


class MatchSpec(BaseModel):
    """A spec file: seats, prompt language and version, endpoints."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: tuple[str, ...] = ()
    lang: Lang = "zh"
    agent_lang: AgentLang | None = None
    """The language plug-ins and remote agents are told, when it is more than `lang` says:
    `zh-Hans` for a game `arena play --lang zh-Hans` (or `arena agent check`) shows in
    Simplified characters. None: `lang` (`told_lang`)."""
    prompt_version: str = DEFAULT_VERSION
    explosion_windows: bool = False
    """Ask model seats in the self-explosion window after every speech (costly)."""
    endpoints: dict[str, EndpointSettings] = Field(default_factory=dict)
    """Keyed by `openai`, `langchain:anthropic`, or a full agent spec; the most specific
    key that prefixes a seat's spec applies."""
    options: dict[str, dict[str, JsonValue]] = Field(default_factory=dict)
    """Settings for plug-ins' factories, keyed by the plug-in's spec as the seats name it
    (`py:my_pkg.agents:make_agent`, `my-agent`); docs/agents.md."""
    decision_timeout_s: float | None = Field(None, gt=0)
    """Every seat's limit per decision, whatever its kind, unless its `endpoints` entry
    gives its own (`arena play --decision-timeout`; default `DECISION_TIMEOUT_S`, or a
    model endpoint's longer request limit)."""


def told_lang(spec: MatchSpec) -> AgentLang:
    """The game's language as plug-ins and remote agents are told it (`AgentLang`)."""
    return spec.agent_lang if spec.agent_lang is not None else spec.lang


def with_endpoint_flags(spec: MatchSpec, **flags: float | int | None) -> MatchSpec:
    """`spec` with command-line endpoint settings (those not None) on every model endpoint.

    They apply to the entries the spec has, and to `openai` / `langchain` for the rest;
    `decision_timeout_s` to every seat, whatever its kind (`MatchSpec.decision_timeout_s`).
    """
    given = {k: v for k, v in flags.items() if v is not None}
    if not given:
        return spec
    endpoints = {"openai": EndpointSettings(), "langchain": EndpointSettings(), **spec.endpoints}
    updated = {k: e.model_copy(update=given) for k, e in endpoints.items()}
    every = (
        {"decision_timeout_s": given["decision_timeout_s"]} if "decision_timeout_s" in given else {}
    )
    return spec.model_copy(update={"endpoints": updated, **every})


def endpoint_settings(seat: SeatSpec, spec: MatchSpec) -> EndpointSettings:
    """The most specific `endpoints` entry for `seat` (defaults when none applies).

    A noisy seat (`noisy:0.3:openai:gpt`) takes the entry of the agent it wraps.
    """
    label = seat.base_label
    keys = [k for k in spec.endpoints if label == k or label.startswith(k + ":")]
    found = spec.endpoints[max(keys, key=len)] if keys else EndpointSettings()
    if found.decision_timeout_s is None and spec.decision_timeout_s is not None:
        return found.model_copy(update={"decision_timeout_s": spec.decision_timeout_s})
    return found
