"""What travels on the match queue: jobs, leases, results, statuses and dead letters.

A `MatchJob` is self-contained: a worker on another machine needs nothing but the job
(and the agents' credentials in its environment) to play the game. Its `fingerprint`
identifies the game's content, so resubmitting a tournament whose spec changed under
the same game ids is refused instead of silently mixing two tournaments.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from arena.agents.noisy import strip_noise
from arena.errors import ArenaError
from arena.llm.pricing import Price, cost_usd
from arena.llm.types import ModelCallRecord
from arena.match import Limits
from arena.rules.config import GameConfig
from arena.rules.types import Winner
from arena.text.script import AgentLang, told_display


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FencedOut(ArenaError):
    """A write or acknowledgement under a lease that is no longer the match's current one.

    Raised to a stalled worker whose match another worker has taken over: its late
    writes are rejected, so no event is ever written twice.
    """


class QueueUnavailable(ArenaError):
    """The queue's backend cannot be reached (wrong URL, server down)."""


class StateLost(ArenaError):
    """The queue's server came back without its data (a restart without persistence).

    Every queued and running game it held is gone: leases, logs, the jobs stream and
    its consumer group. Raised once per loss to the client that notices it, which has
    already re-created the stream and group so the queue works again (empty).
    """


class Durability(_Frozen):
    """Whether the queue's server keeps its data across a restart."""

    appendonly: bool | None = None
    """The append-only file is on (None: the server refused to say)."""
    save: str | None = None
    """The RDB snapshot schedule (`""`: no snapshots; None: the server refused to say)."""

    @property
    def known(self) -> bool:
        """Whether the server answered `CONFIG GET`."""
        return self.appendonly is not None and self.save is not None

    @property
    def persists(self) -> bool:
        """A restart keeps the data: append-only file, or at least snapshots."""
        return bool(self.appendonly) or bool(self.save)


class PriceSpec(_Frozen):
    """US dollars per million tokens, overriding the built-in price table."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)


class AgentEntry(_Frozen):
    """One contestant of a tournament: how to build it, where it runs, what it may spend."""

    spec: str = Field(min_length=1)
    """The agent spec: `bot`, `random`, `openai:gpt-4.1-mini`, `langchain:anthropic:…`."""
    endpoint: str | None = None
    """The label its calls are counted under for concurrency limits (default: the base URL,
    else the spec's provider prefix; bots have none)."""
    base_url: str | None = None
    """An OpenAI-compatible server (vLLM, Ollama, llama.cpp) instead of the vendor's."""
    price: PriceSpec | None = None
    """Overrides the price table; without it, each call's recorded `cost_usd` counts."""
    max_tokens: int | None = Field(default=None, gt=0)
    """Token budget over the whole tournament; matches stop being started once spent."""
    max_usd: float | None = Field(default=None, gt=0)
    """Money budget over the whole tournament, as `max_tokens`."""
    options: dict[str, JsonValue] = Field(default_factory=dict)
    """Settings for a plug-in's factory (`py:…` or an installed agent's name), as plain
    data: the job carries them to whichever worker plays it (docs/agents.md)."""
    token_env: str | None = None
    """A remote agent's (`http(s)://…` spec) token: the environment variable that holds it
    on every worker (the token itself never goes in the file or the queue)."""
    decision_timeout_s: float | None = Field(default=None, gt=0)
    """This agent's limit per decision, whatever its kind (the tournament's
    `limits.call_timeout_s` when not given)."""
    overage_s: float = Field(default=0.0, ge=0)
    """A remote agent's overage budget per game (none when not given; docs/agents.md)."""
    timeout_s: float | None = Field(default=None, gt=0)
    """A model agent's limit on one request, in seconds (300 when not given; its probe's
    limit is four times it): a slow local server needs more."""
    reply_tokens: int | None = Field(default=None, gt=0)
    """A model agent's limit on one reply, sent as each request's `max_tokens` (the server's
    default when not given; llama-server's is none, and a small model may write on for
    minutes). Not `max_tokens`, which is the agent's budget over the tournament."""
    temperature: float | None = None
    """A model agent's sampling temperature (the server's default when not given)."""
    history_tokens: int | None = Field(default=None, gt=0)
    """A model agent's conversation budget in its endpoint's tokens: past it, older days
    are condensed (24,000 when not given; a server that reports a smaller window caps it)."""

    @property
    def endpoint_label(self) -> str | None:
        """Where this agent's model calls go, for the per-endpoint concurrency limit."""
        if self.endpoint is not None:
            return self.endpoint
        if self.base_url is not None:
            return self.base_url
        spec = strip_noise(self.spec)  # `noisy:0.3:openai:gpt` calls `openai`
        if spec.startswith(("http://", "https://")):
            return spec
        kind, sep, _ = spec.partition(":")
        return kind if sep else None


class MatchJob(_Frozen):
    """One game of a tournament, as queued."""

    game_id: str
    tournament: str
    index: int
    config: GameConfig
    seed: int
    seats: tuple[str, ...]
    """The agent name playing each seat, seat 1 first."""
    agents: dict[str, AgentEntry]
    """The seated agents by name."""
    concurrency: dict[str, int] = Field(default_factory=dict)
    """Most model calls in flight at once per endpoint label, over all workers."""
    limits: Limits = Limits()
    max_attempts: int = Field(default=3, ge=1)
    """Starts (failures and lost workers) before the job goes to the dead-letter stream."""
    lang: AgentLang = "zh"
    """The table's language: the model seats' prompts and the bots' speeches (`zh-Hans`:
    Chinese in Simplified characters, in which the model seats read their prompts)."""

    @property
    def fingerprint(self) -> str:
        """A short hash of what makes the game: rules, deal, seed, who sits where, language.

        Who sits where includes a plug-in's `options` (other options, another agent);
        a job whose agents have none hashes as it did before options existed. The
        language enters only when it is not the default (Chinese), for the same reason:
        a game in another language is another game (other prompts, other speeches).

        Same id, different fingerprint: a conflict. Operational settings (limits,
        budgets, concurrency, prices) are left out, so they can change between
        submissions; a game already queued keeps the settings it was queued with.
        """
        specs: list[object] = [self.agents[name].spec for name in self.seats]
        options = {n: self.agents[n].options for n in sorted(set(self.seats))}
        if any(options.values()):  # agents without options hash as they always have
            specs.append(options)
        identity: list[object] = [
            self.config.model_dump(mode="json"),
            self.seed,
            list(self.seats),
            specs,
        ]
        if self.lang != "zh":  # Chinese games hash as they did before `lang` existed
            identity.append(self.lang)
        text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def header_fields(self) -> dict[str, object]:
        """A new game's header fields besides its game: its tournament and language."""
        return {"tournament": self.tournament, "lang": told_display(self.lang)}

    def agent_of(self, seat: int) -> AgentEntry:
        """The entry of the agent playing `seat`."""
        return self.agents[self.seats[seat - 1]]


class Lease(_Frozen):
    """A worker's right to play a job, fenced by `token`.

    Every start of a match (the first, a retry, a takeover after a lost worker) gets a
    larger token; the backend accepts writes only under the current one.
    """

    job: MatchJob
    token: int
    message_id: str
    """The backend's handle of the queued message (acknowledged on completion)."""
    attempt: int
    consumer: str


class Spend(_Frozen):
    """Tokens and money one agent used, and how many of its games it voided."""

    tokens: int = 0
    usd: float = 0.0
    games: int = 0
    """Finished games the agent sat in."""
    voided: int = 0
    """Those voided because of the agent's seat (it kept falling back to defaults)."""

    def __add__(self, other: Spend) -> Spend:
        return Spend(
            tokens=self.tokens + other.tokens,
            usd=self.usd + other.usd,
            games=self.games + other.games,
            voided=self.voided + other.voided,
        )


class MatchResult(_Frozen):
    """What a worker records when it finishes (or skips) a job."""

    game_id: str
    status: Literal["done", "skipped"] = "done"
    winner: Winner | None = None
    reason: str = ""
    days: int = 0
    events: int = 0
    spend: dict[str, Spend] = Field(default_factory=dict)
    replay: str | None = None
    """Where the worker wrote the replay file (on its own machine)."""
    worker: str = ""


class GameState(StrEnum):
    """Where a game is in its life; `done`, `skipped` and `failed` are final."""

    UNKNOWN = "unknown"
    """Never submitted."""
    LOST = "lost"
    """Submitted, but the server no longer knows it (it restarted without its data)."""
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    SKIPPED = "skipped"
    FAILED = "failed"


FINAL_STATES = frozenset({GameState.DONE, GameState.SKIPPED, GameState.FAILED})


class GameStatus(_Frozen):
    """One game as the backend knows it."""

    game_id: str
    state: GameState
    attempts: int = 0
    error: str = ""
    result: MatchResult | None = None


class DeadLetter(_Frozen):
    """A job that failed `max_attempts` times, with its last error."""

    game_id: str
    error: str
    attempts: int
    job: MatchJob


class SubmitReport(_Frozen):
    """What a submission did, game by game."""

    queued: tuple[str, ...] = ()
    requeued: tuple[str, ...] = ()
    """Dead-lettered games queued again (a resubmission retries failures)."""
    existing: tuple[str, ...] = ()
    """Already queued, running or finished: left alone."""


def spend_of(traces: Iterable[ModelCallRecord], job: MatchJob) -> dict[str, Spend]:
    """Tokens and money per agent name, from a game's model-call traces.

    An agent's `price` in the spec wins over the cost recorded on each call, so a
    tournament can price a self-hosted model the table does not know.
    """
    totals: dict[str, Spend] = {}
    for record in traces:
        name = job.seats[record.seat - 1]
        entry = job.agents[name]
        usd = record.cost_usd
        if entry.price is not None:
            price = Price(entry.price.input, entry.price.output, entry.price.cached_input)
            usd = cost_usd(record.usage, price)
        tokens = record.usage.prompt_tokens + record.usage.completion_tokens
        totals[name] = totals.get(name, Spend()) + Spend(tokens=tokens, usd=usd)
    return totals


def over_budget(job: MatchJob, spent: dict[str, Spend]) -> str | None:
    """Why `job` must not start given the tournament's spend so far, or None."""
    for name in sorted(set(job.seats)):
        entry, used = job.agents[name], spent.get(name, Spend())
        if entry.max_tokens is not None and used.tokens >= entry.max_tokens:
            return f"budget: {name} used {used.tokens:,} of {entry.max_tokens:,} tokens"
        if entry.max_usd is not None and used.usd >= entry.max_usd:
            return f"budget: {name} spent ${used.usd:.2f} of ${entry.max_usd:.2f}"
    return None


QUARANTINE_AFTER = 3
"""Voided games after which an agent that voided at least half of its games is paused."""
_CULPRIT = re.compile(r"^voided: seat (\d+)'s ")


def with_games(spent: dict[str, Spend], job: MatchJob, void: str | None) -> dict[str, Spend]:
    """`spent` plus one game for every agent of `job`, and the void to the seat's agent.

    `void` is the game's void reason (`arena.match.Tally`: `voided: seat N's …`), or None.
    """
    culprit = _CULPRIT.match(void or "")
    blamed = job.seats[int(culprit.group(1)) - 1] if culprit else None
    out = dict(spent)
    for name in sorted(set(job.seats)):
        game = Spend(games=1, voided=int(name == blamed))
        out[name] = out.get(name, Spend()) + game
    return out


def quarantined(name: str, used: Spend) -> str | None:
    """Why the agent is paused (its games keep voiding), or None.

    A remote agent that is down or answers garbage, or a model endpoint that keeps
    failing, voids every game it sits in; without a pause a tournament would start
    (and void) all of its games. The pause is final for the tournament: its remaining
    games are skipped, and the agent's fixed version plays in a new one.
    """
    if used.voided >= QUARANTINE_AFTER and 2 * used.voided >= used.games:
        return f"quarantined: {name} voided {used.voided} of its {used.games} games"
    return None


def paused(job: MatchJob, spent: dict[str, Spend]) -> str | None:
    """Why `job` must not start: an agent's budget is spent, or it is quarantined."""
    reason = over_budget(job, spent)
    if reason is not None:
        return reason
    for name in sorted(set(job.seats)):
        reason = quarantined(name, spent.get(name, Spend()))
        if reason is not None:
            return reason
    return None
