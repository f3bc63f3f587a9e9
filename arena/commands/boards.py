"""`arena boards`: the built-in boards, the bundled examples, and board files checked."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena.board_file import EXAMPLES, example_boards, load_board_file
from arena.rules.boards import BOARDS, Board
from arena.text import Lang, game_lang, ljust, parse_display, printed_in, t, width
from arena.text.script import CLI_CHOICES
from arena.transcript import role_name


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena boards`."""
    boards = sub.add_parser("boards", help="list the boards")
    boards.add_argument(
        "files",
        type=Path,
        nargs="*",
        metavar="FILE",
        help="board files to check and list after the built-in and example boards",
    )
    boards.add_argument("--json", action="store_true", help="machine-readable output")
    boards.add_argument(
        "--lang", choices=CLI_CHOICES, default="zh", help="language of the table (default: zh)"
    )
    boards.set_defaults(handler=_boards)


def _boards(args: argparse.Namespace) -> int:
    """The built-in boards, then the bundled examples, then the files named.

    The examples come under a line saying where they are (to copy one); each file named is
    checked, and a bad one is the command's one-line error.
    """
    examples = list(example_boards().values())
    files = [load_board_file(path) for path in args.files]
    if args.json:
        data = [_board_row(b) for b in [*BOARDS.values(), *examples, *files]]
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    display = parse_display(args.lang)
    lang = game_lang(display)
    sections = [
        ([], list(BOARDS.values())),
        (["", t("board.examples", lang, path=str(EXAMPLES))], examples),
        ([""], files),
    ]
    lines = [[_board_cells(b, lang) for b in listed] for _, listed in sections]
    every = [row for rows in lines for row in rows]
    widths = [max(width(row[i]) for row in every) for i in range(len(every[0]) - 1)]
    with printed_in(display):
        for (heading, listed), rows in zip(sections, lines, strict=True):
            if listed:
                for line in heading:
                    print(line)
                for row in rows:
                    cells = [*(ljust(c, w) for c, w in zip(row, widths, strict=False)), row[-1]]
                    print("  ".join(cells))
    return 0


def _board_cells(b: Board, lang: Lang) -> tuple[str, ...]:
    """One board's line of `arena boards`: id, name, seats, win, preset, cards."""
    return (
        b.id,
        b.zh if lang == "zh" else b.en,
        t("board.seats", lang, n=b.seats),
        t(f"win_mode.{b.win}", lang),
        b.preset,
        t("seat.sep", lang).join(
            t("board.role_count", lang, role=role_name(r, lang), n=n)
            if n > 1
            else role_name(r, lang)
            for r, n in b.role_counts().items()
        ),
    )


def _board_row(b: Board) -> dict[str, Any]:
    return {
        "id": b.id,
        "name_zh": b.zh,
        "name_en": b.en,
        "seats": b.seats,
        "win": b.win,
        "preset": b.preset,
        "roles": {r.value: n for r, n in b.role_counts().items()},
        "night_order": list(b.night_order),
        "first_night_order": list(b.first_night_order or b.night_order),
        "source": b.source,
        "settings": b.settings,
    }
