"""`BotAgent`: the scripted player — fast, deterministic, and playing by the information rules.

The bot is the arena's reference agent, the embedded default of `arena play` and the
workhorse of tests and benchmarks. Three properties matter more than its strength:

- **Honest.** It decides from the `Observation` it is handed (its own seat's view) and the
  `DecisionRequest`, nothing else: no `GameState`, no full log, no state shared between
  seats. Its judgement (`arena.agents.bot.beliefs`) is a fold over that view only.
- **Deterministic and stateless.** Every random choice comes from a `random.Random` keyed
  by the bot's seed and the decision (`arena.agents.bot.chance`), so the same seed, view
  and request always give the same answer — across processes, and for a fresh bot that
  takes over a resumed game. The only thing kept between calls is a memo of the fold of
  its last view (`Ledger`), reused when the next view extends it: it saves time, never
  changes an answer.
- **Credible.** It plays the table's common lines: the seer claims and reports her checks,
  the witch saves early and poisons a seat she is sure of, the guard protects the seer he
  believes, wolves agree on the knife in their channel and sometimes fake the seer, good
  seats weigh claims, checks and votes; the knight duels a seat he is nearly sure of, the
  wolf beauty charms the believed seer, the dreamweaver shields him and never dreams a seat
  twice running; the watchman and the coroner report their results as the seer does once
  they help; see the modules of `arena.agents.bot`.
"""

from __future__ import annotations

from arena.agents.base import AgentReply
from arena.agents.bot.beliefs import own_outlook, wolf_probabilities
from arena.agents.bot.chance import dice
from arena.agents.bot.handlers import HANDLERS, Turn
from arena.agents.bot.reading import Ledger, Reading, read
from arena.errors import ArenaError
from arena.records import BeliefReport
from arena.rules.actions import Action
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.text import Lang

LANGS: tuple[Lang, ...] = ("zh", "en")


class BotAgent:
    """A scripted Werewolf player, reproducible from its seed."""

    def __init__(self, seed: int = 0, lang: Lang = "zh") -> None:
        """Create a bot.

        Args:
            seed: Seeds every random choice; give each seat its own.
            lang: Language of its speeches and wolf talk: `zh` (default) or `en`.

        Raises:
            ArenaError: `lang` is not a supported language.
        """
        if lang not in LANGS:
            raise ArenaError(f"unknown bot language {lang!r}; use one of: {', '.join(LANGS)}")
        self.seed = seed
        self.lang: Lang = lang
        self._ledger: Ledger | None = None

    @property
    def name(self) -> str:
        """`bot`."""
        return "bot"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Answer `request` from `view`; after a rejected answer, the request's default.

        A bot is deterministic, so asking again would repeat a rejected answer; feedback
        therefore means something unforeseen, and the documented passive default is safest.
        """
        if feedback is not None:
            return AgentReply(action=request.default)
        try:
            reading, self._ledger = read(view, self._ledger)
        except ValueError as exc:
            return AgentReply(action=None, error=str(exc))
        if reading.me != request.seat:
            return AgentReply(
                action=None,
                error=f"view of seat {reading.me} cannot answer for seat {request.seat}",
            )
        return AgentReply(action=self.choose(reading, request))

    def choose(self, r: Reading, request: DecisionRequest) -> Action:
        """The bot's action for `request`, given its reading of its own view.

        Its handler in `HANDLERS`, with the decision's own dice; a kind without one (none
        today) gets the request's default.
        """
        handler = HANDLERS.get(request.kind)
        if handler is None:
            return request.default
        rng = dice(self.seed, request.kind, request.day, request.night, request.step)
        return handler(Turn(r, request, rng, self.seed, self.lang))

    async def believe(self, view: Observation) -> BeliefReport | None:
        """The bot's suspicion of every other present seat (a wolf knows its team exactly)."""
        try:
            r, self._ledger = read(view, self._ledger)
        except ValueError:
            return None
        p = wolf_probabilities(r, own_outlook(r))
        return BeliefReport(
            seat=r.me,
            day=view.knowledge.day,
            after_seq=view.log_length,
            wolf_probability={s: round(p[s], 4) for s in r.others()},
        )
