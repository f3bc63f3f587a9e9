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
"""

from __future__ import annotations

import random
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.board_file import board_ref
from arena.rl.chat import SeatChat
from arena.rl.codec import ACTION_COUNT, legal_mask, mask_key, to_action
from arena.rl.observation import HIGH, LOW, SIZE, Tracker
from arena.rl.reward import seat_rewards
from arena.rules.boards import Board, PresetName
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ConfigError, IllegalActionError
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import Role, SeatId
from arena.rules.visibility import PublicViewer, SeatViewer
from arena.transcript import Lang, transcript

Observation = dict[str, npt.NDArray[np.int8]]


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

        Raises:
            ConfigError: an unknown board, preset or knob.
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
        self.possible_agents = [agent_name(s) for s in range(1, self.seats + 1)]
        self._seat_of = {agent_name(s): s for s in range(1, self.seats + 1)}
        self._name_of = dict(enumerate(self.possible_agents, start=1))
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
        self._known_masks: dict[tuple[object, ...], npt.NDArray[np.int8]] = {}

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
        self._tracker.clear()
        self._chats: dict[SeatId, SeatChat] = {}
        self._shown: tuple[DecisionRequest, npt.NDArray[np.int8]] | None = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._queue: list[SeatId] = []
        self._step = -1
        self._select()

    def observe(self, agent: str) -> Observation:
        """`agent`'s observation now: its vector and the mask of its open request."""
        referee = self.referee if self.referee is not None else self._game()
        seat = self._seat_of[agent]
        tracker = self._tracker
        events = referee.events
        if tracker.read != len(events):
            tracker.feed(events)
        request = referee.request_for(seat)
        if request is None:
            return {"observation": tracker.vector(seat, None), "action_mask": _NO_ACTIONS.copy()}
        return {
            "observation": tracker.vector(seat, request),
            "action_mask": self._mask(request).copy(),
        }

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
        referee = self.referee if self.referee is not None else self._game()
        seat = self._seat_of[agent]
        request = referee.request_for(seat)
        assert request is not None
        index = int(action)
        if not 0 <= index < ACTION_COUNT or not self._mask(request)[index]:
            legal = ", ".join(o.action for o in request.options)
            raise IllegalActionError(
                f"action {index} is not legal for {agent} now ({request.kind}; legal: {legal}); "
                "choose among the action mask"
            )
        answer = to_action(index, request, self.lang)
        self._cumulative_rewards[agent] = 0.0
        referee.submit(seat, answer)
        if seat in self._chats:
            self._chats[seat].answer(answer)
            self.infos[agent] = {}
        if referee.finished:
            self._finish()
            self._accumulate_rewards()  # rewards are 0 until the end: nothing to add before
        else:
            self._select()

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
        """Nothing to release: the game lives in memory."""

    def _game(self) -> Referee:
        if self.referee is None:
            raise IllegalActionError("call reset() before using the environment")
        return self.referee

    def _mask(self, request: DecisionRequest) -> npt.NDArray[np.int8]:
        """The mask of `request` (the env's own: never handed out uncopied).

        Looked up once a step (`observe`, then `step`), from masks kept by seat and
        options: the same ones come back all game and every game (a vote over the same
        living seats, a night's pick or pass), so most steps build none.
        """
        shown = self._shown
        if shown is not None and shown[0] is request:
            return shown[1]
        key = mask_key(request)
        mask = self._known_masks.get(key)
        if mask is None:
            if len(self._known_masks) >= _KNOWN_MASKS:
                self._known_masks.clear()
            mask = self._known_masks[key] = legal_mask(request, self.seats, self.claimable)
        self._shown = (request, mask)
        return mask

    def _select(self) -> None:
        """Hand the turn to the lowest seat of the batch still to answer."""
        referee = self.referee if self.referee is not None else self._game()
        while self._queue:  # the rest of the current batch, in seat order
            request = referee.request_for(self._queue.pop())
            if request is not None and request.step == self._step:
                break
        else:
            batch = referee.pending()
            request, self._step = batch[0], batch[0].step
            self._queue = [r.seat for r in reversed(batch[1:])]
        self.agent_selection = self._name_of[request.seat]
        if self.text:
            self._ask_in_text(request)

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
            self.rewards[agent_name(seat)] = reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[0]


_NO_ACTIONS = np.zeros(ACTION_COUNT, dtype=np.int8)
_KNOWN_MASKS = 4096
"""How many distinct masks an environment keeps (about 9 MB); it starts over past that."""
