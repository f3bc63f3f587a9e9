"""Play page: create a game with people, or sit at a seat through its join link.

Creating a game writes its card to the `Desk` and shows one secret join link per human
seat (`?game=ID&seat=N&lang=L&token=T`, in the creator's page language); the game is
hosted in this process (single machine) or by a worker through Redis
(`python -m arena.humans.worker`). A seat's page reads only
through `arena.humans.access` with the link's token: its own `observe` projection, who is
speaking, and its pending decision as a form built from the request's legal options.
The view refreshes twice a second; the decision form is redrawn when a new request comes.

The page's own words come from the catalog (`arena.text`, area `play`) in the
dashboard's language; the game's own text (decisions, choices, roles, the transcript) is
in the game's language, in the page's script (`shown_lang`). A game with model seats
starts only once their endpoints pass `arena play`'s preflight (the host runs it); one
that cannot play shows its one-line reason here instead of join links.

The board is a built-in one, an example board file, or a board file the creator uploads
(docs/boards.md); a bad file is refused in one line, in `arena play --board FILE`'s
words. A custom board travels whole in the game's card (`Table.board`), so the game is
hosted, here or by a worker, and replayed like any other.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import streamlit as st

from arena.board_file import example_boards, parse_board_upload
from arena.dashboard.i18n import Lang, game_lang, localize, render, text
from arena.dashboard.session import language, settings
from arena.dashboard.text import error, escape, plain, visible
from arena.humans.access import AccessDenied, SeatPage, StaleAnswer, seat_page, submit
from arena.humans.commands import build_menu, claim_roles, report_fields
from arena.humans.desk import Desk, MemoryDesk, Pace, SeatPlan, Status
from arena.humans.lobby import create_game
from arena.rules.actions import (
    Action,
    CheckClaim,
    Claims,
    Link,
    Mist,
    Speak,
    Swap,
    Trade,
    Whisper,
)
from arena.rules.boards import BOARDS, Board, board
from arena.rules.errors import ArenaError
from arena.rules.types import Gift, Role
from arena.transcript import role_name

REFRESH_S = 0.5
KINDS = ("human", "bot", "random", "model")
PRESETS = (None, "tournament", "site", "classic")
UPLOAD = "upload"  # the board picker's last entry: a board file from the creator's computer
GAME_LANGS = ("zh", "en")  # a new game's languages; the default is the page's (`game_lang`)
CHECK_LIMIT_S = 150.0  # the wait for a model seat's preflight (its probes time out sooner)
# (no bare strings at the top level of a page: Streamlit's magic would show them)


def shown_lang(page: Lang, game: str) -> Lang:
    """The language a game's own text is shown in: the game's, in the page's script.

    A Chinese game on an English page is shown as written (Traditional characters).
    """
    if game != "zh":
        return "en"
    return page if page != "en" else "zh-Hant"


@st.cache_resource(show_spinner=False)
def memory_desk() -> MemoryDesk:
    """The process-wide desk of games hosted here (single machine)."""
    return MemoryDesk()


@st.cache_resource(show_spinner=False)
def redis_desk(url: str) -> Desk:
    """The desk on the Redis server at `url` (connects lazily)."""
    from arena.humans.redis_desk import RedisDesk

    return RedisDesk.from_url(url)


def desk() -> Desk:
    """Redis when the dashboard has a Redis URL, else this process's desk."""
    url = settings().redis_url
    return redis_desk(url) if url else memory_desk()


def board_name(spec: Board, lang: Lang) -> str:
    """A board's name in `lang`, with its id."""
    return f"{spec.en if lang == 'en' else localize(spec.zh, lang)} ({spec.id})"


def board_cards(spec: Board, lang: Lang) -> str:
    """A board's players, win mode and cards: `10 seats · city · Seer×1 · …`."""
    cards = [
        text("board.role_count", lang, role=role_text(role, lang), n=n)
        for role, n in spec.role_counts().items()
    ]
    head = [text("board.seats", lang, n=spec.seats), text(f"win_mode.{spec.win}", lang)]
    return " · ".join(head + cards)


@st.cache_resource(show_spinner=False)
def examples() -> dict[str, Board]:
    """The example board files (package data, in a wheel too), read once per process."""
    return example_boards()


def board_options() -> dict[str, Board]:
    """The boards the picker lists: the built-in ones, then the examples, each by id."""
    return {**BOARDS, **examples()}


def pick_board(lang: Lang) -> Board | None:
    """The board picked, or None while an upload is missing or refused (said in one line)."""
    options = board_options()
    keys = [*options, UPLOAD]
    picked = st.selectbox(
        text("play.board", lang),
        keys,
        index=keys.index("std9"),
        key="play_board",
        format_func=lambda k: (
            text("play.board_upload", lang) if k == UPLOAD else board_name(options[k], lang)
        ),
    )
    if picked != UPLOAD:
        return options[picked]
    sent = st.file_uploader(
        text("play.board_file", lang),
        type=["yaml", "yml"],
        key="play_board_file",
        help=text("play.board_file_help", lang),
    )
    if sent is None:
        return None
    try:
        return parse_board_upload(sent.getvalue(), sent.name)
    except ArenaError as exc:
        error(text("play.bad_board", lang, error=str(exc)))
        return None


def seat_label(seat: int | None, lang: Lang) -> str:
    """`#3` or `3號` (`3号`)."""
    return text("seat.one", lang, n=seat) if seat else text("seat.nobody", lang)


def follow_page_lang(lang: Lang) -> None:
    """Default a new game's language to the page's, also after the page's language changes.

    Streamlit keeps a keyed widget's value across reruns (a changed `index` is ignored), so
    when the page switches between English and Chinese the form's game language is set to
    the new page's; a switch within Chinese scripts (zh-Hans, zh-Hant) keeps the choice.
    """
    default = game_lang(lang)
    known = "play_lang" in st.session_state  # Streamlit drops it while another page is shown
    if not known or st.session_state.get("play_lang_default") != default:
        st.session_state["play_lang_default"] = default
        st.session_state["play_lang"] = default


def create_form(lang: Lang) -> None:
    """Board, preset, seats, language, limits and pace; then the join links."""
    spec = pick_board(lang)
    if spec is None:
        return
    st.caption(escape(board_cards(spec, lang)))  # a board file's names are its author's text
    seats = spec.seats
    chosen_board: str | Board = spec.id if BOARDS.get(spec.id) == spec else spec
    follow_page_lang(lang)
    with st.form("play_create"):
        preset = st.selectbox(
            text("play.preset", lang),
            PRESETS,
            format_func=lambda p: text(f"play.preset_{p or 'default'}", lang),
        )
        chosen = st.radio(  # the game's language defaults to the page's (zh page: zh game)
            text("play.lang", lang),
            GAME_LANGS,
            horizontal=True,
            key="play_lang",
            format_func=lambda x: text(f"play.lang_{x}", lang),
        )
        st.caption(text("play.who", lang))
        plans: dict[int, tuple[str, str]] = {}
        columns = st.columns(3)
        for n in range(1, seats + 1):
            with columns[(n - 1) % 3]:
                kind = st.selectbox(
                    text("play.kind", lang, n=n),
                    KINDS,
                    index=0 if n == 1 else 1,
                    key=f"play_kind_{n}",
                    format_func=lambda k: text(f"play.kind_{k}", lang),
                )
                name = st.text_input(text("play.name", lang), key=f"play_name_{n}")
                plans[n] = (kind, name)
        cols = st.columns(2)
        decision_s = cols[0].number_input(
            text("play.decision_s", lang), 10, 3600, 180, key="play_decision"
        )
        speech_s = cols[1].number_input(
            text("play.speech_s", lang), 10, 3600, 300, key="play_speech"
        )
        default = Pace()
        paces = st.columns(3)
        night_s = paces[0].number_input(
            text("play.night_s", lang), 0.0, 3600.0, default.night_s, 0.5, key="play_night",
            help=text("play.night_s_help", lang),
        )  # fmt: skip
        step_s = paces[1].number_input(
            text("play.step_s", lang), 0.0, 600.0, default.step_s, 0.5, key="play_step"
        )
        window_s = paces[2].number_input(
            text("play.window_s", lang), 0.0, 600.0, default.window_s, 0.5, key="play_window",
            help=text("play.window_s_help", lang),
        )  # fmt: skip
        where = "here"
        if settings().redis_url:
            where = st.radio(
                text("play.where", lang),
                ["here", "worker"],
                horizontal=True,
                format_func=lambda x: text(f"play.{x}", lang),
                key="play_where",
            )
        if st.form_submit_button(text("play.start", lang), type="primary"):
            pace = Pace(night_s=night_s, step_s=step_s, window_s=window_s)
            limits = (float(decision_s), float(speech_s))
            start_game(chosen_board, preset, str(chosen), plans, limits, pace, where, lang)


def start_game(
    board: str | Board,
    preset: str | None,
    game: str,
    plans: dict[int, tuple[str, str]],
    limits: tuple[float, float],
    pace: Pace,
    where: str,
    lang: Lang,
) -> None:
    """Create the game, start it here or on a worker, and keep its join links.

    A built-in board goes on the card by id (the same replay as `arena play --board ID`),
    a custom one whole.

    A game hosted here with model seats is shown only once their endpoints passed the
    preflight; a failed one shows its one-line reason instead of join links.
    """
    seats = {
        n: SeatPlan.model_validate(
            {"kind": kind, "name": name.strip() or (f"seat{n}" if kind == "human" else "")}
        )
        for n, (kind, name) in plans.items()
    }
    target = desk()
    try:
        game_id, tokens = create_game(
            target,
            board,
            seats,
            preset=preset,
            lang="zh" if game == "zh" else "en",
            decision_timeout_s=limits[0],
            speech_timeout_s=limits[1],
            pace=pace,
        )
    except ArenaError as exc:
        st.session_state.pop("play_links", None)
        error(text("play.cannot_create", lang, error=str(exc)))
        return
    if where == "worker":
        target.enqueue(game_id)
    else:  # single machine: this process hosts the game (bots and model seats run here)
        from arena.humans.host import host_in_thread, live_folder

        replays = settings().replays
        host_in_thread(target, game_id, replays, live_folder(replays))
        if any(plan.kind == "model" for plan in seats.values()):
            status = wait_for_preflight(target, game_id, lang)
            if status.state == "failed":
                st.session_state.pop("play_links", None)
                error(text("play.cannot_start", lang, error=status.error or ""))
                return
    st.session_state["play_links"] = (
        game_id,
        [
            (n, seats[n].name, f"play?game={game_id}&seat={n}&lang={lang}&token={token}")
            for n, token in tokens.items()
        ],
    )


def wait_for_preflight(target: Desk, game_id: str, lang: Lang) -> Status:
    """Wait while the host probes the model seats (bounded); the game's status then."""
    deadline = time.monotonic() + CHECK_LIMIT_S
    with st.spinner(text("play.checking", lang)):
        status = target.status(game_id)
        while status.state in ("waiting", "checking") and time.monotonic() < deadline:
            time.sleep(0.2)
            status = target.status(game_id)
    return status


def links(lang: Lang) -> None:
    """The join links of the game this session created (none for a game that failed).

    Redrawn every second (a fragment), so a game queued for a worker whose preflight
    fails there replaces its links with the reason.
    """
    made = st.session_state.get("play_links")
    if not made:
        return
    game_id, rows = made
    status = desk().status(game_id)
    if status.state == "failed":
        error(text("play.cannot_start", lang, error=status.error or ""))
        return
    if status.state == "checking":
        st.info(text("play.checking", lang))
    st.subheader(text("play.links", lang))
    for n, name, link in rows:
        short = link.split("&token=")[0]  # the link is ours; the name is the creator's text
        st.markdown(f"**{seat_label(n, lang)} · {escape(name)}** — [{short}…]({link})")
        st.code(link, language=None)


def join_box(lang: Lang) -> None:
    """Open a pasted join link in this tab."""
    with st.form("play_join"):
        pasted = st.text_input(text("play.link", lang), key="play_link")
        if st.form_submit_button(text("play.go", lang)):
            query = parse_qs(urlparse(pasted.strip()).query)
            for key in ("game", "seat", "token"):
                if key in query:
                    st.query_params[key] = query[key][0]
            st.rerun()


def claim_choices(page: SeatPage) -> list[Role | None]:
    """The claim form's roles: none, then this board's cards (`claim_roles`).

    From the seat's own view (`GameStarted`'s public composition, the thief's bottom cards
    and the wolf cards included), so a custom board offers its own cards and nothing else.
    """
    return [None, *claim_roles(page.observation.knowledge.role_counts)]


def claims_form(page: SeatPage, lang: Lang, shown: Lang, key: str) -> Claims:
    """Optional structured claims under a speech (page words in `lang`, roles in `shown`)."""
    seats = [s for s in range(1, page.seats + 1) if s != page.seat]
    with st.expander(text("play.claims", lang)):
        roles = claim_choices(page)
        role = st.selectbox(
            text("play.claim_role", lang),
            roles,
            key=f"{key}_role",
            format_func=lambda r: text("play.none", lang) if r is None else role_text(r, shown),
        )
        cols = st.columns(2)
        check = cols[0].selectbox(
            text("play.check_seat", lang), [None, *seats], key=f"{key}_check",
            format_func=lambda s: text("play.none", lang) if s is None else seat_label(s, shown),
        )  # fmt: skip
        wolf = cols[1].checkbox(text("play.check_wolf", lang), key=f"{key}_wolf")
        card, acted = check_details(page, lang, shown, key)

        def named(s: int) -> str:
            return seat_label(s, shown)

        suspects = st.multiselect(
            text("play.suspects", lang), seats, key=f"{key}_suspects", format_func=named
        )
        trusts = st.multiselect(
            text("play.trusts", lang), seats, key=f"{key}_trusts", format_func=named
        )
    checks = (
        () if check is None else (CheckClaim(seat=check, is_wolf=wolf, role=card, acted=acted),)
    )
    return Claims(role=role, checks=checks, suspects=tuple(suspects), trusts=tuple(trusts))


def check_details(
    page: SeatPage, lang: Lang, shown: Lang, key: str
) -> tuple[Role | None, bool | None]:
    """What the check adds beyond its verdict, where the board deals the role that learns it.

    The card found on the body (a coroner dealt; the board's cards to choose from) and
    whether the seat acted that night (a watchman dealt), as the terminal's
    `check=5:good:seer` and `check=5:wolf:acted` (`report_fields`). Any seat may report
    either, since any seat may claim the role; a board without that role offers neither.
    """
    cards = claim_roles(page.observation.knowledge.role_counts)
    fields = report_fields(cards)
    card: Role | None = None
    acted: bool | None = None
    cols = st.columns(2)
    if "role" in fields:
        card = cols[0].selectbox(
            text("play.check_card", lang), [None, *cards], key=f"{key}_card",
            format_func=lambda r: text("play.none", lang) if r is None else role_text(r, shown),
        )  # fmt: skip
    if "acted" in fields:
        words = {None: "play.none", True: "claim.acted", False: "claim.idle"}
        acted = cols[1].selectbox(
            text("play.check_acted", lang), [None, True, False], key=f"{key}_acted",
            format_func=lambda a: text(words[a], lang),
        )  # fmt: skip
    return card, acted


def role_text(role: Role, lang: Lang) -> str:
    """A role's name in `lang`."""
    return localize(role_name(role, game_lang(lang)), lang)


def send(page: SeatPage, token: str, action: Action, lang: Lang) -> None:
    """Post the answer to the pending request through the access layer."""
    assert page.pending is not None
    try:
        submit(desk(), page.game_id, page.seat, token, page.pending.request.step, action)
        st.session_state["play_sent"] = page.pending.request.step
    except StaleAnswer:
        st.warning(text("play.stale", lang))
    except AccessDenied:
        st.error(text("play.refused", lang))
    except ArenaError as exc:  # a rule's refusal (its text is the referee's, in English)
        error(text("play.not_taken", lang, why=str(exc)))


def decision(page: SeatPage, token: str, lang: Lang, shown: Lang) -> None:
    """The pending decision as a form of its legal options."""
    pending = page.pending
    if pending is None:
        return
    request = pending.request
    moment = "phase.night" if request.night else "play.day"
    st.subheader(f"🗳 {text(f'ask.{request.kind}', shown)}")
    st.caption(text(moment, shown, day=request.day))
    if pending.feedback:
        st.warning(escape(text("play.refused_answer", lang, why=pending.feedback)))
    if st.session_state.get("play_sent") == request.step:
        st.success(text("play.sent", lang))
        return
    menu = build_menu(request, game_lang(shown))
    key = f"req{request.step}"
    if menu.text_kind == "speak":
        said = st.text_area(text("play.speech", lang), key=f"{key}_text", max_chars=_limit(request))
        claims = claims_form(page, lang, shown, key)
        if st.button(text("play.say", lang), key=f"{key}_say", type="primary"):
            send(page, token, Speak(text=said, claims=claims), lang)
            st.rerun()
    elif menu.text_kind == "whisper":
        said = st.text_input(
            text("play.whisper", lang), key=f"{key}_text", max_chars=_limit(request)
        )
        if st.button(text("play.send", lang), key=f"{key}_send", type="primary"):
            send(page, token, Whisper(text=said), lang)
            st.rerun()
    _pick_forms(page, token, request, lang, shown, key)
    with st.container(horizontal=True):
        for choice in menu.choices:
            if st.button(localize(choice.label, shown), key=f"{key}_{choice.key}"):
                send(page, token, choice.action, lang)
                st.rerun()


def _pick_forms(
    page: SeatPage, token: str, request: Any, lang: Lang, shown: Lang, key: str
) -> None:
    """Forms for the answers the menu lists no button for: two seats, the trade, the mist.

    The magician (a swap) and cupid (the lovers) pick two seats, the miracle merchant a
    seat and a gift, the alchemist witch three seats (the terminal types them: `3 5`,
    `trade 3 check`, `2 5 9`).
    """
    pairs: tuple[tuple[str, type[Swap] | type[Link], str], ...] = (
        ("swap", Swap, "swap"),
        ("link", Link, "lovers"),
    )
    for kind, model, words in pairs:
        option = request.option(kind)
        if option is None:
            continue
        seats = st.multiselect(
            text(f"play.{words}_seats", lang),
            option.targets,
            max_selections=2,
            format_func=lambda s: seat_label(s, shown),
            key=f"{key}_{kind}",
        )
        if st.button(text(f"play.{words}", lang), key=f"{key}_{kind}_go", disabled=len(seats) != 2):
            send(page, token, model(targets=tuple(seats)), lang)
            st.rerun()
    trade = request.option("trade")
    if trade is not None:
        target = st.selectbox(
            text("play.trade_seat", lang),
            trade.targets,
            format_func=lambda s: seat_label(s, shown),
            key=f"{key}_trade_seat",
        )
        gift = st.selectbox(
            text("play.trade_gift", lang),
            list(Gift),
            format_func=lambda g: text(f"gift.{g.value}", shown),
            key=f"{key}_trade_gift",
        )
        if st.button(text("play.trade", lang), key=f"{key}_trade_go"):
            send(page, token, Trade(target=target, gift=gift), lang)
            st.rerun()
    mist = request.option("mist")
    if mist is not None:
        chosen = st.multiselect(
            text("play.mist_seats", lang),
            mist.targets,
            max_selections=3,
            format_func=lambda s: seat_label(s, shown),
            key=f"{key}_mist",
        )
        if st.button(text("play.mist", lang), key=f"{key}_mist_go", disabled=len(chosen) != 3):
            send(page, token, Mist(targets=tuple(chosen)), lang)
            st.rerun()


def _limit(request: Any) -> int | None:
    return next((o.max_chars for o in request.options if o.max_chars), None)


def table(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """The seats as this seat knows them."""
    k = page.observation.knowledge
    cells = []
    for n in range(1, page.seats + 1):
        role = k.roles.get(n)
        mark = " ⭐" if n == page.seat else ""
        mark += " 🎖️" if k.sheriff == n else ""
        state = f" · {text('dashboard.out', lang)}" if n in k.out else ""
        known = f" {role_text(role, shown)}" if role is not None else ""
        cells.append(f"{'💀' if n in k.out else '👤'} {seat_label(n, shown)}{known}{mark}{state}")
    st.caption(text("play.table", lang))
    st.markdown("  \n".join(cells))


def view(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Status, countdown, the seats and the transcript of what this seat has seen."""
    status = page.status
    k = page.observation.knowledge
    you = text("play.you_are", lang, seat=seat_label(page.seat, shown), name=page.name)
    st.markdown(f"**{escape(you)}**")
    if k.own_role is not None:
        st.markdown(text("play.role", lang, r=role_text(k.own_role, shown)))
    spec = board(page.board)
    played = text("play.board_line", lang, b=board_name(spec, shown), c=board_cards(spec, shown))
    st.caption(escape(played))  # a board file's names are its author's text, not Markdown
    if status.state in ("waiting", "checking"):  # a seat is not told the table has models
        st.info(text("play.waiting", lang))
    elif status.state == "finished":
        outcome = text(f"outcome.{status.winner}", shown) if status.winner else ""
        st.success(text("play.over", lang, w=outcome, f=status.replay))
    elif status.state == "failed":
        error(text("play.failed", lang, e=status.error))
    speaker = seat_label(status.speaking, shown)
    st.caption(f"🎙 {text('play.speaking', lang, s=speaker)}")
    if page.pending is not None:
        left = max(0, round(page.pending.deadline - time.time()))
        st.markdown(f"⏳ **{text('play.left', lang, n=left)}**")
    table(page, lang, shown)
    lines = [line for s in page.observation.seen if (line := render(s.event, shown)) is not None]
    st.caption(text("play.log", lang))
    plain("\n".join(visible(line, one_line=True) for line in reversed(lines[-200:])) or "…")


def seat_screen(game: str, seat_text: str, token: str, lang: Lang) -> None:
    """A seat's page: the decision form, then a view that refreshes itself."""
    try:
        page = seat_page(desk(), game, int(seat_text) if seat_text.isdigit() else 0, token)
    except AccessDenied:
        st.error(text("play.refused", lang))
        return
    shown = shown_lang(lang, page.lang)
    drawn = page.pending.request.step if page.pending else None
    decision(page, token, lang, shown)

    def body() -> None:
        now = seat_page(desk(), game, page.seat, token)
        step = now.pending.request.step if now.pending else None
        if step != drawn:
            st.rerun(scope="app")
        view(now, lang, shown)

    st.fragment(body, run_every=REFRESH_S)()


def main() -> None:
    """Draw the page: its own words in the dashboard's language, the game's in the game's."""
    lang = language()
    st.title(f"🎲 {text('play.title', lang)}")
    params = st.query_params
    if params.get("game"):
        seat_screen(params.get("game", ""), params.get("seat", ""), params.get("token", ""), lang)
        return
    create, join = st.tabs([text("play.create", lang), text("play.join", lang)])
    with create:
        create_form(lang)
        st.fragment(links, run_every=1.0)(lang)
    with join:
        join_box(lang)


main()
