"""A seat's pending decision on the Play page: its legal options drawn, the pick sent.

The form is `arena.humans.answer`'s (which answers are offered, and the action each pick
stands for, are decided there): this draws its options and sends the action it builds
through `arena.humans.access` with the seat's token. A self-explosion or duel window is
not asked: it is kept as a standing offer through the day's speeches (`standing`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import streamlit as st

from arena.errors import ArenaError
from arena.humans.access import (
    AccessDenied,
    SeatPage,
    StaleAnswer,
    arm,
    disarm,
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
from arena.rules import events as ev
from arena.rules.actions import Action, Claims
from arena.rules.decisions import DecisionKind
from arena.rules.types import Role
from arena.text.commands import Choice

from .hosted import desk
from .i18n import Lang, game_lang, localize, text
from .plain import error, escape
from .play_words import role_text, seat_label


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
        speech_box(page, token, form.text, lang, shown, key)
    elif isinstance(form.text, WhisperForm):
        said = st.text_input(
            text("play.whisper", lang), key=f"{key}_text", max_chars=form.text.max_chars
        )
        if st.button(text("play.send", lang), key=f"{key}_send", type="primary"):
            send(page, token, form.text.action(said), lang)
            st.rerun()
    pick_forms(page, token, form.picks, lang, shown, key)
    choice_rows(page, token, form.buttons, lang, shown, key)


IRREVERSIBLE = frozenset({"poison", "shoot", "self_explode"})
"""Acts that cannot be taken back once sent: a press asks once more before it goes."""


def groups(choices: Sequence[Choice]) -> list[list[Choice]]:
    """The choices grouped by what they do, in the order each kind is first offered.

    A witch's save, her poisons and doing nothing each get a row: ten look-alike buttons
    in one row invited a misclick.
    """
    kinds: dict[str, list[Choice]] = {}
    for choice in choices:
        kinds.setdefault(choice.action.kind, []).append(choice)
    return list(kinds.values())


def choice_rows(
    page: SeatPage, token: str, choices: Sequence[Choice], lang: Lang, shown: Lang, key: str
) -> None:
    """The form's buttons, a row per kind of act; an irreversible one asks once more."""
    asked = st.session_state.get(f"{key}_confirm")
    chosen = next((c for c in choices if c.key == asked), None)
    if chosen is not None:
        label = localize(chosen.label, shown)
        st.warning(text("play.confirm", lang, a=label))
        with st.container(horizontal=True):
            if st.button(f"✔ {label}", key=f"{key}_yes", type="primary"):
                send(page, token, chosen.action, lang)
                st.rerun()
            if st.button(text("play.back", lang), key=f"{key}_back"):
                st.session_state.pop(f"{key}_confirm", None)
                st.rerun()
        return
    for group in groups(choices):
        with st.container(horizontal=True):
            for choice in group:
                if st.button(localize(choice.label, shown), key=f"{key}_{choice.key}"):
                    if choice.action.kind in IRREVERSIBLE:
                        st.session_state[f"{key}_confirm"] = choice.key
                    else:
                        send(page, token, choice.action, lang)
                    st.rerun()


def speech_box(
    page: SeatPage, token: str, form: SpeechForm, lang: Lang, shown: Lang, key: str
) -> None:
    """The speech and its claims; a speech with neither words nor claims asks first.

    It is recorded as "no speech", and one click used to send it.
    """
    said = st.text_area(text("play.speech", lang), key=f"{key}_text", max_chars=form.max_chars)
    claims = claims_form(form.claims, lang, shown, key)
    empty = not said.strip() and claims == Claims()
    if empty and st.session_state.get(f"{key}_empty"):
        st.warning(text("play.confirm_empty", lang))
        if st.button(text("play.say_nothing", lang), key=f"{key}_nothing", type="primary"):
            send(page, token, form.action(said, claims), lang)
            st.rerun()
        return
    if st.button(text("play.say", lang), key=f"{key}_say", type="primary"):
        if empty:
            st.session_state[f"{key}_empty"] = True
        else:
            send(page, token, form.action(said, claims), lang)
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
