"""`observe` is the one projection: what each viewer sees, and nothing more."""

from __future__ import annotations

import random

from arena.agents.random_agent import random_action
from arena.rules import events as ev
from arena.rules.actions import Whisper
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import Team
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, TeamViewer
from arena.transcript import transcript


def _game_with_marked_whispers(seed: int) -> Referee:
    rng = random.Random(seed)
    referee = Referee(GameConfig(board="wwk_guard"), seed)
    while not referee.finished:
        for request in referee.pending():
            if request.kind is DecisionKind.WOLF_TALK:
                action = Whisper(text=f"MARKER-{request.seat}-{request.step}")
            else:
                action = random_action(request, rng)
            referee.submit(request.seat, action)
    return referee


def test_wolf_talk_reaches_only_wolves_and_god() -> None:
    referee = _game_with_marked_whispers(3)
    wolves = set(referee.state.wolves(living=False))
    for seat in referee.state.all_seats:
        text = "\n".join(transcript(observe(referee.events, SeatViewer(seat=seat)), "en"))
        assert ("MARKER-" in text) == (seat in wolves), seat
    assert "MARKER-" in "\n".join(transcript(observe(referee.events, GodViewer())))
    assert "MARKER-" in "\n".join(transcript(observe(referee.events, TeamViewer(team=Team.WOLF))))
    assert "MARKER-" not in "\n".join(transcript(observe(referee.events, PublicViewer())))


def test_a_view_cut_at_a_step_holds_nothing_later() -> None:
    referee = _game_with_marked_whispers(4)
    for until in (0, 10, 50, len(referee.events)):
        view = observe(referee.events, SeatViewer(seat=1), until=until)
        assert all(s.seq < until for s in view.seen)
        assert view.log_length == until


def test_knowledge_is_what_the_seat_can_conclude() -> None:
    referee = _game_with_marked_whispers(5)
    state = referee.state
    end = next(i for i, e in enumerate(referee.events) if isinstance(e, ev.GameEnded))
    for seat in state.all_seats:
        know = observe(referee.events, SeatViewer(seat=seat), until=end).knowledge
        assert know.own_role is state.role(seat)
        assert know.seats == 12 and know.board == "wwk_guard"
        if seat in state.wolves(living=False):
            assert set(state.wolves(living=False)) <= set(know.roles)
    final = observe(referee.events, PublicViewer()).knowledge
    assert final.winner is referee.winner
    assert final.roles == dict(enumerate(state.roles, start=1))  # all cards turned at the end


def test_the_incremental_projector_equals_observe_at_every_step() -> None:
    from arena.rules.observation import Projector

    referee = _game_with_marked_whispers(6)
    log: list = []
    projectors = {s: Projector(log, SeatViewer(seat=s)) for s in referee.state.all_seats}
    for event in referee.events:
        log.append(event)
        for seat, projector in projectors.items():
            if len(log) % 7 == 0 or seat == 1:
                assert projector.observe() == observe(log, SeatViewer(seat=seat))
