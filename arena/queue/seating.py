"""Seating a job's agents on a worker, and throttling their calls per endpoint.

`build_seats` turns a job's `AgentEntry`s into the seat specs `arena.agents.seats` takes
and has it build every seat, as it does for `arena play` and the Play page (the same spec
plays a seat the same way, with the same seat seeds). What stays here is the tournament
file's grammar and settings: an entry's endpoint settings become its `endpoints` entry,
its plug-in `options` its `options`, its name the name a remote agent is known by, and
`delay:MS:SPEC` (SPEC answering each decision after MS milliseconds, a stand-in for a
model's latency in benchmarks and crash drills) wraps the built seat in
`arena.agents.delayed.Delayed`. Each entry is built apart, so its seats share one chat
model (one connection pool, one probe) and no other entry's settings.

`EndpointGate` is one of an endpoint's call slots shared by every worker of the queue
(`JobQueue.try_slot`), which bounds the model calls in flight over all workers; a seat
behind it (`arena.agents.slots.throttle`) holds it before a decision's clock starts
(`Gated`), so the wait never turns into a default; only the game's time limit bounds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Callable

from arena.agents import seats
from arena.agents.base import Agent
from arena.agents.delayed import Delayed
from arena.agents.noisy import is_noisy, parse_noisy, strip_noise
from arena.agents.plugin import PREFIX, is_plugin_ref, is_plugin_spec
from arena.agents.remote.seat import check_url, is_url
from arena.errors import ArenaError, clip
from arena.queue.base import JobQueue
from arena.queue.jobs import AgentEntry, MatchJob
from arena.rules.errors import ConfigError
from arena.text.script import AgentLang, told_game_lang

AgentMaker = Callable[[AgentEntry, int, int], Agent]
"""`(entry, seat, seat seed) -> Agent`: one seat's agent."""
SeatBuilder = Callable[[MatchJob], dict[int, Agent]]
"""`job -> {seat: Agent}`: how a worker seats a job's agents."""

MODEL_KINDS = ("openai", "langchain")
"""Spec prefixes of model seats (behind any `delay:`)."""


def check_spec(spec: str) -> None:
    """Refuse a spec no worker could seat, before anything is queued.

    Raises:
        ConfigError: an unknown kind, a malformed `delay:` spec, or `human`.
    """
    if spec in ("random", "bot"):
        return
    if is_url(spec):
        try:
            check_url(spec)
        except ArenaError as exc:
            raise ConfigError(str(exc)) from None
        return
    if is_plugin_spec(spec):  # its form only: `tournament run|submit` make it once
        if spec.startswith(PREFIX) and not is_plugin_ref(spec):
            raise ConfigError(f"bad agent spec {spec!r}: use py:MODULE:FACTORY")
        return
    if spec == "human" or spec.startswith("human:"):
        raise ConfigError("a tournament cannot seat a human (play one with `arena play`)")
    if is_noisy(spec):
        try:
            inner = parse_noisy(spec).inner
        except ArenaError as exc:
            raise ConfigError(str(exc)) from None
        if inner.startswith("delay:"):
            raise ConfigError(f"agent spec {clip(repr(spec))}: write delay:MS:noisy:P:SPEC")
        check_spec(inner)
        return
    kind, sep, rest = spec.partition(":")
    if kind == "delay":
        ms, sep2, inner = rest.partition(":")
        if not ms.isdigit() or not sep2 or not inner:
            raise ConfigError(f"agent spec {clip(repr(spec))}: expected delay:MILLISECONDS:SPEC")
        check_spec(inner)
        return
    if kind not in MODEL_KINDS or not rest or (kind == "langchain" and ":" not in rest.strip(":")):
        raise ConfigError(
            f"unknown agent spec {clip(repr(spec))}; use random, bot, delay:MS:SPEC, "
            "noisy:P:SPEC, openai:MODEL, langchain:PROVIDER:MODEL, py:MODULE:FACTORY, an "
            "installed agent's name or an http(s):// URL"
        )


def is_model(entry: AgentEntry) -> bool:
    """Whether the entry is a model seat (behind any `delay:` and `noisy:`)."""
    return bare_spec(entry.spec).partition(":")[0] in MODEL_KINDS


def is_remote(entry: AgentEntry) -> bool:
    """Whether the entry is a remote agent (behind any `delay:` and `noisy:`)."""
    return is_url(bare_spec(entry.spec))


def bare_spec(spec: str) -> str:
    """The agent that answers, without the `delay:MS:` and `noisy:P:` around it."""
    return strip_noise(split_delay(spec)[1])


def split_delay(spec: str) -> tuple[float, str]:
    """The injected delay in seconds (0 for none) and the spec it wraps."""
    delay = 0.0
    while spec.startswith("delay:"):
        _, ms, spec = spec.split(":", 2)
        delay += int(ms) / 1000
    return delay, spec


def to_match_spec(
    entry: AgentEntry, lang: AgentLang = "zh"
) -> tuple[seats.SeatSpec, seats.MatchSpec, float]:
    """The seat spec and match spec an entry's seats are built from, and its delay (s).

    `lang` is the table's language as agents are told it: a `zh-Hans` table's model
    seats read Simplified characters and its plug-ins and remote agents are told so,
    while the bots speak the arena's Chinese (shown converted, as in `arena play`).

    The entry's settings are its own `endpoints` entry (a tournament file refuses those
    that do not apply to its kind). Its model server may be serving other games of the
    tournament at once, so no seat is pinned to a server slot.

    Raises:
        ConfigError: an unknown or malformed spec.
    """
    check_spec(entry.spec)
    delay, spec = split_delay(entry.spec)
    seat_spec = seats.to_seat_spec(spec)
    given = {
        "timeout_s": entry.timeout_s,
        "max_tokens": entry.reply_tokens,
        "temperature": entry.temperature,
        "history_tokens": entry.history_tokens,
        "decision_timeout_s": entry.decision_timeout_s,
    }
    settings = seats.EndpointSettings(
        base_url=entry.base_url,
        pin_slots=False,
        token_env=entry.token_env,
        overage_s=entry.overage_s,
        **{key: value for key, value in given.items() if value is not None},
    )
    label = seat_spec.base_label
    options = {label: dict(entry.options)} if seat_spec.kind == "plugin" else {}
    match = seats.MatchSpec(
        endpoints={label: settings}, options=options, lang=told_game_lang(lang), agent_lang=lang
    )
    return seat_spec, match, delay


def build_seats(job: MatchJob) -> dict[int, Agent]:
    """Every seat's agent, built by `arena.agents.seats` one entry at a time.

    Every seat, whatever its kind, has one limit per decision: its entry's
    `decision_timeout_s`, else the tournament's `limits.call_timeout_s`.

    Raises:
        ArenaError: a bad spec, a plug-in that cannot be made, or a remote agent's token
            variable that is not set on this worker.
    """
    by_entry: dict[str, list[int]] = {}
    for seat, name in enumerate(job.seats, start=1):
        by_entry.setdefault(name, []).append(seat)
    agents: dict[int, Agent] = {}
    for name, entry_seats in by_entry.items():
        seat_spec, match, delay = to_match_spec(job.agents[name], job.lang)
        match = match.model_copy(update={"decision_timeout_s": job.limits.call_timeout_s})
        built = seats.build_agents(
            dict.fromkeys(entry_seats, seat_spec),
            job.config,
            job.seed,
            match,
            beliefs=job.limits.beliefs,
            game_id=job.game_id,
            names=dict.fromkeys(entry_seats, name),
        )
        agents.update({s: Delayed(a, delay) if delay else a for s, a in built.items()})
    return dict(sorted(agents.items()))


def per_seat(maker: AgentMaker) -> SeatBuilder:
    """A `SeatBuilder` from a function that builds one seat at a time, given its seed."""

    def build(job: MatchJob) -> dict[int, Agent]:
        return {
            seat: maker(job.agent_of(seat), seat, seats.seat_seed(job.seed, seat))
            for seat in range(1, len(job.seats) + 1)
        }

    return build


class EndpointGate:
    """One of `limit` call slots of an endpoint, shared by every worker of the queue."""

    def __init__(self, queue: JobQueue, endpoint: str, limit: int, ttl_s: float) -> None:
        self._queue = queue
        self._endpoint = endpoint
        self._limit = limit
        self._ttl_s = ttl_s

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Hold a slot for the block; waits (polling with backoff) while all are taken.

        A slot expires after `ttl_s` even if never given back (a killed worker).
        """
        holder = uuid.uuid4().hex
        pause = 0.005
        while not await self._queue.try_slot(self._endpoint, self._limit, holder, self._ttl_s):
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.1)
        try:
            yield
        finally:
            await self._queue.release_slot(self._endpoint, holder)
