"""`RemoteAgent`: a seat played by an agent behind a URL, over the protocol of `protocol.py`.

One `RemoteAgent` plays one seat of one game: it holds that seat's secret for the game
(`auth.new_secret`), sends it in `Start` before the first decision, and accepts only
answers signed with it that echo the question's game, seat, step and attempt. Whatever
else comes back — no answer in time, a transport fault past the deadline, HTTP errors,
garbage, an unsigned, cross-seat or replayed answer, an action the parser cannot read —
is an `AgentReply` without an action whose `error` says why; the match runner then asks
again with that error as feedback and, after its retries, applies the recorded default,
exactly as for a model seat. Each exchange is kept as a trace record (god view only).

Belief questions (protocol revision 1) go only to an agent whose `hello` listed the
`beliefs` feature (`greeted`, from the preflight): such an agent is asked like a decision,
bound to the game, the seat and the question's step (`after_seq`), signed with the
seat's secret and held to the per-decision limit; an agent that did not list it is never
sent one, so it gets the very bytes it got before revision 1.

Time follows Kaggle's model: each decision has `limit_s`; time beyond it is drawn from
the game's `overage_s` budget until that is spent, after which a decision gets `limit_s`
alone and a late one is cut off. Connection faults and 5xx/429 answers are retried with
a short backoff while the decision's deadline allows.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import httpx
from pydantic import BaseModel, ValidationError

from arena.agents.base import AgentReply
from arena.agents.model.parsing import check_beliefs, parse_answer
from arena.agents.remote.auth import (
    SIGNATURE,
    TIMESTAMP,
    is_signed,
    new_nonce,
    new_secret,
    signature,
)
from arena.agents.remote.protocol import (
    BELIEFS,
    PROTOCOL,
    Answer,
    BeliefAnswer,
    Believe,
    Decide,
    Hello,
    HelloReply,
    Ready,
    Start,
)
from arena.agents.remote.wire import KeepAlive
from arena.llm.types import ModelCallRecord, ModelReply
from arena.records import BeliefReport
from arena.rules.actions import Action
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ArenaError, InvalidActionError, one_line
from arena.rules.observation import Observation
from arena.rules.visibility import SeatViewer

GRACE_S = 1.0
"""How much longer than its own deadline the match's backstop waits for this agent."""
BACKOFF_S = (0.05, 0.1, 0.2, 0.4, 0.8)
"""Pauses between transport retries (the last repeats)."""
BELIEF_STEP = -1
"""The `step` of a belief question's trace record (`ModelCallRecord.step`)."""
KEPT_REPLY_CHARS = 2000
"""How much of a refused answer's body its trace keeps."""
MAX_REPLY_BYTES = 256 * 1024
"""The largest reply body read from an agent. An answer is a few hundred bytes (a speech at
most a few thousand); a body past this is refused unread, so an agent cannot make the
arena hold or parse megabytes per decision. A slow body is bounded by the deadline."""

_RETRIED = (httpx.ConnectError, httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


class ReplyTooLarge(Exception):
    """An agent's reply body passed `MAX_REPLY_BYTES` (declared or as read)."""


class Reply(NamedTuple):
    """What the arena keeps of an agent's HTTP reply: a body read within the cap."""

    status_code: int
    signature: str | None
    """The reply's `X-Arena-Signature` header."""
    content: bytes

    @property
    def text(self) -> str:
        """The body as text (undecodable bytes replaced), for traces."""
        return self.content.decode("utf-8", errors="replace")


class Exchange(NamedTuple):
    """One question's outcome: the action or why not, and what to record."""

    action: Action | None
    error: str | None
    body: str | None
    notes: tuple[str, ...]


class Estimate(NamedTuple):
    """One belief question's outcome: the probabilities or why not, and what to record."""

    wolf_probability: dict[int, float] | None
    error: str | None
    body: str | None
    faults: tuple[str, ...]


class RemoteAgent:
    """A seat whose decisions an agent at `url` makes (one instance per seat and game)."""

    def __init__(
        self,
        url: str,
        *,
        game_id: str,
        token: str | None = None,
        name: str | None = None,
        limit_s: float = 10.0,
        overage_s: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """Set up the seat; nothing connects until the first decision.

        Args:
            url: the agent's `http://` or `https://` URL.
            game_id: the game's id, sent in every message.
            token: the agent's token, to sign requests with (None: unsigned).
            name: the seat's label in replays and ratings (default: the URL).
            limit_s: the per-decision time limit.
            overage_s: the game's overage budget.
            transport: an httpx transport (tests; default: the network).
        """
        self.url = url
        self.game_id = game_id
        self.token = token
        self._name = name or url
        self._limit_s = limit_s
        self._overage_s = overage_s
        self._transport = transport
        self._secret = new_secret()
        self._seat: int | None = None
        self._asked: tuple[int, int] = (-1, 0)
        """The last request step asked and how many times."""
        self._client: httpx.AsyncClient | None = None
        self._pending: list[ModelCallRecord] = []
        """Exchanges no answer carries: cut off by the match, or belief questions refused."""
        self._features: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        """The seat's label: the spec's name, else the URL."""
        return self._name

    @property
    def accountable(self) -> bool:
        """Its defaults count toward voiding the game (`arena.match.is_accountable`)."""
        return True

    @property
    def overage_s(self) -> float:
        """What is left of the game's overage budget."""
        return self._overage_s

    @property
    def decision_timeout_s(self) -> float:
        """The match's backstop: this agent enforces its own deadline a little earlier."""
        return self._limit_s + self._overage_s + GRACE_S

    @property
    def transport(self) -> httpx.AsyncBaseTransport | None:
        """The httpx transport its calls go through (None: the network).

        The preflight's `hello` takes the same way.
        """
        return self._transport

    @property
    def answers_beliefs(self) -> bool:
        """Whether the agent's hello listed `beliefs`: only then is it asked (revision 1)."""
        return BELIEFS in self._features

    def greeted(self, hello: HelloReply) -> None:
        """Take the features the agent's `hello` reply lists (the preflight's health check)."""
        self._features = frozenset(hello.features)

    def pending_traces(self) -> tuple[ModelCallRecord, ...]:
        """Exchanges no answer or report carries, handed over once.

        Those the match's backstop cut off, and belief questions that gave no report.
        """
        taken, self._pending = tuple(self._pending), []
        return taken

    async def aclose(self) -> None:
        """Close the connection pool (in the loop that played the game)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Ask the agent; an answer that is late, unbound or unreadable comes back as an error."""
        step, asked = self._asked
        attempt = asked + 1 if step == request.step else 1
        self._asked = (request.step, attempt)
        started = time.monotonic()
        budget = self._limit_s + self._overage_s
        try:
            async with asyncio.timeout(budget):
                outcome = await self._exchange(view, request, feedback, attempt, started + budget)
        except TimeoutError:
            self._overage_s = 0.0
            outcome = Exchange(None, f"no answer within {budget:.3g} s", None, ())
        except ReplyTooLarge as exc:
            outcome = Exchange(None, str(exc), None, ())
        except asyncio.CancelledError:
            self._pending.append(self._record(request, attempt, started, None, cut_off=True))
            raise
        self._charge(time.monotonic() - started)
        record = self._record(request, attempt, started, outcome)
        return AgentReply(action=outcome.action, error=outcome.error, calls=(record,))

    async def believe(self, view: Observation) -> BeliefReport | None:
        """The agent's belief report, if its hello listed `beliefs` (else nothing is sent).

        Held to the per-decision limit alone (a report never draws on the game's overage
        budget). A late, unsigned, unbound or malformed answer gives no report; its
        exchange is kept for the replay's trace (`pending_traces`) with the reason.
        """
        if not self.answers_beliefs or not isinstance(view.viewer, SeatViewer):
            return None
        seat = view.viewer.seat
        others = tuple(s for s in view.knowledge.present() if s != seat)
        if not others:
            return None
        started = time.monotonic()
        try:
            async with asyncio.timeout(self._limit_s):
                estimate = await self._estimate(view, seat, others, started + self._limit_s)
        except TimeoutError:
            estimate = Estimate(None, f"no answer within {self._limit_s:.3g} s", None, ())
        except ReplyTooLarge as exc:
            estimate = Estimate(None, str(exc), None, ())
        except asyncio.CancelledError:
            self._pending.append(self._belief_record(seat, started, None, cut_off=True))
            raise
        record = self._belief_record(seat, started, estimate)
        if estimate.wolf_probability is None:
            self._pending.append(record)
            return None
        return BeliefReport(
            seat=seat,
            day=view.knowledge.day,
            after_seq=view.log_length,
            wolf_probability=estimate.wolf_probability,
            calls=(record,),
        )

    async def _estimate(
        self, view: Observation, seat: int, others: tuple[int, ...], deadline: float
    ) -> Estimate:
        refused, met = await self._take_seat(seat, deadline)
        if refused is not None:
            return Estimate(None, refused, None, met)

        def ask() -> BaseModel:
            return Believe.model_construct(
                nonce=new_nonce(),
                game_id=self.game_id,
                seat=seat,
                after_seq=view.log_length,
                day=view.knowledge.day,
                seats=others,
                deadline_ms=int(max(0.0, deadline - time.monotonic()) * 1000),
                limit_ms=int(self._limit_s * 1000),
                observation=view,
                type="believe",
                protocol=PROTOCOL,
            )

        response, faults = await self._post(ask, deadline)
        faults = (*met, *faults)
        if response is None:
            return Estimate(None, f"the agent could not be reached: {faults[-1]}", None, faults)
        asked = (PROTOCOL, self.game_id, seat, view.log_length)
        beliefs, error = read_beliefs(response, self._secret, asked, others)
        return Estimate(beliefs, error, response.text[:KEPT_REPLY_CHARS], faults)

    async def _take_seat(self, seat: int, deadline: float) -> tuple[str | None, tuple[str, ...]]:
        """Start the game for `seat` unless it is started.

        Returns why the agent did not take the seat (None: it did, or had), and the
        transport faults met.
        """
        if self._seat is None:
            error, met = await self._start(seat, deadline)
            if error is not None:
                return f"the agent did not take seat {seat}: {error}", met
            return None, met
        if self._seat != seat:
            raise ArenaError(f"a RemoteAgent plays one seat: {self._seat}, not {seat}")
        return None, ()

    def _charge(self, elapsed: float) -> None:
        """Draw the time beyond the per-decision limit from the overage budget."""
        self._overage_s = max(0.0, self._overage_s - max(0.0, elapsed - self._limit_s))

    async def _exchange(
        self,
        view: Observation,
        request: DecisionRequest,
        feedback: str | None,
        attempt: int,
        deadline: float,
    ) -> Exchange:
        refused, met = await self._take_seat(request.seat, deadline)
        if refused is not None:
            return Exchange(None, refused, None, met)

        def ask() -> BaseModel:
            return Decide.model_construct(
                nonce=new_nonce(),
                game_id=self.game_id,
                seat=request.seat,
                step=request.step,
                attempt=attempt,
                deadline_ms=int(max(0.0, deadline - time.monotonic()) * 1000),
                limit_ms=int(self._limit_s * 1000),
                overage_ms=int(self._overage_s * 1000),
                observation=view,
                request=request,
                feedback=feedback,
                type="decide",
                protocol=PROTOCOL,
            )

        response, faults = await self._post(ask, deadline)
        faults = (*met, *faults)
        if response is None:
            return Exchange(None, f"the agent could not be reached: {faults[-1]}", None, faults)
        action, error, notes = read_answer(response, self._secret, request, attempt, self.game_id)
        return Exchange(action, error, response.text[:KEPT_REPLY_CHARS], (*faults, *notes))

    async def _start(self, seat: int, deadline: float) -> tuple[str | None, tuple[str, ...]]:
        """Hand the seat's secret over.

        Returns why the agent did not take it (None: it did), and the transport faults met.
        """

        def start() -> BaseModel:
            return Start(
                nonce=new_nonce(),
                game_id=self.game_id,
                seat=seat,
                secret=self._secret,
                limit_ms=int(self._limit_s * 1000),
                overage_ms=int(self._overage_s * 1000),
            )

        response, faults = await self._post(start, deadline)
        if response is None:
            return f"it could not be reached: {faults[-1]}", faults
        return self._took(response, seat), faults

    def _took(self, response: Reply, seat: int) -> str | None:
        """Why `response` is not the agent's `Ready` for `seat` (None: it is; seat taken)."""
        if response.status_code != 200:
            return f"HTTP {response.status_code}"
        if not is_signed(self._secret, response.content, response.signature):
            return "its Ready is not signed with the seat's new secret"
        try:
            ready = Ready.model_validate_json(response.content)
        except ValidationError:
            return "its reply is not a Ready"
        echoed = (ready.protocol, ready.game_id, ready.seat, ready.ready)
        if echoed != (PROTOCOL, self.game_id, seat, True):
            return f"its Ready is for {ready.protocol} game {ready.game_id} seat {ready.seat}"
        self._seat = seat
        return None

    async def _post(self, message: Any, deadline: float) -> tuple[Reply | None, tuple[str, ...]]:
        """POST `message()` (rebuilt per try: fresh nonce), retrying transport faults.

        Returns the response (None if every try failed) and the faults met on the way.

        Raises:
            ReplyTooLarge: a reply passed the cap (not retried: the agent chose to send it).
        """
        faults: list[str] = []
        for pause in _pauses():
            body = message().model_dump_json().encode()
            try:
                response = await post_capped(
                    self._http(),
                    self.url,
                    body,
                    headers=signed_headers(body, self.token),
                    timeout=max(0.001, deadline - time.monotonic()),
                )
            except _RETRIED as exc:
                faults.append(_fault(exc))
            except httpx.TimeoutException:
                raise TimeoutError from None
            else:
                if response.status_code < 500 and response.status_code != 429:
                    return response, tuple(faults)
                faults.append(f"HTTP {response.status_code}")
            if time.monotonic() + pause >= deadline:
                return None, tuple(faults)
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def _http(self) -> httpx.AsyncClient:
        """The seat's connection pool, made in the loop that plays the game."""
        if self._client is None:
            transport = self._transport
            if transport is None and self.url.startswith("http://"):
                transport = KeepAlive()
            self._client = httpx.AsyncClient(transport=transport, trust_env=False)
        return self._client

    def _record(
        self,
        request: DecisionRequest,
        attempt: int,
        started: float,
        outcome: Exchange | None,
        *,
        cut_off: bool = False,
    ) -> ModelCallRecord:
        action = outcome.action if outcome is not None else None
        body = outcome.body if outcome is not None else None
        return ModelCallRecord(
            seat=request.seat,
            step=request.step,
            attempt=attempt,
            model=self._name,
            prompt_id=PROTOCOL,
            messages=(),
            tools=None,
            reply=ModelReply(text=body) if body is not None else None,
            parsed_action=action.model_dump(mode="json") if action is not None else None,
            error=outcome.error if outcome is not None else "cut off by the match's time limit",
            latency_ms=(time.monotonic() - started) * 1000,
            notes=outcome.notes if outcome is not None else (),
            cut_off=cut_off,
        )

    def _belief_record(
        self, seat: int, started: float, estimate: Estimate | None, *, cut_off: bool = False
    ) -> ModelCallRecord:
        error = estimate.error if estimate is not None else "cut off by the match's time limit"
        body = estimate.body if estimate is not None else None
        answered = estimate is not None and estimate.wolf_probability is not None
        return ModelCallRecord(
            seat=seat,
            step=BELIEF_STEP,
            attempt=1,
            model=self._name,
            prompt_id=PROTOCOL,
            messages=(),
            tools=None,
            reply=ModelReply(text=body) if body is not None else None,
            parsed_action={"beliefs": True} if answered else None,
            error=error,
            latency_ms=(time.monotonic() - started) * 1000,
            notes=estimate.faults if estimate is not None else (),
            cut_off=cut_off,
        )


async def post_capped(
    client: httpx.AsyncClient,
    url: str,
    body: bytes,
    *,
    headers: dict[str, str],
    timeout: float | None,
) -> Reply:
    """POST `body` and read the reply's body, at most `MAX_REPLY_BYTES` of it (decoded).

    Raises:
        ReplyTooLarge: the reply declares or sends more; the connection is dropped unread.
        httpx.HTTPError: as `httpx.AsyncClient.send` does.
    """
    request = client.build_request("POST", url, content=body, headers=headers, timeout=timeout)
    response = await client.send(request, stream=True)
    try:
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > MAX_REPLY_BYTES:
            raise ReplyTooLarge(_too_large(f"declares {int(declared):,} bytes"))
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                raise ReplyTooLarge(_too_large(f"sent {size:,} bytes and more"))
            chunks.append(chunk)
    finally:
        await response.aclose()
    return Reply(response.status_code, response.headers.get(SIGNATURE), b"".join(chunks))


def _too_large(how: str) -> str:
    return f"refused: the reply is over {MAX_REPLY_BYTES // 1024} KiB (it {how}), left unread"


def read_answer(
    response: Reply, secret: str, request: DecisionRequest, attempt: int, game_id: str
) -> tuple[Action | None, str | None, tuple[str, ...]]:
    """The action in an agent's reply, or why the reply is refused (and parser notes)."""
    if response.status_code != 200:
        return None, f"the agent answered HTTP {response.status_code}", ()
    if not is_signed(secret, response.content, response.signature):
        return None, f"refused: the answer is not signed with seat {request.seat}'s secret", ()
    try:
        answer = Answer.model_validate_json(response.content)
    except ValidationError as exc:
        return None, f"the answer is not an Answer ({one_line(exc, default='body')})", ()
    asked = (PROTOCOL, game_id, request.seat, request.step, attempt)
    echoed = (answer.protocol, answer.game_id, answer.seat, answer.step, answer.attempt)
    if echoed != asked:
        return (
            None,
            (
                f"refused: the answer is for game {answer.game_id} seat {answer.seat} step "
                f"{answer.step} attempt {answer.attempt}, not seat {request.seat} step "
                f"{request.step} attempt {attempt}"
            ),
            (),
        )
    try:
        parsed = parse_answer(json.dumps(answer.answer), request)
    except InvalidActionError as exc:
        return None, str(exc), ()
    if parsed.action is None:
        return None, "the answer is not an action", parsed.notes
    return parsed.action, None, parsed.notes


def read_beliefs(
    response: Reply, secret: str, asked: tuple[str, str, int, int], seats: tuple[int, ...]
) -> tuple[dict[int, float] | None, str | None]:
    """The probabilities in an agent's `BeliefAnswer`, or why it is refused.

    `asked` is the question's (protocol, game, seat, after_seq), which the answer must echo;
    the answer must give every seat of `seats` and no other, as a model seat's must.
    """
    seat, after = asked[2], asked[3]
    if response.status_code != 200:
        return None, f"the agent answered HTTP {response.status_code}"
    if not is_signed(secret, response.content, response.signature):
        return None, f"refused: the belief answer is not signed with seat {seat}'s secret"
    try:
        answer = BeliefAnswer.model_validate_json(response.content)
    except ValidationError as exc:
        return None, f"the answer is not a BeliefAnswer ({one_line(exc, default='body')})"
    echoed = (answer.protocol, answer.game_id, answer.seat, answer.after_seq)
    if echoed != asked:
        return None, (
            f"refused: the belief answer is for game {answer.game_id} seat {answer.seat} "
            f"after {answer.after_seq}, not seat {seat} after {after}"
        )
    error = check_beliefs(answer.wolf_probability, list(seats))
    if error is not None:
        return None, error
    return dict(answer.wolf_probability), None


def _pauses() -> Iterator[float]:
    """The backoff pauses, the last repeated forever."""
    yield from BACKOFF_S
    while True:
        yield BACKOFF_S[-1]


def _refused(exc: BaseException) -> bool:
    """Whether a connect error was a refusal (httpx wraps the OS error, anyio words it)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _fault(exc: httpx.HTTPError) -> str:
    if isinstance(exc, httpx.ConnectError):
        return "connection refused" if _refused(exc) else f"cannot connect ({exc})"
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError):
        return "connection reset"
    return type(exc).__name__


def signed_headers(body: bytes, token: str | None) -> dict[str, str]:
    """The headers of a request to an agent: signed under `token` when there is one."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        stamp = str(int(time.time()))
        headers |= {TIMESTAMP: stamp, SIGNATURE: signature(token, body, stamp)}
    return headers


async def check_health(
    url: str,
    token: str | None = None,
    *,
    timeout_s: float = 5.0,
    transport: httpx.AsyncBaseTransport | None = None,
) -> HelloReply:
    """The agent's `hello` reply, checked for this protocol (the preflight's health check).

    Raises:
        ArenaError: one line: the agent is down, answers an error, or speaks another protocol.
    """
    body = Hello(nonce=new_nonce()).model_dump_json().encode()
    try:
        async with httpx.AsyncClient(transport=transport, trust_env=False) as client:
            headers = signed_headers(body, token)
            response = await post_capped(client, url, body, headers=headers, timeout=timeout_s)
    except ReplyTooLarge as exc:
        raise ArenaError(f"remote agent {url} answered hello: {exc}") from None
    except httpx.TimeoutException:
        late = f"remote agent {url} did not answer hello within {timeout_s:g} s"
        raise ArenaError(late) from None
    except httpx.HTTPError as exc:
        raise ArenaError(f"remote agent {url} is down: {_fault(exc)}") from None
    if response.status_code != 200:
        raise ArenaError(f"remote agent {url} answered hello with HTTP {response.status_code}")
    try:
        hello = HelloReply.model_validate_json(response.content)
    except ValidationError:
        raise ArenaError(f"remote agent {url} answered hello with something else") from None
    if hello.protocol != PROTOCOL:
        raise ArenaError(f"remote agent {url} speaks {hello.protocol!r}, the arena {PROTOCOL!r}")
    return hello
