"""The referee: asks for decisions, validates answers, writes the event log.

`Referee(config, seed)` is deterministic: the same config, seed and answers always give
the same events (that is how a replay is validated and how a crashed game resumes), on
every Python version, because every draw goes through `arena.rules.draw`. It never blocks
and never does I/O; the match runner owns the agents and the clock.

Answers to a batch of simultaneous requests may arrive in any order; the referee acts on
a batch once it is complete, always in seat order, so arrival order never changes the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from arena.rules import events as ev
from arena.rules.actions import Action
from arena.rules.config import GameConfig
from arena.rules.day import day
from arena.rules.decisions import DecisionRequest, check_legal, check_options
from arena.rules.draw import CURRENT_DRAW, DrawName, new_draw
from arena.rules.errors import IllegalActionError
from arena.rules.night import night
from arena.rules.state import GameState
from arena.rules.table import Flow, GameOver, Table
from arena.rules.types import SeatId, Winner
from arena.rules.visibility import PUBLIC, REFEREE, to_seats


class Answer(BaseModel):
    """An accepted answer, as recorded in the replay (the referee's input)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int
    seat: SeatId
    action: Action
    defaulted: str | None = None
    """Why the arena applied the request's default instead of an agent's answer."""


class Referee:
    """One game of Werewolf, driven by answers to the requests it issues."""

    def __init__(self, config: GameConfig, seed: int, *, draw: DrawName = CURRENT_DRAW) -> None:
        """Start a game; `draw` is the algorithm a replay recorded (new games: the current)."""
        self.config = config
        self.seed = seed
        self.draw: DrawName = draw
        self._table = Table(config, new_draw(draw, seed))
        self._flow = _game(self._table)
        self._pending: dict[SeatId, DecisionRequest] = {}
        self._received: dict[SeatId, Action] = {}
        self._defaulted: dict[SeatId, str] = {}
        self.answers: list[Answer] = []
        self._resume(None)

    @property
    def events(self) -> Sequence[ev.Event]:
        """The event log so far."""
        return self._table.events

    @property
    def state(self) -> GameState:
        """The state folded from the log."""
        return self._table.state

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return not self._pending

    @property
    def winner(self) -> Winner | None:
        """The winner, once the game is over."""
        return self._table.state.winner

    def pending(self) -> tuple[DecisionRequest, ...]:
        """Requests of the current batch still waiting for an answer, in seat order."""
        return tuple(r for s, r in sorted(self._pending.items()) if s not in self._received)

    def request_for(self, seat: SeatId) -> DecisionRequest | None:
        """The open request of `seat`, if any."""
        return self._pending.get(seat) if seat not in self._received else None

    def asked(self, answer: Answer) -> DecisionRequest | None:
        """The open request a recorded `answer` answers (its seat's, at its step), or None."""
        request = self.request_for(answer.seat)
        return request if request is not None and request.step == answer.step else None

    def resubmit(self, answer: Answer) -> DecisionRequest:
        """Submit a recorded `answer` (`submit`, `recorded`) to the request it answers.

        Returns that request.

        Raises:
            IllegalActionError: `answer` matches no open request, or is not legal.
        """
        request = self.asked(answer)
        if request is None:
            raise IllegalActionError(
                f"answer of seat {answer.seat} at step {answer.step} matches no open request"
            )
        self.submit(answer.seat, answer.action, defaulted=answer.defaulted, recorded=True)
        return request

    def submit(
        self,
        seat: SeatId,
        action: Action,
        *,
        defaulted: str | None = None,
        recorded: bool = False,
    ) -> None:
        """Answer the open request of `seat`.

        `defaulted` marks the arena's fallback (the request's `default`, or any legal
        action) after an agent failed; it is recorded as an `ActionDefaulted` event.
        `recorded` marks an answer read back from a replay: it is checked against the
        request's options (`check_options`) but its speech claims are taken as recorded,
        so files written before claims were checked still re-run.

        Raises:
            IllegalActionError: no open request for `seat`, or the action is not legal.
        """
        request = self.request_for(seat)
        if request is None:
            raise IllegalActionError(f"seat {seat} has no decision pending")
        if not (defaulted is not None and action == request.default):
            (check_options if recorded else check_legal)(request, action)
        self._received[seat] = action
        if defaulted is not None:
            self._defaulted[seat] = defaulted
        self.answers.append(
            Answer(step=request.step, seat=seat, action=action, defaulted=defaulted)
        )
        if len(self._received) == len(self._pending):
            self._complete_batch()

    def submit_legal(self, request: DecisionRequest, action: Action) -> None:
        """Answer the open `request` with an action known legal: `submit` without its check.

        For the RL environment only (`arena.rl.environment`). Its answers are built from the
        request's own options: an index outside the action mask is refused before it gets
        here, and every index of a mask decodes to an action `check_legal` accepts (a test
        checks every index of every mask met in games on every board). Re-checking each
        step cost about a seventh of the referee's time a decision. Agents, remote seats
        and replays give answers nobody has checked: they go through `submit`.

        Raises:
            IllegalActionError: `request` is not its seat's open request (nothing changes).
        """
        seat = request.seat
        if self._pending.get(seat) is not request or seat in self._received:
            raise IllegalActionError(f"seat {seat} has no such decision pending")
        self._received[seat] = action  # `submit`'s steps after the check, inline: once a step
        self.answers.append(Answer(step=request.step, seat=seat, action=action))
        if len(self._received) == len(self._pending):
            self._complete_batch()

    def _complete_batch(self) -> None:
        for seat in sorted(self._defaulted):
            self._table.emit(
                ev.ActionDefaulted(
                    visibility=to_seats(seat),
                    seat=seat,
                    decision=self._pending[seat].kind,
                    reason=self._defaulted[seat],
                )
            )
        answers = dict(sorted(self._received.items()))
        self._pending, self._received, self._defaulted = {}, {}, {}
        self._resume(answers)

    def _resume(self, answers: dict[SeatId, Action] | None) -> None:
        try:
            batch = self._flow.send(answers) if answers is not None else next(self._flow)
        except StopIteration:
            return
        self._pending = {request.seat: request for request in batch}


def _game(t: Table) -> Flow[None]:
    """The whole game: the deal, then nights and days until a side wins."""
    _deal(t)
    try:
        n = 1
        while True:
            yield from night(t, n)
            yield from day(t, n)
            n += 1
            if n > t.rules.max_days:
                t.end(Winner.DRAW, f"no winner after {t.rules.max_days} days")
    except GameOver:
        pass
    t.emit(ev.RolesRevealed(visibility=PUBLIC, roles=t.state.roles))


def _deal(t: Table) -> None:
    """Deal the cards from the seed (or the config's fixed deal) and wake the wolves.

    The wolves see each other and a sealed raven claw, who keeps his eyes shut (001:123,
    roles.md: 其他狼人會知道狼鴉之爪的身份).
    """
    board = t.board
    t.emit(
        ev.GameStarted(
            visibility=PUBLIC,
            board=t.config.board,
            seats=board.seats,
            role_counts=board.role_counts(),
        )
    )
    cards = list(t.config.deal) if t.config.deal is not None else t.draw.shuffled(board.roles)
    roles, bottom = cards[: board.seats], cards[board.seats :]
    t.emit(ev.RolesDealt(visibility=REFEREE, roles=tuple(roles)))
    if bottom:
        t.emit(ev.BottomCardsDealt(visibility=REFEREE, cards=tuple(bottom)))
    for seat, role in enumerate(roles, start=1):
        t.emit(ev.RoleAssigned(visibility=to_seats(seat), seat=seat, role=role))
    if not bottom:  # a thief board: the wolves meet after the thief's turn (night 1)
        t.meet_wolves()


def play_answers(
    config: GameConfig,
    seed: int,
    answers: Sequence[Answer],
    *,
    draw: DrawName = CURRENT_DRAW,
) -> Referee:
    """Re-run a game on recorded answers (replay validation, resume after a crash).

    Pass the `draw` the replay header records, so an old file is re-dealt as it was.

    Raises:
        IllegalActionError: an answer does not fit the request the referee issued.
    """
    referee = Referee(config, seed, draw=draw)
    for answer in answers:
        referee.resubmit(answer)
    return referee
