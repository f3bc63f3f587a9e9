"""Seat agent labels tell the sides apart: non-god views show them only at a finished game's end."""

from __future__ import annotations

from pathlib import Path

from arena.dashboard.loading import load
from arena.dashboard.projection import project
from arena.rules.types import Team
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, TeamViewer
from tests.dashboard.games import make_game


def test_labels_are_hidden_from_non_god_views_until_the_game_ends(tmp_path: Path) -> None:
    game = load(make_game(tmp_path / "g.jsonl", seed=5, board="std9"))
    header = game.replay.header.model_copy(update={"result": None})
    live = game.__class__(
        replay=game.replay.model_copy(update={"header": header}),
        trace_steps=game.trace_steps,
    )
    step = len(game.replay.events) // 2
    for viewer in (PublicViewer(), SeatViewer(seat=2), TeamViewer(team=Team.WOLF)):
        cards = project(live, viewer, step, "en").seats
        assert {c.player for c in cards} == {""}, viewer
        assert {c.player for c in project(game, viewer, step, "en").seats} == {""}, viewer
        end = len(game.replay.events)
        assert "" not in {c.player for c in project(game, viewer, end, "en").seats}
    assert "" not in {c.player for c in project(live, GodViewer(), step, "en").seats}
