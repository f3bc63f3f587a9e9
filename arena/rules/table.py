"""The referee's working context, shared by the night, day and sheriff flows.

The flows are generators: they `yield` a batch of simultaneous `DecisionRequest`s and
receive the answers, keyed by seat. `Table` holds what they share: the config, the seeded
`Draw` (the only randomness), the event log and the state folded from it. No I/O here.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from arena.rules import events as ev
from arena.rules.actions import Action, ActionKind, Block, Fear, Kill, Mask, Pass, Speak
from arena.rules.boards import Board
from arena.rules.config import GameConfig, RuleSet
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, pick_or_pass
from arena.rules.draw import Draw
from arena.rules.roles import in_pack, spec
from arena.rules.state import GameState, evolve, initial_state
from arena.rules.types import (
    DeathCause,
    Direction,
    Role,
    SeatId,
    SpeechContext,
    Team,
    Winner,
)
from arena.rules.visibility import PUBLIC, REFEREE, ToTeam, to_seats
from arena.rules.win import winner

Answers = dict[SeatId, Action]
T = TypeVar("T")
A = TypeVar("A", bound=Action)
Aimed = TypeVar("Aimed", Fear, Block, Mask, Kill)
"""A skill aimed at one seat whose use is shown to its user alone (`Table.ask_aim`)."""
Flow = Generator[tuple[DecisionRequest, ...], Answers, T]
"""A piece of the game: yields batches of requests, receives answers, returns a `T`."""


class GameOver(Exception):
    """Raised inside the flows once `GameEnded` is emitted; unwinds to the top."""


@dataclass
class Table:
    """Mutable context of one running game (the referee's scratch pad)."""

    config: GameConfig
    draw: Draw
    """The game's only source of randomness (see `arena.rules.draw`)."""
    board: Board = field(init=False)
    rules: RuleSet = field(init=False)
    state: GameState = field(init=False)
    events: list[ev.Event] = field(default_factory=list)
    step: int = 0
    """Index of the next batch of requests."""

    def __post_init__(self) -> None:
        self.board = self.config.board_spec
        self.rules = self.config.rules
        self.state = initial_state(self.board.seats)

    def emit(self, *events: ev.Event) -> None:
        """Append events to the log and fold them into the state."""
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def request(
        self,
        seat: SeatId,
        kind: DecisionKind,
        options: Iterable[ActionOption],
        default: Action,
        context: SpeechContext | None = None,
    ) -> DecisionRequest:
        """A request for the next batch."""
        night = self.state.phase is not None and self.state.phase.value == "night"
        return DecisionRequest(
            step=self.step,
            seat=seat,
            kind=kind,
            day=self.state.day,
            night=night,
            options=tuple(options),
            default=default,
            context=context,
        )

    def ask(self, requests: Iterable[DecisionRequest]) -> Flow[Answers]:
        """Yield one batch of simultaneous requests and return the answers by seat."""
        batch = tuple(requests)
        if not batch:
            return {}
        answers = yield batch
        self.step += 1
        return answers

    def ask_one(self, request: DecisionRequest) -> Flow[Action]:
        """Ask a single seat and return its answer."""
        answers = yield from self.ask([request])
        return answers[request.seat]

    def ask_pick(
        self,
        seat: SeatId,
        kind: DecisionKind,
        action: ActionKind,
        targets: tuple[SeatId, ...],
        chosen: type[A],
    ) -> Flow[A | None]:
        """Ask `seat` to aim a skill at one of `targets` or pass (the default, as a timeout).

        Returns the answer when the skill was used, None when it was passed.
        """
        options = pick_or_pass(action, targets)
        answer = yield from self.ask_one(self.request(seat, kind, options, Pass()))
        return answer if isinstance(answer, chosen) else None

    def ask_aim(
        self,
        seat: SeatId,
        kind: DecisionKind,
        action: ActionKind,
        targets: tuple[SeatId, ...],
        chosen: type[Aimed],
        shown: Callable[..., ev.Event],
    ) -> Flow[SeatId | None]:
        """`ask_pick`, and a used skill is told to `seat` alone: `shown(seat=…, target=…)`.

        The nightmare's fear, the consort's block, the phantom's mask and the raven claw's
        strike all work so. Returns the target, or None when the skill was passed.
        """
        answer = yield from self.ask_pick(seat, kind, action, targets, chosen)
        if answer is None:
            return None
        self.emit(shown(visibility=to_seats(seat), seat=seat, target=answer.target))
        return answer.target

    def set_order(
        self,
        order: tuple[SeatId, ...],
        context: SpeechContext,
        direction: Direction,
        *,
        drawn: bool = False,
    ) -> tuple[SeatId, ...]:
        """Tell the table the order of a round of speeches, and return it."""
        self.emit(
            ev.SpeakingOrderSet(
                visibility=PUBLIC, order=order, context=context, direction=direction, drawn=drawn
            )
        )
        return order

    def speak(self, seat: SeatId, speech: Speak, context: SpeechContext) -> None:
        """Record `seat`'s speech, text and claims as given, for the whole table."""
        self.emit(
            ev.Spoke(
                visibility=PUBLIC,
                seat=seat,
                text=speech.text,
                claims=speech.claims,
                context=context,
            )
        )

    def weight(self, seat: SeatId) -> Fraction:
        """A voter's weight: the sheriff's badge counts 1.5 (or as the rules say)."""
        if seat == self.state.sheriff:
            return Fraction(str(self.rules.sheriff_vote_weight))
        return Fraction(1)

    def wolf_channel(self, seats: Iterable[SeatId]) -> ToTeam:
        """Visibility for the wolves' private channel, as seen by `seats`."""
        return ToTeam(team=Team.WOLF, seats=tuple(sorted(set(seats))))

    def die(self, seat: SeatId, cause: DeathCause, *, at_night: bool) -> None:
        """Record a death (referee only); day deaths are also announced at once."""
        self.emit(
            ev.PlayerDied(
                visibility=REFEREE, seat=seat, cause=cause, day=self.state.day, at_night=at_night
            )
        )
        if not at_night:
            self.emit(ev.DeathsAnnounced(visibility=PUBLIC, seats=(seat,)))

    def check_win(self, *, announce: Iterable[SeatId] = ()) -> None:
        """End the game if a side has won; call after every batch of deaths.

        Raises:
            GameOver: the game has ended (after `GameEnded` is emitted).
        """
        result = winner(self.state.win_roles(), self.state.dead, self.rules, self.state.lovers)
        if result is not None:
            self.end(result, _reason(result, self.rules.win), announce=announce)

    def end(self, result: Winner, reason: str, *, announce: Iterable[SeatId] = ()) -> None:
        """Emit the end of the game and stop the flows.

        Raises:
            GameOver: always.
        """
        unannounced = tuple(sorted(s for s in announce if s not in self.state.out))
        if unannounced:
            self.emit(ev.DeathsAnnounced(visibility=PUBLIC, seats=unannounced))
        self.emit(ev.GameEnded(visibility=PUBLIC, winner=result, reason=reason))
        raise GameOver

    def meet_wolves(self) -> None:
        """The wolves of the pack open their eyes and see each other.

        A sealed wolf (the raven claw) is among the seats they see, but not in the channel.
        """
        pack = tuple(s for s in self.state.all_seats if in_pack(self.role(s)))
        known = tuple(
            s for s in self.state.all_seats if in_pack(self.role(s)) or spec(self.role(s)).sealed
        )
        self.emit(
            ev.WolvesMet(
                visibility=self.wolf_channel(pack),
                seats=known,
                roles=tuple(self.role(s) for s in known),
            )
        )

    def role(self, seat: SeatId) -> Role:
        """The role of `seat`."""
        return self.state.role(seat)


def _reason(result: Winner, mode: str) -> str:
    if result is Winner.GOOD:
        return "every wolf is dead"
    if result is Winner.LOVERS:
        return "only the lovers and their side are left"
    return (
        "the wolves killed every god or every villager"
        if mode == "side"
        else ("the wolves took the town")
    )
