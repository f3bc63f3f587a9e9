"""Speaking order around the table: pure functions of seats, a start and a direction."""

from __future__ import annotations

from collections.abc import Collection

from arena.rules.types import Direction, SeatId


def around(
    seats: int, start: SeatId, direction: Direction, among: Collection[SeatId]
) -> tuple[SeatId, ...]:
    """Seats of `among` in speaking order, beginning at `start` (or the next one of `among`).

    Seats not in `among` are skipped, as 001 says for the sheriff campaign: '未上警則順延下一位'.
    """
    step = 1 if direction is Direction.ASCENDING else -1
    ring = [((start - 1 + step * i) % seats) + 1 for i in range(seats)]
    return tuple(seat for seat in ring if seat in among)


def after(
    seats: int, anchor: SeatId, direction: Direction, among: Collection[SeatId]
) -> tuple[SeatId, ...]:
    """Seats of `among` in order starting with the first one after `anchor`, anchor last.

    The sheriff's order (警左/警右): the sheriff picks a side and speaks last (004 发言规则 (2)).
    """
    step = 1 if direction is Direction.ASCENDING else -1
    first = ((anchor - 1 + step) % seats) + 1
    return around(seats, first, direction, among)
