"""Exams page: an exam's results, and any item with every contestant's answer beside the truth.

The results are the answers folders under the exams folder (`arena exam run --out DIR`),
scored as `arena exam report` scores them (the bot judging speeches). An item opens in the
player at its moment, from its seat (`?game=F&view=seat:N&step=UNTIL`), when the replay
folder holds its source game (found by the SHA-256 the exam names it by).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from arena.dashboard.exams import answer_text, replay_files, result_folders, results, truth_text
from arena.dashboard.i18n import Lang, localize, t
from arena.dashboard.plain import error, escape, plain
from arena.dashboard.session import hide_folder, language, settings
from arena.errors import ArenaError
from arena.exam.items import KINDS, Item
from arena.exam.report import ExamReport
from arena.exam.results import Results
from arena.exam.scoring import score
from arena.transcript import role_name

ROW_COLUMNS = ("kind", "contestant", "items", "own", "value", "low", "high", "auroc")
PAIR_COLUMNS = ("kind", "a", "b", "items", "difference", "low", "high", "separated")


def kind_label(kind: str, lang: Lang) -> str:
    """A kind of item and how its figure reads, in `lang`."""
    return t(f"exam_kind_{kind}", lang)


def summary(done: ExamReport, lang: Lang) -> None:
    """Each contestant's figure per kind, then the paired differences."""
    rows = [r for r in done.rows if r.group == "all"]
    values = {
        "kind": [kind_label(r.kind, lang) for r in rows],
        "contestant": [r.contestant for r in rows],
        "items": [r.items for r in rows],
        "own": [round(r.own, 3) for r in rows],
        "value": [r.value for r in rows],
        "low": [r.low for r in rows],
        "high": [r.high for r in rows],
        "auroc": [r.auroc for r in rows],
    }
    frame = pd.DataFrame({t(f"exam_col_{c}", lang): values[c] for c in ROW_COLUMNS})
    st.dataframe(frame, hide_index=True, key="exam_rows")
    if not done.pairs:
        return
    st.subheader(t("exam_pairs", lang))
    pairs = {
        "kind": [kind_label(p.kind, lang) for p in done.pairs],
        "a": [p.a for p in done.pairs],
        "b": [p.b for p in done.pairs],
        "items": [p.items for p in done.pairs],
        "difference": [p.difference for p in done.pairs],
        "low": [p.low for p in done.pairs],
        "high": [p.high for p in done.pairs],
        "separated": [t("yes" if p.separated else "no", lang) for p in done.pairs],
    }
    st.dataframe(
        pd.DataFrame({t(f"exam_col_{c}", lang): pairs[c] for c in PAIR_COLUMNS}),
        hide_index=True,
        key="exam_pairs",
    )
    st.caption(t("exam_pairs_note", lang))


def item_label(item: Item, lang: Lang) -> str:
    """An item in the picker: its kind, seat, card and day."""
    role = localize(role_name(item.role, "en" if lang == "en" else "zh"), lang)
    return t("exam_item", lang, kind=kind_label(item.kind, lang), seat=item.seat, role=role,
             day=item.day, id=item.id)  # fmt: skip


def pick_item(found: Results, lang: Lang) -> Item | None:
    """The item chosen: first a kind, then one of its items."""
    kinds = [k for k in KINDS if any(i.kind == k for i in found.exam.items)]
    kind = st.selectbox(
        t("exam_kind", lang), kinds, format_func=lambda k: kind_label(k, lang), key="exam_kind"
    )
    items = {i.id: i for i in found.exam.items if i.kind == kind}
    chosen = st.selectbox(
        t("exam_pick_item", lang),
        list(items),
        format_func=lambda i: item_label(items[i], lang),
        key="exam_item",
    )
    return items.get(chosen) if chosen else None


def show_item(item: Item, found: Results, lang: Lang) -> None:
    """The item's truth, a link into the player at its moment, and every answer."""
    truth = found.key.truths[item.id]
    st.markdown(f"**{escape(t('exam_truth', lang))}** {escape(truth_text(item, truth, lang))}")
    game = replay_files(settings().replays).get(item.source)
    if game is None:
        st.caption(t("exam_no_replay", lang, game=item.game_id))
    elif st.button(t("exam_open", lang), key="exam_open", icon="🎬"):
        params = {
            "game": game, "view": f"seat:{item.seat}", "step": str(item.until), "lang": lang
        }  # fmt: skip
        st.switch_page("screens/player.py", query_params=params)
    for name, answers in sorted(found.sittings.items()):
        answer = answers.get(item.id)
        figure = score(item, answer, truth).value if answer is not None else None
        own = t("exam_own" if answer is not None and answer.own else "exam_not_own", lang)
        head = f"{name} · {own}" + (f" · {figure:.3f}" if figure is not None else "")
        st.markdown(f"**{escape(head)}**")
        plain(answer_text(item, answer, lang))


def main() -> None:
    """Draw the page."""
    lang = language()
    st.title(f"📝 {t('exams', lang)}")
    root = settings().exams
    folders = result_folders(root)
    if not folders:
        st.info(t("exam_none", lang), icon="📭")
        return
    names = {str(f.relative_to(root)) if f != root else ".": f for f in folders}
    picked = st.selectbox(t("exam_results", lang), list(names), key="exam_folder")
    try:
        found, done = results(names[picked])
    except ArenaError as exc:
        error(hide_folder(str(exc), root))
        return
    st.caption(
        t("exam_caption", lang, exam=done.exam_id, items=done.items, games=done.games,
          judges=", ".join(done.judges) or "-", resamples=done.bootstrap)
    )  # fmt: skip
    if not done.judges and any(i.kind == "speech" for i in found.exam.items):
        st.info(t("exam_unjudged", lang, folder=picked), icon="⚖️")
    summary(done, lang)
    st.subheader(t("exam_items", lang))
    item = pick_item(found, lang)
    if item is not None:
        show_item(item, found, lang)


main()
