"""Board files from the command line, tournament files and scenarios (docs/boards.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.board_file import MAX_BYTES, example_boards, load_board_file, parse_board_upload
from arena.cli import main
from arena.dashboard.catalog import row_of
from arena.ratings.results import game_result
from arena.rules.boards import BOARDS
from arena.rules.errors import ConfigError
from arena.scenario import load_scenario, run_scenario
from arena.storage.replay_file import read_header, read_replay
from arena.tournament import load_spec, schedule

EXAMPLE = Path(__file__).resolve().parents[2] / "arena" / "boards" / "guard_city10.yaml"
SMALL = """\
id: small7
zh: 7人小局
en: 7-player small board
roles: {seer: 1, witch: 1, villager: 3, werewolf: 2}
win: city
preset: site
settings: {sheriff: false}
"""


def test_a_board_file_plays_a_seeded_game_that_validates_without_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = tmp_path / "guard_city10.yaml"
    shutil.copy(EXAMPLE, board)
    out = tmp_path / "game.jsonl"
    argv = ["play", "--board", str(board), "--seed", "3", "--out", str(out), "--lang", "en"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "10-player guard + wolf king (city)" in printed and "replay written to" in printed
    header = read_header(out)
    assert header.config.board_id == "guard_city10" and header.config.board_spec.seats == 10
    assert header.game_id.startswith("guard_city10-")
    board.unlink()  # another machine: the header carries the whole board
    assert main(["validate", str(out)]) == 0
    assert "intact" in capsys.readouterr().out
    assert main(["replay", str(out), "--as", "god", "--lang", "en"]) == 0
    assert "Game over" in capsys.readouterr().out
    assert game_result(read_replay(out)).board == "guard_city10"  # its own leaderboard board
    assert row_of(str(out), header).board == "guard_city10"  # the dashboard's listing


def test_the_same_file_and_seed_play_the_same_game(tmp_path: Path) -> None:
    logs = []
    for name in ("a.jsonl", "b.jsonl"):
        out = tmp_path / name
        argv = ["play", "--board", str(EXAMPLE), "--seed", "5", "--out", str(out), "--quiet"]
        assert main(argv) == 0
        logs.append(out.read_text().splitlines()[1:-1])  # the header holds the time (and the
        # signature covers the header)
    assert logs[0] == logs[1]


def test_boards_json_lists_the_built_in_boards_and_checked_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["boards", "--json", str(EXAMPLE)]) == 0
    rows = json.loads(capsys.readouterr().out)
    yunv = next(r for r in rows if r["id"] == "yunv")
    assert yunv["name_zh"] == "預女獵愚" and yunv["seats"] == 12 and yunv["preset"] == "tournament"
    assert yunv["night_order"] == ["wolves", "witch", "seer", "hunter_status", "idiot"]
    custom = rows[-1]
    assert custom["id"] == "guard_city10" and custom["roles"]["wolf_king"] == 1
    assert custom["night_order"] == ["guard", "wolves", "seer", "witch", "hunter_status"]
    assert custom["settings"]["sheriff_vote_weight"] == 2


BAD_FILES = [
    (
        SMALL.replace("seer: 1", "seeer: 1"),
        "b.yaml: roles: unknown role 'seeer'; did you mean 'seer'?",
    ),
    (SMALL.replace("werewolf: 2", "guard: 1"), "b.yaml: no wolves:"),
    (SMALL.replace("villager: 3", "villager: 1"), "b.yaml: too few seats: 5 cards"),
    (SMALL.replace("witch: 1", "witch: 2"), "b.yaml: 2 witch cards: witch is a unique role"),
    (
        SMALL + "night_order: [wolves, witch]\n",
        "b.yaml: night_order: no 'seer' step, but seer is dealt",
    ),
    (
        SMALL.replace("sheriff: false", "sherrif: false"),
        "b.yaml: settings: unknown setting 'sherrif'; did you mean 'sheriff'?",
    ),
    (
        SMALL.replace("villager: 3", "guard: 1, hunter: 1, idiot: 1").replace("city", "side"),
        "b.yaml: win: side needs at least one god and one villager",
    ),
    ("id: x\nroles: {seer: 1\n", "b.yaml:3: not valid YAML"),
    ("- seer\n- werewolf\n", "b.yaml: a board file is a mapping"),
    ("", "b.yaml: a board file is a mapping"),
]
"""Bad board files (as `b.yaml`) and the start of their one-line message."""


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_a_bad_board_file_is_one_line_and_exit_code_2(
    text: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("b.yaml").write_text(text, encoding="utf-8")
    for argv in (["play", "--board", "b.yaml"], ["boards", "b.yaml"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("arena: error: ") and message in err, err
        assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not Path("replays").exists()


def test_a_missing_board_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--board", "boards/none.yaml"]) == 2
    assert capsys.readouterr().err.strip() == "arena: error: boards/none.yaml: no such board file"


def test_a_tournament_reads_board_files_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "small7.yaml").write_text(SMALL, encoding="utf-8")
    spec_file = tmp_path / "t.yaml"
    spec_file.write_text(
        "name: t\nagents: {a: bot, b: random}\nboards: [std9, boards/small7.yaml]\n"
        "games_per_pairing: 1\n",
        encoding="utf-8",
    )
    spec = load_spec(spec_file)
    jobs = schedule(spec)
    custom = [j for j in jobs if j.config.board_id == "small7"]
    assert len(custom) == 2 and custom[0].config.rules.sheriff is False
    assert len(custom[0].seats) == 7
    spec_file.write_text("name: t\nagents: {a: bot}\nboards: [boards/none.yaml]\n")
    with pytest.raises(ConfigError, match=r"t.yaml: boards: 0: .*none.yaml: no such board file"):
        load_spec(spec_file)


SCENARIO = """\
name: a knifed seat dies on a custom board
source: "000:27 全體狼商議刀口（提名多數決，平票隨機）"
board: {board}
deal: [seer, witch, villager, villager, villager, werewolf, werewolf]
script:
  night 1:
    wolves: {{knife: 3}}
at: night 1
expect:
  deaths: ["3 knife night 1"]
"""


@pytest.mark.parametrize("form", ["file", "inline"])
def test_a_scenario_names_a_board_file_or_writes_the_board_inline(
    form: str, tmp_path: Path
) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "small7.yaml").write_text(SMALL, encoding="utf-8")
    inline = json.dumps(
        {
            "id": "small7",
            "roles": {"seer": 1, "witch": 1, "villager": 3, "werewolf": 2},
            "win": "city",
            "preset": "site",
        }
    )
    path = tmp_path / "case.yaml"
    path.write_text(SCENARIO.format(board="b/small7.yaml" if form == "file" else inline))
    result = run_scenario(load_scenario(path))
    assert result.passed, result.mismatches


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_a_bad_uploaded_board_file_is_the_same_one_line(text: str, message: str) -> None:
    """The Play page checks an uploaded file with the same words as `arena play --board`."""
    with pytest.raises(ConfigError) as caught:
        parse_board_upload(text.encode("utf-8"), "b.yaml")
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"id: x\nzh: \xb0\xe5\n", "up.yaml: not UTF-8 text"),
        (b"#" * (MAX_BYTES + 1), f"up.yaml: too large: a board file has at most {MAX_BYTES:,}"),
    ],
)
def test_an_upload_that_is_not_a_text_file_is_refused_in_one_line(
    data: bytes, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_board_upload(data, "up.yaml")
    assert str(caught.value).startswith(message)


def test_an_uploaded_example_is_the_board_of_the_file() -> None:
    board = parse_board_upload(EXAMPLE.read_bytes(), EXAMPLE.name)
    assert board == load_board_file(EXAMPLE) == example_boards()[EXAMPLE.stem]
    assert sorted(example_boards()) == sorted(p.stem for p in EXAMPLE.parent.glob("*.yaml"))


def test_each_example_is_named_by_its_id_which_is_its_file_name() -> None:
    """`--board ID` finds an example by its id, so the id must be the file's name and
    must not shadow a built-in board."""
    for path in sorted(EXAMPLE.parent.glob("*.yaml")):
        assert load_board_file(path).id == path.stem
    assert not set(example_boards()) & set(BOARDS)


def test_an_example_board_plays_by_its_id_from_any_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundled examples are package data: found by id wherever the command runs (a
    wheel has no `examples/` folder beside it), and the game carries the board whole."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "--board", "guard_city10", "--seed", "3", "--out", "g.jsonl", "--quiet"]
    assert main(argv) == 0
    header = read_header(tmp_path / "g.jsonl")
    assert header.config.board_spec == load_board_file(EXAMPLE)
    assert main(["validate", "g.jsonl"]) == 0
    argv = ["play", "--board", "10人守衛狼王屠城局", "--seed", "3", "--out", "zh.jsonl", "--quiet"]
    assert main(argv) == 0  # by its Chinese name, as a built-in board
    assert read_header(tmp_path / "zh.jsonl").config.board_spec == header.config.board_spec
    capsys.readouterr()
    assert main(["play", "--board", "guard_city11"]) == 2
    err = capsys.readouterr().err
    assert "unknown board 'guard_city11'" in err and "example boards: " in err
    assert "guard_city10" in err and err.count("\n") == 1


def test_boards_lists_the_examples_after_the_built_in_boards_and_says_where_they_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["boards", "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ids = [line.split()[0] for line in lines if line and not line.startswith("Example")]
    assert ids == [*BOARDS, *example_boards()]
    (where,) = [line for line in lines if line.startswith("Example board files")]
    assert str(EXAMPLE.parent) in where and "--board ID" in where
    assert main(["boards", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [*BOARDS, *example_boards()]


def test_a_tournament_and_a_scenario_name_an_example_by_its_id(tmp_path: Path) -> None:
    spec_file = tmp_path / "t.yaml"
    spec_file.write_text(
        "name: t\nagents: {a: bot, b: random}\nboards: [guard_city10]\ngames_per_pairing: 1\n"
    )
    jobs = schedule(load_spec(spec_file))
    assert jobs and all(j.config.board_spec == load_board_file(EXAMPLE) for j in jobs)
    case = tmp_path / "case.yaml"
    deal = (
        "[seer, witch, guard, hunter, villager, villager, villager, werewolf, werewolf, wolf_king]"
    )
    case.write_text(
        SCENARIO.replace("board: {board}", "board: guard_city10")
        .replace("[seer, witch, villager, villager, villager, werewolf, werewolf]", deal)
        .replace("{{knife: 3}}", "{knife: 3}")
    )
    result = run_scenario(load_scenario(case))
    assert result.passed, result.mismatches
