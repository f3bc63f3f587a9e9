"""What a viewer must not see at a step: the markers and lines of hidden or future events."""

from __future__ import annotations

import re

from arena.dashboard.i18n import Lang, render
from arena.dashboard.loading import Loaded
from arena.rules import events as ev
from arena.rules.visibility import GodViewer, Viewer
from tests.rules.knowledge import audiences

MARK = re.compile(r"(?:SPEECH|WHISPER|TRACE|REPLY)MARK-\d+-\d+")
_START = r"(?<![\d#])"
"""A rendered line does not continue a seat number (`1號…` inside `11號…`)."""
_END = r"(?=[ \"'\\\n]|$)"
"""A rendered line ends at a space, a quote, an escape or the end of the text."""


def forbidden(
    loaded: Loaded, viewer: Viewer, step: int, lang: Lang = "en"
) -> tuple[set[str], set[str]]:
    """(markers, lines) that must not appear on `viewer`'s page at `step`.

    Markers of every event and trace the viewer may not see at that step (outside its
    audience by the rules in `tests/rules/knowledge.py`, not by `observe`; or later), and
    the rendered line of every such event unless a visible event renders the same line.
    Phase titles are left out: the timeline's navigation is built from the public phase
    starts of the whole game.
    """
    replay = loaded.replay
    audience = audiences(replay.events, replay.header.config)
    visible = {seq for seq, who in enumerate(audience[:step]) if who.allows(viewer)}
    shown_lines = {render(replay.events[i], lang) for i in visible}
    markers: set[str] = set()
    lines: set[str] = set()
    for seq, event in enumerate(replay.events):
        if seq in visible:
            continue
        markers.update(MARK.findall(event.model_dump_json()))
        line = render(event, lang)
        if line and line not in shown_lines and not isinstance(event, ev.PhaseStarted):
            lines.add(line)
    god = isinstance(viewer, GodViewer)
    for trace, at in zip(replay.traces, loaded.trace_steps, strict=True):
        if not god or at > step:
            markers.update(MARK.findall(trace.model_dump_json()))
    return markers, lines


def leaks(text: str, loaded: Loaded, viewer: Viewer, step: int, lang: Lang = "en") -> list[str]:
    """The forbidden markers and lines that `text` contains."""
    markers, lines = forbidden(loaded, viewer, step, lang)
    found = sorted(set(MARK.findall(text)) & markers)
    found += [
        line for line in lines if line in text and re.search(_START + re.escape(line) + _END, text)
    ]
    return found


def marker_count(loaded: Loaded) -> int:
    """How many markers the game holds in total (the test must not be vacuous)."""
    dumps = [e.model_dump_json() for e in loaded.replay.events]
    dumps += [t.model_dump_json() for t in loaded.replay.traces]
    return sum(len(MARK.findall(d)) for d in dumps)
