"""The Play page in every language: its words come from the catalog, nothing stays English.

Drives the page under `AppTest`: create a game hosted in the test's process (unpaced),
open the seat's join link, and read the decision form and the seat's view in English,
Simplified and Traditional Chinese.
"""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from arena.board_file import EXAMPLES, board_ref, example_boards, load_board_file
from arena.dashboard.i18n import LANGS, Lang, text
from arena.rules.boards import BOARDS
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.text.hans import to_hans
from tests.dashboard.games import APP

PLAY = "screens/play.py"
Dash = Callable[..., AppTest]
WAIT_S = 120.0
"""Bound on waiting for the hosted game's first decision (a failure, never a measurement)."""
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_]+")
ALLOWED = {"PK", "ann", "Redis", *BOARDS, *(b.id for b in example_boards().values())}
"""Latin words a Chinese page may hold: vocabulary, a player's name, board ids."""


def unescape(shown: str) -> str:
    """An error box's text as read (the page backslash-escapes Markdown in messages)."""
    return re.sub(r"\\(.)", r"\1", shown)


def cjk(value: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in value)


def switch(at: AppTest, lang: Lang) -> None:
    at.sidebar.radio[0].set_value(lang).run()
    assert not at.exception, at.exception


def create(
    at: AppTest,
    lang: Lang,
    models: dict[int, str] | None = None,
    where: str = "here",
    game: str | None = None,
) -> dict[str, str]:
    """Create an unpaced std9 game, seat 1 a person (`ann`), `models` model seats.

    `game` is the game's language (default: the form's default, the page's language).
    Returns seat 1's join query (empty: no join links were shown).
    """
    switch(at, lang)
    if game is not None:
        at.radio(key="play_lang").set_value(game)
    at.text_input(key="play_name_1").input("ann")
    for seat, name in (models or {}).items():
        at.selectbox(key=f"play_kind_{seat}").set_value("model")
        at.text_input(key=f"play_name_{seat}").input(name)
    if where != "here":
        at.radio(key="play_where").set_value(where)
    for name in ("play_night", "play_step", "play_window"):
        at.number_input(key=name).set_value(0.0)
    next(b for b in at.button if b.label == text("play.start", lang)).click().run()
    assert not at.exception, at.exception
    made = at.session_state["play_links"] if "play_links" in at.session_state else None
    if made is None:
        return {}
    first, *_ = made[1]  # arena.humans.hosting.JoinLink
    return {k: v[0] for k, v in parse_qs(first.query).items()}


def labels(at: AppTest) -> list[str]:
    kinds = ("selectbox", "multiselect", "text_input", "text_area", "number_input", "radio")
    found = [w.label for kind in kinds for w in at.main.get(kind) if w.label]
    return found + [b.label for b in at.main.button] + [t.label for t in at.main.tabs]


def visible(at: AppTest) -> str:
    """What a reader sees of the main area: texts, labels, shown options (no sidebar)."""
    kinds = ("title", "subheader", "markdown", "caption", "info", "success", "warning", "error")
    shown = [str(e.value) for kind in kinds for e in at.main.get(kind)]
    shown += labels(at)
    for box in [*at.main.selectbox, *at.main.radio]:
        shown += [str(o) for o in box.options]  # as shown (formatted)
    return "\n".join(shown)


def assert_speaks(at: AppTest, lang: Lang) -> None:
    words = visible(at)
    if lang == "en":
        assert not cjk(words), lang
        return
    assert all(cjk(x) for x in labels(at)), [x for x in labels(at) if not cjk(x)]
    latin = set(LATIN.findall(words)) - ALLOWED
    assert not latin, (lang, sorted(latin))
    if lang == "zh-Hans":
        hant = sorted(
            {c for c in words.replace("繁體中文", "").replace("語言", "") if to_hans(c) != c}
        )
        assert not hant, hant


@pytest.mark.parametrize("lang", LANGS)
def test_the_create_form_speaks_the_dashboard_language(dash: Dash, lang: Lang) -> None:
    at = dash(PLAY)
    switch(at, lang)
    assert_speaks(at, lang)
    box = at.selectbox(key="play_kind_2")
    shown = [str(o) for o in box.options]  # as shown (formatted)
    assert all(cjk(x) for x in shown) if lang != "en" else shown[:2] == ["human", "bot"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_games_language_defaults_to_the_pages(dash: Dash, lang: Lang) -> None:
    want = "en" if lang == "en" else "zh"
    dash()  # the fixture's settings (replay folder, no Redis)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = lang  # a page opened in `lang` (the URL's `?lang=`)
    at.run()
    at.switch_page(PLAY).run()
    assert not at.exception, at.exception
    assert at.radio(key="play_lang").value == want
    at.switch_page("screens/leaderboard.py").run()
    at.switch_page(PLAY).run()  # and back from another page
    assert at.radio(key="play_lang").value == want
    at = dash(PLAY)
    switch(at, lang)  # or switched to `lang` in the sidebar
    assert at.radio(key="play_lang").value == want


@pytest.mark.parametrize(
    ("lang", "game"), [("en", "zh"), ("zh-Hans", "zh"), ("zh-Hant", "zh"), ("zh-Hans", "en")]
)
def test_a_seat_page_speaks_the_readers_language_whatever_the_games(
    dash: Dash, lang: Lang, game: str
) -> None:
    """The game's language is its creator's, the page's its reader's: the decision, its
    options, the role names are the arena's words, in the page's language (an English
    page of a Chinese game asked 狼人請睜眼 with buttons 毒3號 …)."""
    at = dash(PLAY)
    query = create(at, lang, game=game)
    assert query, "the game was created"
    at.query_params.update(query)
    deadline = time.monotonic() + WAIT_S
    while True:  # the hosted game reaches seat 1's first decision
        at.run()
        assert not at.exception, at.exception
        if any(s.value.startswith("🗳") for s in at.subheader):
            break
        assert time.monotonic() < deadline, "seat 1 was never asked anything"
        time.sleep(0.2)
    words = unescape(visible(at))
    assert text("play.you_are", lang, seat=text("seat.one", lang, n=1), name="ann") in words
    assert_speaks(at, lang)
    if lang == "en":
        assert "You are #1 · ann" in words and "What you have seen" in words


def test_a_model_seat_that_cannot_play_is_one_line_on_the_page(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.stub_policy import no_tool_call
    from tests.support.stub_server import StubServer

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with StubServer(models={"prose": no_tool_call}) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        at = dash(PLAY)
        query = create(at, "en", {4: "openai:prose"})
    assert not query, "no join links for a game that cannot start"
    (error,) = [unescape(e.value) for e in at.error]
    assert error.startswith("The game cannot start: seats 4: ") and "cannot play" in error
    assert "\n" not in error


def test_a_model_seat_without_a_model_is_refused_at_once(dash: Dash) -> None:
    at = dash(PLAY)
    query = create(at, "zh-Hant", {4: ""})
    assert not query
    (error,) = [unescape(e.value) for e in at.error]
    assert error.startswith("無法建立對局：seat 4: a model seat needs")


DISPLAY = {
    "title", "subheader", "caption", "markdown", "info", "success", "warning", "error",
    "button", "selectbox", "radio", "text_input", "text_area", "number_input", "checkbox",
    "multiselect", "expander", "tabs", "form_submit_button", "spinner",
}  # fmt: skip
"""Streamlit calls whose first argument a reader sees (`st.Page` shows its `title=`)."""


def _literal_words(node: ast.expr) -> list[str]:
    """Letters (English or Chinese) written into the code as a shown text."""
    parts: list[ast.expr] = [node]
    if isinstance(node, ast.JoinedStr):
        parts = list(node.values)
    elif isinstance(node, ast.List | ast.Tuple):
        parts = [p for e in node.elts for p in _literal_parts(e)]
    return [
        p.value
        for p in parts
        if isinstance(p, ast.Constant) and isinstance(p.value, str) and re.search(r"\w", p.value)
    ]


def _literal_parts(node: ast.expr) -> list[ast.expr]:
    return list(node.values) if isinstance(node, ast.JoinedStr) else [node]


PLAY_ROOMS = [
    "screens/play.py", "new_game.py", "seat_answer.py", "seat_view.py", "seat_table.py",
    "play_words.py",
]  # fmt: skip
"""The Play page's script and the modules it is drawn from."""


@pytest.mark.parametrize("script", [*PLAY_ROOMS, "app.py"])
def test_the_play_page_writes_no_words_of_its_own(script: str) -> None:
    """Every shown text on the Play page is a catalog lookup, so a missing one fails."""
    path = Path(__file__).resolve().parents[2] / "dashboard" / script
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in DISPLAY and node.args:
                found += _literal_words(node.args[0])
            found += [w for k in node.keywords if k.arg in {"title", "help"}
                      for w in _literal_words(k.value)]  # fmt: skip
    allowed = {"Language · 语言 · 語言"}  # the language picker names itself in every language
    assert not set(found) - allowed, sorted(set(found) - allowed)


@pytest.mark.parametrize("script", PLAY_ROOMS)
def test_the_play_page_keeps_no_table_of_words(script: str) -> None:
    """No Chinese in the page's code: its words (in any language) live in the catalog."""
    path = Path(__file__).resolve().parents[2] / "dashboard" / script
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    chinese = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
        and cjk(n.value)
    ]  # fmt: skip
    assert not chinese, chinese


def test_a_seat_page_shows_other_players_text_as_plain_text(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A speech reaches another seat's page as written: never Markdown, links or controls.

    The page reads a Redis desk (a fake server shared with the test), on which the test
    publishes a hostile speech into seat 1's view, as a host would.
    """
    import fakeredis

    from arena.humans.lobby import create_game
    from arena.rules import events as ev
    from arena.rules.actions import Claims
    from arena.rules.visibility import PUBLIC
    from arena.storage.desk import SeatPlan, Status, view_line
    from arena.storage.redis_desk import RedisDesk
    from tests.dashboard.games import HOSTILE
    from tests.dashboard.test_hostile_text import MARKDOWN_KINDS

    server = fakeredis.FakeServer()
    desk = RedisDesk(fakeredis.FakeRedis(server=server, decode_responses=True))
    monkeypatch.setattr(RedisDesk, "from_url", classmethod(lambda cls, url, prefix: desk))
    monkeypatch.setenv("ARENA_REDIS_URL", f"redis://fake/{id(desk)}")  # the page caches per URL
    seats = {s: SeatPlan(kind="bot") for s in range(1, 10)}
    seats[1] = SeatPlan(kind="human", name="**ann** [x](http://evil.example)")
    game, tokens = create_game(desk, "std9", seats, lang="en")
    speech = ev.Spoke(visibility=PUBLIC, seat=3, text=HOSTILE, claims=Claims(), context="day")
    desk.append_view(game, 1, [view_line(0, speech)])
    desk.set_status(game, Status(state="running", events=1))
    at = dash(PLAY)
    at.query_params.update(game=game, seat="1", token=tokens[1])
    at.run()
    assert not at.exception, at.exception
    plain_text = "\n".join(str(e.value) for e in at.main.text)
    assert "**bold** # heading [link](http://evil.example)" in plain_text
    assert "\\x1b[2J\\x07" in plain_text and "⏎── Night 9 ──" in plain_text
    for kind in MARKDOWN_KINDS:
        for element in at.main.get(kind):
            shown = str(element.value)
            for raw in ("[x](", "[link](", "http://evil", "**ann**", "**bold**"):
                assert raw not in shown, (kind, shown)  # only backslash-escaped, if at all


def test_a_worker_game_whose_preflight_fails_there_shows_the_reason_not_its_links(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fakeredis

    from arena.storage.desk import Status
    from arena.storage.redis_desk import RedisDesk

    desk = RedisDesk(fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True))
    monkeypatch.setattr(RedisDesk, "from_url", classmethod(lambda cls, url, prefix: desk))
    monkeypatch.setenv("ARENA_REDIS_URL", f"redis://fake/{id(desk)}")  # the page caches per URL
    at = dash(PLAY)
    query = create(at, "en", {4: "openai:gone"}, where="worker")
    queued = desk.next_queued(0)
    assert query and queued == query["game"], "queued for a worker"
    assert any(s.value.startswith("Join links") for s in at.subheader)
    reason = "seats 4: openai:gone@http://127.0.0.1:9/v1 is unreachable"
    desk.set_status(query["game"], Status(state="failed", error=reason))  # as the worker does
    at.run()
    assert [unescape(e.value) for e in at.error] == [f"The game cannot start: {reason}"]
    assert not any(s.value.startswith("Join links") for s in at.subheader)
    assert not [c for c in at.code if "token=" in str(c.value)]


@pytest.mark.parametrize("kind", ["swap", "link", "trade", "mist"])
def test_a_seat_page_offers_the_swap_and_the_trade_as_forms(
    dash: Dash, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The magician and cupid pick two seats, the merchant a seat and a gift, the alchemist
    witch three seats, then sends them."""
    from arena.rules.actions import Link, Mist, Pass, Swap, Trade, parse_action
    from arena.rules.types import Gift

    options = (
        ActionOption(action=kind, targets=(2, 3, 5), target_required=True),
        ActionOption(action="pass"),
    )
    decision = {
        "swap": DecisionKind.SWAP,
        "link": DecisionKind.CUPID,
        "trade": DecisionKind.TRADE,
        "mist": DecisionKind.MIST,
    }[kind]
    request = DecisionRequest(
        step=0, seat=1, kind=decision, day=1, night=True, options=options, default=Pass()
    )
    at, desk, game = asked_page(dash, monkeypatch, "std9", request)
    if kind == "swap":
        at.multiselect(key="req0_swap").set_value([3, 5]).run()
        label, expected = text("play.swap", "en"), Swap(targets=(3, 5))
    elif kind == "link":
        at.multiselect(key="req0_link").set_value([2, 5]).run()
        label, expected = text("play.lovers", "en"), Link(targets=(2, 5))
    elif kind == "mist":
        at.multiselect(key="req0_mist").set_value([2, 3, 5]).run()
        label, expected = text("play.mist", "en"), Mist(targets=(2, 3, 5))
    else:
        at.selectbox(key="req0_trade_seat").set_value(5)
        at.selectbox(key="req0_trade_gift").set_value(Gift.SHIELD).run()
        label, expected = text("play.trade", "en"), Trade(target=5, gift=Gift.SHIELD)
    next(b for b in at.main.button if b.label == label).click().run()
    assert not at.exception, at.exception
    answer = desk.take(game, 1, 0)
    assert answer is not None and parse_action(answer) == expected


def test_an_answer_sent_in_one_game_leaves_the_same_step_of_the_next_open(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One browser tab, two games: the first game's answer to its step 0 does not mark
    the second game's step 0 as answered (the page would hide its form until the clock
    ran out); nor does an answer the host refused after it was sent."""
    from arena.rules.actions import Pass
    from arena.storage.desk import Pending

    options = (
        ActionOption(action="swap", targets=(2, 3, 5), target_required=True),
        ActionOption(action="pass"),
    )
    request = DecisionRequest(
        step=0, seat=1, kind=DecisionKind.SWAP, day=1, night=True, options=options, default=Pass()
    )
    at, desk, first = asked_page(dash, monkeypatch, "std9", request)
    sent, button = text("play.sent", "en"), text("play.swap", "en")

    def answer() -> None:
        at.multiselect(key="req0_swap").set_value([3, 5]).run()
        next(b for b in at.main.button if b.label == button).click().run()
        assert not at.exception, at.exception
        assert [s.value for s in at.success] == [sent]

    answer()
    second, token = asked_game(desk, "std9", request)
    at.query_params.update(game=second, seat="1", token=token)
    at.run()
    assert not at.exception, at.exception
    assert sent not in [s.value for s in at.success]
    answer()
    refused = Pending(request=request, deadline=time.time() + 600, feedback="not that pair")
    desk.set_pending(second, 1, refused)  # as the host does when the rules refuse it
    at.run()
    assert sent not in [s.value for s in at.success]
    assert at.multiselect(key="req0_swap") is not None


def redis_page(dash: Dash, monkeypatch: pytest.MonkeyPatch) -> tuple[AppTest, Any]:
    """The Play page on a fake Redis desk shared with the test."""
    import fakeredis

    from arena.storage.redis_desk import RedisDesk

    desk = RedisDesk(fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True))
    monkeypatch.setattr(RedisDesk, "from_url", classmethod(lambda cls, url, prefix: desk))
    monkeypatch.setenv("ARENA_REDIS_URL", f"redis://fake/{id(desk)}")  # the page caches per URL
    return dash(PLAY), desk


def upload(at: AppTest, name: str, data: bytes) -> None:
    at.selectbox(key="play_board").set_value("upload").run()
    at.file_uploader(key="play_board_file").set_value((name, data, "application/yaml")).run()
    assert not at.exception, at.exception


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"id: b\nroles: {seeer: 1, werewolf: 1}\n", "b.yaml: roles: unknown role 'seeer'; "),
        (b"id: b\nroles: {seer: 1\n", "b.yaml:3: not valid YAML: "),
        (b"\xff\xfe", "b.yaml: not UTF-8 text"),
    ],
)
def test_a_bad_board_file_is_one_line_and_no_form(dash: Dash, data: bytes, message: str) -> None:
    at = dash(PLAY)
    upload(at, "b.yaml", data)
    (shown,) = [unescape(e.value) for e in at.error]
    assert shown.startswith(f"Cannot use this board file: {message}") and "\n" not in shown
    assert not [b for b in at.selectbox if str(b.key).startswith("play_kind_")]
    assert not [b for b in at.button if b.label == text("play.start", "en")]


@pytest.mark.parametrize("how", ["upload", "example"])
def test_a_custom_board_goes_whole_on_the_card_with_its_seats(
    dash: Dash, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """An uploaded or an example board file: its seats on the form, the board on the card."""
    path = EXAMPLES / "guard_city10.yaml"
    board = load_board_file(path)
    at, desk = redis_page(dash, monkeypatch)
    if how == "upload":
        upload(at, "mine.yaml", path.read_bytes())
    else:
        at.selectbox(key="play_board").set_value(path.stem).run()
    assert not at.error, [e.value for e in at.error]
    kinds = [b for b in at.selectbox if str(b.key).startswith("play_kind_")]
    assert len(kinds) == board.seats == 10
    assert any("10 seats · city · " in str(c.value) for c in at.caption)
    query = create(at, "en", where="worker", game="zh")  # a Chinese game on an English page
    assert query and query["game"].startswith("guard_city10-") and desk.next_queued(0)
    table = desk.table(query["game"])
    assert table is not None and table.board == board and len(table.seats) == 10
    at.query_params.clear()
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    name = "10-player guard + wolf king (city) (guard_city10)"  # the page's words, not 10人…
    line = text("play.board_line", "en", b=name, c="10 seats · city")
    shown = [unescape(str(c.value)) for c in at.caption]
    assert any(c.startswith(line) for c in shown), shown


def test_a_board_files_names_are_not_markdown_on_the_pages(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board's names are its author's text: shown as written, never as links or bold."""
    data = (EXAMPLES / "guard_city10.yaml").read_bytes()
    hostile = '"**x** [link](http://e.example)"'  # the page is English: its en name
    data = data.replace(b"en: 10-player guard + wolf king (city)", f"en: {hostile}".encode())
    at, _ = redis_page(dash, monkeypatch)
    upload(at, "mine.yaml", data)
    query = create(at, "en", where="worker", game="zh")
    at.query_params.update(query)
    at.run()
    captions = [str(c.value) for c in at.caption]
    assert any("\\*\\*x\\*\\* \\[link\\]\\(http" in c for c in captions), captions
    assert not at.error
    assert not any("[link](" in c or "**x**" in c for c in captions)


@pytest.mark.parametrize("ref", ["wwk_guard", "classic_thief_elder12"])
def test_a_seat_pages_claim_offers_only_the_boards_cards(
    dash: Dash, monkeypatch: pytest.MonkeyPatch, ref: str
) -> None:
    """The speech's claim lists the board's cards (bottom cards and wolf cards included),
    built-in or custom, and sends the one chosen; it used to list every role."""
    from arena.rules.actions import Claims, Speak, parse_action
    from arena.rules.boards import board
    from arena.rules.types import Role
    from arena.transcript import role_name

    at, desk, game = speech_page(dash, monkeypatch, ref)
    b = board(board_ref(ref))
    box = at.selectbox(key="req0_role")
    cards = [r for r in Role if r in b.roles]
    assert box.options == [text("play.none", "en"), *(role_name(r, "en") for r in cards)]
    assert Role.IDIOT not in b.roles and role_name(Role.IDIOT, "en") not in box.options
    wolf = Role.WEREWOLF
    box.set_value(wolf).run()
    next(b_ for b_ in at.main.button if b_.label == text("play.say", "en")).click().run()
    assert not at.exception, at.exception
    answer = desk.take(game, 1, 0)
    assert answer is not None and parse_action(answer) == Speak(text="", claims=Claims(role=wolf))


def asked_page(
    dash: Dash, monkeypatch: pytest.MonkeyPatch, ref: str, request: DecisionRequest
) -> tuple[AppTest, Any, str]:
    """Seat 1's page of a game on `ref` (a built-in board's or an example board's id),
    the other seats bots, the game started and seat 1 asked `request`: (the page, its
    Redis desk, the game id)."""
    import fakeredis

    from arena.storage.redis_desk import RedisDesk

    desk = RedisDesk(fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True))
    monkeypatch.setattr(RedisDesk, "from_url", classmethod(lambda cls, url, prefix: desk))
    monkeypatch.setenv("ARENA_REDIS_URL", f"redis://fake/{id(desk)}")
    game, token = asked_game(desk, ref, request)
    at = dash(PLAY)
    at.query_params.update(game=game, seat="1", token=token)
    at.run()
    assert not at.exception, at.exception
    return at, desk, game


def asked_game(desk: Any, ref: str, request: DecisionRequest) -> tuple[str, str]:
    """A game on `desk` as `asked_page` sets it up: (its id, seat 1's token)."""
    from arena.humans.lobby import create_game
    from arena.rules import events as ev
    from arena.rules.boards import board
    from arena.rules.visibility import PUBLIC
    from arena.storage.desk import Pending, SeatPlan, Status, view_line

    chosen = board_ref(ref)
    b = board(chosen)
    seats = {s: SeatPlan(kind="bot") for s in range(1, b.seats + 1)}
    seats[1] = SeatPlan(kind="human", name="ann")
    game, tokens = create_game(desk, chosen, seats, lang="en")
    start = ev.GameStarted(
        visibility=PUBLIC, board=chosen, seats=b.seats, role_counts=b.role_counts()
    )
    desk.append_view(game, 1, [view_line(0, start)])
    desk.set_pending(game, 1, Pending(request=request, deadline=time.time() + 600))
    desk.set_status(game, Status(state="running", events=1))
    return game, tokens[1]


def speech_page(dash: Dash, monkeypatch: pytest.MonkeyPatch, ref: str) -> tuple[AppTest, Any, str]:
    """`asked_page` with seat 1 asked to speak (day 1)."""
    from arena.rules.actions import Speak

    request = DecisionRequest(
        step=0, seat=1, kind=DecisionKind.SPEECH, day=1, night=False,
        options=(ActionOption(action="speak", max_chars=120),), default=Speak(text=""),
    )  # fmt: skip
    return asked_page(dash, monkeypatch, ref, request)


READERS = "site_watchman_coroner12"
"""An example board with a coroner and a watchman (000:29-30)."""


@pytest.mark.parametrize("what", ["card", "acted"])
def test_a_seat_page_reports_a_checks_card_or_whether_it_acted(
    dash: Dash, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    """On a board with a coroner the check may name the card found (the board's cards to
    choose from); with a watchman, whether the seat acted; the old form sent neither."""
    from arena.rules.actions import CheckClaim, Claims, Speak, parse_action
    from arena.rules.types import Role
    from arena.transcript import role_name

    at, desk, game = speech_page(dash, monkeypatch, READERS)
    b = example_boards()[READERS]
    card = at.selectbox(key="req0_card")
    assert card.options == [
        text("play.none", "en"),
        *(role_name(r, "en") for r in Role if r in b.roles),
    ]
    acted = at.selectbox(key="req0_acted")
    assert acted.options == [text(k, "en") for k in ("play.none", "claim.acted", "claim.idle")]
    at.selectbox(key="req0_check").set_value(5)
    if what == "card":
        at.checkbox(key="req0_wolf").check()
        card.set_value(Role.WEREWOLF)
        expected = CheckClaim(seat=5, is_wolf=True, role=Role.WEREWOLF)
    else:
        acted.set_value(False)
        expected = CheckClaim(seat=5, is_wolf=False, acted=False)
    at.run()
    next(b_ for b_ in at.main.button if b_.label == text("play.say", "en")).click().run()
    assert not at.exception, at.exception
    answer = desk.take(game, 1, 0)
    assert answer is not None
    assert parse_action(answer) == Speak(text="", claims=Claims(checks=(expected,)))


@pytest.mark.parametrize("ref", ["std9", "wwk_guard"])
def test_a_board_without_coroner_or_watchman_offers_neither_field(
    dash: Dash, monkeypatch: pytest.MonkeyPatch, ref: str
) -> None:
    at, _, _ = speech_page(dash, monkeypatch, ref)
    keys = {w.key for w in at.main.selectbox}
    assert "req0_check" in keys and not keys & {"req0_card", "req0_acted"}
