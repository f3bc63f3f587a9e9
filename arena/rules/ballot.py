"""One simultaneous, public ballot: ask every voter at once, reveal, count."""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.actions import Pass, Vote
from arena.rules.animals import EXILE_BALLOTS
from arena.rules.decisions import ActionOption, DecisionKind
from arena.rules.table import Flow, Table
from arena.rules.types import Role, SeatId
from arena.rules.visibility import PUBLIC
from arena.rules.voting import leaders, ranked, tally


def ballot(
    t: Table,
    voters: tuple[SeatId, ...],
    targets: tuple[SeatId, ...],
    kind: ev.Ballot,
    decision: DecisionKind,
    *,
    allow_empty: bool = True,
) -> Flow[tuple[SeatId, ...]]:
    """Ask `voters` to vote among `targets` (or abstain); returns the leaders.

    Votes are cast together and shown together (003 投票规则 (1): 同时举票, 允许弃票).
    The sheriff's badge weighs `sheriff_vote_weight` in every ballot after the election
    (001 備註: 在任何情況下，警長投票皆為 1.5 票). With `allow_empty` a ballot nobody casts
    has no leaders; otherwise every target is tied at zero.
    """
    answers = yield from t.ask(
        t.request(v, decision, _options(t, v, targets, kind), Pass()) for v in voters
    )
    ballots = {v: (a.target if isinstance(a, Vote) else None) for v, a in answers.items()}
    weights = {v: t.weight(v) for v in voters}
    for voter in sorted(ballots):
        t.emit(
            ev.VoteCast(
                visibility=PUBLIC,
                ballot=kind,
                voter=voter,
                target=ballots[voter],
                weight=float(weights[voter]),
            )
        )
    counts = tally(ballots, weights)
    top = leaders(counts) or (() if allow_empty else tuple(sorted(targets)))
    t.emit(ev.VotesCounted(visibility=PUBLIC, ballot=kind, tally=ranked(counts), leaders=top))
    return top


def _options(
    t: Table, voter: SeatId, targets: tuple[SeatId, ...], kind: ev.Ballot
) -> tuple[ActionOption, ...]:
    """A voter's legal answers in one ballot: the targets, or abstain.

    In the day's exile ballots the pufferfish may not vote for itself (河豚不能投票給自己),
    and a lover never votes for the other lover (004:3 被連中情侶的兩位玩家，在白天放逐投票
    環節永遠不能互投); with no target left the voter can only abstain. Sheriff ballots are
    not exile ballots.
    """
    if kind in EXILE_BALLOTS:
        barred = {voter} if t.role(voter) is Role.PUFFERFISH else set()
        barred |= {p} if (p := t.state.partner(voter)) is not None else set()
        targets = tuple(s for s in targets if s not in barred)
    vote = (ActionOption(action="vote", targets=targets, target_required=True),)
    return (*(vote if targets else ()), ActionOption(action="pass"))
