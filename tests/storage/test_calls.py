"""Honest counts: a model seat's decisions are those its model was asked.

The arena answers some requests of a model seat without asking the model (a
self-explosion window, when windows are off); those are neither the model's own
decisions nor its failures, so the closing lines and the leaderboard's fallback figures
count them apart.
"""

from arena.commands.summary import seat_lines
from arena.llm.types import ModelCallRecord
from arena.ratings.facts import decision_tallies
from arena.rules.actions import Pass, Vote
from arena.rules.referee import Answer
from arena.storage.calls import automatic_answers
from arena.storage.replay_file import SeatAgent

ANSWERS = [
    Answer(step=0, seat=1, action=Vote(target=2)),  # asked: a call was made
    Answer(step=1, seat=1, action=Pass()),  # answered by the arena: no call, no default
    Answer(step=2, seat=1, action=Pass(), defaulted="after 3 tries: no action"),
    Answer(step=3, seat=2, action=Pass()),  # a bot
    Answer(step=4, seat=1, action=Pass()),  # asked: its call was cut off, then it passed
]


def call(step: int, **fields: object) -> ModelCallRecord:
    return ModelCallRecord(
        seat=1, step=step, attempt=1, model="m", prompt_id="p@1", messages=(), tools=None,
        reply=None, **fields,
    )  # fmt: skip


TRACES = [call(0), call(-1), call(4, cut_off=True)]


def test_an_answer_without_a_call_or_a_default_was_not_asked() -> None:
    assert automatic_answers(ANSWERS, TRACES) == {(1, 1)}
    assert automatic_answers(ANSWERS, [], model_seats=[1]) == {(1, 0), (1, 1), (1, 4)}


def test_the_closing_line_counts_asked_decisions_and_the_arenas_answers_apart() -> None:
    seats = [SeatAgent(seat=1, agent="openai:m", model="m"), SeatAgent(seat=2, agent="bot")]
    (line,) = seat_lines(ANSWERS, seats, "en", TRACES)
    assert line == (
        "seat 1 openai:m: 3 decisions asked, 2 its own, 1 defaulted "
        "(1× no usable answer); 1 answered by the arena without asking"
    )


def test_fallback_figures_leave_the_arenas_answers_out() -> None:
    tallies = decision_tallies(ANSWERS, TRACES)
    assert (tallies[1].fallbacks.num, tallies[1].fallbacks.den) == (1, 3)
    assert (tallies[2].fallbacks.num, tallies[2].fallbacks.den) == (0, 1)


def test_a_defaults_reason_says_what_happened_in_the_readers_language() -> None:
    """The raw provider error (with its URL, in English, cut at 80 characters) was printed
    inside a Chinese line (issue 30); its words stay in the trace."""
    reasons = [
        "after 3 tries: openai:m@http://127.0.0.1:8080/v1: HTTP 400: request (8375 tokens) "
        "exceeds the available context size (8192 tokens), try increasing it",
        "after 3 tries: openai:m@http://127.0.0.1:8080/v1: HTTP 500: grammar compilation failed",
        "after 3 tries: no answer within 300 s",
        "timed out: the person did not answer in time",
        "after 3 tries: this question needs one of the legal answers",
    ]
    answers = [Answer(step=n, seat=1, action=Pass(), defaulted=r) for n, r in enumerate(reasons)]
    seats = [SeatAgent(seat=1, agent="openai:m", model="m")]
    traces = [call(n) for n in range(len(reasons))]
    (zh,) = seat_lines(answers, seats, "zh", traces)
    assert "上下文已滿" in zh and "伺服器拒絕了請求" in zh and "2× 逾時" in zh, zh
    assert "沒有可用的回答" in zh and "http" not in zh and "tries" not in zh, zh
    (en,) = seat_lines(answers, seats, "en", traces)
    assert "1× the context window was full" in en and "2× timed out" in en, en


def test_a_remote_seats_chinese_closing_line_does_not_call_it_a_model() -> None:
    """A remote agent's hello name stands in `model`, so its seat gets a closing line; in
    Chinese it said 問了模型 … 由模型自己做出 (asked the model) of an agent behind a URL."""
    url = "http://127.0.0.1:9077/agent"
    seats = [SeatAgent(seat=2, agent=url, model="example-remote"), SeatAgent(seat=1, agent="bot")]
    answers = [Answer(step=3, seat=2, action=Pass()), Answer(step=5, seat=2, action=Pass())]
    (line,) = seat_lines(answers, seats, "zh")
    assert "模型" not in line and line.startswith(f"2號 {url}：問了 2 個決定")
