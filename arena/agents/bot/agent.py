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
from arena.agents.bot import day, night, speech, wolves
from arena.agents.bot.beliefs import own_outlook, wolf_probabilities
from arena.agents.bot.chance import dice
from arena.agents.bot.reading import Ledger, Reading, read
from arena.records import BeliefReport
from arena.rules.actions import Action, Pass
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.errors import ArenaError
from arena.rules.observation import Observation
from arena.rules.types import Role
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
        """The bot's action for `request`, given its reading of its own view."""
        rng = dice(self.seed, request.kind, request.day, request.night, request.step)
        match request.kind:
            case DecisionKind.RUN_FOR_SHERIFF:
                return day.run_for_sheriff(r, request, rng)
            case DecisionKind.WITHDRAW:
                return day.withdraw(r, request, self.seed, rng)
            case DecisionKind.SHERIFF_VOTE:
                return day.sheriff_vote(r, request, rng)
            case DecisionKind.SPEECH:
                skill = wolves.explosion(r, request, self.seed) or day.duel(r, request)
                return skill or speech.speak(r, request, rng, self.lang)
            case DecisionKind.INTERRUPT:
                return wolves.explosion(r, request, self.seed) or day.duel(r, request) or Pass()
            case DecisionKind.SPEECH_ORDER:
                return day.speech_order(r, request, rng)
            case DecisionKind.RECOMMEND:
                return day.recommend(r, request, rng)
            case DecisionKind.VOTE:
                return day.vote(r, request, rng)
            case DecisionKind.SHOOT:
                return day.shoot(r, request, rng)
            case DecisionKind.BADGE:
                return day.badge(r, request, rng)
            case DecisionKind.GUARD:
                return night.guard(r, request, rng)
            case DecisionKind.WOLF_TALK:
                return night.whisper(r, request, self.seed, rng, self.lang)
            case DecisionKind.KNIFE:
                return night.knife(r, request, rng)
            case DecisionKind.WITCH:
                return night.witch(r, request, rng)
            case DecisionKind.SEER:
                return night.seer(r, request, rng)
            case DecisionKind.CHARM:
                return night.charm(r, request, rng)
            case DecisionKind.DREAM:
                return night.dream(r, request, rng)
            case DecisionKind.FEAR:
                return night.fear(r, request, rng)
            case DecisionKind.HUNT:
                return night.hunt(r, request, rng)
            case DecisionKind.IDENTIFY if r.role is Role.PURE_WHITE_MAIDEN:
                return night.seer(r, request, rng)
            case DecisionKind.IDENTIFY:
                return night.identify(r, request, rng)
            case DecisionKind.BLOCK:
                return night.block(r, request, rng)
            case DecisionKind.PRINCE:
                return day.prince(r, request)
            case DecisionKind.SWAP:
                return night.swap(r, request, rng)
            case DecisionKind.MIST:
                return night.mist(r, request, rng)
            case DecisionKind.SNAKE:
                return night.witch(r, request, rng)  # the snake saves like the antidote
            case DecisionKind.CLAW:
                return night.claw(r, request, rng)
            case DecisionKind.TRADE:
                return night.trade(r, request, rng)
            case DecisionKind.LUCKY:
                return night.lucky(r, request, rng)
            case DecisionKind.ADMIRE:
                return night.admire(r, request, rng)
            case DecisionKind.CONFUSE:
                return night.confuse(r, request, rng)
            case DecisionKind.PUFFER:
                return day.puffer(r, request)
            case DecisionKind.MASK:
                return night.mask(r, request, rng)
            case DecisionKind.HEAL:
                return night.heal(r, request, rng)
            case DecisionKind.WATCH:
                return night.watch(r, request, rng)
            case DecisionKind.AUTOPSY:
                return night.autopsy(r, request, rng)
            case DecisionKind.THIEF:
                return night.take_card(r, request, rng)
            case DecisionKind.CUPID:
                return night.cupid(r, request, rng)
        return request.default

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
