"""Every YAML or JSON a user hands the arena is read within bounds (arena/userfile.py).

The alias bombs run through each reader as a user reaches it (the CLI, the Play page's
upload, the packaged-YAML reader) in a child process whose address space is capped: the
unbounded readers took over a minute and 3 GB on the same files, so under the cap they
died of `MemoryError` instead of refusing in one line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from arena import userfile
from arena.board_file import MAX_BYTES as BOARD_MAX_BYTES
from arena.board_file import load_board_file, parse_board_upload
from arena.cli import main
from arena.commands.play_options import parse_knobs
from arena.errors import CLIP, ArenaError, clip, one_line
from arena.match import Limits
from arena.replay_check import check_replay
from arena.rules.errors import ConfigError
from arena.scenario import load_scenario
from arena.storage import jsonl
from arena.storage.jsonl import ReplayError
from arena.storage.replay_file import parse_replay_lines, read_header, read_replay
from arena.tournament import load_spec
from arena.userfile import BOM, MAX_DEPTH, parse_yaml, read_yaml
from tests.support.forgery import play

ROOT = Path(__file__).resolve().parents[1]
CAP = 512 * 1024 * 1024
"""The child's address space: the arena imported takes about 50 MB of it."""
LEVELS = "abcdefghi"


def bomb() -> str:
    """Nine nested lists of nine aliases: 324 bytes that stand for 9**9 strings."""
    parts = ['&a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for inner, outer in zip(LEVELS, LEVELS[1:], strict=False):
        parts.append(f"&{outer} [" + ", ".join([f"*{inner}"] * 9) + "]")
    return "[" + ", ".join(parts) + "]"


DEAL = (
    "[seer, witch, hunter, guard, villager, villager, villager, villager, "
    "werewolf, werewolf, werewolf, white_wolf_king]"
)
FILES = {
    "board.yaml": f"id: {bomb()}\n",
    "tournament.yaml": f"name: t\nagents: {{a: random, b: bot}}\noverrides: {{x: {bomb()}}}\n",
    "spec.yaml": f"endpoints: {{openai: {{options: {{x: {bomb()}}}}}}}\n",
    "scenario.yaml": (
        f'name: c\nsource: "003:91 x"\nboard: wwk_guard\ndeal: {DEAL}\n'
        f"script:\n  night 1:\n    wolves: {{knife: [{bomb()}]}}\n"
        "at: night 1\nexpect:\n  deaths: []\n"
    ),
    "tournament_of_bomb_board.yaml": "name: t\nagents: {a: random}\nboards: [board.yaml]\n",
}
RUN = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
from pathlib import Path
{call}
"""
CLI = "from arena.cli import main\nsys.exit(main({argv!r}))"
READERS = {
    "play --board": CLI.format(argv=["play", "--board", "board.yaml"]),
    "play page upload": (
        "from arena.board_file import parse_board_upload\n"
        "from arena.errors import ArenaError\n"
        "try:\n"
        "    parse_board_upload(Path('board.yaml').read_bytes(), 'board.yaml')\n"
        "except ArenaError as exc:\n"
        "    sys.exit(f'arena: error: {exc}')"
    ),
    "tournament run": CLI.format(argv=["tournament", "run", "tournament.yaml"]),
    "tournament naming a board file": CLI.format(
        argv=["tournament", "run", "tournament_of_bomb_board.yaml"]
    ),
    "play --spec": CLI.format(argv=["play", "--spec", "spec.yaml"]),
    "play --set": CLI.format(argv=["play", "--set", f"sheriff={bomb()}"]),
    "scenario": CLI.format(argv=["scenario", "scenario.yaml"]),
    "packaged yaml (prompts, catalog, examples)": (
        "from arena.userfile import read_yaml\n"
        "from arena.errors import ArenaError\n"
        "try:\n"
        "    read_yaml(Path('board.yaml'))\n"
        "except ArenaError as exc:\n"
        "    sys.exit(f'arena: error: {exc}')"
    ),
}


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bombs")
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("reader", READERS)
def test_an_alias_bomb_is_refused_in_one_short_line_under_a_memory_cap(
    bombs: Path, reader: str
) -> None:
    code = RUN.format(cap=CAP, call=READERS[reader])
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=bombs,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=600,
        check=False,
    )
    said = (done.stdout + done.stderr).strip()
    assert "MemoryError" not in said and "Traceback" not in said, said[-2000:]
    assert done.returncode == 2 or done.returncode == 1, said[-2000:]
    assert "its aliases expand the document past" in said, said[-2000:]
    errors = [line for line in said.splitlines() if "aliases expand" in line]
    assert len(errors) == 1 and len(errors[0]) < 400


def test_anchors_as_an_author_uses_them_are_read() -> None:
    text = textwrap.dedent(
        """
        base: &base {timeout_s: 5, retries: 2}
        fast: {<<: *base, timeout_s: 1}
        slow: *base
        names: &names [a, b]
        again: *names
        """
    )
    data = parse_yaml(text, "t.yaml")
    assert data["fast"] == {"timeout_s": 1, "retries": 2}
    assert data["slow"] == data["base"] and data["again"] == ["a", "b"]


def test_a_key_written_twice_is_refused() -> None:
    with pytest.raises(ArenaError, match=r"^b.yaml:3: 'roles' is written twice$"):
        parse_yaml("id: x\nroles: {seer: 1}\nroles: {witch: 1}\n", "b.yaml")
    assert parse_yaml("a: {x: 1}\nb: {<<: *a, y: 2}".replace("{x", "&a {x"), "t")["b"] == {
        "x": 1,
        "y": 2,
    }
    assert parse_yaml("a: 1\n'1': 2\n1: 3", "t") == {"a": 1, "1": 2, 1: 3}


def test_the_bound_counts_the_expansion_not_the_text() -> None:
    limit = 1000
    parse_yaml("a: &a [" + ", ".join(["x"] * 100) + "]\nb: [*a, *a]", "t", max_bytes=limit)
    with pytest.raises(ArenaError, match=r"^t:2: its aliases expand the document past 2,000"):
        parse_yaml(
            "a: &a [" + ", ".join(["x"] * 100) + "]\nb: [" + ", ".join(["*a"] * 20) + "]",
            "t",
            max_bytes=limit,
        )


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    with pytest.raises(ArenaError, match=r"^t:1: an alias inside its own anchor"):
        parse_yaml("a: &a [1, *a]", "t")


@pytest.fixture(params=["libyaml", "python"])
def either_loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the test with libyaml's loader, then with the pure-Python one used without it."""
    if request.param == "python":
        monkeypatch.setattr(userfile, "_Loader", userfile._yaml12_booleans(yaml.SafeLoader))


@pytest.mark.usefixtures("either_loader")
def test_deep_nesting_is_refused_with_either_loader() -> None:
    parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "t")
    for depth in (MAX_DEPTH + 1, 5000):
        with pytest.raises(ArenaError, match="^t(:1)?: (nested too deep|not valid YAML)"):
            parse_yaml("[" * depth + "]" * depth, "t")
    chain = "a: &a " + "[" * 60 + "]" * 60 + "\nb: " + "[" * 60 + "*a" + "]" * 60
    with pytest.raises(ArenaError, match=r"^t:2: nested too deep \(over 100 levels\)"):
        parse_yaml(chain, "t")


def test_size_is_bounded_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("x: " + "y" * BOARD_MAX_BYTES, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"too large: a board file has at most 65,536 bytes"):
        load_board_file(path)
    with pytest.raises(ConfigError, match=r"^up.yaml: too large: a board file has at most"):
        parse_board_upload(path.read_bytes(), "up.yaml")
    with pytest.raises(ArenaError, match=r"too large"):
        parse_yaml("x: " + "y" * userfile.MAX_BYTES, "t")


def test_unreadable_files_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing.yaml: no such board file$"):
        load_board_file(tmp_path / "missing.yaml")
    with pytest.raises(ArenaError, match=r": a folder, not a file$"):
        read_yaml(tmp_path)
    (tmp_path / "latin1.yaml").write_bytes(b"id: caf\xe9\n")
    with pytest.raises(ArenaError, match=r"not UTF-8 text \(byte 0xe9 at offset 7\)$"):
        read_yaml(tmp_path / "latin1.yaml")
    if hasattr(os, "mkfifo"):  # opening a FIFO waits for a writer: refused at once instead
        os.mkfifo(tmp_path / "pipe.yaml")
        with pytest.raises(
            ArenaError, match=r"pipe.yaml: cannot read: not a regular file \(a FIFO\)$"
        ):
            read_yaml(tmp_path / "pipe.yaml")


BOARD = textwrap.dedent(
    """\
    id: bom_board
    roles: {werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3}
    """
)


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_bytes(BOM.encode() + BOARD.encode())
    assert load_board_file(path).id == "bom_board"
    assert parse_board_upload(path.read_bytes(), "b.yaml").id == "bom_board"
    tournament = tmp_path / "t.yaml"
    tournament.write_bytes(BOM.encode() + b"name: t\nagents: {a: random, b: bot}\n")
    assert load_spec(tournament).name == "t"


HUGE = "z" * 100_000


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("board.yaml", f"id: x\nroles: {{{HUGE}: 1}}\n"),
        ("board.yaml", f"id: {HUGE}\n"),
        ("board.yaml", f"id: x\n{HUGE}: 1\n"),
        ("board.yaml", f"id: x\nroles: !!python/name:{HUGE}\n"),
        ("tournament.yaml", f"name: t\nagents: {{a: random, {HUGE}: {HUGE}}}\n"),
        ("tournament.yaml", f"name: t\nagents: {{a: random}}\noverrides: {{{HUGE}: 1}}\n"),
        ("tournament.yaml", f"name: t\nagents: {{a: random}}\nboards: [{HUGE}]\n"),
        ("scenario.yaml", f"name: c\nsource: '{HUGE}'\nboard: wwk_guard\n"),
        ("scenario.yaml", f"name: c\n{HUGE}: 1\n"),
    ],
)
def test_messages_that_repeat_input_are_clipped(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    readers = {
        "board.yaml": load_board_file,
        "tournament.yaml": load_spec,
        "scenario.yaml": load_scenario,
    }
    with pytest.raises(ArenaError) as caught:
        readers[name](path)
    message = str(caught.value)
    assert "\n" not in message
    assert len(message) <= len(str(path)) + 2 * CLIP, message[:500]


@pytest.mark.parametrize("text", [f"{HUGE}: 1\n", f"seats: [{HUGE}]\n", f"lang: {HUGE}\n"])
def test_a_long_spec_file_error_is_clipped_on_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["play", "--spec", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and len(err) <= len(str(path)) + 2 * CLIP


def test_set_values_are_read_as_user_yaml() -> None:
    assert parse_knobs(["sheriff=false"]) == {"sheriff": False}
    with pytest.raises(ConfigError, match=r"^--set sheriff:1: its aliases expand"):
        parse_knobs([f"sheriff={bomb()}"])
    with pytest.raises(ConfigError) as caught:
        parse_knobs([f"{HUGE}=1"])
    assert HUGE[:CLIP] not in str(caught.value)  # what follows is the list of knobs


class _Model(BaseModel):
    name: str
    count: int


class _Closed(_Model, extra="forbid"):
    pass


def test_one_line_is_the_first_error_located_and_clipped() -> None:
    with pytest.raises(ValidationError) as caught:
        _Model.model_validate({"name": 1, "count": "x"})
    assert one_line(caught.value) == "name: Input should be a valid string"
    assert one_line(caught.value, skip=1, default="arguments").startswith("arguments: ")
    with pytest.raises(ValidationError) as caught:
        _Closed.model_validate({HUGE: 1, "name": "n", "count": 1})
    line = one_line(caught.value)
    assert len(line) == CLIP and line.endswith("…")
    assert clip("short") == "short" and clip("x" * 300, 10) == "x" * 9 + "…"


SAMPLE = ROOT / "replays" / "samples" / "wwk_guard-bots-11.jsonl"


def test_a_replay_starting_with_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, marked = tmp_path / "plain", tmp_path / "marked"
    plain.mkdir()
    marked.mkdir()
    shutil.copy(SAMPLE, plain / "g.jsonl")
    (marked / "g.jsonl").write_bytes(BOM.encode() + SAMPLE.read_bytes())
    replay = marked / "g.jsonl"
    assert read_header(replay) == read_header(plain / "g.jsonl")
    assert main(["validate", str(replay)]) == 0
    assert main(["replay", str(replay)]) == 0
    capsys.readouterr()
    tables = []
    for folder in (plain, marked):
        main(["leaderboard", str(folder), "--no-cache"])
        out = capsys.readouterr()
        tables.append(out.out.replace(str(folder), "DIR") + out.err.replace(str(folder), "DIR"))
    assert tables[0] == tables[1]
    assert "unreadable" not in tables[1] and "not JSON" not in tables[1]


def test_a_signed_replay_still_verifies_behind_a_byte_order_mark(tmp_path: Path) -> None:
    """The mark is how an editor saved the text, not part of it: the signature holds."""
    signed = play(tmp_path / "g.jsonl", "std9-real", seed=11)
    signed.write_bytes(BOM.encode() + signed.read_bytes())
    report = check_replay(signed)
    assert report.ok and report.signature == "signed", report.message
    lines = signed.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    assert parse_replay_lines(lines).digest == read_replay(signed).digest


def test_a_replay_line_over_the_bound_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.jsonl"
    lines = SAMPLE.read_bytes().split(b"\n")
    longest = max(len(line) for line in lines)
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", longest)
    path.write_bytes(SAMPLE.read_bytes())
    assert main(["validate", str(path)]) == 0
    long_line = b'{"type":"belief","report":"' + b"x" * longest + b'"}'
    path.write_bytes(b"\n".join([*lines[:3], long_line, *lines[3:]]))
    with pytest.raises(ReplayError, match=rf"g.jsonl:4: a line longer than {longest:,} bytes"):
        read_replay(path)


@pytest.mark.usefixtures("either_loader")
def test_words_stay_words_and_only_true_false_are_booleans() -> None:
    """YAML 1.2's booleans: a tournament file's `beliefs: off` is the word "off"."""
    text = "a: off\nb: yes\nc: no\nd: On\ne: true\nf: False\ng: TRUE\nh: 'true'\n"
    assert parse_yaml(text, "t") == {
        "a": "off",
        "b": "yes",
        "c": "no",
        "d": "On",
        "e": True,
        "f": False,
        "g": True,
        "h": "true",
    }


def test_a_tournament_file_takes_beliefs_off_unquoted() -> None:
    assert Limits.model_validate(parse_yaml("beliefs: off", "t")).beliefs == "off"
    assert parse_knobs(["sheriff=off"]) == {"sheriff": "off"}  # a bool knob: pydantic reads it
