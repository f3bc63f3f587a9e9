"""The Exams page's data: result folders, their reports, and each answer in words.

An exam's results are a folder of answers files (`arena exam run --out DIR`) under the
dashboard's exams folder (`--exams`, default `exams/`); the exam file and its key are
found as `arena exam report` finds them (`arena.exam.results`). Speeches are scored by the
judges' verdicts `arena exam report` kept in the folder (`judgments.jsonl`): the page asks
no agent. Reports are cached by the folder's files and their sizes and times, so an
unchanged folder is scored once. Source
games are found in the replay folder by the SHA-256 the exam names them by, so an item
opens in the player at its moment.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from arena.exam.answers import ItemAnswer
from arena.exam.items import Item, KeyItem
from arena.exam.judgments import FILE, read_judgments
from arena.exam.report import ExamReport, report
from arena.exam.results import SUFFIX, Results, load
from arena.ratings.loader import candidate_files
from arena.rules.actions import Speak
from arena.transcript import claims_text, role_name, seat

from .i18n import Lang, game_lang, localize, t

BOOTSTRAP = 500
"""Resamples of games for the page's intervals (the command line's default is 1000)."""


def result_folders(root: Path) -> list[Path]:
    """Folders under `root` (and `root` itself) holding answers files, sorted."""
    if not root.is_dir():
        return []
    found = {p.parent for p in root.rglob(f"*{SUFFIX}") if not p.name.startswith(".")}
    return sorted(found)


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    files = [*sorted(folder.glob(f"*{SUFFIX}")), folder / FILE]
    return tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in files if p.exists())


@st.cache_resource(show_spinner=False, max_entries=8)
def _results(folder: str, stamp: tuple[tuple[str, int, int], ...]) -> tuple[Results, ExamReport]:
    found = load([Path(folder)], None, None)
    verdicts = read_judgments(Path(folder))
    judges = sorted({judge for judge, _, _ in verdicts})
    done = report(
        found.exam, found.key, found.sittings, judges=judges, verdicts=verdicts,
        bootstrap=BOOTSTRAP,
    )  # fmt: skip
    return found, done


def results(folder: Path) -> tuple[Results, ExamReport]:
    """The folder's results and report, scored once until its files change.

    Raises:
        ArenaError: the answers, the exam or the key cannot be read (one line).
    """
    return _results(str(folder), _stamp(folder))


@st.cache_resource(show_spinner=False, max_entries=4)
def _hashes(root: str, stamp: tuple[tuple[str, int, int], ...]) -> dict[str, str]:
    return {
        hashlib.sha256((Path(root) / name).read_bytes()).hexdigest(): name for name, _, _ in stamp
    }


def replay_files(root: Path) -> dict[str, str]:
    """The replay folder's files by the SHA-256 of their bytes (paths relative to it)."""
    if not root.is_dir():
        return {}
    files = candidate_files(root)
    stamp = tuple((str(p.relative_to(root)), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    return _hashes(str(root), stamp)


def answer_text(item: Item, answer: ItemAnswer | None, lang: Lang) -> str:
    """What a contestant answered, in words, in the page's script (a speech included)."""
    return localize(_answer_words(item, answer, lang), lang)


def _answer_words(item: Item, answer: ItemAnswer | None, lang: Lang) -> str:
    if answer is None:
        return t("exam_unanswered", lang)
    words = game_lang(lang)
    if answer.beliefs is not None:
        ranked = sorted(answer.beliefs.items(), key=lambda kv: (-kv[1], kv[0]))
        return ", ".join(f"{seat(s, words)} {p:.2f}" for s, p in ranked)
    if answer.roles is not None:
        return ", ".join(f"{seat(s, words)} {role_name(r, words)}" for s, r in answer.roles.items())
    action = answer.action
    if action is None:
        return t("exam_no_answer", lang)
    if isinstance(action, Speak):
        return f"{action.text[:300]} {claims_text(action.claims, words)}".strip()
    target = getattr(action, "target", None)
    name = t(f"exam_action_{action.kind}", lang) if action.kind in ACTIONS else action.kind
    return f"{name} {seat(target, words)}" if target is not None else name


ACTIONS = ("vote", "inspect", "kill", "pass", "self_explode")
"""Action kinds the page names in its own words (others show their kind)."""


def truth_text(item: Item, truth: KeyItem, lang: Lang) -> str:
    """The truth the item is scored against: the wolves, and the cards of the seats asked."""
    words = game_lang(lang)
    wolves = ", ".join(seat(s, words) for s in truth.wolves)
    text = t("exam_wolves", lang, seats=wolves)
    if item.kind == "role":
        cards = ", ".join(
            f"{seat(s, words)} {role_name(truth.roles[s - 1], words)}" for s in item.asked
        )
        text += f" · {cards}"
    return localize(text, lang)
