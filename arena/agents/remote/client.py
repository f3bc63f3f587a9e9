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
alone and a late one is cut off. Resets and 5xx/429 answers are retried with a short
backoff while the decision's deadline allows; a refused connection (the agent's process
is gone) fails the try at once.

Once the game is over, the seat is told how it ended (`End`, revision 2, sent to every
remote seat): the result, every card, its side and its reward; only the reply's status is
read.

A restarted agent gets back in: asked about a seat it holds no secret for, it answers
HTTP 409, and the seat is started again (`Start`, a new secret) and asked once more.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
from pydantic import BaseModel

from arena.agents.base import DECISION_TIMEOUT_S, AgentReply
from arena.agents.remote.auth import new_nonce, new_secret
from arena.agents.remote.protocol import (
    BELIEFS,
    PROTOCOL,
    Believe,
    Decide,
    End,
    HelloReply,
    Start,
)
from arena.agents.remote.replies import (
    KEPT_REPLY_CHARS,
    Estimate,
    Exchange,
    belief_record,
    decision_record,
    read_answer,
    read_beliefs,
    read_ready,
)
from arena.agents.remote.transport import Line, Reply, ReplyTooLarge
from arena.errors import ArenaError
from arena.llm.types import ModelCallRecord
from arena.records import BeliefReport
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.outcome import GameOver
from arena.rules.visibility import SeatViewer
from arena.text.script import AgentLang

GRACE_S = 1.0
"""How much longer than its own deadline the match's backstop waits for this agent."""
LOST_SEAT = 409
"""The HTTP status of an agent asked about a seat it holds no secret for (it restarted):
the arena starts the seat again and asks once more."""
RESTARTED = "the agent no longer held the seat (HTTP 409): start sent again, a new secret"
"""The note a question's trace carries when the seat was started again."""


class RemoteAgent:
    """A seat whose decisions an agent at `url` makes (one instance per seat and game)."""

    def __init__(
        self,
        url: str,
        *,
        game_id: str,
        token: str | None = None,
        name: str | None = None,
        limit_s: float = DECISION_TIMEOUT_S,
        overage_s: float = 0.0,
        lang: AgentLang = "zh",
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
            lang: the game's language, sent in `start`.
            transport: an httpx transport (tests; default: the network).
        """
        self.url = url
        self.game_id = game_id
        self.token = token
        self._name = name or url
        self._limit_s = limit_s
        self._overage_s = overage_s
        self._lang: AgentLang = lang
        self._line = Line(url, token, transport)
        self._secret = new_secret()
        self._seat: int | None = None
        self._asked: tuple[int, int] = (-1, 0)
        """The last request step asked and how many times."""
        self._pending: list[ModelCallRecord] = []
        """Exchanges no answer carries: cut off by the match, or belief questions refused."""
        self._features: frozenset[str] = frozenset()
        self._called: str | None = None  # the name its `hello` gave, if any

    @property
    def name(self) -> str:
        """The seat's label: the spec's name, else the URL."""
        return self._name

    @property
    def accountable(self) -> bool:
        """Its defaults count toward voiding the game (`arena.match.is_accountable`)."""
        return True

    @property
    def limit_s(self) -> float:
        """The per-decision limit (`arena agent check` prints it)."""
        return self._limit_s

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
        return self._line.transport

    @property
    def answers_beliefs(self) -> bool:
        """Whether the agent's hello listed `beliefs`: only then is it asked (revision 1)."""
        return BELIEFS in self._features

    @property
    def model(self) -> str | None:
        """The name the agent calls itself in its `hello` (the header's `model`), if any."""
        return self._called

    def greeted(self, hello: HelloReply) -> None:
        """Take the features and name of the agent's `hello` reply (the preflight's check)."""
        self._features = frozenset(hello.features)
        self._called = hello.name or None

    def pending_traces(self) -> tuple[ModelCallRecord, ...]:
        """Exchanges no answer or report carries, handed over once.

        Those the match's backstop cut off, and belief questions that gave no report.
        """
        taken, self._pending = tuple(self._pending), []
        return taken

    async def aclose(self) -> None:
        """Close the connection pool (in the loop that played the game)."""
        await self._line.aclose()

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
            self._pending.append(
                decision_record(self.name, request, attempt, started, None, cut_off=True)
            )
            raise
        self._charge(time.monotonic() - started)
        record = decision_record(self.name, request, attempt, started, outcome)
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
            self._pending.append(belief_record(self.name, seat, started, None, cut_off=True))
            raise
        record = belief_record(self.name, seat, started, estimate)
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

    async def game_over(self, view: Observation, end: GameOver) -> None:
        """Tell the agent how the game ended (`End`), within the per-decision limit.

        Raises:
            ArenaError: the agent could not be reached, or answered other than HTTP 2xx
                (the match logs it; `arena agent check` reports it).
        """

        def message() -> BaseModel:
            return End(
                nonce=new_nonce(), game_id=self.game_id, seat=end.seat, end=end, observation=view
            )

        try:
            async with asyncio.timeout(self._limit_s):
                response, faults = await self._line.post(message, time.monotonic() + self._limit_s)
        except TimeoutError:
            raise ArenaError(f"no reply to end within {self._limit_s:.3g} s") from None
        except ReplyTooLarge as exc:
            raise ArenaError(str(exc)) from None
        if response is None:
            raise ArenaError(f"end: the agent could not be reached: {faults[-1]}")
        if not 200 <= response.status_code < 300:
            raise ArenaError(f"end: the agent answered HTTP {response.status_code}")

    async def _estimate(
        self, view: Observation, seat: int, others: tuple[int, ...], deadline: float
    ) -> Estimate:

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

        response, refused, faults = await self._ask(seat, ask, deadline)
        if refused is not None:
            return Estimate(None, refused, None, faults)
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

    async def _ask(
        self, seat: int, ask: Callable[[], BaseModel], deadline: float
    ) -> tuple[Reply | None, str | None, tuple[str, ...]]:
        """POST `ask()` for `seat`, starting the seat first if it is not started.

        An agent that answers HTTP 409 (`LOST_SEAT`) holds no secret for the seat: it
        restarted and lost its memory. The seat is then started again, with a new
        secret, and asked once more within the same deadline; an agent that says so
        again is refused. Returns the reply (None: none came), why the agent did not
        take the seat (None: it did), and the transport faults and notes met.
        """
        refused, met = await self._take_seat(seat, deadline)
        if refused is not None:
            return None, refused, met
        response, faults = await self._line.post(ask, deadline)
        if response is None or response.status_code != LOST_SEAT:
            return response, None, (*met, *faults)
        self._seat, self._secret = None, new_secret()
        refused, again = await self._take_seat(seat, deadline)
        met = (*met, *faults, RESTARTED, *again)
        if refused is not None:
            return None, refused, met
        response, faults = await self._line.post(ask, deadline)
        return response, None, (*met, *faults)

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

        response, refused, faults = await self._ask(request.seat, ask, deadline)
        if refused is not None:
            return Exchange(None, refused, None, faults)
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
                lang=self._lang,
            )

        response, faults = await self._line.post(start, deadline)
        if response is None:
            return f"it could not be reached: {faults[-1]}", faults
        refused = read_ready(response, self._secret, (PROTOCOL, self.game_id, seat))
        if refused is None:
            self._seat = seat
        return refused, faults
