"""Play page: create a game with people, or sit at a seat through its join link.

Creating a game writes its card to the `Desk` and shows one secret join link per human
seat (`?game=ID&seat=N&token=T`); the game is hosted in this process (single machine)
or by a worker through Redis (`python -m arena.humans.worker`). A seat's page reads only
through `arena.humans.access` with the link's token: its own `observe` projection, who is
speaking, and its pending decision as a form built from the request's legal options.
The view refreshes twice a second; the decision form is redrawn when a new request comes.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import streamlit as st

from arena.dashboard.i18n import game_lang
from arena.dashboard.session import language, settings
from arena.humans.access import AccessDenied, SeatPage, StaleAnswer, seat_page, submit
from arena.humans.commands import TITLES, build_menu, seat_name
from arena.humans.desk import Desk, MemoryDesk, SeatPlan
from arena.humans.lobby import create_game
from arena.rules.actions import Action, CheckClaim, Claims, Speak, Whisper
from arena.rules.boards import BOARDS
from arena.rules.errors import ArenaError
from arena.rules.roles import spec
from arena.rules.types import Role
from arena.transcript import Lang, render

REFRESH_S = 0.5
_WORDS: dict[str, tuple[str, str]] = {
    "title": ("Play", "上桌"),
    "create": ("Create a game", "開一局"),
    "join": ("Open a join link", "打開加入連結"),
    "board": ("Board", "板子"),
    "preset": ("Rules preset", "規則"),
    "board_default": ("the board's own", "板子預設"),
    "lang": ("Game language", "遊戲語言"),
    "who": ("Who plays each seat", "每個座位由誰來玩"),
    "kind": ("Seat {n}", "{n}號"),
    "name": ("name or model", "名字或模型"),
    "decision_s": ("Seconds per decision", "每個決定的秒數"),
    "speech_s": ("Seconds per speech", "每次發言的秒數"),
    "where": ("Run the game", "對局在哪裡執行"),
    "here": ("in this dashboard", "在本儀表板"),
    "worker": ("on a worker (Redis)", "在工作節點（Redis）"),
    "start": ("Create", "建立"),
    "links": ("Join links (one per person; each is secret)", "加入連結（每人一條，請保密）"),
    "link": ("Paste a join link", "貼上加入連結"),
    "go": ("Open", "打開"),
    "refused": ("This join link is not valid.", "這條加入連結無效。"),
    "waiting": ("Waiting for the game to start…", "等待對局開始……"),
    "speaking": ("Speaking now: {s}", "正在發言：{s}"),
    "your_turn": ("Your decision", "輪到你決定"),
    "left": ("{n} s left", "剩 {n} 秒"),
    "sent": ("Answer sent.", "已送出。"),
    "stale": ("That request is over.", "這個請求已經結束了。"),
    "speech": ("Your speech", "你的發言"),
    "claims": ("Structured claims (optional)", "結構化聲明（可選）"),
    "claim_role": ("I claim to be", "我聲稱的身份"),
    "none": ("—", "—"),
    "check_seat": ("My check: seat", "我的查驗：座位"),
    "check_wolf": ("…is a wolf", "……是狼"),
    "suspects": ("I suspect", "我懷疑"),
    "trusts": ("I trust", "我信任"),
    "say": ("Speak", "發言"),
    "whisper": ("Tell the wolves", "對狼隊說"),
    "send": ("Send", "送出"),
    "you_are": ("You are {seat} · {name}", "你是{seat} · {name}"),
    "role": ("Your card: {r}", "你的身份：{r}"),
    "out": ("out", "出局"),
    "over": ("Game over: {w} win. The replay is {f}.", "遊戲結束：{w}勝。回放檔：{f}。"),
    "failed": ("The game stopped: {e}", "對局中止：{e}"),
    "table": ("Table", "座位"),
    "log": ("What you have seen", "你看到的"),
    "nobody": ("nobody", "無"),
}
KINDS = ("human", "bot", "random", "model")


def w(key: str, lang: Lang, **values: object) -> str:
    """The page's word `key` in `lang`."""
    en, zh = _WORDS[key]
    return (zh if lang == "zh" else en).format(**values)


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


def create_form(lang: Lang) -> None:
    """Board, preset, seats, language, limits; then the join links."""
    boards = list(BOARDS)
    board = st.selectbox(
        w("board", lang),
        boards,
        index=boards.index("std9"),
        key="play_board",
        format_func=lambda b: f"{BOARDS[b].zh if lang == 'zh' else BOARDS[b].en} ({b})",
    )
    seats = BOARDS[board].seats
    with st.form("play_create"):
        preset = st.selectbox(
            w("preset", lang),
            [None, "tournament", "site", "classic"],
            format_func=lambda p: p or w("board_default", lang),
        )
        game_lang = st.radio(w("lang", lang), ["zh", "en"], horizontal=True, key="play_lang")
        st.caption(w("who", lang))
        plans: dict[int, tuple[str, str]] = {}
        columns = st.columns(3)
        for n in range(1, seats + 1):
            with columns[(n - 1) % 3]:
                kind = st.selectbox(
                    w("kind", lang, n=n), KINDS, index=0 if n == 1 else 1, key=f"play_kind_{n}"
                )
                name = st.text_input(w("name", lang), key=f"play_name_{n}")
                plans[n] = (kind, name)
        decision_s = st.number_input(w("decision_s", lang), 10, 3600, 180, key="play_decision")
        speech_s = st.number_input(w("speech_s", lang), 10, 3600, 300, key="play_speech")
        where = "here"
        if settings().redis_url:
            where = st.radio(
                w("where", lang),
                ["here", "worker"],
                horizontal=True,
                format_func=lambda x: w(x, lang),
                key="play_where",
            )
        if st.form_submit_button(w("start", lang), type="primary"):
            start_game(
                board, preset, str(game_lang), plans, float(decision_s), float(speech_s), where
            )


def start_game(
    board: str,
    preset: str | None,
    lang: str,
    plans: dict[int, tuple[str, str]],
    decision_s: float,
    speech_s: float,
    where: str,
) -> None:
    """Create the game, start it here or on a worker, and keep its join links."""
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
            lang="zh" if lang == "zh" else "en",
            decision_timeout_s=decision_s,
            speech_timeout_s=speech_s,
        )
    except ArenaError as exc:
        st.error(str(exc))
        return
    if where == "worker":
        target.enqueue(game_id)
    else:  # single machine: this process hosts the game (bots and model seats run here)
        from arena.humans.host import host_in_thread, live_folder

        replays = settings().replays
        host_in_thread(target, game_id, replays, live_folder(replays))
    st.session_state["play_links"] = [
        (n, seats[n].name, f"play?game={game_id}&seat={n}&token={token}")
        for n, token in tokens.items()
    ]


def links(lang: Lang) -> None:
    """The join links of the game this session created."""
    made = st.session_state.get("play_links")
    if not made:
        return
    st.subheader(w("links", lang))
    for n, name, link in made:
        st.markdown(f"**{seat_name(n, lang)} · {name}** — [{link.split('&token=')[0]}…]({link})")
        st.code(link, language=None)


def join_box(lang: Lang) -> None:
    """Open a pasted join link in this tab."""
    with st.form("play_join"):
        text = st.text_input(w("link", lang), key="play_link")
        if st.form_submit_button(w("go", lang)):
            query = parse_qs(urlparse(text.strip()).query)
            for key in ("game", "seat", "token"):
                if key in query:
                    st.query_params[key] = query[key][0]
            st.rerun()


def claims_form(page: SeatPage, lang: Lang, key: str) -> Claims:
    """Optional structured claims under a speech."""
    seats = [s for s in range(1, page.seats + 1) if s != page.seat]
    with st.expander(w("claims", lang)):
        roles: list[Role | None] = [None, *Role]
        role = st.selectbox(
            w("claim_role", lang),
            roles,
            key=f"{key}_role",
            format_func=lambda r: w("none", lang) if r is None else role_text(r, lang),
        )
        cols = st.columns(2)
        check = cols[0].selectbox(
            w("check_seat", lang), [None, *seats], key=f"{key}_check", format_func=str
        )
        wolf = cols[1].checkbox(w("check_wolf", lang), key=f"{key}_wolf")
        suspects = st.multiselect(w("suspects", lang), seats, key=f"{key}_suspects")
        trusts = st.multiselect(w("trusts", lang), seats, key=f"{key}_trusts")
    checks = () if check is None else (CheckClaim(seat=check, is_wolf=wolf),)
    return Claims(role=role, checks=checks, suspects=tuple(suspects), trusts=tuple(trusts))


def role_text(role: Role, lang: Lang) -> str:
    """A role's name in `lang`."""
    return spec(role).zh if lang == "zh" else spec(role).en


def send(page: SeatPage, token: str, action: Action, lang: Lang) -> None:
    """Post the answer to the pending request through the access layer."""
    assert page.pending is not None
    try:
        submit(desk(), page.game_id, page.seat, token, page.pending.request.step, action)
        st.session_state["play_sent"] = page.pending.request.step
    except StaleAnswer:
        st.warning(w("stale", lang))
    except ArenaError as exc:
        st.error(str(exc))


def decision(page: SeatPage, token: str, lang: Lang) -> None:
    """The pending decision as a form of its legal options."""
    pending = page.pending
    if pending is None:
        return
    request = pending.request
    asked = TITLES[lang].get(request.kind, w("your_turn", lang))
    when = (
        f"第{request.day}{'夜' if request.night else '天'}" if lang == "zh" else request.phase_label
    )
    st.subheader(f"🗳 {asked}")
    st.caption(when)
    if pending.feedback:
        st.warning(pending.feedback)
    if st.session_state.get("play_sent") == request.step:
        st.success(w("sent", lang))
        return
    menu = build_menu(request, lang)
    key = f"req{request.step}"
    if menu.text_kind == "speak":
        text = st.text_area(w("speech", lang), key=f"{key}_text", max_chars=_limit(request))
        claims = claims_form(page, lang, key)
        if st.button(w("say", lang), key=f"{key}_say", type="primary"):
            send(page, token, Speak(text=text, claims=claims), lang)
            st.rerun()
    elif menu.text_kind == "whisper":
        text = st.text_input(w("whisper", lang), key=f"{key}_text", max_chars=_limit(request))
        if st.button(w("send", lang), key=f"{key}_send", type="primary"):
            send(page, token, Whisper(text=text), lang)
            st.rerun()
    with st.container(horizontal=True):
        for choice in menu.choices:
            if st.button(choice.label, key=f"{key}_{choice.key}"):
                send(page, token, choice.action, lang)
                st.rerun()


def _limit(request: Any) -> int | None:
    return next((o.max_chars for o in request.options if o.max_chars), None)


def table(page: SeatPage, lang: Lang) -> None:
    """The seats as this seat knows them."""
    k = page.observation.knowledge
    cells = []
    for n in range(1, page.seats + 1):
        role = k.roles.get(n)
        mark = " ⭐" if n == page.seat else ""
        mark += " 🎖️" if k.sheriff == n else ""
        state = f" · {w('out', lang)}" if n in k.out else ""
        known = f" {role_text(role, lang)}" if role is not None else ""
        cells.append(f"{'💀' if n in k.out else '👤'} {seat_name(n, lang)}{known}{mark}{state}")
    st.caption(w("table", lang))
    st.markdown("  \n".join(cells))


def view(page: SeatPage, lang: Lang) -> None:
    """Status, countdown, the seats and the transcript of what this seat has seen."""
    status = page.status
    k = page.observation.knowledge
    st.markdown(f"**{w('you_are', lang, seat=seat_name(page.seat, lang), name=page.name)}**")
    if k.own_role is not None:
        st.markdown(w("role", lang, r=role_text(k.own_role, lang)))
    if status.state == "waiting":
        st.info(w("waiting", lang))
    elif status.state == "finished":
        st.success(w("over", lang, w=status.winner, f=status.replay))
    elif status.state == "failed":
        st.error(w("failed", lang, e=status.error))
    speaker = seat_name(status.speaking, lang) if status.speaking else w("nobody", lang)
    st.caption(f"🎙 {w('speaking', lang, s=speaker)}")
    if page.pending is not None:
        left = max(0, round(page.pending.deadline - time.time()))
        st.markdown(f"⏳ **{w('left', lang, n=left)}**")
    table(page, lang)
    lines = [line for s in page.observation.seen if (line := render(s.event, lang)) is not None]
    st.caption(w("log", lang))
    st.markdown("  \n".join(reversed(lines[-200:])) or "…")


def seat_screen(game: str, seat_text: str, token: str, lang: Lang) -> None:
    """A seat's page: the decision form, then a view that refreshes itself."""
    try:
        page = seat_page(desk(), game, int(seat_text) if seat_text.isdigit() else 0, token)
    except AccessDenied:
        st.error(w("refused", lang))
        return
    game_lang: Lang = "zh" if page.lang == "zh" else "en"
    drawn = page.pending.request.step if page.pending else None
    decision(page, token, game_lang)

    def body() -> None:
        now = seat_page(desk(), game, page.seat, token)
        step = now.pending.request.step if now.pending else None
        if step != drawn:
            st.rerun(scope="app")
        view(now, game_lang)

    st.fragment(body, run_every=REFRESH_S)()


def main() -> None:
    """Draw the page (its own words in English or Chinese; the game text in the game's)."""
    lang: Lang = game_lang(language())
    st.title(f"🎲 {w('title', lang)}")
    params = st.query_params
    if params.get("game"):
        seat_screen(params.get("game", ""), params.get("seat", ""), params.get("token", ""), lang)
        return
    create, join = st.tabs([w("create", lang), w("join", lang)])
    with create:
        create_form(lang)
        links(lang)
    with join:
        join_box(lang)


main()
