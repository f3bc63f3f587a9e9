from __future__ import annotations

from pathlib import Path

import pytest

from arena.agents.base import BeliefReport
from arena.dashboard.i18n import reason_label, t, winner_label
from arena.dashboard.loading import Loaded, load
from arena.dashboard.projection import project, public_phases
from arena.llm.types import ChatMessage, ModelCallRecord
from arena.rules import events as ev
from arena.rules.roles import team_of
from arena.rules.types import Phase, Role, Team
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, TeamViewer, Viewer
from arena.storage.calls import MISSING, Compactor
from arena.storage.replay_lines import belief_line, trace_line
from tests.dashboard.conftest import MARKED
from tests.dashboard.leaks import leaks, marker_count

VIEWERS: list[Viewer] = [
    PublicViewer(),
    TeamViewer(team=Team.WOLF),
    *(SeatViewer(seat=n) for n in range(1, 13)),
]


@pytest.fixture(scope="module")
def game(replay_dir: Path) -> Loaded:
    return load(replay_dir / MARKED)


def test_the_marker_game_has_whispers_checks_traces_and_beliefs(game: Loaded) -> None:
    kinds = {type(e) for e in game.replay.events}
    assert {ev.WolfWhispered, ev.SeerChecked, ev.VoteCast, ev.Spoke} <= kinds
    assert game.replay.traces and game.replay.beliefs
    assert len(game.trace_steps) == len(game.replay.traces)
    assert marker_count(game) > 200


@pytest.mark.parametrize("viewer", VIEWERS, ids=lambda v: repr(v))
def test_no_projection_holds_what_its_viewer_may_not_see(game: Loaded, viewer: Viewer) -> None:
    for step in range(0, len(game.replay.events) + 1, 4):
        view = project(game, viewer, step, "en")
        leaked = leaks(repr(view), game, viewer, step)
        assert not leaked, (step, leaked[:3])
        assert view.traces == () and view.beliefs == ()


def test_god_view_has_traces_and_beliefs_only_up_to_the_step(game: Loaded) -> None:
    total = len(game.replay.events)
    end = project(game, GodViewer(), total, "en")
    assert len(end.traces) == len(game.replay.traces)
    assert len({(b.seat, b.after_step) for b in end.beliefs}) == len(game.replay.beliefs)
    middle = total // 2
    half = project(game, GodViewer(), middle, "en")
    assert 0 < len(half.traces) < len(end.traces)
    assert all(b.after_step <= middle for b in half.beliefs)
    assert not leaks(repr(half), game, GodViewer(), middle)


def test_seat_board_shows_only_known_roles(game: Loaded) -> None:
    dealt = next(e for e in game.replay.events if isinstance(e, ev.RolesDealt)).roles
    villager = dealt.index(Role.VILLAGER) + 1
    wolves = [n for n, r in enumerate(dealt, 1) if team_of(r) is Team.WOLF]
    first_day = next(
        i
        for i, e in enumerate(game.replay.events)
        if isinstance(e, ev.PhaseStarted) and e.phase is not Phase.NIGHT
    )
    for step in (first_day, len(game.replay.events) // 2):
        view = project(game, SeatViewer(seat=villager), step, "en")
        shown = {c.seat: c.role for c in view.seats if c.role is not None}
        assert shown == view.observation.knowledge.roles
        assert shown[villager] is Role.VILLAGER
    early = {c.seat: c for c in project(game, SeatViewer(seat=villager), first_day, "en").seats}
    assert all(early[w].role is None for w in wolves) and early[villager].is_viewer
    wolf_view = {
        c.seat: c for c in project(game, TeamViewer(team=Team.WOLF), first_day, "en").seats
    }
    assert [w for w in wolves if wolf_view[w].role is not None] == wolves
    god = {c.seat: c.role for c in project(game, GodViewer(), first_day, "en").seats}
    assert list(god.values()) == list(dealt)


def test_step_is_clamped_and_facts_hide_seed_and_result(game: Loaded) -> None:
    total = len(game.replay.events)
    assert project(game, PublicViewer(), total + 50, "en").step == total
    assert project(game, PublicViewer(), -5, "en").step == 0
    public_facts = dict(project(game, PublicViewer(), total, "en").facts)
    god_facts = dict(project(game, GodViewer(), total, "en").facts)
    assert "seed" not in public_facts and "result" not in public_facts
    assert god_facts["seed"] == "3" and "result" in god_facts
    assert public_facts["tournament"] == "cup-1"
    reason = game.replay.header.result.reason  # type: ignore[union-attr]
    for lang in ("zh-Hans", "en"):  # was "wolves — every wolf is dead" on every page
        result = dict(project(game, GodViewer(), total, lang).facts)[t("fact_result", lang)]
        winner = game.replay.header.result.winner.value  # type: ignore[union-attr]
        assert result == f"{winner_label(winner, lang)} — {reason_label(reason, lang)}"
        assert (lang == "en") != any("\u4e00" <= c <= "\u9fff" for c in result), result


def test_public_phases_label_the_timeline_in_both_languages(game: Loaded) -> None:
    en = public_phases(game.replay, "en")
    zh = public_phases(game.replay, "zh")
    assert en[0][1] == "Night 1" and zh[0][1] == "第1夜"
    assert [s for s, _ in en] == [s for s, _ in zh]
    assert all(title for _, title in en + zh)


def test_god_view_calls_are_whole_when_a_belief_question_continued_the_conversation(
    tmp_path: Path,
) -> None:
    """A seat's belief calls (in `belief` lines) are part of its conversation: the trace
    after one is rebuilt through it, not marked as missing its earlier messages."""
    turns = [
        ChatMessage(role=role, content=f"{role} {i}")
        for i, role in enumerate(["system", "user", "assistant", "user", "assistant", "user"])
    ]
    compactor = Compactor()

    def call(step: int, sent: int) -> ModelCallRecord:
        fields = {"model": "m", "prompt_id": "p@v1"}
        return compactor.record(1, step, 1, turns[:sent], [], reply=None, **fields)

    first, belief, last = call(4, 2), call(-1, 4), call(9, 6)
    assert last.base == 4 and last.messages == tuple(turns[4:])
    report = BeliefReport(seat=1, day=1, after_seq=3, wolf_probability={2: 0.5}, calls=(belief,))
    sample = Path(__file__).resolve().parents[2] / "replays/samples/yunv-bots-en-3.jsonl"
    lines = sample.read_text("utf-8").splitlines()
    extra = [trace_line(first), belief_line(report), trace_line(last)]
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join([*lines[:4], *extra, *lines[4:]]) + "\n", "utf-8")
    view = project(load(path), GodViewer(), 10**6, "en")
    assert [c.messages for c in view.traces] == [tuple(turns[:2]), tuple(turns)]
    assert all(MISSING not in c.notes and c.base == 0 for c in view.traces)


def test_who_plays_each_seat_waits_for_the_end_of_a_finished_game(game: Loaded) -> None:
    """In a tournament one agent holds every wolf, so before the last step of a finished
    replay only god sees the seats' agents (the table did not know them at that moment)."""
    total = len(game.replay.events)
    labels = {c.player for c in project(game, GodViewer(), 1, "en").seats}
    assert "" not in labels and len(labels) > 1
    for viewer in (PublicViewer(), TeamViewer(team=Team.WOLF), SeatViewer(seat=2)):
        for step in (1, total // 2, total - 1):
            assert {c.player for c in project(game, viewer, step, "en").seats} == {""}
        assert {c.player for c in project(game, viewer, total, "en").seats} == labels
