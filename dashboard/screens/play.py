"""Play page: create a game with people, or sit at a seat through its join link.

Creating a game writes its card to the `Desk` and shows one secret join link per human
seat (`?game=ID&seat=N&lang=L&token=T`, in the creator's page language); the game is
hosted in this process (single machine) or by a worker through Redis
(`python -m arena.humans.worker`). A seat's page reads only
through `arena.humans.access` with the link's token: its own `observe` projection, who is
speaking, and its pending decision, drawn as the form `arena.humans.answer` builds from
the request's legal options (which answers are offered, and the action each pick stands
for, are decided there: this page draws the options and sends the action).
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

import html
import os
import time
from urllib.parse import parse_qs, urlencode, urlparse

import streamlit as st

from arena.board_file import example_boards, parse_board_upload
from arena.dashboard.hosted import desk, hosted
from arena.dashboard.i18n import Lang, context_label, game_lang, localize, render, text
from arena.dashboard.plain import error, escape, plain, visible
from arena.dashboard.player_ui import claims_line
from arena.dashboard.session import language, settings
from arena.humans.access import (
    AccessDenied,
    SeatPage,
    StaleAnswer,
    arm,
    disarm,
    seat_page,
    submit,
)
from arena.humans.answer import (
    ClaimForm,
    Pick,
    SpeechForm,
    TradePick,
    WhisperForm,
    answer_form,
    kept_window,
    standing_offer,
)
from arena.humans.hosting import join_url, start_game
from arena.rules import events as ev
from arena.rules.actions import Action, Claims
from arena.rules.boards import BOARDS, Board, board
from arena.rules.decisions import DecisionKind
from arena.rules.errors import ArenaError
from arena.rules.roles import is_wolf
from arena.rules.types import Role
from arena.storage.desk import Pace
from arena.transcript import role_name

REFRESH_S = 0.5
PLAYER_PAGE = "player"  # the replay player's URL path (app.py)
KINDS = ("human", "bot", "random", "model")
PRESETS = (None, "tournament", "site", "classic")
UPLOAD = "upload"  # the board picker's last entry: a board file from the creator's computer
GAME_LANGS = ("zh", "en")  # a new game's languages; the default is the page's (`game_lang`)
# (no bare strings at the top level of a page: Streamlit's magic would show them)


def shown_lang(page: Lang, game: str) -> Lang:
    """The language a game's own text is shown in: the game's, in the page's script.

    A Chinese game on an English page is shown as written (Traditional characters).
    """
    if game != "zh":
        return "en"
    return page if page != "en" else "zh-Hant"


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
            start(chosen_board, preset, str(chosen), plans, limits, pace, where, lang)


def start(
    board: str | Board,
    preset: str | None,
    game: str,
    plans: dict[int, tuple[str, str]],
    limits: tuple[float, float],
    pace: Pace,
    where: str,
    lang: Lang,
) -> None:
    """Start the game (`arena.humans.hosting.start_game`) and keep its join links."""
    with st.spinner(text("play.checking", lang)):
        started = start_game(
            desk(), board, plans, preset=preset, lang="zh" if game == "zh" else "en",
            limits=limits, pace=pace, where="worker" if where == "worker" else "here",
            page_lang=lang, replays=settings().replays, hosted=hosted(),
        )  # fmt: skip
    if started.error is not None:
        st.session_state.pop("play_links", None)
        key = "play.cannot_create" if started.stage == "create" else "play.cannot_start"
        error(text(key, lang, error=started.error))
        return
    st.session_state["play_links"] = (started.game_id, started.links)


def page_address() -> str:
    """The dashboard's address for links: a configured public URL, else this page's."""
    configured = settings().public_url or os.environ.get("ARENA_PUBLIC_URL")
    return configured or st.context.url or ""


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
    st.caption(text("play.copy_hint", lang))
    base = page_address()
    for link in rows:
        url = join_url(base, link.query)
        st.markdown(f"**{seat_label(link.seat, lang)} · {escape(link.name)}**")
        st.code(url, language=None)  # Streamlit's code block has a copy button


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


def claims_form(form: ClaimForm, lang: Lang, shown: Lang, key: str) -> Claims:
    """The optional claims under a speech, as offered (page words in `lang`, roles in `shown`).

    The lists are the board's own (`arena.humans.answer.ClaimForm`); the picks go back to
    the form, which builds the claims.
    """
    with st.expander(text("play.claims", lang)):
        role = st.selectbox(
            text("play.claim_role", lang),
            form.roles,
            key=f"{key}_role",
            format_func=lambda r: text("play.none", lang) if r is None else role_text(r, shown),
        )
        cols = st.columns(2)
        check = cols[0].selectbox(
            text("play.check_seat", lang), form.checks, key=f"{key}_check",
            format_func=lambda s: text("play.none", lang) if s is None else seat_label(s, shown),
        )  # fmt: skip
        wolf = cols[1].checkbox(text("play.check_wolf", lang), key=f"{key}_wolf")
        card, acted = check_details(form, lang, shown, key)

        def named(s: int) -> str:
            return seat_label(s, shown)

        suspects = st.multiselect(
            text("play.suspects", lang), form.seats, key=f"{key}_suspects", format_func=named
        )
        trusts = st.multiselect(
            text("play.trusts", lang), form.seats, key=f"{key}_trusts", format_func=named
        )
    return form.claims(
        role=role, check=check, wolf=wolf, card=card, acted=acted, suspects=suspects,
        trusts=trusts,
    )  # fmt: skip


def check_details(
    form: ClaimForm, lang: Lang, shown: Lang, key: str
) -> tuple[Role | None, bool | None]:
    """What the check adds beyond its verdict, where the form offers it.

    The card found on the body (a coroner dealt) and whether the seat acted that night (a
    watchman dealt), as the terminal's `check=5:good:seer` and `check=5:wolf:acted`.
    """
    card: Role | None = None
    acted: bool | None = None
    cols = st.columns(2)
    if form.cards:
        card = cols[0].selectbox(
            text("play.check_card", lang), form.cards, key=f"{key}_card",
            format_func=lambda r: text("play.none", lang) if r is None else role_text(r, shown),
        )  # fmt: skip
    if form.acted:
        words = {None: "play.none", True: "claim.acted", False: "claim.idle"}
        acted = cols[1].selectbox(
            text("play.check_acted", lang), form.acted, key=f"{key}_acted",
            format_func=lambda a: text(words[a], lang),
        )  # fmt: skip
    return card, acted


def role_text(role: Role, lang: Lang) -> str:
    """A role's name in `lang`."""
    return localize(role_name(role, game_lang(lang)), lang)


def sent_key(page: SeatPage) -> tuple[str, int, int, str | None]:
    """What an answer sent from this page answered: game, seat, step, the refusal shown.

    The step alone is not enough: a tab that plays a second game meets the same steps
    again, and a re-ask after the host refused the answer keeps its step with a new
    refusal; either must show the form again.
    """
    assert page.pending is not None
    return page.game_id, page.seat, page.pending.request.step, page.pending.feedback


def send(page: SeatPage, token: str, action: Action, lang: Lang) -> None:
    """Post the answer to the pending request through the access layer."""
    assert page.pending is not None
    try:
        submit(desk(), page.game_id, page.seat, token, page.pending.request.step, action)
        st.session_state["play_sent"] = sent_key(page)
    except StaleAnswer:
        st.warning(text("play.stale", lang))
    except AccessDenied:
        st.error(text("play.refused", lang))
    except ArenaError as exc:  # a rule's refusal (its text is the referee's, in English)
        error(text("play.not_taken", lang, why=str(exc)))


def decision(page: SeatPage, token: str, lang: Lang, shown: Lang) -> None:
    """The pending decision as a form of its legal options, with its countdown.

    The form is `arena.humans.answer`'s: this draws its options and sends the action it
    builds from the person's picks. The window after a speech (a wolf's self-explosion, a
    knight's duel) is not asked: it is the standing action (`standing`), and the person's
    silence is their "no".
    """
    form = answer_form(page, game_lang(shown))
    if form is None or page.pending is None:
        return
    request = form.request
    moment = "phase.night" if request.night else "play.day"
    left = max(0, round(page.pending.deadline - time.time()))
    st.subheader(f"🗳 {text(f'ask.{request.kind}', shown)}")
    st.caption(f"{text(moment, shown, day=request.day)} · ⏳ {text('play.left', lang, n=left)}")
    if request.kind is DecisionKind.KNIFE and (n := knife_round(page)) > 1:
        st.warning(text("play.knife_round", lang, n=n))
    if page.pending.feedback:
        st.warning(escape(text("play.refused_answer", lang, why=page.pending.feedback)))
    if st.session_state.get("play_sent") == sent_key(page):
        st.success(text("play.sent", lang))
        return
    key = f"req{request.step}"
    if isinstance(form.text, SpeechForm):
        said = st.text_area(
            text("play.speech", lang), key=f"{key}_text", max_chars=form.text.max_chars
        )
        claims = claims_form(form.text.claims, lang, shown, key)
        if st.button(text("play.say", lang), key=f"{key}_say", type="primary"):
            send(page, token, form.text.action(said, claims), lang)
            st.rerun()
    elif isinstance(form.text, WhisperForm):
        said = st.text_input(
            text("play.whisper", lang), key=f"{key}_text", max_chars=form.text.max_chars
        )
        if st.button(text("play.send", lang), key=f"{key}_send", type="primary"):
            send(page, token, form.text.action(said), lang)
            st.rerun()
    pick_forms(page, token, form.picks, lang, shown, key)
    with st.container(horizontal=True):
        for choice in form.buttons:
            if st.button(localize(choice.label, shown), key=f"{key}_{choice.key}"):
                send(page, token, choice.action, lang)
                st.rerun()


def knife_round(page: SeatPage) -> int:
    """Which knife round the wolves are in tonight (1, or more when they disagreed)."""
    rounds = 0
    for seen in page.observation.seen:
        if isinstance(seen.event, ev.PhaseStarted):
            rounds = 0
        elif isinstance(seen.event, ev.KnifeNominated):
            rounds = max(rounds, seen.event.round)
    return rounds + 1


def standing(page: SeatPage, token: str, lang: Lang, shown: Lang) -> None:
    """The window's actions as a standing offer through the day's speeches.

    `arena.humans.answer` decides what is offered (`kept_window`, `standing_offer`): once
    a window offered this seat an action, the page keeps it (in the session) while the
    speeches go on; nothing to a seat that is out. Pressed while a window is open, a
    choice is the answer; pressed during a speech, it is armed on the desk (`access.arm`)
    and the next window takes it at once.
    """
    key = f"standing_{page.game_id}_{page.seat}"
    kept = kept_window(page, st.session_state.get(key))
    if kept is None:
        st.session_state.pop(key, None)
    else:
        st.session_state[key] = kept
    offer = standing_offer(page, kept, game_lang(shown))
    if offer is None:
        return
    armed: str | None = st.session_state.get(f"{key}_armed")
    with st.container(border=True):
        st.caption(f"⚡ {text('play.standing', lang)}")
        if armed is not None:
            st.warning(text("play.armed", lang, a=localize(armed, shown)))
            if st.button(text("play.disarm", lang), key=f"{key}_disarm"):
                disarm(desk(), page.game_id, page.seat, token)
                st.session_state.pop(f"{key}_armed", None)
                st.rerun()
            return
        with st.container(horizontal=True):
            for choice in offer.choices:
                if st.button(f"💥 {localize(choice.label, shown)}", key=f"{key}_{choice.key}"):
                    if offer.answers:
                        send(page, token, choice.action, lang)
                    else:
                        arm(desk(), page.game_id, page.seat, token, choice.action)
                        st.session_state[f"{key}_armed"] = choice.label
                    st.rerun()


PICK_WORDS = {"swap": "swap", "link": "lovers", "mist": "mist"}
# the catalog's name of each seat pick: `play.NAME` its button, `play.NAME_seats` its list


def pick_forms(
    page: SeatPage, token: str, picks: tuple[Pick, ...], lang: Lang, shown: Lang, key: str
) -> None:
    """The form's picks, for the answers its menu lists no button for.

    The magician (a swap) and cupid (the lovers) pick two seats, the alchemist witch three
    (a button is enabled once that many are picked), the miracle merchant a seat and a
    gift (the terminal types them: `3 5`, `2 5 9`, `trade 3 check`).
    """
    for pick in picks:
        if isinstance(pick, TradePick):
            target = st.selectbox(
                text("play.trade_seat", lang),
                pick.seats,
                format_func=lambda s: seat_label(s, shown),
                key=f"{key}_trade_seat",
            )
            gift = st.selectbox(
                text("play.trade_gift", lang),
                pick.gifts,
                format_func=lambda g: text(f"gift.{g.value}", shown),
                key=f"{key}_trade_gift",
            )
            go = text("play.trade", lang)
            if st.button(go, key=f"{key}_trade_go", disabled=not pick.ready(target, gift)):
                send(page, token, pick.action(target, gift), lang)
                st.rerun()
            continue
        words = PICK_WORDS[pick.kind]
        seats = st.multiselect(
            text(f"play.{words}_seats", lang),
            pick.seats,
            max_selections=pick.count,
            format_func=lambda s: seat_label(s, shown),
            key=f"{key}_{pick.kind}",
        )
        go = text(f"play.{words}", lang)
        if st.button(go, key=f"{key}_{pick.kind}_go", disabled=not pick.ready(seats)):
            send(page, token, pick.action(seats), lang)
            st.rerun()


def marks(page: SeatPage, lang: Lang, shown: Lang) -> dict[int, list[str]]:
    """What this seat knows of each seat, as short tags (from its own view only).

    Its card and the cards it knows (its fellow wolves, public reveals), its checks, the
    witch's save and poison, the lovers, the sheriff, and who is out or speaking.
    """
    k = page.observation.knowledge
    tags: dict[int, list[str]] = {n: [] for n in range(1, page.seats + 1)}
    for n, role in k.roles.items():
        if n != page.seat:
            tags[n].append(("🐺 " if is_wolf(role) else "🎴 ") + role_text(role, shown))
    for n, wolf in k.checks.items():
        tags[n].append(f"🔍 {text('play.mark_wolf' if wolf else 'play.mark_good', lang)}")
    for seen in page.observation.seen:
        if isinstance(seen.event, ev.WitchActed) and seen.event.seat == page.seat:
            if seen.event.saved is not None:
                tags[seen.event.saved].append(f"💊 {text('play.mark_saved', lang)}")
            if seen.event.poisoned is not None:
                tags[seen.event.poisoned].append(f"☠️ {text('play.mark_poisoned', lang)}")
    for n in k.lovers:
        tags[n].append(f"💕 {text('play.mark_lover', lang)}")
    if k.sheriff is not None:
        tags[k.sheriff].append(f"🎖️ {text('play.mark_sheriff', lang)}")
    return tags


def table(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """The seats as this seat knows them: number, state, and what it knows of each.

    Drawn as cards that wrap (several in a row at 1400 px, two at phone width). Other
    seats are named by number only: a name would tell which seats people hold.
    """
    k = page.observation.knowledge
    tags = marks(page, lang, shown)
    cards = []
    for n in range(1, page.seats + 1):
        out = n in k.out
        speaking = page.status.speaking == n and not out
        state = text("play.mark_out", lang) if out else ""
        if speaking:
            state = f"🎙 {text('play.mark_speaking', lang)}"
        head = seat_label(n, shown) + (
            f" · {text('play.mark_you', lang)}" if n == page.seat else ""
        )
        own = role_text(k.own_role, shown) if n == page.seat and k.own_role else ""
        lines = [f"<b>{'💀' if out else '👤'} {html.escape(head)}</b>"]
        lines += [
            html.escape(x) for x in ([own] if own else []) + tags[n] + ([state] if state else [])
        ]
        css = "arena-seat" + (" arena-out" if out else "") + (" arena-speaking" if speaking else "")
        css += " arena-you" if n == page.seat else ""
        cards.append(f'<div class="{css}" data-seat="{n}">' + "<br>".join(lines) + "</div>")
    st.html(SEAT_STYLE + '<div class="arena-table">' + "".join(cards) + "</div>")


SEAT_STYLE = """<style>
.arena-table{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px}
.arena-seat{border:1px solid rgba(128,128,128,.35);border-radius:10px;padding:8px 10px;
font-size:.9rem;line-height:1.35}
.arena-speaking{border:2px solid #e0a800;background:rgba(224,168,0,.12)}
.arena-you{border:2px solid #1c83e1}
.arena-out{opacity:.5}
@media (max-width:480px){.arena-table{grid-template-columns:repeat(2,1fr)}}
</style>"""  # the table's look (static; every value in the cards is escaped)


def today(page: SeatPage) -> list[ev.Spoke]:
    """Today's speeches this seat heard, oldest first."""
    spoken: list[ev.Spoke] = []
    for seen in page.observation.seen:
        if isinstance(seen.event, ev.PhaseStarted) and not seen.event.phase.value.startswith("day"):
            spoken = []
        elif isinstance(seen.event, ev.Spoke):
            spoken.append(seen.event)
    return spoken


def conversation(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Today's speeches as a conversation, newest last, with their claims as tags."""
    st.caption(text("play.speeches", lang))
    spoken = today(page)
    if not spoken:
        st.caption(text("play.no_speeches", lang))
    for speech in spoken:
        who = seat_label(speech.seat, shown)
        with st.chat_message(who, avatar="⭐" if speech.seat == page.seat else "👤"):
            st.markdown(f"**{escape(who)}** · {escape(context_label(speech.context, shown))}")
            plain(localize(speech.text, shown) or "…")
            if claims := claims_line(speech.claims, shown):
                st.markdown(
                    " ".join(f":blue-badge[{escape(c.strip())}]" for c in claims.split(";"))
                )


def view(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Who is speaking, the table, today's speeches, and everything this seat has seen."""
    status = page.status
    if status.state in ("waiting", "checking"):  # a seat is not told the table has models
        st.info(text("play.waiting", lang))
    elif status.state == "finished":
        outcome = text(f"outcome.{status.winner}", shown) if status.winner else ""
        st.success(text("play.over", lang, w=outcome, f=status.replay))
        if status.replay:  # the finished game, from this seat's view, in the replay player
            query = urlencode({"game": status.replay, "view": f"seat:{page.seat}", "step": "end"})
            label = escape(text("play.over_replay", lang))
            st.markdown(f"🎬 [{label}]({PLAYER_PAGE}?{query})")
    elif status.state == "failed":
        error(text("play.failed", lang, e=status.error))
    if status.speaking is not None:
        st.markdown(f"🎙 **{text('play.speaking', lang, s=seat_label(status.speaking, shown))}**")
    left, right = st.columns([3, 2])
    with left:
        st.caption(text("play.table", lang))
        table(page, lang, shown)
    with right:
        conversation(page, lang, shown)
    lines = [line for s in page.observation.seen if (line := render(s.event, shown)) is not None]
    st.caption(text("play.log", lang))
    plain("\n".join(visible(line, one_line=True) for line in reversed(lines[-200:])) or "…")


def heading(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Who this seat is: number, name, card and board."""
    k = page.observation.knowledge
    you = text("play.you_are", lang, seat=seat_label(page.seat, shown), name=page.name)
    role = f" · {text('play.role', lang, r=role_text(k.own_role, shown))}" if k.own_role else ""
    st.markdown(f"**{escape(you)}**{role}")
    spec = board(page.board)
    played = text("play.board_line", lang, b=board_name(spec, shown), c=board_cards(spec, shown))
    st.caption(escape(played))  # a board file's names are its author's text, not Markdown


def seat_screen(game: str, seat_text: str, token: str, lang: Lang) -> None:
    """A seat's page: who it is, the decision where the eye is, then the live table."""
    try:
        page = seat_page(desk(), game, int(seat_text) if seat_text.isdigit() else 0, token)
    except AccessDenied:
        st.error(text("play.refused", lang))
        return
    shown = shown_lang(lang, page.lang)
    drawn = page.pending.request.step if page.pending else None
    heading(page, lang, shown)
    decision(page, token, lang, shown)

    def body() -> None:
        now = seat_page(desk(), game, page.seat, token)
        step = now.pending.request.step if now.pending else None
        if step != drawn:
            st.rerun(scope="app")
        standing(now, token, lang, shown)
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
