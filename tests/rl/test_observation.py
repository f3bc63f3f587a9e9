"""The observation vector holds what the seat's `observe` projection holds, and no more."""

import numpy as np
import pytest

import arena.rl
from arena.board_file import example_boards
from arena.rl.environment import WerewolfEnv, seat_of
from arena.rl.observation import CONTEXTS, DECISIONS, PHASES, ROLES, Tracker, fields
from arena.rules.boards import BOARDS
from arena.rules.observation import observe
from arena.rules.visibility import SeatViewer
from tests.rl.play import play


def _check_against_know(env: WerewolfEnv, agent: str) -> None:
    seat = seat_of(agent)
    k = observe(env.referee.events, SeatViewer(seat=seat)).knowledge
    f = fields(env.observe(agent)["observation"])
    assert list(np.flatnonzero(f["me"]) + 1) == [seat]
    assert list(np.flatnonzero(f["seats"]) + 1) == list(range(1, k.seats + 1))
    assert tuple(np.flatnonzero(f["out"]) + 1) == k.out
    assert list(np.flatnonzero(f["sheriff"]) + 1) == ([k.sheriff] if k.sheriff else [])
    assert int(f["day"][0]) == k.day
    assert [PHASES[i] for i in np.flatnonzero(f["phase"])] == ([k.phase] if k.phase else [])
    own = [ROLES[i] for i in np.flatnonzero(f["role"])]
    assert own == ([k.own_role] if k.own_role else [])
    known = {int(s) + 1: ROLES[int(r)] for s, r in zip(*np.nonzero(f["known_roles"]), strict=True)}
    assert known == k.roles
    checks = {int(s) + 1: bool(f["checks"][s] > 0) for s in np.flatnonzero(f["checks"])}
    assert checks == k.checks
    assert tuple(np.flatnonzero(f["lovers"]) + 1) == k.lovers
    wolf = {1: True, -1: False, 0: None}[int(f["partner_wolf"][0])]
    assert wolf == k.partner_is_wolf
    assert bool(f["potions"][0]) == k.antidote_used and bool(f["potions"][1]) == k.poison_used
    request = env.referee.request_for(seat)
    assert request is not None
    assert [DECISIONS[i] for i in np.flatnonzero(f["decision"])] == [request.kind]
    context = [CONTEXTS[i] for i in np.flatnonzero(f["context"])]
    assert context == ([request.context] if request.context else [])


@pytest.mark.parametrize("board", [*BOARDS, *example_boards()])
def test_the_vector_agrees_with_know_at_every_step(board: str) -> None:
    for seed in (1, 2):
        play(arena.rl.env(board=board), seed, probe=_check_against_know)


def test_simultaneous_choices_are_not_seen_before_ones_own() -> None:
    """Within a batch (a vote, a night), every seat's observation is what it was at its start."""
    env = arena.rl.env(board="wwk_guard")
    seen_batches = 0
    start: dict[str, np.ndarray] = {}
    step = [-1]

    def probe(env: WerewolfEnv, agent: str) -> None:
        nonlocal seen_batches
        request = env.referee.request_for(seat_of(agent))
        assert request is not None
        if request.step != step[0]:
            step[0] = request.step
            pending = env.referee.pending()
            start.clear()
            for r in pending:
                start[f"seat_{r.seat}"] = env.observe(f"seat_{r.seat}")["observation"]
            seen_batches += len(pending) > 1
        assert np.array_equal(env.observe(agent)["observation"], start[agent])

    for seed in range(4):
        step[0] = -1
        play(env, seed, probe=probe)
    assert seen_batches > 10


def test_the_last_observation_asks_nothing() -> None:
    env = arena.rl.env(board="std9")
    play(env, 4)
    env.reset(seed=4)
    f = fields(env.observe("seat_1")["observation"])
    assert f["me"][0] == 1


@pytest.mark.parametrize("board", ["wwk_guard", "std9", "cupid12", "classic_thief_elder12"])
def test_the_incremental_vector_is_the_one_folded_from_scratch(board: str) -> None:
    """Folded event by event as the game goes (and across resets), each vector equals a
    fresh fold of the seat's own `observe` projection; a vector handed out never changes."""
    env = arena.rl.env(board=example_boards().get(board, board))
    handed: list[tuple[np.ndarray, np.ndarray]] = []

    def probe(env: WerewolfEnv, agent: str) -> None:
        seat = seat_of(agent)
        vector = env.observe(agent)["observation"]
        fresh = Tracker((seat,))
        fresh.feed(observe(env.referee.events, SeatViewer(seat=seat)).events)
        assert np.array_equal(vector, fresh.vector(seat, env.referee.request_for(seat)))
        handed.append((vector, vector.copy()))

    for seed in range(3):
        play(env, seed, probe=probe)
    assert len(handed) > 100
    assert all(np.array_equal(given, kept) for given, kept in handed)


@pytest.mark.parametrize("board", ["wwk_guard", "cupid12"])
def test_last_shows_what_observe_shows(board: str) -> None:
    """`last` builds the selected seat's observation itself (inline, once a step): it is
    the one `observe` gives, writable, and later steps never change it."""
    env = arena.rl.env(board=example_boards().get(board, board))
    handed: list[tuple[np.ndarray, np.ndarray]] = []

    def probe(env: WerewolfEnv, agent: str) -> None:
        shown, *rest = env.last()
        assert env.last(observe=False) == (None, *rest)
        seen = env.observe(agent)
        for key in ("observation", "action_mask"):
            assert np.array_equal(shown[key], seen[key])
            assert shown[key].dtype == np.int8 and shown[key].flags.writeable
            handed.append((shown[key], shown[key].copy()))

    for seed in range(2):
        play(env, seed, probe=probe)
    assert len(handed) > 100
    assert all(np.array_equal(given, kept) for given, kept in handed)
