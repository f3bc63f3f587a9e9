"""動物夢境's animals (001:127 子狐——狼美人+狼人——狼美人——熊——河豚——白貓; roles.md).

Seed 001 lists the board by its night order only; each rule here is common play as
狼人殺官方 describes the card, and docs/roles.md says why:

- the fox cub (子狐), from night 2 and once a game, confuses a seat before the wolves wake:
  a wolf-side seat confused stops the pack's knife that night, and a confused wolf beauty
  charms nobody (her last charm is lifted);
- the bear (熊) is announced at every dawn, to the whole table: it growls when the bear is
  alive and the nearest living seat on either side of it is a wolf;
- the pufferfish (河豚), once a game after the day's exile vote, may flip and take every
  seat that voted for it that day; knifed at night, its card flips at dawn and the wolf
  beauty's charm fails that day;
- the white cat (白貓), out by any cause, flips and lives on until the end of its next
  exile vote's day; once flipped no knife, charm, confusion or vote may pick it, and no
  charm or pufferfish takes it.
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.actions import Action, Confuse, Pass, Reveal
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, pick_or_pass
from arena.rules.roles import is_wolf
from arena.rules.table import Table
from arena.rules.types import DeathCause, Phase, Role, SeatId
from arena.rules.visibility import PUBLIC, REFEREE, to_seats

EXILE_BALLOTS: frozenset[str] = frozenset({"exile", "nomination", "defence", "pk"})
"""The day's exile ballots: a vote for the pufferfish in any of them counts (001 兩次投票)."""


def is_flipped_cat(t: Table, seat: SeatId) -> bool:
    """Whether `seat` is a white cat whose card has flipped (out, living on)."""
    return t.role(seat) is Role.WHITE_CAT and seat in t.state.reprieves


def pickable(t: Table, seat: SeatId) -> bool:
    """Whether a knife, charm, confusion or exile vote may pick `seat` (not a flipped cat)."""
    return not is_flipped_cat(t, seat)


def lingers(t: Table, seat: SeatId, cause: DeathCause, *, at_night: bool) -> bool:
    """Whether a death of `seat` by `cause` is a white cat's: True means it does not die now.

    An unflipped cat flips (by day at once; a night death flips at dawn, in `flip_at_dawn`)
    and lives until the end of its next exile vote's day: the day itself for a death at
    night or before the day's vote, the next day for one at or after it. A flipped cat is
    already out: nothing takes it a second time (immune to the charm and the pufferfish).
    """
    if t.role(seat) is not Role.WHITE_CAT or not t.state.is_alive(seat):
        return False
    if seat in t.state.reprieves:
        return True
    voted = not at_night and t.state.phase is Phase.VOTE
    until = t.state.day + (1 if voted else 0)
    t.emit(
        ev.CatReprieved(visibility=REFEREE, seat=seat, cause=cause, until=until, at_night=at_night)
    )
    if not at_night:
        t.emit(ev.CardRevealed(visibility=PUBLIC, seat=seat, role=Role.WHITE_CAT))
    return True


def flip_at_dawn(t: Table, n: int) -> None:
    """At dawn, flip the cards night `n` turned: a reprieved white cat, a knifed pufferfish.

    河豚…如果狼隊夜晚落刀河豚，第二天天亮河豚翻牌出局 (its death is announced as any).
    """
    for event in list(t.events):
        if isinstance(event, ev.CatReprieved) and event.until == n and event.at_night:
            t.emit(ev.CardRevealed(visibility=PUBLIC, seat=event.seat, role=Role.WHITE_CAT))
    for seat in knifed_pufferfish(t, n):
        t.emit(ev.CardRevealed(visibility=PUBLIC, seat=seat, role=Role.PUFFERFISH))


def knifed_pufferfish(t: Table, n: int) -> tuple[SeatId, ...]:
    """Pufferfish knifed in night `n`: the wolf beauty's charm fails on day `n`."""
    return tuple(
        e.seat
        for e in t.events
        if isinstance(e, ev.PlayerDied)
        and e.at_night
        and e.day == n
        and e.cause is DeathCause.KNIFE
        and t.role(e.seat) is Role.PUFFERFISH
    )


def growl(t: Table) -> None:
    """The dawn's announcement: 熊咆哮了 / 熊沒有咆哮 (once a day, while a bear is dealt).

    Made first at dawn: before the sheriff election on day 1, before the night's deaths on
    later days. The neighbours are the nearest living seats on each side (the seat ring
    wraps); the bear growls only while alive. The truth of the night counts: a seat who
    died in the night is no neighbour, though the table hears of it just after.
    """
    bears = t.state.seats_with(Role.BEAR)
    if not bears or t.state.growl_day == t.state.day:
        return
    growled = any(t.state.is_alive(b) and _wolf_beside(t, b) for b in bears)
    t.emit(ev.BearGrowled(visibility=PUBLIC, growled=growled))


def _wolf_beside(t: Table, bear: SeatId) -> bool:
    living = t.state.living()
    if len(living) < 2:
        return False
    i = living.index(bear)
    sides = {living[i - 1], living[(i + 1) % len(living)]}
    return any(is_wolf(t.role(s)) for s in sides)


def fox_request(t: Table, fox: SeatId) -> DecisionRequest | None:
    """The fox cub's confusion: from night 2, once a game, another living seat, or pass.

    从第二个夜晚开始…子狐一局游戏仅能发动一次技能 (common play); never a flipped white cat;
    passing is the default (a timeout keeps the skill).
    """
    if t.state.day < 2 or t.state.fox_used:
        return None
    targets = tuple(s for s in t.state.living() if s != fox and pickable(t, s))
    options = pick_or_pass("confuse", targets)
    return t.request(fox, DecisionKind.CONFUSE, options, Pass())


def puffer_request(t: Table, puffer: SeatId) -> DecisionRequest | None:
    """The pufferfish's flip after the vote, if anyone voted for it today and it has not.

    Asked even when it was voted out (被放逐出局，河豚可以翻牌帶人); passing is the default.
    """
    if t.state.puffer_used or not voters_of(t, puffer):
        return None
    options = (ActionOption(action="reveal"), ActionOption(action="pass"))
    return t.request(puffer, DecisionKind.PUFFER, options, Pass())


def voters_of(t: Table, seat: SeatId) -> tuple[SeatId, ...]:
    """Seats that voted for `seat` in today's exile ballots, in seat order."""
    day = 0
    found: set[SeatId] = set()
    for event in t.events:
        if isinstance(event, ev.PhaseStarted):
            day = event.day
        elif (
            isinstance(event, ev.VoteCast)
            and day == t.state.day
            and event.ballot in EXILE_BALLOTS
            and event.target == seat
        ):
            found.add(event.voter)
    return tuple(sorted(found))


def rage_victims(t: Table, puffer: SeatId, answer: Action) -> tuple[SeatId, ...]:
    """The seats a flipping pufferfish takes (its living voters); emits the flip itself."""
    if not isinstance(answer, Reveal):
        return ()
    t.emit(ev.CardRevealed(visibility=PUBLIC, seat=puffer, role=Role.PUFFERFISH))
    voters = voters_of(t, puffer)
    taken = tuple(s for s in voters if t.state.is_alive(s) and not is_flipped_cat(t, s))
    t.emit(ev.PufferRaged(visibility=PUBLIC, seat=puffer, targets=taken))
    return taken


def confused(t: Table, fox: SeatId, answer: Action) -> SeatId | None:
    """Record the fox cub's confusion (to him only); returns the seat confused."""
    if not isinstance(answer, Confuse):
        return None
    t.emit(ev.SeatConfused(visibility=to_seats(fox), seat=fox, target=answer.target))
    return answer.target
