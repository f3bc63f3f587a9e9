"""A seat's capabilities are declared and found through any wrapper, never guessed."""

from __future__ import annotations

from arena.agents.base import Believer, Gated, TimeLimited
from arena.agents.bot.agent import BotAgent
from arena.agents.delayed import Delayed
from arena.agents.noisy import Noisy
from arena.agents.random_agent import RandomAgent
from arena.agents.slots import LocalGate, Throttled
from arena.agents.traits import ModelSeat, Wrapper, layers, trait
from arena.humans.pace import PacedTimed, Pacer, paced
from arena.storage.desk import Pace
from tests.test_prepare import FakeEndpoint, ModelSeatAgent


class Timed(RandomAgent):
    """A random player with a time limit of its own."""

    decision_timeout_s = 7.0

    def pending_traces(self) -> tuple[()]:
        return ()


def test_a_capability_is_found_through_every_wrapper() -> None:
    bot = BotAgent(1)
    wrapped = Throttled(Noisy(Delayed(bot, 0.0), 0.5, 1, "noisy:0.5:bot"), LocalGate(1))
    assert list(layers(wrapped))[-1] is bot
    assert trait(wrapped, Believer) is bot and trait(wrapped, Gated) is wrapped
    assert trait(RandomAgent(1), Believer) is None


def test_a_wrapper_keeps_no_capability_its_seat_lacks() -> None:
    """No attribute forwarding: a wrapped random player does not pass for a believer."""
    for wrapper in (Delayed(RandomAgent(1), 0.0), Noisy(RandomAgent(1), 0.5, 1, "n")):
        assert isinstance(wrapper, Wrapper)
        assert not isinstance(wrapper, Believer) and trait(wrapper, Believer) is None


def test_a_model_seat_is_known_by_its_declared_chat_model() -> None:
    chat = FakeEndpoint()
    seat = Delayed(ModelSeatAgent(3, chat), 0.0)
    found = trait(seat, ModelSeat)
    assert found is not None and found.chat is chat


def test_a_wrapper_that_changes_a_capability_is_found_before_its_seat() -> None:
    pacer = Pacer(Pace(night_s=0.0, step_s=1.0, window_s=2.0))
    seat = paced(Delayed(Timed(1), 0.0), pacer)
    assert isinstance(seat, PacedTimed)
    timed = trait(seat, TimeLimited)
    assert timed is seat and timed.decision_timeout_s == 7.0 + pacer.pace.longest_hold_s
    assert trait(paced(RandomAgent(1), pacer), TimeLimited) is None
