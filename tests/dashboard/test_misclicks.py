"""No misclicks on the Play page: options grouped by what they do, an irreversible act and
an empty speech asked once more before they go.

The witch's night was one row of ten look-alike buttons ("use nothing", "save #4" and
eight poisons), each sent on one click; an empty speech went out on one click too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from arena.dashboard.i18n import text
from arena.rules.actions import Pass, Poison, Save, Shoot, Speak, parse_action
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from tests.dashboard.test_play_page import asked_page, speech_page

Dash = Callable[..., AppTest]
OTHERS = (2, 3, 5, 6, 7, 8, 9)


def witch(dash: Dash, monkeypatch: pytest.MonkeyPatch) -> tuple[AppTest, Any, str]:
    request = DecisionRequest(
        step=0, seat=1, kind=DecisionKind.WITCH, day=1, night=True,
        options=(
            ActionOption(action="save", targets=(4,), target_required=True),
            ActionOption(action="poison", targets=OTHERS, target_required=True),
            ActionOption(action="pass"),
        ),
        default=Pass(),
    )  # fmt: skip
    return asked_page(dash, monkeypatch, "std9", request)


def button(at: AppTest, label: str) -> Any:
    (found,) = [b for b in at.main.button if b.label == label]
    return found


def rows(at: AppTest) -> list[list[str]]:
    """The decision's button rows (horizontal containers), as labels."""
    found = []
    for block in at.main.get("flex_container") or []:
        labels = [b.label for b in block.get("button")]
        if labels:
            found.append(labels)
    return found


def test_the_witchs_options_come_in_a_row_per_kind_of_act(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, _, _ = witch(dash, monkeypatch)
    labels = [b.label for b in at.main.button]
    save = [x for x in labels if x.startswith("save ")]
    poisons = [text("act.poison", "en", s=f"#{n}") for n in OTHERS]
    assert save and all(p in labels for p in poisons)
    shown = rows(at)
    assert sorted(poisons) in [sorted(r) for r in shown], shown  # the poisons, and only they
    assert [save[0]] in shown and [text("pass_as.witch", "en")] in shown, shown


def test_a_poison_asks_once_more_and_can_be_taken_back(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, desk, game = witch(dash, monkeypatch)
    poison = text("act.poison", "en", s="#3")
    button(at, poison).click().run()
    assert desk.take(game, 1, 0) is None, "one click sent a poison"
    assert [w.value for w in at.warning] == [text("play.confirm", "en", a=poison)]
    button(at, text("play.back", "en")).click().run()
    assert desk.take(game, 1, 0) is None and not at.warning
    button(at, poison).click().run()
    button(at, f"✔ {poison}").click().run()
    assert not at.exception, at.exception
    assert parse_action(desk.take(game, 1, 0) or "") == Poison(target=3)


def test_a_save_goes_on_one_click(dash: Dash, monkeypatch: pytest.MonkeyPatch) -> None:
    at, desk, game = witch(dash, monkeypatch)
    (save,) = [b for b in at.main.button if b.label.startswith("save ")]
    save.click().run()
    assert parse_action(desk.take(game, 1, 0) or "") == Save()


def test_a_shot_asks_once_more(dash: Dash, monkeypatch: pytest.MonkeyPatch) -> None:
    request = DecisionRequest(
        step=0, seat=1, kind=DecisionKind.SHOOT, day=1, night=False,
        options=(ActionOption(action="shoot", targets=(2, 3), target_required=True),
                 ActionOption(action="pass")),
        default=Pass(),
    )  # fmt: skip
    at, desk, game = asked_page(dash, monkeypatch, "std9", request)
    shot = text("act.shoot", "en", s="#2")
    button(at, shot).click().run()
    assert desk.take(game, 1, 0) is None
    button(at, f"✔ {shot}").click().run()
    assert parse_action(desk.take(game, 1, 0) or "") == Shoot(target=2)


def test_an_empty_speech_asks_first(dash: Dash, monkeypatch: pytest.MonkeyPatch) -> None:
    at, desk, game = speech_page(dash, monkeypatch, "std9")
    button(at, text("play.say", "en")).click().run()
    assert desk.take(game, 1, 0) is None, "one click sent no speech"
    assert [w.value for w in at.warning] == [text("play.confirm_empty", "en")]
    at.text_area(key="req0_text").input("I am the seer").run()  # writing one sends it
    button(at, text("play.say", "en")).click().run()
    assert parse_action(desk.take(game, 1, 0) or "") == Speak(text="I am the seer")


def test_an_empty_speech_goes_once_confirmed(dash: Dash, monkeypatch: pytest.MonkeyPatch) -> None:
    at, desk, game = speech_page(dash, monkeypatch, "std9")
    button(at, text("play.say", "en")).click().run()
    button(at, text("play.say_nothing", "en")).click().run()
    assert parse_action(desk.take(game, 1, 0) or "") == Speak(text="")


def test_after_the_explosion_the_wolf_sees_it_went_off(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.rules import events as ev
    from arena.rules.visibility import PUBLIC
    from arena.storage.desk import view_line

    at, desk, game = speech_page(dash, monkeypatch, "wwk_guard")
    said = text("play.you_exploded", "en")
    assert said not in [e.value for e in at.error]
    desk.append_view(game, 1, [view_line(1, ev.SelfExploded(visibility=PUBLIC, seat=1))])
    at.run()
    assert said in [e.value for e in at.error]
