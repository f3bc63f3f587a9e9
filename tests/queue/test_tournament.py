"""Tournament files and the fairness of their schedules."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from arena.agents.bot.agent import BotAgent
from arena.queue.jobs import AgentEntry
from arena.queue.seating import build_seats, to_match_spec
from arena.rules.boards import board
from arena.rules.errors import ConfigError
from arena.rules.roles import is_wolf
from arena.tournament import TournamentSpec, load_spec, rotated_deal, schedule


def spec(**fields: object) -> TournamentSpec:
    data: dict[str, object] = {"name": "t", "agents": {"a": "random", "b": "bot", "c": "random"}}
    data.update(fields)
    return TournamentSpec.model_validate(data)


def test_every_pairing_plays_every_deal_on_both_sides() -> None:
    jobs = schedule(spec(games_per_pairing=3))
    assert len(jobs) == 3 * 3 * 2
    by_deal: dict[tuple[int, frozenset[str]], list[tuple[str, ...]]] = {}
    for job in jobs:
        by_deal.setdefault((job.seed, frozenset(job.seats)), []).append(job.seats)
    for games in by_deal.values():
        first, mirror = games
        swap = {a: b for a, b in zip(first, mirror, strict=True)}
        assert len(set(swap.items())) == 2 and swap[first[0]] != first[0]
    sides: Counter[tuple[str, bool]] = Counter()
    for job in jobs:
        assert job.config.deal is not None
        for seat, role in enumerate(job.config.deal, start=1):
            sides[(job.seats[seat - 1], is_wolf(role))] += 1
    wolf_seats = sum(is_wolf(r) for r in board("wwk_guard").roles)
    assert sides[("a", True)] == sides[("b", True)] == sides[("c", True)] == 3 * 2 * wolf_seats


def test_each_seat_holds_each_card_once_over_a_board_length() -> None:
    seats = board("std9").seats
    jobs = schedule(spec(agents={"solo": "random"}, boards=["std9"], games_per_pairing=seats))
    assert len(jobs) == seats
    deals = [job.config.deal for job in jobs if job.config.deal is not None]
    per_seat = [Counter(deal[s] for deal in deals) for s in range(seats)]
    assert all(counts == Counter(board("std9").roles) for counts in per_seat)


def test_ids_are_stable_and_all_pairings_share_the_deals() -> None:
    jobs, again = schedule(spec()), schedule(spec())
    assert [j.game_id for j in jobs] == [f"t-{i:05d}" for i in range(len(jobs))]
    assert [j.fingerprint for j in jobs] == [j.fingerprint for j in again]
    assert len({j.seed for j in jobs}) == 2
    assert {(j.seed, j.config.deal) for j in jobs} == {
        (j.seed, j.config.deal) for j in jobs if set(j.seats) == {"a", "b"}
    }


def test_unmirrored_games_alternate_sides() -> None:
    jobs = schedule(
        spec(agents={"a": "random", "b": "random"}, mirrored=False, games_per_pairing=2)
    )
    wolves = [
        {job.seats[i] for i, r in enumerate(job.config.deal or ()) if is_wolf(r)} for job in jobs
    ]
    assert wolves == [{"a"}, {"b"}]


def test_board_presets_and_overrides_merge() -> None:
    s = spec(
        preset="site",
        overrides={"sheriff": False},
        boards=[{"board": "std9", "overrides": {"sheriff_vote_weight": 2}}],
    )
    config = schedule(s)[0].config
    assert config.preset == "site"
    assert config.overrides == {"sheriff": False, "sheriff_vote_weight": 2}


def test_endpoint_labels_and_limits() -> None:
    s = spec(
        agents={
            "gpt": {"spec": "openai:gpt-4.1-mini"},
            "local": {"spec": "openai:qwen", "base_url": "http://127.0.0.1:8000/v1"},
            "tagged": {"spec": "langchain:anthropic:claude-sonnet-4-5", "endpoint": "claude"},
            "bot": "bot",
        },
        concurrency={"openai": 4, "claude": 2},
    )
    labels = {n: e.endpoint_label for n, e in s.agents.items()}
    assert labels == {
        "gpt": "openai",
        "local": "http://127.0.0.1:8000/v1",
        "tagged": "claude",
        "bot": None,
    }
    assert all(job.concurrency == {"openai": 4, "claude": 2} for job in schedule(s))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: t\nagents: {a: gpt}\n", "t.yaml: agents.a: unknown agent spec 'gpt'"),
        ("name: t\nagents: {a: human}\n", "agents.a: a tournament cannot seat a human"),
        ("name: t\nagents: {a: 'delay:x:random'}\n", "agents.a: agent spec 'delay:x:random'"),
        ("name: t\nagents: {a: random}\nboards: [std8]\n", "boards.0: unknown board 'std8'"),
        ("name: t\nagents: {a: random}\npreset: house\n", "preset: Input should be"),
        ("name: 'bad name'\nagents: {a: random}\n", "name: use 1-64 letters"),
        ("name: t\nagents: {}\n", "agents: name at least one agent"),
        (
            "name: t\nagents: {a: random}\nconcurrency: {openai: 2}\n",
            "concurrency.openai: no agent",
        ),
        ("name: t\nagents: {a: random}\ncolour: red\n", "colour: Extra inputs are not permitted"),
        ("name: t\nagents: {a: {spec: random, max_usd: -1}}\n", "agents.a.max_usd: Input should"),
        (
            "name: t\nagents: {a: {spec: bot, reply_tokens: 64}}\n",
            "reply_tokens: settings of a model agent (openai:MODEL or",
        ),
        (
            "name: t\nagents: {a: {spec: bot, history_tokens: 6000}}\n",
            "history_tokens: settings of a model agent (openai:MODEL or",
        ),
        ("- just\n- a list\n", "a tournament file is a mapping"),
        ("name: t\nagents: {a: random\n", "t.yaml:3: not valid YAML"),
    ],
)
def test_bad_files_get_one_line_naming_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_spec(path)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_operational_settings_do_not_change_a_game_identity() -> None:
    base = schedule(spec())
    tuned = schedule(
        spec(
            concurrency={},
            max_attempts=5,
            limits={"retries": 0},
            agents={"a": {"spec": "random", "max_tokens": 10}, "b": "bot", "c": "random"},
        )
    )
    assert [j.fingerprint for j in base] == [j.fingerprint for j in tuned]
    reseeded = schedule(spec(base_seed=1))
    assert not {j.fingerprint for j in base} & {j.fingerprint for j in reseeded}


W, V, S, WI, H = "werewolf", "villager", "seer", "witch", "hunter"


def test_the_base_order_of_cards_is_pinned_for_a_seed() -> None:
    """The seating of a tournament file is the same on every Python (issue 9): it is drawn
    with `Sha256Draw`, whose output SHA-256 defines, so these values never change."""
    assert [r.value for r in rotated_deal("std9", 0, 0)] == [WI, H, S, W, W, W, V, V, V]
    assert [r.value for r in rotated_deal("std9", 7, 0)] == [H, W, WI, V, W, V, V, S, W]
    assert [r.value for r in rotated_deal("std9", 0, 1)] == [V, WI, H, S, W, W, W, V, V]
    jobs = schedule(
        spec(agents={"a": "random", "b": "bot"}, boards=["std9"], games_per_pairing=2, base_seed=3)
    )
    assert [(j.seed, "".join(j.seats)) for j in jobs] == [
        (265088928677767, "bbbabaabb"),
        (265088928677767, "aaababbaa"),
        (219599617041415, "bbbbabaab"),
        (219599617041415, "aaaababba"),
    ]


def test_seating_draws_do_not_use_python_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("random.Random used for a seating draw")

    for name in ("shuffle", "choice", "sample", "random", "randrange", "getrandbits"):
        monkeypatch.setattr(random.Random, name, refuse)
    assert len(schedule(spec(boards=["std9", "wwk_guard"], games_per_pairing=4))) == 2 * 4 * 6


def test_the_language_reaches_every_game_and_changes_only_other_languages_identity() -> None:
    """`lang` is part of a game's identity, entered only when it is not the default, so
    the Chinese games of every tournament file written before it existed keep their ids'
    fingerprints (a resubmission is no conflict)."""
    chinese, explicit, english = (schedule(spec(**f)) for f in ({}, {"lang": "zh"}, {"lang": "en"}))
    assert {job.lang for job in chinese} == {"zh"} and {job.lang for job in english} == {"en"}
    assert [j.fingerprint for j in chinese] == [j.fingerprint for j in explicit]
    assert not {j.fingerprint for j in chinese} & {j.fingerprint for j in english}
    assert chinese[0].fingerprint == "32470a6d5971af5c"  # as before `lang` existed


def test_a_tournament_in_english_seats_english_players() -> None:
    """The worker builds every seat in the job's language: the bots speak it, and a model
    seat's match spec (its prompts) is in it."""
    job = schedule(spec(lang="en"))[0]
    agents = build_seats(job)
    bots = [agent for agent in agents.values() if isinstance(agent, BotAgent)]
    assert bots and all(bot.lang == "en" for bot in bots)
    _, match, _ = to_match_spec(AgentEntry(spec="openai:m", base_url="http://127.0.0.1:1/v1"), "en")
    assert match.lang == "en"
