"""`arena exam build`: verified games cut into items, reproducibly, with the key apart."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import ArenaError
from arena.exam.build import build
from arena.exam.draw import draw
from arena.exam.files import key_path, read_exam, read_key
from arena.exam.items import KINDS
from arena.exam.moments import candidates
from arena.exam.sources import Refused, verify
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import read_replay
from arena.storage.seal import arena_key
from arena.transcript import transcript
from tests.exam.games import play_games


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return play_games(tmp_path_factory.mktemp("games"), seeds=range(1, 5))


def test_every_kind_is_cut_and_every_item_has_its_truth(games: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "exam.jsonl"
    built = build(games, out, seed=3, kinds=KINDS, per_game=None)
    exam = read_exam(out)
    key = read_key(key_path(out), exam)
    assert built.refused == [] and exam.header.items == len(exam.items) > 100
    assert set(Counter(i.kind for i in exam.items)) == set(KINDS)
    assert {s.sha256 for s in exam.header.sources} == {i.source for i in exam.items}
    for item in exam.items:
        truth = key.truths[item.id]
        wolf = item.seat in truth.wolves
        assert truth.roles[item.seat - 1] == item.role == item.view.knowledge.own_role
        assert not wolf if item.kind in ("vote", "belief") else True
        assert wolf if item.kind in ("knife", "speech") else True
        assert (item.request is None) == (item.kind in ("belief", "role"))


def test_the_view_and_request_are_the_referees_at_that_moment(
    games: list[Path], tmp_path: Path
) -> None:
    """Re-running the replay to the item's step gives its request, and `observe` its view."""
    out = tmp_path / "exam.jsonl"
    build(games[:1], out, seed=0, kinds=KINDS, per_game=None)
    replay = read_replay(games[0])
    for item in read_exam(out).items:
        referee = Referee(replay.header.config, replay.header.seed, draw=replay.header.draw)
        for answer in replay.answers:
            if answer.step >= item.step:
                break
            referee.submit(answer.seat, answer.action, defaulted=answer.defaulted, recorded=True)
        request = referee.request_for(item.seat)
        assert request is not None and len(referee.events) == item.until
        assert item.request in (None, request)
        assert item.view == observe(referee.events, SeatViewer(seat=item.seat))


def test_an_item_shows_what_arena_replay_shows_of_that_seat_at_that_step(
    games: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exam.jsonl"
    build(games[:1], out, seed=0, kinds=("speech",), per_game=1)
    (item,) = read_exam(out).items
    capsys.readouterr()
    args = ["replay", str(games[0]), "--as", f"seat:{item.seat}", "--until", str(item.until)]
    assert main([*args, "--lang", "en"]) == 0
    printed = capsys.readouterr().out
    for line in transcript(item.view, "en"):
        assert line in printed


def test_the_same_replays_and_seed_give_the_same_bytes(games: list[Path], tmp_path: Path) -> None:
    """File names, file order, copies and workers change nothing; the seed does."""
    one, two, three = (tmp_path / f"{n}.jsonl" for n in ("one", "two", "three"))
    build(games, one, seed=5, kinds=KINDS, per_game=7, jobs=1)
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    for n, path in enumerate(reversed(games)):
        shutil.copy(path, renamed / f"z{n}.jsonl")
    build([renamed], two, seed=5, kinds=KINDS, per_game=7, jobs=2)
    build(games, three, seed=6, kinds=KINDS, per_game=7, jobs=1)
    assert one.read_bytes() == two.read_bytes()
    assert key_path(one).read_bytes() == key_path(two).read_bytes()
    assert one.read_bytes() != three.read_bytes()


def test_items_are_whole_seats_all_but_one_cut_at_its_earliest(
    games: list[Path], tmp_path: Path
) -> None:
    """Per game, seats give every moment they have; only the last drawn is cut, from its end."""
    every, out = tmp_path / "every.jsonl", tmp_path / "exam.jsonl"
    build(games, every, seed=1, kinds=KINDS, per_game=None)
    build(games, out, seed=1, kinds=KINDS, per_game=12)
    candidates = read_exam(every).items
    items = read_exam(out).items
    assert set(Counter(i.source for i in items).values()) == {12}
    for source in {i.source for i in items}:
        seats = {i.seat for i in items if i.source == source}
        cut = 0
        for seat in seats:
            have = [i.id for i in items if i.source == source and i.seat == seat]
            stream = [i.id for i in candidates if i.source == source and i.seat == seat]
            assert have == stream[: len(have)]  # a seat's earliest moments, none skipped
            cut += len(have) < len(stream)
        assert cut <= 1


def test_a_games_seats_take_turns_by_card(games: list[Path]) -> None:
    """The draw's order: seat after seat, a seat's moments in step order, cards in turn."""
    found = verify(games[0], arena_key())
    assert not isinstance(found, Refused)
    drawn = draw(list(candidates(found.moments)), None, 5, found.sha256, KINDS)
    seats = list(dict.fromkeys(c.moment.request.seat for c in drawn))
    assert [c.moment.request.seat for c in drawn] == sorted(
        (c.moment.request.seat for c in drawn), key=seats.index
    )  # seat after seat
    for seat in seats:
        steps = [c.moment.request.step for c in drawn if c.moment.request.seat == seat]
        assert steps == sorted(steps)
    cards = [found.moments[0].roles[s - 1] for s in seats]
    first_round = cards[: len(set(cards))]
    assert len(set(first_round)) == len(first_round)  # each card once before any twice


def test_every_card_leads_some_game(tmp_path: Path) -> None:
    """Which card a game's draw starts with follows the seats' ranks, not the board order."""
    games = play_games(tmp_path / "games", seeds=range(11, 23))
    out = tmp_path / "exam.jsonl"
    build(games, out, seed=0, kinds=KINDS, per_game=1)
    leads = Counter(i.role for i in read_exam(out).items)
    assert len(leads) >= 3, leads


def test_kinds_knife_and_seer_are_the_referees_own_questions(
    games: list[Path], tmp_path: Path
) -> None:
    out = tmp_path / "exam.jsonl"
    build(games, out, seed=1, kinds=("knife", "seer"), per_game=None)
    exam = read_exam(out)
    key = read_key(key_path(out), exam)
    for item in exam.items:
        assert item.request is not None and item.request.kind == item.kind
        truth = key.truths[item.id]
        assert (item.seat in truth.wolves) == (item.kind == "knife")
        assert (truth.roles[item.seat - 1] is Role.SEER) == (item.kind == "seer")


def _bad_files(games: list[Path], folder: Path) -> dict[str, str]:
    """Copies of a game spoiled in every way a build must refuse; name → reason fragment."""
    folder.mkdir()
    text = games[0].read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    unsigned = "".join(lines[:-1])
    header = json.loads(lines[0])
    header["game_id"] = "edited"
    edited = json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"
    files = {
        "unsigned.jsonl": (unsigned, "unsigned"),
        "edited.jsonl": (edited + "".join(lines[1:]), "bad signature"),
        "notes.txt": ("just some notes\n", "unreadable"),
        "torn.jsonl": (text[: len(text) // 2], "unreadable"),
        "copy.jsonl": (text, "duplicate"),
    }
    for name, (body, _) in files.items():
        (folder / name).write_text(body, encoding="utf-8")
    return {name: reason for name, (_, reason) in files.items()}


def test_bad_files_are_named_one_line_each_and_left_out(games: list[Path], tmp_path: Path) -> None:
    expected = _bad_files(games, tmp_path / "bad")
    out = tmp_path / "exam.jsonl"
    built = build([tmp_path / "bad", games[0], tmp_path / "gone"], out, kinds=KINDS, per_game=3)
    reasons = {Path(r.path).name: r.reason for r in built.refused}
    assert reasons.pop("gone") == "no such file or folder"
    dropped = reasons.pop("copy.jsonl", None) or reasons.pop(games[0].name)
    assert dropped.startswith("duplicate: the same game as ")
    for name, reason in reasons.items():
        assert reason.startswith(expected[name]) and "\n" not in reason, (name, reason)
    assert len(reasons) == len(expected) - 1
    assert read_exam(out).header.items == 3


def test_no_verified_game_is_an_error(games: list[Path], tmp_path: Path) -> None:
    _bad_files(games, tmp_path / "bad")
    (tmp_path / "bad" / "copy.jsonl").unlink()
    with pytest.raises(ArenaError, match="no verified game"):
        build([tmp_path / "bad"], tmp_path / "exam.jsonl", kinds=KINDS, per_game=3)


def test_the_command_line(
    games: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exam.jsonl"
    folder = str(games[0].parent)
    assert main(["exam", "build", folder, "--out", str(out), "--kinds", "vote,knife"]) == 0
    assert "items from 4 games" in capsys.readouterr().out
    assert {i.kind for i in read_exam(out).items} == {"vote", "knife"}
    assert main(["exam", "build", folder, "--out", str(out)]) == 2
    assert "exists: pass --force" in capsys.readouterr().err
    assert main(["exam", "build", folder, "--out", str(tmp_path / "exam.txt")]) == 2
    assert "FILE.jsonl" in capsys.readouterr().err
    for flag, value in (("--kinds", "vote,lies"), ("--per-game", "0"), ("--per-game", "x")):
        with pytest.raises(SystemExit) as exit_:
            main(["exam", "build", folder, "--out", str(out), flag, value])
        assert exit_.value.code == 2
        (line,) = capsys.readouterr().err.strip().splitlines()  # the reason, no usage
        assert line.startswith(f"arena exam build: error: {flag}")
