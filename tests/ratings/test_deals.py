"""The deal, the bootstrap's unit: its key, its order, and its resample weights."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from arena.queue.jobs import MatchJob
from arena.ratings.resample import cluster_weights
from arena.ratings.results import deal_key, deal_order, game_result
from arena.rules.config import GameConfig
from arena.rules.draw import CURRENT_DRAW
from arena.rules.types import Winner
from arena.storage.replay_file import ReplayHeader, SeatAgent
from arena.tournament import TournamentSpec, schedule
from tests.ratings.builders import deal, make_replay, team_game


def header(job: MatchJob, tournament: str | None = None) -> ReplayHeader:
    """The header a worker writes for `job` (under another tournament name if given)."""
    return ReplayHeader(
        game_id=job.game_id,
        created_at="2026-12-07T00:00:00+00:00",
        config=job.config,
        seed=job.seed,
        draw=CURRENT_DRAW,
        seats=tuple(SeatAgent(seat=i, agent=a) for i, a in enumerate(job.seats, start=1)),
        tournament=tournament or job.tournament,
    )


def jobs(name: str = "t", **fields: object) -> list[MatchJob]:
    agents = {"a": "bot", "b": "random", "c": "bot"}
    return schedule(TournamentSpec.model_validate({"name": name, "agents": agents, **fields}))


def test_mirrored_games_and_every_pairing_of_a_deal_share_its_key() -> None:
    games = jobs(games_per_pairing=4, boards=["std9", "wwk_guard"])
    by_key: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for job in games:
        by_key[deal_key(header(job))].add((job.config.board_id, job.seed))
    assert len(by_key) == 8, "one key per deal: 4 deals on each of 2 boards"
    assert all(len(deals) == 1 for deals in by_key.values()), "a key never spans two deals"
    sizes = {key: sum(deal_key(header(j)) == key for j in games) for key in by_key}
    assert set(sizes.values()) == {6}, "3 pairings x 2 mirrored games per deal"


def test_the_key_is_the_deal_s_not_the_tournament_s_name() -> None:
    [first, *_] = jobs("t")
    [other, *_] = jobs("u")
    assert deal_key(header(first)) == deal_key(header(other))
    assert deal_key(header(first)).startswith("d-")
    seeded = jobs("t", base_seed=1)[0]
    assert deal_key(header(seeded)) != deal_key(header(first)), "another seed, another deal"


def test_a_game_outside_any_tournament_is_a_unit_of_its_own() -> None:
    loose = ReplayHeader(
        game_id="play-123", created_at="t", config=GameConfig(board="std9"), seed=0
    )
    assert deal_key(loose) == "g-play-123"
    assert deal_order(loose) is None
    built = team_game("g9", "x", "y", Winner.WOLVES)
    assert built.deal == "g-g9", "a result built without a deal is its own unit"


def test_the_order_is_the_job_index_of_the_schedule() -> None:
    games = jobs(games_per_pairing=2)
    assert [deal_order(header(j)) for j in games] == [j.index for j in games]
    renamed = header(games[3]).model_copy(update={"game_id": "t-x3"})
    assert deal_order(renamed) is None
    assert deal_order(header(games[3], tournament="other")) is None


def test_cluster_weights_depend_on_nothing_but_seed_and_key() -> None:
    keys = [f"d-{i}" for i in range(50)]
    weights = cluster_weights(7, keys, 30)
    assert weights.shape == (30, 50)
    shuffled = [keys[i] for i in reversed(range(50))]
    assert np.array_equal(cluster_weights(7, shuffled, 30), weights[:, ::-1])
    assert np.array_equal(cluster_weights(7, keys[:10], 30), weights[:, :10]), "fewer clusters"
    assert np.array_equal(cluster_weights(7, keys, 12), weights[:12]), "fewer rounds"
    assert not np.array_equal(cluster_weights(8, keys, 30), weights)
    assert cluster_weights(0, ["d-0"], 8)[:, 0].tolist() == PINNED


def test_cluster_weights_are_poisson_one() -> None:
    weights = cluster_weights(3, [str(i) for i in range(400)], 50)
    assert abs(weights.mean() - 1) < 0.03 and abs(weights.var() - 1) < 0.06
    assert abs((weights == 0).mean() - np.exp(-1)) < 0.02


PINNED = [0.0, 1.0, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0]
"""Defined by SHAKE-256 alone: every Python and every machine gives these (never `random`)."""


def test_a_result_carries_its_replay_s_deal_and_order() -> None:
    replay = make_replay([deal()], agents=("a",) * 3 + ("b",) * 6)
    loose = game_result(replay)
    assert (loose.deal, loose.deal_order) == ("g-t1", None)
    named = replay.header.model_copy(update={"tournament": "cup", "game_id": "cup-00012"})
    result = game_result(replay.model_copy(update={"header": named}))
    assert result.deal == deal_key(named) and result.deal.startswith("d-")
    assert result.deal_order == 12
