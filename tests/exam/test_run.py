"""`arena exam run`: every contestant answers every item as a seat in a game would, resumably."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.agents.base import AgentReply
from arena.cli import main
from arena.exam.answers import ItemAnswer, read_answers
from arena.exam.asking import NO_GUESS, NO_REPORT, ask_moment
from arena.exam.build import build
from arena.exam.files import read_exam
from arena.exam.items import KINDS, Item
from arena.exam.sitting import moments
from arena.match import Limits
from arena.records import BeliefReport
from arena.rules.actions import Vote
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from tests.exam.games import play_games

SLOPPY = "py:tests.support.plugins:Sloppy"
RAISING = "py:tests.support.plugins:Raising"


@pytest.fixture(scope="module")
def exam(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("exam")
    games = play_games(folder / "games", seeds=range(1, 3))
    out = folder / "exam.jsonl"
    build(games, out, seed=0, kinds=KINDS, per_game=14)
    return out


def sit(exam: Path, out: Path, *seats: str) -> int:
    args = ["exam", "run", str(exam), "--out", str(out), "--quiet"]
    return main([*args, *(a for s in seats for a in ("--seat", s))])


def answers_of(out: Path, name: str) -> dict[str, ItemAnswer]:
    sitting, answers = read_answers(out / f"{name}.answers.jsonl")
    assert [a.item for a in answers].count(answers[0].item) == 1
    return {a.item: a for a in answers}


def test_every_contestant_answers_every_item(exam: Path, tmp_path: Path) -> None:
    items = {i.id: i for i in read_exam(exam).items}
    assert sit(exam, tmp_path, "bot", "random", SLOPPY) == 0
    bot, rand, sloppy = (
        answers_of(tmp_path, n) for n in ("bot", "random", SLOPPY.replace(":", "_"))
    )
    assert set(bot) == set(rand) == set(sloppy) == set(items)
    for item_id, item in items.items():
        if item.request is not None:
            assert bot[item_id].own and rand[item_id].own
            assert bot[item_id].action in (rand[item_id].action, *_legal(item, bot[item_id]))
        if item.kind == "belief":
            assert bot[item_id].own and set(bot[item_id].beliefs or {}) == set(item.asked)
            assert rand[item_id].defaulted == NO_REPORT and rand[item_id].beliefs is None
        if item.kind == "role":
            assert bot[item_id].derived and not bot[item_id].own
            assert set(bot[item_id].roles or {}) == set(item.asked)
            assert rand[item_id].defaulted == NO_GUESS
        if item.kind == "vote":  # the sloppy plug-in is refused once, then answers
            assert sloppy[item_id].own and sloppy[item_id].tries == 2


def _legal(item: Item, answer: ItemAnswer) -> list[object]:
    """Every answer is one the referee's request allows (checked by the runner)."""
    from arena.rules.decisions import check_legal

    assert item.request is not None and answer.action is not None
    check_legal(item.request, answer.action)
    return [answer.action]


def test_a_dialled_bot_reports_the_bots_beliefs_and_answers_some_decisions_at_random(
    exam: Path, tmp_path: Path
) -> None:
    """`noisy:P:bot` is the bot's seat with a share of its decisions drawn at random; its
    belief reports are the bot's (found through the dial's wrapper)."""
    assert sit(exam, tmp_path, "bot", "noisy:0.5:bot") == 0
    bot, noisy = answers_of(tmp_path, "bot"), answers_of(tmp_path, "noisy_0.5_bot")
    items = {i.id: i for i in read_exam(exam).items}
    for item_id, item in items.items():
        if item.kind == "belief":
            assert noisy[item_id].own and noisy[item_id].beliefs == bot[item_id].beliefs
    decided = [i for i, item in items.items() if item.request is not None]
    differ = sum(noisy[i].action != bot[i].action for i in decided)
    assert 0 < differ < len(decided)


def test_a_failing_agent_gets_the_games_default_and_the_reason(exam: Path, tmp_path: Path) -> None:
    items = {i.id: i for i in read_exam(exam).items}
    assert sit(exam, tmp_path, RAISING) == 0
    for item_id, answer in answers_of(tmp_path, RAISING.replace(":", "_")).items():
        request = items[item_id].request
        if request is not None:
            assert answer.action == request.default and not answer.own
            assert answer.defaulted == "after 3 tries: the agent raised KeyError: 'no such feature'"


def test_a_plugin_that_guesses_cards_is_asked_its_own_guess(exam: Path, tmp_path: Path) -> None:
    """Through the plug-in seat's wrapper: a guesser's guesses, a broken one's none."""
    good, broken = "py:tests.exam.agents:CardGuesser", "py:tests.exam.agents:BrokenGuesser"
    assert sit(exam, tmp_path, good, broken) == 0
    items = [i for i in read_exam(exam).items if i.kind == "role"]
    guessed = answers_of(tmp_path, good.replace(":", "_"))
    failed = answers_of(tmp_path, broken.replace(":", "_"))
    for item in items:
        card = next(iter(item.view.knowledge.role_counts))
        assert guessed[item.id].own and not guessed[item.id].derived
        assert guessed[item.id].roles == dict.fromkeys(item.asked, card)
        assert failed[item.id].defaulted == NO_GUESS and failed[item.id].roles is None


def test_a_seats_moments_are_asked_in_turn_and_seats_side_by_side(tmp_path: Path) -> None:
    """A stream per seat of a game (its prompts grow as in a game): never two at once."""
    from tests.exam.agents import Overlapping

    games = play_games(tmp_path / "games", seeds=range(5, 6))
    exam = tmp_path / "exam.jsonl"
    build(games, exam, seed=0, kinds=("vote", "knife", "seer", "speech"), per_game=None)
    args = ["exam", "run", str(exam), "--out", str(tmp_path / "out"), "--quiet"]
    assert main([*args, "--concurrency", "4", "--seat", "py:tests.exam.agents:Overlapping"]) == 0
    assert Overlapping.peak_seat == 1 and Overlapping.peak_all > 1


def test_a_stopped_sitting_resumes_and_asks_only_the_rest(exam: Path, tmp_path: Path) -> None:
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    assert sit(exam, whole, "bot") == 0
    lines = (whole / "bot.answers.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    stopped.mkdir()
    torn = lines[4][: len(lines[4]) // 2]  # a crash in the middle of a write
    (stopped / "bot.answers.jsonl").write_text("".join(lines[:4]) + torn, encoding="utf-8")
    assert sit(exam, stopped, "bot") == 0
    again, first = answers_of(stopped, "bot"), answers_of(whole, "bot")
    assert set(again) == set(first)
    for item_id, answer in first.items():
        assert again[item_id].model_copy(update={"seconds": 0}) == answer.model_copy(
            update={"seconds": 0}
        )
    assert sit(exam, stopped, "bot") == 0  # nothing left: nothing asked, nothing added
    assert len(answers_of(stopped, "bot")) == len(first)


def test_another_sittings_file_in_the_way_is_one_line(
    exam: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sit(exam, tmp_path, "bot") == 0
    (tmp_path / "bot.answers.jsonl").rename(tmp_path / "random.answers.jsonl")
    capsys.readouterr()
    assert sit(exam, tmp_path, "random") == 2
    err = capsys.readouterr().err
    assert "holds bot's answers" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (("human",), "a person cannot sit an exam"),
        (("bot", "bot"), "named twice"),
        (("bto",), "bad seat spec"),
    ],
)
def test_bad_contestants_are_one_line(
    exam: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    seats: tuple[str, ...],
    message: str,
) -> None:
    assert sit(exam, tmp_path, *seats) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("", "empty"),
        ("not json\n", ":1: not a valid exam line"),
        ('{"type":"exam","format":1,"exam_id":"x","seed":0,"kinds":[],"per_game":1,'
         '"sources":[],"items":2}\n', "0 items, its header says 2"),
    ],
)  # fmt: skip
def test_a_bad_exam_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    path = tmp_path / "exam.jsonl"
    path.write_text(body, encoding="utf-8")
    assert sit(path, tmp_path / "out", "bot") == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


class Folding:
    """A seat that reports its beliefs with its exile vote, as a model seat does (daily)."""

    name = "folding"
    folds_beliefs = True

    def __init__(self, *, with_report: bool) -> None:
        self.with_report = with_report
        self.asked_beliefs = 0

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        target = request.options[0].targets[0]
        report = self.report(view) if self.with_report else None
        return AgentReply(action=Vote(target=target), belief=report)

    async def believe(self, view: Observation) -> BeliefReport:
        self.asked_beliefs += 1
        return self.report(view)

    def report(self, view: Observation) -> BeliefReport:
        seat = view.viewer.seat  # type: ignore[union-attr]
        others = {s: 0.3 for s in view.knowledge.present() if s != seat}
        return BeliefReport(seat=seat, day=1, after_seq=view.log_length, wolf_probability=others)


def test_a_vote_that_carries_the_report_answers_the_belief_item(exam: Path, tmp_path: Path) -> None:
    """As in a game: no separate question, unless the vote came without a report."""
    out = tmp_path / "votes.jsonl"
    build([exam.parent / "games"], out, kinds=("vote", "belief"), per_game=None)
    group = moments(read_exam(out).items)[0]
    assert {i.kind for i in group} == {"vote", "belief"}
    for with_report, questions in ((True, 0), (False, 1)):
        agent = Folding(with_report=with_report)
        answers = asyncio.run(ask_moment(agent, group, Limits()))  # type: ignore[arg-type]
        belief = next(a for a in answers if a.item.endswith("-belief"))
        assert agent.asked_beliefs == questions and belief.own
        assert set(belief.beliefs or {}) == set(next(i for i in group if i.kind == "belief").asked)
        assert json.loads(belief.model_dump_json())["calls"] == []


def test_the_summary_counts_role_guesses_read_off_beliefs_apart(
    exam: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat with no role question is not asked the role items: its guesses are read off
    its belief report. They are neither its own answers nor defaults, so the line counts
    them apart instead of lowering its own share (a real model's 100 % showed as 73 %)."""
    assert sit(exam, tmp_path / "out", "bot") == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("bot:"))
    answers = answers_of(tmp_path / "out", "bot").values()
    derived = sum(a.derived for a in answers)
    own = sum(a.own for a in answers)
    assert derived > 0 and own == len(answers) - derived
    assert f"{own} of {own} own (100%), {derived} role guesses read off its beliefs" in line
