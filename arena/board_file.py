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
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}{where}: not valid YAML: {problem}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a board file is a mapping (id:, roles:, win:, preset:, …)")
    try:
        return parse_board(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
