"""What a viewer saw, for the commands that print a game: `--as` parsed, lines printed."""

from __future__ import annotations

from collections.abc import Iterable

from arena.rules.observation import Seen
from arena.rules.visibility import SeatViewer, Viewer, parse_viewer
from arena.text import Lang, inert, refusal
from arena.transcript import render

VIEWERS = "god, public, wolves or seat:N"
"""The viewers `--as` may name."""


def viewer_of(text: str, seats: int) -> Viewer:
    """The viewer `--as text` names, on a table of `seats`.

    Raises:
        ArenaError: an unknown viewer, or a seat the table does not have.
    """
    try:
        viewer = parse_viewer(text)
    except ValueError:
        raise refusal("error.unknown_viewer", viewer=repr(text)) from None
    if isinstance(viewer, SeatViewer) and viewer.seat > seats:
        raise refusal("error.viewer_seat", viewer=text, seats=seats)
    return viewer


def print_seen(seen: Iterable[Seen], lang: Lang) -> None:
    """Print each visible event's line, inert: player text never acts on the terminal."""
    for item in seen:
        line = render(item.event, lang)
        if line is not None:
            print(inert(line))
