"""What one viewer sees of a replay at one step: the page's whole data, from `observe`.

`project` is the dashboard's only door to a game's events. It calls
`observe(events, viewer, until=step)` and builds every table, card and chat line from
that `Observation`; the header contributes only what the table knows anyway (the board
and who plays which seat) except in god view. Model-call traces and belief reports are
instrumentation kept beside the log: they are attached for the god viewer only.

Nothing here is cached: a projection depends on the viewer and the step, and caching it
without both in the key is exactly how a seat view would leak.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from arena.call_view import expanded_traces
from arena.llm.types import ModelCallRecord
from arena.rules import events as ev
from arena.rules.actions import Claims
from arena.rules.observation import Observation, Seen, observe
from arena.rules.roles import spec
from arena.rules.types import Role, SeatId, SpeechContext
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, Viewer
from arena.storage.replay_file import Replay

from .catalog import agent_label
from .i18n import Lang, localize, reason_label, render, t, winner_label
from .loading import Loaded


@dataclass(frozen=True, slots=True)
class SeatCard:
    """One seat on the board, as the viewer knows it."""

    seat: SeatId
    player: str
    present: bool
    sheriff: bool
    role: Role | None
    """The seat's role, only if the viewer knows it."""
    checked_wolf: bool | None
    """The viewer's own seer check of this seat (None: not checked by the viewer)."""
    is_viewer: bool


@dataclass(frozen=True, slots=True)
class PhaseGroup:
    """The lines of one phase (a night, or a part of a day), in order."""

    title: str
    lines: tuple[tuple[int, str], ...]
    """(event step, rendered line)."""


@dataclass(frozen=True, slots=True)
class Speech:
    """A speech as a chat message."""

    step: int
    day: int
    seat: SeatId
    context: SpeechContext
    text: str
    claims: Claims


@dataclass(frozen=True, slots=True)
class BallotRow:
    """One ballot cast, with the day and vote it belongs to."""

    step: int
    day: int
    ballot: str
    voter: SeatId
    target: SeatId | None
    weight: float


@dataclass(frozen=True, slots=True)
class Belief:
    """One seat's reported probability that another seat is a wolf (god view only)."""

    after_step: int
    day: int
    seat: SeatId
    target: SeatId
    wolf_probability: float


@dataclass(frozen=True, slots=True)
class View:
    """Everything a page shows for one viewer at one step."""

    viewer: Viewer
    step: int
    total: int
    observation: Observation
    seats: tuple[SeatCard, ...]
    groups: tuple[PhaseGroup, ...]
    speeches: tuple[Speech, ...]
    ballots: tuple[BallotRow, ...]
    latest: str | None
    """The last line this viewer saw at or before the step."""
    facts: tuple[tuple[str, str], ...]
    """Header facts shown to this viewer (seed, rules and result only in god view)."""
    beliefs: tuple[Belief, ...]
    traces: tuple[ModelCallRecord, ...]
    """The calls made by the step, each request whole (`arena.call_view.expanded_traces`)."""

    @property
    def is_god(self) -> bool:
        """Whether this is the referee's view (traces and beliefs are shown)."""
        return isinstance(self.viewer, GodViewer)


def phase_title(event: ev.PhaseStarted, lang: Lang) -> str:
    """`Night 2`, `Day 2 · speeches`, … (the transcript's phase line without rules)."""
    return (render(event, lang) or "").strip("─ ")


def public_phases(replay: Replay, lang: Lang) -> tuple[tuple[int, str], ...]:
    """(step, title) of every phase, from the public projection of the whole log.

    This is the timeline's navigation (the scrubber's labels and jump list); phase
    starts are announced to the whole table, so it holds nothing a seat did not hear.
    """
    public = observe(replay.events, PublicViewer())
    return tuple(
        (s.seq, phase_title(s.event, lang))
        for s in public.seen
        if isinstance(s.event, ev.PhaseStarted)
    )


def project(loaded: Loaded, viewer: Viewer, step: int, lang: Lang) -> View:
    """The view of `viewer` after the first `step` events (clamped to the log)."""
    replay = loaded.replay
    step = max(0, min(step, len(replay.events)))
    obs = observe(replay.events, viewer, until=step)
    god = isinstance(viewer, GodViewer)
    lines = [(s.seq, line) for s in obs.seen if (line := render(s.event, lang)) is not None]
    return View(
        viewer=viewer,
        step=step,
        total=len(replay.events),
        observation=obs,
        seats=seat_cards(replay, obs, viewer, step),
        groups=groups(obs.seen, lang),
        speeches=speeches(obs.seen),
        ballots=ballots(obs.seen),
        latest=lines[-1][1] if lines else None,
        facts=facts(replay, god, lang),
        beliefs=beliefs(replay, step) if god else (),
        traces=tuple(
            t
            for t, at in zip(expanded_traces(replay), loaded.trace_steps, strict=True)
            if at <= step
        )
        if god
        else (),
    )


def seat_cards(replay: Replay, obs: Observation, viewer: Viewer, step: int) -> tuple[SeatCard, ...]:
    """The seat board: presence, sheriff and the roles the viewer knows.

    Who plays which seat is shown only to god, or at the end of a finished game: in a
    tournament one agent plays every wolf, so its label would tell the sides apart. A
    finished replay watched at an earlier step is that earlier moment, when nobody at the
    table knew the sides, so the labels wait for its last step.
    """
    k = obs.knowledge
    over = replay.header.result is not None and step >= len(replay.events)
    shown = isinstance(viewer, GodViewer) or over
    players = {s.seat: agent_label(s.agent, s.model) for s in replay.header.seats if shown}
    me = viewer.seat if isinstance(viewer, SeatViewer) else None
    return tuple(
        SeatCard(
            seat=n,
            player=players.get(n, ""),
            present=n not in k.out,
            sheriff=k.sheriff == n,
            role=k.roles.get(n),
            checked_wolf=k.checks.get(n),
            is_viewer=n == me,
        )
        for n in range(1, k.seats + 1)
    )


def groups(seen: tuple[Seen, ...], lang: Lang) -> tuple[PhaseGroup, ...]:
    """The visible lines grouped under the phase they happened in."""
    out: list[PhaseGroup] = []
    title = t("setup", lang)
    lines: list[tuple[int, str]] = []
    for s in seen:
        if isinstance(s.event, ev.PhaseStarted):
            if lines:
                out.append(PhaseGroup(title, tuple(lines)))
            title, lines = phase_title(s.event, lang), []
        elif (line := render(s.event, lang)) is not None:
            lines.append((s.seq, line))
    if lines:
        out.append(PhaseGroup(title, tuple(lines)))
    return tuple(out)


def dated(seen: tuple[Seen, ...]) -> Iterator[tuple[int, Seen]]:
    """Each visible event with the day it happened on (that of the last phase started)."""
    day = 0
    for s in seen:
        if isinstance(s.event, ev.PhaseStarted):
            day = s.event.day
        yield day, s


def speeches(seen: tuple[Seen, ...]) -> tuple[Speech, ...]:
    """The visible speeches, with the day each was given."""
    return tuple(
        Speech(s.seq, day, e.seat, e.context, e.text, e.claims)
        for day, s in dated(seen)
        if isinstance(e := s.event, ev.Spoke)
    )


def ballots(seen: tuple[Seen, ...]) -> tuple[BallotRow, ...]:
    """The visible ballots, with the day each was cast."""
    return tuple(
        BallotRow(s.seq, day, e.ballot, e.voter, e.target, e.weight)
        for day, s in dated(seen)
        if isinstance(e := s.event, ev.VoteCast)
    )


def beliefs(replay: Replay, step: int) -> tuple[Belief, ...]:
    """Belief reports made before `step` (god view only: a seat never sees another's)."""
    return tuple(
        Belief(r.after_seq, r.day, r.seat, target, p)
        for r in replay.beliefs
        if r.after_seq <= step
        for target, p in sorted(r.wolf_probability.items())
    )


def facts(replay: Replay, god: bool, lang: Lang) -> tuple[tuple[str, str], ...]:
    """Header facts for the viewer.

    The seed and the rules knobs could re-derive the deal, and the result is the future,
    so only the referee sees them.
    """
    h = replay.header
    shown = [("game", h.game_id), ("board", h.config.board_id), ("started", h.created_at)]
    if h.tournament:
        shown.append(("tournament", h.tournament))
    if god:
        preset = h.config.preset or t("board_default", lang)
        shown += [("seed", str(h.seed)), ("preset", preset)]
        if h.config.overrides:
            knobs = ", ".join(f"{k}={v}" for k, v in h.config.overrides.items())
            shown.append(("overrides", knobs))
        if h.result is not None:
            won = h.result.winner
            winner = winner_label(won.value, lang) if won is not None else t("win_void", lang)
            shown.append(("result", f"{winner} — {reason_label(h.result.reason, lang)}"))
    return tuple((t(f"fact_{name}", lang), value) for name, value in shown)


def role_label(role: Role | None, lang: Lang) -> str:
    """A role's name in `lang`, or `?` when unknown to the viewer."""
    if role is None:
        return "?"
    return spec(role).en if lang == "en" else localize(spec(role).zh, lang)


@dataclass(frozen=True, slots=True)
class Moments:
    """Steps worth jumping to: just after each speech, vote count and death.

    Taken from the public projection, like the phase list, so navigating by them tells a
    seat viewer nothing the table was not told.
    """

    speeches: tuple[int, ...]
    votes: tuple[int, ...]
    deaths: tuple[int, ...]


def moments(replay: Replay) -> Moments:
    """The speech, vote and death steps of the whole game (see `Moments`)."""
    found: dict[str, list[int]] = {"speech": [], "vote": [], "death": []}
    for s in observe(replay.events, PublicViewer()).seen:
        match s.event:
            case ev.Spoke():
                found["speech"].append(s.seq + 1)
            case ev.VotesCounted():
                found["vote"].append(s.seq + 1)
            case ev.DeathsAnnounced(seats=seats) if seats:
                found["death"].append(s.seq + 1)
            case ev.PlayerExiled() | ev.PlayerShot() | ev.SelfExploded():
                found["death"].append(s.seq + 1)
    return Moments(*(tuple(found[k]) for k in ("speech", "vote", "death")))


def next_moment(steps: tuple[int, ...], step: int, forward: bool) -> int | None:
    """The first of `steps` after `step` (or the last before it); None if there is none."""
    if forward:
        return next((s for s in steps if s > step), None)
    return next((s for s in reversed(steps) if s < step), None)
