"""Board files: a custom board written in YAML, read wherever a board id is accepted.

`arena play --board FILE`, a tournament file's `boards:` (paths relative to the tournament
file) and a scenario's `board:` (relative to the scenario) name a board either by a
built-in id or by a file; `board_ref` tells the two apart. Once read, the board travels
whole (`GameConfig.board`), so a replay or a queued job never needs the file again.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from arena.rules.boards import BOARDS, Board, board
from arena.rules.custom import parse_board
from arena.rules.errors import ConfigError

SUFFIXES = (".yaml", ".yml")


def is_board_file(ref: str) -> bool:
    """Whether a board reference names a file rather than a built-in board."""
    return ref.endswith(SUFFIXES) or "/" in ref or "\\" in ref


def board_ref(ref: str, base: Path | None = None) -> str | Board:
    """A built-in board's id as given, or the board of the file `ref` names.

    A relative path is taken from `base` (the folder of the file that names it), else from
    the working folder.

    Raises:
        ConfigError: an unknown board id, or a file that cannot be read or is not a board.
    """
    if ref in BOARDS or not is_board_file(ref):
        return board(ref).id
    path = Path(ref)
    if base is not None and not path.is_absolute():
        path = base / path
    return load_board_file(path)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "boards"
"""The example board files of a source checkout (docs/boards.md); an installed wheel has none."""
MAX_BYTES = 64 * 1024
"""The largest board file taken from a browser: the longest example is under 2 KB."""


def load_board_file(path: Path) -> Board:
    """Read and check a board file (docs/boards.md).

    Raises:
        ConfigError: `PATH: problem`, one line: a missing file, bad YAML, not a mapping,
            or a board the rules cannot run.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such board file") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    return parse_board_text(text, str(path))


def parse_board_upload(data: bytes, name: str) -> Board:
    """Check a board file sent from a browser (the Play page), as `load_board_file` does.

    Raises:
        ConfigError: `NAME: problem`, one line: a file too large or not UTF-8, or any of
            `parse_board_text`'s problems.
    """
    if len(data) > MAX_BYTES:
        raise ConfigError(f"{name}: {len(data)} bytes; a board file has at most {MAX_BYTES}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{name}: not UTF-8 text") from None
    return parse_board_text(text, name)


def parse_board_text(text: str, name: str) -> Board:
    """The board a board file's text describes; `name` (its path) starts every message.

    Raises:
        ConfigError: `NAME: problem`, one line: bad YAML, not a mapping, or a board the
            rules cannot run.
    """
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{name}{where}: not valid YAML: {problem}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{name}: a board file is a mapping (id:, roles:, win:, preset:, …)")
    try:
        return parse_board(data)
    except ConfigError as exc:
        raise ConfigError(f"{name}: {exc}") from None


def example_boards(folder: Path = EXAMPLES) -> dict[str, Board]:
    """The example boards by file name, in name order (none where the folder is absent).

    Raises:
        ConfigError: an example that is not a board (a bug: the tests play every one).
    """
    if not folder.is_dir():
        return {}
    return {p.name: load_board_file(p) for p in sorted(folder.glob("*.yaml"))}
