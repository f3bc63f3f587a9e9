"""The public agent API: every name an agent written outside the arena may rely on.

Import from here, not from the modules these live in (they may move)::

    from arena.api import AgentReply, DecisionRequest, Observation, actions

The names and their meaning are versioned by `CONTRACT_VERSION` (docs/agents.md): a
change that can break an agent raises it; additions (decision kinds, action kinds,
event kinds, optional fields) do not.
"""

from __future__ import annotations

from arena.agents.base import (
    CONTRACT_VERSION,
    Agent,
    AgentReply,
    Believer,
    Learner,
    RoleGuesser,
)
from arena.agents.stock import make_bot, make_random, random_answer
from arena.records import BeliefReport, RoleGuess
from arena.rules import actions, events
from arena.rules.actions import Action, parse_action
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError, InvalidActionError
from arena.rules.observation import Knowledge, Observation, Seen
from arena.rules.outcome import GameOver
from arena.rules.types import Role, Side, Winner
from arena.text.script import AgentLang

__all__ = [
    "CONTRACT_VERSION",
    "Action",
    "ActionOption",
    "Agent",
    "AgentLang",
    "AgentReply",
    "BeliefReport",
    "Believer",
    "DecisionKind",
    "DecisionRequest",
    "GameOver",
    "IllegalActionError",
    "InvalidActionError",
    "Knowledge",
    "Learner",
    "Observation",
    "Role",
    "RoleGuess",
    "RoleGuesser",
    "Seen",
    "Side",
    "Winner",
    "actions",
    "check_legal",
    "events",
    "make_bot",
    "make_random",
    "parse_action",
    "random_answer",
]
