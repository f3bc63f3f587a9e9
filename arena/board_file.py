"""Board files: a custom board written in YAML, read wherever a board id is accepted.

`arena play --board FILE`, a tournament file's `boards:` (paths relative to the tournament
file) and a scenario's `board:` (relative to the scenario) name a board either by a
built-in id or by a file; `board_ref` tells the two apart. Once read, the board travels
whole (`GameConfig.board`), so a replay or a queued job never needs the file again.

The example board files (`arena/boards/*.yaml`) ship in the package and are read with
`importlib.resources`, so an installed wheel has them as a checkout does. Each is named by
its id, which is its file name: `--board cupid12` plays the bundled file, `arena boards`
lists them after the built-in boards and says where they are, to copy one.
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from arena.errors import clip
from arena.rules.boards import BOARDS, Board, board
from arena.rules.custom import parse_board
from arena.rules.errors import ConfigError
from arena.userfile import decode, parse_yaml, read_yaml

SUFFIXES = (".yaml", ".yml")


def is_board_file(ref: str) -> bool:
    """Whether a board reference names a file rather than a built-in board."""
    return ref.endswith(SUFFIXES) or "/" in ref or "\\" in ref


def board_ref(ref: str, base: Path | None = None) -> str | Board:
    """A built-in board's id as given, or the board of the example or of the file `ref` names.

    An example board (`example_boards`) is named by its id or its Chinese name, as a
    built-in board is, and comes whole, as a file's board does. A relative path is taken
    from `base` (the folder of the file that names it), else from the working folder.

    Raises:
        ConfigError: an unknown board id (the message lists the examples after the built-in
            boards), or a file that cannot be read or is not a board.
    """
    if ref in BOARDS:
        return ref
    examples = example_boards()
    found = examples.get(ref) or next((b for b in examples.values() if b.zh == ref), None)
    if found is not None:
        return found
    if not is_board_file(ref):
        try:
            return board(ref).id
        except ConfigError as exc:
            listed = ", ".join(examples)
            said = ConfigError(f"{exc}; example boards: {listed}")
            raise said.keyed("error.unknown_example", **exc.values, examples=listed) from None
    path = Path(ref)
    if base is not None and not path.is_absolute():
        path = base / path
    return load_board_file(path)


EXAMPLES: Traversable = resources.files("arena") / "boards"
"""The example board files (docs/boards.md): package data, in a checkout and in a wheel."""
MAX_BYTES = 64 * 1024
"""The largest board file read, from a path or a browser: the longest example is under 2 KB."""


def load_board_file(path: Path) -> Board:
    """Read and check a board file (docs/boards.md), through the one user-file reader.

    Raises:
        ConfigError: `PATH: problem`, one line: a missing, unreadable or too large file,
            bad YAML (aliases past the bound included), not a mapping, or a board the rules
            cannot run.
    """
    return _board(_read(path, str(path)), str(path))


def parse_board_upload(data: bytes, name: str) -> Board:
    """Check a board file sent from a browser (the Play page), as `load_board_file` does.

    Raises:
        ConfigError: `NAME: problem`, one line: a file too large or not UTF-8, or any of
            `parse_board_text`'s problems.
    """
    text = decode(data, name, what="board file", max_bytes=MAX_BYTES, error=ConfigError)
    return parse_board_text(text, name)


def parse_board_text(text: str, name: str) -> Board:
    """The board a board file's text describes; `name` (its path) starts every message.

    Raises:
        ConfigError: `NAME: problem`, one line: bad YAML, not a mapping, or a board the
            rules cannot run.
    """
    return _board(parse_yaml(text, name, max_bytes=MAX_BYTES, error=ConfigError), name)


def _read(source: Traversable, name: str) -> object:
    return read_yaml(source, name, what="board file", max_bytes=MAX_BYTES, error=ConfigError)


def _board(data: object, name: str) -> Board:
    if not isinstance(data, dict):
        raise ConfigError(f"{name}: a board file is a mapping (id:, roles:, win:, preset:, …)")
    try:
        return parse_board(data)
    except ConfigError as exc:
        raise ConfigError(f"{name}: {clip(str(exc))}") from None


def example_boards() -> dict[str, Board]:
    """The example boards by id (each file is named after its board's id), in name order.

    Raises:
        ConfigError: an example that is not a board (a bug: the tests play every one).
    """
    return dict(_example_boards())


@functools.cache
def _example_boards() -> tuple[tuple[str, Board], ...]:
    """The example boards, read once per process (package data does not change)."""
    files = sorted((f for f in EXAMPLES.iterdir() if f.name.endswith(SUFFIXES)), key=_name)
    names = (f"arena/boards/{f.name}" for f in files)
    boards = (_board(_read(f, name), name) for f, name in zip(files, names, strict=True))
    return tuple((b.id, b) for b in boards)


def _name(entry: Traversable) -> str:
    return entry.name
