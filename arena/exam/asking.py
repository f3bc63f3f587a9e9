"""Asking one moment's items of one seat, through the contract games use.

A decision item is asked with the match runner's own `decide` (`arena.match`): the same
re-asks with the referee's reason as feedback, the same time limits, the same recorded
default after the last refusal. A belief item is the runner's belief question
(`Believer.believe`), in the runner's order: before the vote for an agent that reports
separately, with the vote for one that folds its report into the vote (a model seat with
daily beliefs), and asked after the vote only if that report was missing. A role item
asks a `RoleGuesser`, or reads the guess off the belief report (`arena.exam.guess`).
Every call's trace is kept with its answer, as a game's replay keeps it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from arena.agents.base import Agent, BeliefFolder, Believer, RoleGuesser, TimeLimited
from arena.agents.traits import trait
from arena.exam.answers import ItemAnswer
from arena.exam.guess import from_beliefs
from arena.exam.items import DECISIONS, Item
from arena.llm.types import ModelCallRecord
from arena.match import Limits, ask_belief, decide, limit_of, now, timed_call
from arena.records import BeliefReport, RoleGuess
from arena.rules.types import Role

NO_REPORT = "no belief report"
NO_GUESS = "no role guess"


async def ask_moment(agent: Agent, items: Sequence[Item], limits: Limits) -> list[ItemAnswer]:
    """Every item of one moment (one seat, one step), asked of `agent` in the runner's order."""
    deadline = now() + limits.game_timeout_s
    decision = next((i for i in items if i.kind in DECISIONS), None)
    belief = next((i for i in items if i.kind == "belief"), None)
    role = next((i for i in items if i.kind == "role"), None)
    answers: list[ItemAnswer] = []
    report: BeliefReport | None = None
    folds = decision is not None and decision.kind == "vote" and _folds(agent)
    if belief is not None and not folds:
        report, answer = await belief_answer(agent, belief, limits, deadline)
        answers.append(answer)
    if decision is not None:
        answer, folded = await ask_decision(agent, decision, limits, deadline)
        answers.append(answer)
        if belief is not None and folds:
            report, answer = await _folded_belief(agent, belief, folded, limits, deadline)
            answers.append(answer)
    if role is not None:
        answers.append(await ask_roles(agent, role, report, limits, deadline))
    return answers


def _folds(agent: Agent) -> bool:
    folder = trait(agent, BeliefFolder)  # a noisy model seat folds as its model seat does
    return folder is not None and bool(folder.folds_beliefs)


async def ask_decision(
    agent: Agent, item: Item, limits: Limits, deadline: float
) -> tuple[ItemAnswer, BeliefReport | None]:
    """A decision item's answer, and a belief report that came with it (a folded vote)."""
    assert item.request is not None
    started = time.perf_counter()
    outcome, replies = await decide(agent, item.view, item.request, limits, deadline)
    calls = [c for r in replies for c in r.calls] + _pending(agent)
    folded = next((r.belief for r in reversed(replies) if r.belief is not None), None)
    answer = ItemAnswer(
        item=item.id,
        action=outcome.action,
        defaulted=outcome.defaulted,
        tries=len(replies),
        seconds=time.perf_counter() - started,
        calls=tuple(calls),
    )
    return answer, folded


async def _folded_belief(
    agent: Agent, item: Item, folded: BeliefReport | None, limits: Limits, deadline: float
) -> tuple[BeliefReport | None, ItemAnswer]:
    """The report that came with the vote, else the runner's fallback question now."""
    if folded is None:
        return await belief_answer(agent, item, limits, deadline)
    beliefs = _beliefs(folded, item)
    answer = ItemAnswer(item=item.id, beliefs=beliefs, defaulted=None if beliefs else NO_REPORT)
    return folded, answer  # its call is the vote's, recorded with the vote's answer


async def belief_answer(
    agent: Agent, item: Item, limits: Limits, deadline: float
) -> tuple[BeliefReport | None, ItemAnswer]:
    """A belief item's answer: the agent's report on the seats asked, or why none came."""
    started = time.perf_counter()
    believes = trait(agent, Believer) is not None
    report = await ask_belief(agent, item.view, limits, deadline) if believes else None
    calls = (*(report.calls if report is not None else ()), *_pending(agent))
    beliefs = _beliefs(report, item) if report is not None else None
    answer = ItemAnswer(
        item=item.id,
        beliefs=beliefs,
        defaulted=None if beliefs else NO_REPORT,
        tries=int(believes),
        seconds=time.perf_counter() - started,
        calls=calls,
    )
    return report, answer


def _beliefs(report: BeliefReport, item: Item) -> dict[int, float] | None:
    """The report's probabilities on the seats asked (None when it covers none of them)."""
    found = {s: p for s, p in report.wolf_probability.items() if s in item.asked and 0 <= p <= 1}
    return found or None


async def ask_roles(
    agent: Agent, item: Item, report: BeliefReport | None, limits: Limits, deadline: float
) -> ItemAnswer:
    """A role item's answer: the agent's guess, else one read off its belief report."""
    started = time.perf_counter()
    guess: RoleGuess | None = None
    derived = False
    guesser = trait(agent, RoleGuesser)
    if guesser is not None:
        guess = await _guess(guesser, item, limits, deadline)
    elif trait(agent, Believer) is not None:
        if report is None:
            report = await ask_belief(agent, item.view, limits, deadline)
        guess = from_beliefs(item.view, item.asked, report) if report is not None else None
        derived = True
    calls = (*(guess.calls if guess is not None else ()), *_pending(agent))
    roles = _roles(guess, item) if guess is not None else None
    return ItemAnswer(
        item=item.id,
        roles=roles,
        defaulted=None if roles else NO_GUESS,
        derived=derived and roles is not None,
        tries=int(guesser is not None or trait(agent, Believer) is not None),
        seconds=time.perf_counter() - started,
        calls=calls,
    )


async def _guess(
    agent: RoleGuesser, item: Item, limits: Limits, deadline: float
) -> RoleGuess | None:
    """The agent's own guess within its time limit, or None."""
    try:
        guess = await timed_call(
            agent,  # type: ignore[arg-type]
            lambda: agent.guess_roles(item.view, item.asked),
            limit_of(agent, limits),  # type: ignore[arg-type]
            deadline,
        )
    except Exception:  # as a belief question: no guess, never the sitting's end
        return None
    return guess if isinstance(guess, RoleGuess) and guess.seat == item.seat else None


def _roles(guess: RoleGuess, item: Item) -> dict[int, Role] | None:
    """The guesses on the seats asked, each one of the board's cards (None: none usable)."""
    cards = item.view.knowledge.role_counts
    found = {s: r for s, r in guess.roles.items() if s in item.asked and r in cards}
    return found or None


def _pending(agent: Agent) -> list[ModelCallRecord]:
    """Calls a time limit cut off, or a failed question's, that no answer carries."""
    timed = trait(agent, TimeLimited)
    return list(timed.pending_traces()) if timed is not None else []
