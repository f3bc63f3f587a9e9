"""A seat that says nothing: empty, placeholder and copied speeches are counted as such.

Small models fill a speech turn with the question's placeholder (`"…"`) or a speech they
just heard, word for word; counted as speeches, that silence was rated as play. The
legal answers offer no string to copy, and every figure that counts speeches (the
leaderboard's spoke share, `arena play`'s closing line) counts those as saying nothing.
"""

import csv
import io

from arena.agents.model.library import load_library
from arena.agents.model.options import options_text
from arena.commands.leaderboard_text import render
from arena.commands.summary import seat_lines
from arena.ratings.export import to_csv
from arena.ratings.facts import summarize
from arena.ratings.report import build_report
from arena.ratings.speeches import is_placeholder, said_nothing
from arena.ratings.stats import Ratio
from arena.rules.actions import Pass
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.events import Event
from arena.rules.types import Phase
from arena.storage.replay_file import SeatAgent
from tests.ratings.builders import deal, make_replay, phase, speech

SPEECH = DecisionRequest(
    step=1, seat=2, kind=DecisionKind.SPEECH, day=1, night=False,
    options=(ActionOption(action="speak", max_chars=600),), default=Pass(),
)  # fmt: skip
WHISPER = DecisionRequest(
    step=1, seat=2, kind=DecisionKind.WOLF_TALK, day=1, night=True,
    options=(ActionOption(action="whisper", max_chars=200),), default=Pass(),
)  # fmt: skip


def test_the_legal_answers_offer_no_string_to_copy_but_say_what_to_write() -> None:
    for lang in ("en", "zh"):
        tools = load_library(lang).tools
        for request, kind in ((SPEECH, "speak"), (WHISPER, "whisper")):
            (line,) = options_text(request, tools, "1|2")
            assert '"text": "' not in line and "…" not in line.split('"text":')[1][:20]
            slot = tools.text_slot(kind)
            assert f'"text": {slot}' in line and slot.startswith("<") and slot.endswith(">")
            assert is_placeholder(slot) and is_placeholder(slot[1:-1])


def test_empty_placeholder_and_copied_speeches_said_nothing() -> None:
    slot = load_library("en").tools.text_slot("speak")
    events: list[Event] = [
        deal(),
        phase(Phase.SPEECHES, 1),
        speech(4, "I am the seer; 7 is a wolf."),
        speech(5, "I am the seer; 7 is a wolf."),  # copied word for word
        speech(6, "i am the seer 7 is a wolf"),  # copied, other case and punctuation
        speech(7, "…"),
        speech(8, " ... "),
        speech(9, slot),
        speech(1, slot[1:-1]),  # the slot's words without their brackets
        speech(2, "<my speech>"),
        speech(3, "3號！"),
        speech(2, "whom you suspect, and why!"),  # a run of the slot's words
        speech(1, "你怎麼看場上、懷疑誰、為什麼"),  # a run of the 繁體 slot's (Qwen, SmolLM2)
        speech(1, "你自己的發言；"),
        speech(3, "why not seat 5?"),  # a word of the slot is not a run of it
        phase(Phase.SPEECHES, 2),
        speech(4, "I am the seer; 7 is a wolf."),  # its own words again
        speech(5, "Seat 4 is lying."),
    ]
    silent = [(s.seat, nothing) for s, nothing in said_nothing(events)]
    assert silent == [
        (4, False), (5, True), (6, True), (7, True), (8, True), (9, True), (1, True),
        (2, True), (3, False), (2, True), (1, True), (1, True), (3, False), (4, False),
        (5, False),
    ]  # fmt: skip
    empty = speech(3)
    assert said_nothing([empty.model_copy(update={"text": ""})])[0][1]  # a defaulted speech
    tallies = {s.seat: s.tallies for s in summarize(make_replay(events)).seats}
    assert tallies[4].spoke == Ratio(num=2, den=2)
    assert tallies[5].spoke == Ratio(num=1, den=2)
    assert tallies[7].spoke == Ratio(num=0, den=1)


def _mute_game(game_id: str) -> list[Event]:
    """Seats 1-4 ("bot") speak; seats 5-9 ("mute") say `…` or copy seat 1."""
    return [
        deal(),
        phase(Phase.SPEECHES, 1),
        *(speech(s, f"{game_id}: seat {s} thinks seat {s + 1} is a wolf") for s in (1, 2, 3, 4)),
        speech(5, "…"),
        speech(6, f"{game_id}: seat 1 thinks seat 2 is a wolf"),
        speech(7).model_copy(update={"text": ""}),  # a defaulted speech
        speech(8, "<text>"),
        speech(9, "..."),
    ]


def test_the_leaderboard_shows_each_agents_spoke_share_even_when_it_is_zero() -> None:
    agents = ("bot",) * 4 + ("mute",) * 5
    games = [
        summarize(make_replay(_mute_game(g), agents=agents, game_id=g)) for g in ("a", "b", "c")
    ]
    report = build_report(games, bootstrap=20, seed=1)
    rows = {r["agent"]: r for r in csv.DictReader(io.StringIO(to_csv(report)))}
    assert rows["bot"]["spoke"] == "1.0" and rows["mute"]["spoke"] == "0.0"
    assert rows["mute"]["spoke_high"] == "0.0"
    (line,) = [ln for ln in render(report).splitlines() if ln.startswith("spoke")]
    assert "100%" in line and "0% [0%, 0%]" in line
    assert '"spoke"' in report.model_dump_json()


def test_the_closing_line_says_how_many_speeches_said_something() -> None:
    seats = [SeatAgent(seat=i, agent="bot") for i in range(1, 10)]
    seats[5] = SeatAgent(seat=6, agent="openai:m", model="m")
    (line,) = seat_lines([], seats, "en", (), _mute_game("a"))
    said = "; 1 speeches, 0 said something (not empty, a placeholder or another seat's words)"
    assert line.endswith(said)
    (zh,) = seat_lines([], seats, "zh", (), _mute_game("a"))
    assert "發言 1 次，其中 0 次有話" in zh
