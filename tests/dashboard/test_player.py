"""Issue 12's replay-viewer items, in AppTest: each fails on the dashboard before the fix."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from arena.dashboard.i18n import viewer_of
from arena.dashboard.loading import Loaded, load
from arena.dashboard.projection import moments, project
from arena.rules import events as ev
from arena.rules.observation import observe
from arena.rules.visibility import PublicViewer
from arena.text.hans import to_hans
from tests.dashboard.conftest import MARKED
from tests.dashboard.games import APP, page_text

Dash = Callable[..., AppTest]
PLAYER = "screens/player.py"
SCREENS = Path(__file__).resolve().parents[2] / "dashboard" / "screens"


@pytest.fixture(scope="module")
def game(replay_dir: Path) -> Loaded:
    return load(replay_dir / MARKED)


def specs(at: AppTest) -> list[dict[str, object]]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def test_a_replay_opens_at_the_start_and_the_ends_are_one_click_away(dash: Dash) -> None:
    at = dash(PLAYER, game=MARKED)
    total = int(at.slider(key="step").max)
    assert at.slider(key="step").value == 0
    assert at.button(key="first").disabled and at.button(key="prev").disabled
    at.button(key="last").click().run()
    assert at.slider(key="step").value == total
    assert at.button(key="last").disabled and at.button(key="next").disabled
    at.button(key="first").click().run()
    assert at.slider(key="step").value == 0
    assert dash(PLAYER, game=MARKED, step="end").slider(key="step").value == total
    assert dash(PLAYER, game=MARKED, step="17").slider(key="step").value == 17


def test_the_step_0_caption_has_no_markdown_left_over(dash: Dash) -> None:
    at = dash(PLAYER, game=MARKED)
    captions = [c.value for c in at.caption]
    assert f"Setup · 0 / {int(at.slider(key='step').max)}" in captions
    assert not [c for c in captions if "**" in c]


@pytest.mark.parametrize("first", ["zh-Hant", "zh-Hans"])
def test_switching_the_language_keeps_the_viewpoint(dash: Dash, first: str) -> None:
    at = dash(PLAYER, game=MARKED, view="seat:3", step="40")
    for lang, label in [(first, "3號玩家" if first == "zh-Hant" else "3号玩家"), ("en", "Seat 3"),
                        ("zh-Hant", "3號玩家"), ("en", "Seat 3")]:  # fmt: skip
        at.sidebar.radio[0].set_value(lang).run()
        assert not at.exception
        box = at.selectbox(key=f"view_pick_{lang}")
        assert box.value == "seat:3" and box.format_func(box.value) == label, lang
        assert at.query_params["view"] == "seat:3"
        assert at.query_params["lang"] == lang
        assert at.slider(key="step").value == 40


def test_the_language_comes_from_the_url_and_zh_means_simplified(dash: Dash) -> None:
    at = AppTest.from_file(dash(None)._script_path, default_timeout=60)
    at.query_params["lang"] = "zh"
    at.run()
    assert at.session_state["lang"] == "zh-Hans"
    assert at.title[0].value.endswith("对局回放")
    hant = AppTest.from_file(dash(None)._script_path, default_timeout=60)
    hant.query_params["lang"] = "zh-TW"
    hant.run()
    assert hant.title[0].value.endswith("對局回放")


def test_simplified_pages_hold_no_traditional_characters(dash: Dash) -> None:
    """Every character the arena wrote is converted; the test game's player text is ASCII."""
    for page, params in [(None, {}), (PLAYER, {"game": MARKED, "view": "god", "step": "end"}),
                         ("screens/leaderboard.py", {})]:  # fmt: skip
        at = dash(page, **params)
        at.sidebar.radio[0].set_value("zh-Hans").run()
        assert not at.exception
        text = page_text(at).replace("繁體中文", "").replace("語言", "")  # the language picker
        traditional = sorted({c for c in text if to_hans(c) != c})
        assert not traditional, (page, traditional)
        assert any("\u4e00" <= c <= "\u9fff" for c in text)


def test_chinese_pages_label_every_widget_and_column_in_chinese(dash: Dash) -> None:
    def cjk(text: str) -> bool:
        return any("\u4e00" <= c <= "\u9fff" for c in text)

    for page, params in [(None, {}), (PLAYER, {"game": MARKED, "view": "god", "step": "end"}),
                         ("screens/leaderboard.py", {})]:  # fmt: skip
        at = dash(page, **params)
        at.sidebar.radio[0].set_value("zh-Hant").run()
        labels = [w.label for kind in ("selectbox", "multiselect", "text_input", "date_input",
                                       "number_input", "slider") for w in at.get(kind)]  # fmt: skip
        labels += [m.label for m in at.metric] + [s.value for s in at.subheader if s.value]
        labels = [x for x in labels if "wwk" not in x]  # the game's own id
        labels += [tab.label for tab in at.tabs] + [e.label for e in at.expander]
        assert labels and all(cjk(x) for x in labels), (page, [x for x in labels if not cjk(x)])
        for table in at.dataframe:
            columns = [str(c) for c in table.value.columns if str(c).strip()]
            if "rating" in columns:  # the leaderboard's CSV table keeps its field names
                continue
            assert all(cjk(c) for c in columns), (page, columns)


def test_the_vote_chart_labels_every_seat_and_the_table_shows_the_chosen_round(
    dash: Dash, game: Loaded
) -> None:
    at = dash(PLAYER, game=MARKED, view="public", step="end")
    at.selectbox(key="vote_round_en").select_index(0).run()
    assert not at.exception
    view = project(game, PublicViewer(), len(game.replay.events), "en")
    day, ballot = view.ballots[0].day, view.ballots[0].ballot
    first = [b for b in view.ballots if (b.day, b.ballot) == (day, ballot)]
    chart = next(s for s in specs(at) if '"rect"' in json.dumps(s) and "voter" in json.dumps(s))
    encoding = json.dumps(chart)
    assert '"labelOverlap": false' in encoding
    assert '"format": "~g"' in encoding and '"format": "g"' not in encoding
    table = next(d.value for d in at.dataframe if "voter" in d.value.columns)
    assert set(table["day"]) == {day} and len(table) == len(first), "the chosen round only"
    assert sorted(table["voter"]) == sorted(f"#{b.voter}" for b in first)


def test_next_and_previous_speech_vote_and_death(dash: Dash, game: Loaded) -> None:
    marks = moments(game.replay)
    public = {s.seq: s.event for s in observe(game.replay.events, PublicViewer()).seen}
    assert isinstance(public[marks.speeches[0] - 1], ev.Spoke)
    assert isinstance(public[marks.votes[0] - 1], ev.VotesCounted)
    at = dash(PLAYER, game=MARKED)
    for kind, steps in (("speech", marks.speeches), ("vote", marks.votes),
                        ("death", marks.deaths)):  # fmt: skip
        at.slider(key="step").set_value(0).run()
        at.button(key=f"next_{kind}").click().run()
        assert at.slider(key="step").value == steps[0]
        at.button(key=f"next_{kind}").click().run()
        assert at.slider(key="step").value == steps[1]
        at.button(key=f"prev_{kind}").click().run()
        assert at.slider(key="step").value == steps[0]
    at.slider(key="step").set_value(0).run()
    assert at.button(key="prev_speech").disabled and not at.button(key="next_speech").disabled


def test_the_seating_circle_draws_the_days_ballots_as_arrows(dash: Dash, game: Loaded) -> None:
    counted = next(i for i, e in enumerate(game.replay.events) if isinstance(e, ev.VotesCounted))
    cast = [e for e in game.replay.events[:counted] if isinstance(e, ev.VoteCast)]
    last = cast[-1].ballot
    arrows = [b for b in cast if b.ballot == last and b.target not in (None, b.voter)]
    at = dash(PLAYER, game=MARKED, view="seat:5", step=str(counted + 1))
    circle = at.get("vega_lite_chart")[0].proto
    assert '"triangle-up"' in circle.spec
    sizes = sorted(pa.ipc.open_stream(d.data.data).read_all().num_rows for d in circle.datasets)
    assert sizes == sorted([len(arrows), 12]), "one row per arrow and one per seat"


def test_god_view_shows_beliefs_over_time(dash: Dash) -> None:
    at = dash(PLAYER, game=MARKED, view="god", step="end")
    marks = [json.dumps(s.get("mark", "")) for s in specs(at)]
    assert any("line" in m for m in marks)
    seat = page_text(dash(PLAYER, game=MARKED, view="seat:1", step="end"))
    assert "mean P(wolf)" not in seat


def test_no_page_shows_the_servers_replay_folder(dash: Dash, replay_dir: Path) -> None:
    for page, params in [(None, {}), (PLAYER, {"game": "missing.jsonl"}),
                         (PLAYER, {"game": MARKED}), ("screens/leaderboard.py", {})]:  # fmt: skip
        text = page_text(dash(page, **params))
        assert str(replay_dir) not in text and str(replay_dir.resolve()) not in text, page


def test_the_winner_comes_right_after_the_game_in_the_listing(dash: Dash) -> None:
    columns = list(dash().dataframe[0].value.columns)
    assert columns[:2] == ["game", "winner"]


def test_page_scripts_hold_no_bare_strings_that_streamlit_would_draw() -> None:
    for script in SCREENS.glob("*.py"):
        body = ast.parse(script.read_text("utf-8")).body[1:]
        bare = [
            n.lineno for n in body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
        ]
        assert not bare, (script.name, bare)


def test_every_role_has_an_avatar() -> None:
    from arena.dashboard.seat_table import ICONS, UNKNOWN_ICON, role_icon
    from arena.rules.types import Role

    assert set(ICONS) == set(Role)
    assert role_icon(None) == UNKNOWN_ICON


@pytest.mark.slow  # every built-in board, in three languages, through AppTest
def test_every_board_plays_back_in_every_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.rules.boards import BOARDS
    from tests.dashboard.games import APP, make_game

    for board in BOARDS:
        make_game(tmp_path / f"{board}.jsonl", seed=5, board=board)
    monkeypatch.setenv("ARENA_REPLAYS", str(tmp_path))
    for board in BOARDS:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run()
        at.switch_page(PLAYER)
        at.query_params.update(game=f"{board}.jsonl", view="god", step="end")
        at.run()
        for lang in ("en", "zh-Hans", "zh-Hant"):
            at.sidebar.radio[0].set_value(lang).run()
            assert not at.exception, (board, lang, at.exception)


def test_a_simplified_replay_shows_bot_speeches_in_simplified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots speak in Traditional characters; a 简体 page shows their speeches in Simplified."""
    from arena.cli import main

    assert (
        main(
            ["play", "--seed", "3", "--lang", "zh", "--quiet", "--out", str(tmp_path / "zh.jsonl")]
        )
        == 0
    )
    monkeypatch.setenv("ARENA_REPLAYS", str(tmp_path))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page(PLAYER)
    at.query_params.update({"game": "zh.jsonl", "view": "public", "step": "end"})
    at.run()
    at.sidebar.radio[0].set_value("zh-Hans").run()
    assert not at.exception
    text = page_text(at).replace("繁體中文", "").replace("語言", "")
    assert "我上警，请把警徽给我。" in text  # a bot's campaign speech, converted
    assert not sorted({c for c in text if to_hans(c) != c})


def tick(at: AppTest) -> int:
    """One timer tick of playback (the interval has passed), and the step it reached."""
    at.session_state["ticked_at"] = 0.0
    at.run()
    assert not at.exception
    return int(at.slider(key="step").value)


@pytest.mark.parametrize("view", ["public", "god"])
def test_playback_passes_over_the_steps_the_view_does_not_see(
    dash: Dash, game: Loaded, view: str
) -> None:
    """Playing the public view skips the deal's hidden cards; god sees every step."""
    at = dash(PLAYER, game=MARKED, view=view)
    at.button(key="play").click().run()
    shown = [s.seq + 1 for s in observe(game.replay.events, viewer_of(view)).seen]
    step = int(at.slider(key="step").value)
    jumps = []
    for _ in range(4):
        reached = tick(at)
        assert reached == next(s for s in shown if s > step)
        jumps.append(reached - step)
        step = reached
    assert at.session_state["playing"] is True
    if view == "public":
        assert max(jumps) > 1, "a step the public does not see is passed over"
    else:
        assert jumps == [1, 1, 1, 1]
