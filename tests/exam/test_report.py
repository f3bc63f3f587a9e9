"""`arena exam report`: answers scored against the key, per contestant and paired by game."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from arena.agents.seats import MatchSpec
from arena.cli import main
from arena.exam.answers import ItemAnswer
from arena.exam.build import build
from arena.exam.contestant import Contestant
from arena.exam.files import key_path, read_exam, read_key
from arena.exam.items import KINDS, Item
from arena.exam.judge import scene, shift
from arena.exam.judgments import read_judgments
from arena.exam.report import ExamReport
from arena.exam.scoring import auroc, score, uninformed
from arena.match import Limits
from arena.rules.actions import CheckClaim, Claims, Inspect, Kill, Pass, Speak, Vote
from arena.rules.roles import is_god
from arena.rules.types import Role
from tests.exam.games import play_games

TWIN = "py:tests.exam.agents:bot_twin"


@pytest.fixture(scope="module")
def sat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An exam of 3 games, sat by bot, random and the bot under another name."""
    folder = tmp_path_factory.mktemp("report")
    games = play_games(folder / "games", seeds=range(1, 4))
    build(games, folder / "exam.jsonl", seed=0, kinds=KINDS, per_game=18)
    args = ["exam", "run", str(folder / "exam.jsonl"), "--out", str(folder / "out"), "--quiet"]
    assert main([*args, "--seat", "bot", "--seat", "random", "--seat", TWIN]) == 0
    return folder


def first(items: tuple[Item, ...], kind: str) -> Item:
    return next(i for i in items if i.kind == kind)


def test_each_kind_is_scored_against_the_truth(sat: Path) -> None:
    exam = read_exam(sat / "exam.jsonl")
    key = read_key(key_path(exam.path), exam)
    vote, seer, knife = (first(exam.items, k) for k in ("vote", "seer", "knife"))
    wolves = key.truths[vote.id].wolves
    good = next(s for s in range(1, 10) if s not in wolves)
    assert (
        score(
            vote, ItemAnswer(item=vote.id, action=Vote(target=wolves[0])), key.truths[vote.id]
        ).value
        == 1
    )
    assert (
        score(vote, ItemAnswer(item=vote.id, action=Vote(target=good)), key.truths[vote.id]).value
        == 0
    )
    assert score(vote, ItemAnswer(item=vote.id, action=Pass()), key.truths[vote.id]).value == 0
    truth = key.truths[seer.id]
    assert (
        score(seer, ItemAnswer(item=seer.id, action=Inspect(target=truth.wolves[0])), truth).value
        == 1
    )
    truth = key.truths[knife.id]
    god = next(s for s, r in enumerate(truth.roles, start=1) if is_god(r))
    assert score(knife, ItemAnswer(item=knife.id, action=Kill(target=god)), truth).value == 1


def test_a_belief_is_a_brier_score_and_a_missing_seat_the_uninformed_share(sat: Path) -> None:
    exam = read_exam(sat / "exam.jsonl")
    key = read_key(key_path(exam.path), exam)
    item = first(exam.items, "belief")
    truth = key.truths[item.id]
    sure = {s: float(s in truth.wolves) for s in item.asked}
    assert score(item, ItemAnswer(item=item.id, beliefs=sure), truth).value == 0
    wrong = {s: 1 - p for s, p in sure.items()}
    assert score(item, ItemAnswer(item=item.id, beliefs=wrong), truth).value == 1
    prior = uninformed(item)
    assert prior == pytest.approx(3 / 8)  # std9: 3 wolves among the 8 cards a good seat cannot see
    missing = score(item, ItemAnswer(item=item.id, defaulted="no belief report"), truth)
    expected = sum((prior - float(s in truth.wolves)) ** 2 for s in item.asked) / len(item.asked)
    assert missing.value == pytest.approx(expected) and not missing.own


def test_a_role_guess_is_the_share_of_cards_right(sat: Path) -> None:
    exam = read_exam(sat / "exam.jsonl")
    key = read_key(key_path(exam.path), exam)
    item = first(exam.items, "role")
    truth = key.truths[item.id]
    right = {s: truth.roles[s - 1] for s in item.asked}
    assert score(item, ItemAnswer(item=item.id, roles=right), truth).value == 1
    half = dict(list(right.items())[: len(right) // 2])
    assert score(item, ItemAnswer(item=item.id, roles=half), truth).value == pytest.approx(
        (len(right) // 2) / len(right)
    )


def test_a_speech_is_judged_and_its_claims_checked(sat: Path) -> None:
    """A wolf's fake seer claim with a wolf check on a good seat: both claims false, and the
    bot judges' suspicion moves; a speech that claims nothing moves nothing."""
    exam = read_exam(sat / "exam.jsonl")
    key = read_key(key_path(exam.path), exam)
    item = first(exam.items, "speech")
    truth = key.truths[item.id]
    good = next(s for s in item.asked or range(1, 10) if s not in truth.wolves and s != item.seat)
    fake = Speak(
        text="I am the seer.",
        claims=Claims(role=Role.SEER, checks=(CheckClaim(seat=good, is_wolf=True),)),
    )
    plain = Speak(text="Nothing to say.")
    figures = score(item, ItemAnswer(item=item.id, action=fake), truth).extra
    assert figures == {"exploded": 0.0, "false_role": 1.0, "false_check": 1.0}
    judge = Contestant("bot", MatchSpec())
    shifts = {}
    for name, speech in (("fake", fake), ("plain", plain)):
        views = scene(item, speech, key.sources[item.source], truth)
        assert views is not None and set(views.before) == set(views.after)
        for listener, before in views.before.items():
            after = views.after[listener]
            assert after.seen[:-1] == before.seen and after.seen[-1].event.text == speech.text
        shifts[name] = asyncio.run(shift(judge, item, views, truth, "x", Limits()))
    assert shifts["plain"] is not None and shifts["fake"] is not None
    assert shifts["plain"].speaker == 0
    assert shifts["fake"].speaker != 0 and shifts["fake"].listeners == len(views.before)


def test_auroc_is_the_chance_a_wolf_ranks_above_a_good_seat() -> None:
    assert auroc([(0.9, True), (0.1, False)]) == 1
    assert auroc([(0.1, True), (0.9, False)]) == 0
    assert auroc([(0.5, True), (0.5, False), (0.5, False)]) == 0.5
    assert auroc([(0.2, True), (0.6, True), (0.4, False)]) == 0.5
    assert auroc([(0.5, True)]) is None


def test_the_report_ranks_the_bot_over_random_and_never_its_twin(
    sat: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_path, json_path = tmp_path / "rows.csv", tmp_path / "report.json"
    args = ["exam", "report", str(sat / "out"), "--csv", str(csv_path), "--json", str(json_path)]
    assert main([*args, "--bootstrap", "200"]) == 0
    printed = capsys.readouterr().out
    assert "paired, a - b" in printed
    block = printed.split("\n\n")[1].splitlines()  # the header, then a row per figure
    end = block[0].index("value") + len("value")
    assert all(line[end - 1] in "0123456789-" and line[end] == " " for line in block[1:])
    assert any(TWIN in line for line in block[1:])  # longer than the old 28-character column
    done = ExamReport.model_validate_json(json_path.read_text(encoding="utf-8"))
    assert done.contestants == tuple(sorted(("bot", "random", TWIN)))
    rows = {(r.contestant, r.kind): r for r in done.rows if r.group == "all"}
    assert rows["bot", "vote"].value > rows["random", "vote"].value  # type: ignore[operator]
    assert rows["bot", "belief"].auroc > 0.6 and rows["random", "belief"].own == 0  # type: ignore[operator]
    bot_roles = rows["bot", "role"]  # the bot guesses no cards: read off its beliefs
    assert bot_roles.own == 0 and bot_roles.extra["guessed_from_beliefs"] == 1
    assert "guessed_from_beliefs 1.00" in printed
    pooled = rows["bot", "decisions"]
    parts = [rows["bot", k] for k in ("vote", "seer", "knife")]
    assert pooled.items == sum(p.items for p in parts)
    assert pooled.value == pytest.approx(sum(p.value * p.items for p in parts) / pooled.items)  # type: ignore[operator]
    assert any(p.kind == "decisions" for p in done.pairs)
    assert any(r.group.startswith("role:") for r in done.rows)
    assert any(r.group.startswith("day:") for r in done.rows)
    for pair in done.pairs:
        if {pair.a, pair.b} == {"bot", TWIN}:
            assert pair.difference == 0 and not pair.separated
            assert (pair.low, pair.high) in ((0, 0), (None, None))  # None: items of one game
    assert csv_path.read_text(encoding="utf-8").startswith("contestant,kind,group,items")
    assert "separated" in csv_path.with_suffix(".pairs.csv").read_text(encoding="utf-8")


def test_the_same_files_give_the_same_report(sat: Path, tmp_path: Path) -> None:
    outputs = []
    for n in range(2):
        path = tmp_path / f"{n}.json"
        assert (
            main(["exam", "report", str(sat / "out"), "--bootstrap", "50", "--json", str(path)])
            == 0
        )
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]


def test_verdicts_are_kept_and_a_changed_speech_is_judged_again(sat: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(sat / "out", out, ignore=shutil.ignore_patterns("judg*"))
    assert main(["exam", "report", str(out), "--bootstrap", "0"]) == 0
    kept = read_judgments(out)
    assert {j for j, _, _ in kept} == {"bot"} and len(kept) > 3
    assert main(["exam", "report", str(out), "--bootstrap", "0"]) == 0
    assert len((out / "judgments.jsonl").read_text(encoding="utf-8").splitlines()) == len(kept)
    path = out / "random.answers.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    spoken = next(n for n, line in enumerate(lines) if '"kind":"speak"' in line)
    lines[spoken] = lines[spoken].replace('"text":"', '"text":"Another speech. ', 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["exam", "report", str(out), "--bootstrap", "0"]) == 0
    again = (out / "judgments.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(again) == len(kept) + 1  # only the changed speech, by its one judge


def test_a_key_of_another_exam_is_one_line(
    sat: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.jsonl"
    build([sat / "games"], other, seed=9, kinds=("vote",), per_game=2)
    capsys.readouterr()
    assert main(["exam", "report", str(sat / "out"), "--key", str(key_path(other))]) == 2
    err = capsys.readouterr().err
    assert "not of" in err and len(err.strip().splitlines()) == 1


def test_missing_and_mixed_answers_are_one_line(
    sat: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["exam", "report", str(tmp_path)]) == 2
    assert "no answers file" in capsys.readouterr().err
    other = tmp_path / "other.jsonl"
    build([sat / "games"], other, seed=9, kinds=("vote",), per_game=2)
    args = ["exam", "run", str(other), "--out", str(tmp_path / "o"), "--seat", "bot", "--quiet"]
    assert main(args) == 0
    mixed = [str(sat / "out" / "random.answers.jsonl"), str(tmp_path / "o" / "bot.answers.jsonl")]
    assert main(["exam", "report", *mixed]) == 2
    assert "different exams" in capsys.readouterr().err
    lines = (sat / "out" / "bot.answers.jsonl").read_text(encoding="utf-8").splitlines()
    (tmp_path / "broken.answers.jsonl").write_text(lines[0] + "\n{}\n", encoding="utf-8")
    assert main(["exam", "report", str(tmp_path / "broken.answers.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "broken.answers.jsonl:2: not a valid answer line" in err
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["exam", "report", str(sat / "out"), "--bootstrap", "-1"])
