"""`WerewolfEnv`: a PettingZoo AEC environment over the referee.

One agent per seat (`seat_1` … `seat_N`). The referee issues requests in batches; the
seats of a batch (a vote, a night's simultaneous acts) take their turns one by one in seat
order, and the referee acts on the batch only when every answer is in, so no seat ever
sees another's simultaneous choice before making its own: the log the observations are
folded from does not change until the batch is complete.

- Observations: `{"observation": int8 vector, "action_mask": int8 vector}` from the seat's
  own view (`arena.rl.observation`); with `text=True` the seat's chat turn is in
  `infos[agent]["text"]` (`arena.rl.chat`).
- Actions: `Discrete(ACTION_COUNT)` (`arena.rl.codec`). An index outside the mask raises
  `IllegalActionError` naming the legal options and changes nothing: the mask is the
  contract (wrap the env in PettingZoo's `TerminateIllegalWrapper` to penalise instead).
- Rewards: 0 until the game ends, then per seat +1 for the winning side, -1 for every
  other seat, 0 for everyone in a draw (`seat_rewards`).
- Every seat stays an agent until the game ends (the dead still speak last words, shoot,
  pass the badge); then all are terminated together and step out with `None`.
- `opponents` seats any seat spec (`bot`, `random`, `py:…`, …) at the seats the policy
  does not play (`arena.rl.opponents`): the environment answers their requests itself,
  and the agents are the other seats only.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.board_file import board_ref
from arena.rl.chat import SeatChat
from arena.rl.codec import ACTION_COUNT, FIXED_ACTIONS, OPTION_KEY, mask_bytes, to_action
from arena.rl.observation import HIGH, LOW, SIZE, Tracker, question
from arena.rl.opponents import Opponents, Opposition, parse_opponents
from arena.rl.reward import seat_rewards
from arena.rules.boards import Board, PresetName
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ConfigError, IllegalActionError
from arena.rules.events import Event
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import Role, SeatId
from arena.rules.visibility import PublicViewer, SeatViewer
from arena.transcript import Lang, transcript

Observation = dict[str, npt.NDArray[np.int8]]
Last = tuple[Observation, float, bool, bool, dict[str, Any]]
"""What `last` returns: observation, cumulative reward, terminated, truncated, info."""


def agent_name(seat: SeatId) -> str:
    """The PettingZoo name of `seat`: `seat_3`."""
    return f"seat_{seat}"


def seat_of(agent: str) -> SeatId:
    """The seat of agent `seat_3`."""
    return int(agent.removeprefix("seat_"))


class WerewolfEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Werewolf on any board and preset, one agent per seat, seeded."""

    metadata: dict[str, Any] = {
        "name": "werewolf_arena_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        board: str | Board = "std9",
        seed: int | None = None,
        preset: PresetName | None = None,
        lang: Lang = "en",
        *,
        overrides: dict[str, Any] | None = None,
        text: bool = False,
        render_mode: Literal["ansi", "human"] | None = None,
        opponents: Opponents | None = None,
    ) -> None:
        """Make an environment; `reset` deals the first game.

        Args:
            board: what `arena play --board` takes: a built-in board's id, an example
                board's, a board file's path; or a custom `Board`.
            seed: the first game's seed (`reset()` without a seed deals seed, seed+1, …).
            preset: the rules preset (the board's own when None).
            lang: the language of speeches and of the text form.
            overrides: rules knob overrides (`RuleSet`).
            text: also give each seat its chat turn in `infos[agent]["text"]`.
            render_mode: `ansi` returns, `human` prints, the public transcript.
            opponents: who plays the seats the policy does not (`arena.rl.opponents`).

        Raises:
            ConfigError: an unknown board, preset or knob, or bad `opponents`.
        """
        super().__init__()
        ref = board_ref(board) if isinstance(board, str) else board
        try:
            self.config = GameConfig(board=ref, preset=preset, overrides=overrides or {})
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        self.lang: Lang = lang
        self.text = text
        self.render_mode = render_mode
        spec = self.config.board_spec
        self.seats = spec.seats
        self.claimable: tuple[Role, ...] = tuple(r for r in Role if r in set(spec.roles))
        self._seat_agents(opponents)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(LOW, HIGH, (SIZE,), np.int8),
                    "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}
        self._next_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.game_seed: int | None = None
        self.referee: Referee | None = None
        self._tracker = Tracker(range(1, self.seats + 1))
        self._shown: dict[tuple[object, ...], tuple[bytes, bytes]] = {}
        """Question parts and masks kept by request kind, seat and options (`_show`)."""
        self._events: Sequence[Event] = ()
        """The referee's log: the list the referee appends to, read without its property."""
        self._request: DecisionRequest | None = None
        """The selected seat's open request (None before `reset` and once the game is over)."""
        self._asked, self._mask = _NOTHING_ASKED, _NO_ACTIONS

    def _seat_agents(self, opponents: Opponents | None) -> None:
        """The opponents (None when the policy plays every seat) and the policy's agents."""
        specs = parse_opponents(opponents, self.seats) if opponents is not None else {}
        self._opposition = Opposition(specs, self.config, self.lang) if specs else None
        self._opponents = frozenset(specs)
        mine = [s for s in range(1, self.seats + 1) if s not in self._opponents]
        self.possible_agents = [agent_name(s) for s in mine]
        self._seat_of = {agent_name(s): s for s in mine}
        self._name_of = {s: agent_name(s) for s in mine}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same `Dict` space for every seat."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same `Discrete(ACTION_COUNT)` for every seat."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: with `seed`, the referee's game of that seed (as `arena play`)."""
        if seed is not None:
            self._next_seed = seed
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.referee = Referee(self.config, self.game_seed)
        if self._opposition is not None:
            self._opposition.deal(self.game_seed)
        self._events = self.referee.events
        self._tracker.clear()
        self._chats: dict[SeatId, SeatChat] = {}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._queue: list[DecisionRequest] = []
        self._select(self.referee)

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """Yield the selected agent until the game is over and every seat has stepped out.

        PettingZoo's own iterator, as a generator: a generator resumes without making a
        frame, and this runs once a step.
        """
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    @overload
    def last(self, observe: Literal[True] = True) -> Last: ...
    @overload
    def last(self, observe: Literal[False]) -> tuple[None, float, bool, bool, dict[str, Any]]: ...
    def last(self, observe: bool = True) -> Last | tuple[None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's `last`: the selected agent's observation, reward, done flags, info.

        The observation is the one `observe` gives the selected agent, built here inline
        (PettingZoo's `last` calls `observe`: one Python call more on every step).
        """
        agent = self.agent_selection
        if not observe:
            return (
                None,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        tracker = self._tracker
        events = self._events
        if tracker.read != len(events):
            tracker.feed(events)
        own = tracker.own[self._seat_of[agent]]
        both = np.frombuffer(
            bytearray().join((tracker.public, own, self._asked, self._mask)), np.int8
        )
        return (
            {"observation": both[:SIZE], "action_mask": both[SIZE:]},
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> Observation:
        """`agent`'s observation now: its vector and the mask of its open request.

        Both arrays are views of one new buffer (the vector's bytes, then the mask's),
        built by one join: the game never changes an observation handed out.
        """
        if self.referee is None:
            self._game()
        tracker = self._tracker
        events = self._events
        if tracker.read != len(events):
            tracker.feed(events)
        seat = self._seat_of[agent]
        if agent == self.agent_selection:
            asked, mask = self._asked, self._mask
        else:
            request = self._game().request_for(seat)
            asked, mask = (_NOTHING_ASKED, _NO_ACTIONS) if request is None else self._show(request)
        row = bytearray().join((tracker.public, tracker.own[seat], asked, mask))
        both = np.frombuffer(row, np.int8)
        return {"observation": both[:SIZE], "action_mask": both[SIZE:]}

    def step(self, action: int | None) -> None:
        """Answer the selected seat's request with `action` (None once it is terminated).

        Raises:
            IllegalActionError: `action` is not in the seat's action mask (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must answer its request; None is for the done")
        request, referee = self._request, self.referee
        if request is None or referee is None:
            raise IllegalActionError("call reset() before using the environment")
        index = int(action)
        if not 0 <= index < ACTION_COUNT or not self._mask[index]:
            legal = ", ".join(o.action for o in request.options)
            raise IllegalActionError(
                f"action {index} is not legal for {agent} now ({request.kind}; legal: {legal}); "
                "choose among the action mask"
            )
        answer = FIXED_ACTIONS[index]
        if answer is None:
            answer = to_action(index, request, self.lang)
        self._cumulative_rewards[agent] = 0.0
        seat = request.seat
        referee.submit_legal(request, answer)  # legal: `answer` is an index of its mask
        if self.text:
            self._chats[seat].answer(answer)
            self.infos[agent] = {}
        if not self._select(referee):
            self._finish()
            self._accumulate_rewards()  # rewards are 0 until the end: nothing to add before

    def chat(self, agent: str) -> SeatChat | None:
        """`agent`'s chat so far (with `text=True`; None before its first question)."""
        return self._chats.get(seat_of(agent))

    def render(self) -> str | None:
        """The public transcript so far (`ansi`: returned, `human`: printed)."""
        if self.render_mode is None or self.referee is None:
            return None
        lines = "\n".join(transcript(observe(self.referee.events, PublicViewer()), self.lang))
        if self.render_mode == "human":
            print(lines)
            return None
        return lines

    def close(self) -> None:
        """Close the opponents' connections (the game itself lives in memory)."""
        if self._opposition is not None:
            self._opposition.close()

    def _game(self) -> Referee:
        if self.referee is None:
            raise IllegalActionError("call reset() before using the environment")
        return self.referee

    def _show(self, request: DecisionRequest) -> tuple[bytes, bytes]:
        """The question part of the vector for `request`, and its mask, as bytes.

        Kept by what they depend on (`_key`): the same ones come back all game and every
        game (a vote over the same living seats, a night's pick or pass), so most requests
        build neither.
        """
        key = _key(request)
        shown = self._shown.get(key)
        if shown is None:
            if len(self._shown) >= _KNOWN_SHOWN:
                self._shown.clear()
            mask = mask_bytes(request, self.seats, self.claimable)
            shown = self._shown[key] = (question(request), mask)
        return shown

    def _select(self, referee: Referee) -> bool:
        """Hand the turn to the lowest seat of the batch still to answer (False: game over).

        The selected seat's request, its question and its mask are kept (`_request`,
        `_asked`, `_mask`): `observe` and `step` read them instead of looking them up.
        """
        queue, opponents = self._queue, self._opponents
        while True:
            while queue:  # the rest of the current batch, in seat order
                request = queue.pop()
                if referee.request_for(request.seat) is request:
                    break
            else:
                batch = referee.pending()
                if not batch:
                    return False
                request = batch[0]
                self._queue = queue = list(batch[:0:-1])
            if request.seat not in opponents:
                break
            self._answer(referee, request)
        self._request = request
        options = map(OPTION_KEY, request.options)  # `_key(request)`, inline: once a step
        shown = self._shown.get(
            (request.kind, request.context, request.night, request.seat, *options)
        )
        self._asked, self._mask = shown if shown is not None else self._show(request)
        self.agent_selection = self._name_of[request.seat]
        if self.text:
            self._ask_in_text(request)
        return True

    def _answer(self, referee: Referee, request: DecisionRequest) -> None:
        """An opponent's turn: the environment asks it and submits its answer."""
        assert self._opposition is not None
        self._opposition.answer(referee, request)

    def _ask_in_text(self, request: DecisionRequest) -> None:
        referee = self._game()
        chat = self._chats.get(request.seat)
        if chat is None:
            chat = self._chats[request.seat] = SeatChat(self.lang, self.config.rules)
        view = observe(referee.events, SeatViewer(seat=request.seat))
        self.infos[agent_name(request.seat)] = {"text": chat.ask(view, request)}

    def _finish(self) -> None:
        """The game is over: every seat's reward, and every seat done."""
        referee = self._game()
        for seat, reward in seat_rewards(referee.state).items():
            if seat not in self._opponents:
                self.rewards[agent_name(seat)] = reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[0]
        self._request = None
        self._asked, self._mask = _NOTHING_ASKED, _NO_ACTIONS


_NO_ACTIONS = bytes(ACTION_COUNT)
_NOTHING_ASKED = question(None)
_KNOWN_SHOWN = 4096
"""How many distinct masks an environment keeps (about 9 MB); it starts over past that."""


def _key(request: DecisionRequest) -> tuple[object, ...]:
    """What a request's question part and mask depend on, in plain values (on one board).

    Plain tuples hash and compare in C; the options' own models would run Python for each.
    """
    return (
        request.kind,
        request.context,
        request.night,
        request.seat,
        *map(OPTION_KEY, request.options),
    )
