import pytest

from arena.ratings.facts import summarize
from arena.ratings.metrics import agent_metrics, deception_metrics, model_usage
from arena.ratings.results import game_result
from arena.ratings.stats import Mean, Ratio
from arena.ratings.tallies import Tallies
from arena.rules.events import AdmirerChose, Event
from arena.rules.types import Phase, Role, Team, Winner
from arena.rules.visibility import REFEREE
from arena.storage.replay_file import ReplayError
from tests.ratings.builders import (
    HUNTER,
    SEER,
    WITCH,
    V,
    answer,
    belief,
    call,
    deal,
    exiled,
    make_replay,
    phase,
    speech,
    vote,
    whisper,
)

SPEECHES, VOTE, NIGHT = Phase.SPEECHES, Phase.VOTE, Phase.NIGHT


def seat(events: list[Event], seat_no: int) -> Tallies:
    return summarize(make_replay(events)).seats[seat_no - 1].tallies


def test_god_claims_and_claim_survival() -> None:
    events: list[Event] = [
        deal(),
        phase(Phase.SHERIFF_ELECTION, 1),
        speech(2, role=WITCH, context="sheriff"),
        phase(SPEECHES, 1),
        speech(1, role=SEER),
        speech(2, role=WITCH),
        speech(3, role=V),
        speech(4, role=SEER),
        phase(VOTE, 1),
        exiled(1),
        speech(1, role=SEER, context="last_words"),
        phase(NIGHT, 2),
        phase(SPEECHES, 2),
        speech(2, role=HUNTER),
        phase(VOTE, 2),
        exiled(2),
    ]
    summary = summarize(make_replay(events))
    t = {s.seat: s.tallies for s in summary.seats}
    assert t[1].god_claims == Ratio(num=1, den=1)
    assert t[1].claim_survival == Ratio(num=0, den=1)
    assert t[2].god_claims == Ratio(num=1, den=1)
    assert t[2].claim_survival == Ratio(num=1, den=2)
    assert t[3].god_claims == Ratio(num=0, den=1)
    assert t[3].claim_survival == Ratio()
    assert t[4] == Tallies(spoke=Ratio(num=1, den=1))  # seat 4 is good: a speech, no claim


def test_a_wolf_that_never_spoke_has_no_claim_chances() -> None:
    t = seat([deal(), phase(SPEECHES, 1), speech(4)], 1)
    assert t.god_claims == Ratio() and t.god_claims.value is None


def test_vote_accuracy_and_partner_votes_count_only_exile_ballots() -> None:
    events: list[Event] = [
        deal(),
        vote(4, 1, "sheriff"),
        phase(VOTE, 1),
        vote(1, 2),
        vote(2, 4),
        vote(3, None),
        vote(4, 1),
        vote(5, 6),
        vote(6, None),
        vote(7, 3, "pk"),
        vote(8, 2, "nomination"),
        vote(9, 5, "defence"),
    ]
    t = {s.seat: s.tallies for s in summarize(make_replay(events)).seats}
    assert t[1].partner_votes == Ratio(num=1, den=1)
    assert t[2].partner_votes == Ratio(num=0, den=1)
    assert t[3].partner_votes == Ratio()
    assert t[4].vote_accuracy == Ratio(num=1, den=1)
    assert t[5].vote_accuracy == Ratio(num=0, den=1)
    assert t[6].vote_accuracy == Ratio()
    assert t[7].vote_accuracy.num == 1 and t[8].vote_accuracy.num == 1
    assert t[9].vote_accuracy == Ratio(num=0, den=1)
    good = sum((t[s] for s in range(4, 10)), Tallies())
    assert good.vote_accuracy == Ratio(num=3, den=5)


def test_wolf_suspicion_and_brier_use_good_seats_reports_only() -> None:
    events: list[Event] = [deal(), phase(VOTE, 1)]
    beliefs = [
        belief(4, 2, {1: 0.8, 2: 0.2, 5: 0.1, 4: 0.9, 42: 0.5}),
        belief(5, 2, {1: 0.6, 7: 1.5}),
        belief(2, 2, {1: 0.0, 4: 1.0}),
    ]
    t = {s.seat: s.tallies for s in summarize(make_replay(events, beliefs=beliefs)).seats}
    assert t[1].wolf_suspicion.value == pytest.approx(0.7)
    assert t[2].wolf_suspicion.value == pytest.approx(0.2)
    assert t[3].wolf_suspicion == Mean()
    assert t[4].brier.value == pytest.approx((0.04 + 0.64 + 0.01) / 3)
    assert t[5].brier.value == pytest.approx(0.16)
    assert t[2].brier == Mean()


def test_no_belief_reports_leave_belief_metrics_empty() -> None:
    t = {s.seat: s.tallies for s in summarize(make_replay([deal(), speech(1)])).seats}
    assert all(x.wolf_suspicion.value is None and x.brier.value is None for x in t.values())
    assert all(x.speech_shift.value is None for x in t.values())


def test_speech_shift_is_attributed_only_across_a_lone_speech() -> None:
    events: list[Event] = [
        deal(),  # 0
        phase(SPEECHES, 1),  # 1
        speech(1),  # 2: wolf speaks
        speech(4),  # 3: the listener speaks itself
        speech(5),  # 4: a good seat speaks
        phase(VOTE, 1),  # 5
        vote(4, 1),  # 6
        speech(2),  # 7: but a vote happened too
    ]
    beliefs = [
        belief(4, 2, {1: 0.5, 2: 0.5, 5: 0.5}),
        belief(4, 3, {1: 0.2, 2: 0.5, 5: 0.8}),
        belief(4, 4, {1: 0.0, 2: 0.0, 5: 0.0}),
        belief(4, 6, {1: 0.9, 2: 0.9, 5: 0.0}),
        belief(4, 8, {1: 0.1, 2: 0.1, 5: 0.1}),
        belief(1, 3, {4: 0.0}),
    ]
    t = {s.seat: s.tallies for s in summarize(make_replay(events, beliefs=beliefs)).seats}
    assert t[1].speech_shift.value == pytest.approx((0.3 + 0.0 + 0.3) / 3)
    before = ((0.5 - 1) ** 2 * 2 + 0.5**2) / 3
    after = ((0.2 - 1) ** 2 + (0.5 - 1) ** 2 + 0.8**2) / 3
    assert t[1].misdirection.value == pytest.approx(after - before)
    assert t[4].speech_shift == Mean()
    assert t[5].speech_shift.count == 1
    assert t[5].misdirection.value is not None and t[5].misdirection.value < 0
    assert t[2].speech_shift == Mean()


def test_whisper_leak_compares_with_earlier_night_talk_only() -> None:
    events: list[Event] = [
        deal(),
        whisper(2, "今晚刀4號預言家"),
        speech(1, "我覺得4號預言家是狼"),
        speech(3, "過"),
        speech(4, "今晚刀4號預言家"),
        speech(2, "Kill seat five tonight"),
        whisper(3, "kill seat five tonight"),
    ]
    t = {s.seat: s.tallies for s in summarize(make_replay(events)).seats}
    leak = t[1].whisper_leak
    assert leak.count == 1 and leak.value == pytest.approx(3 / 8)
    assert t[3].whisper_leak == Mean()
    assert t[4].whisper_leak == Mean()
    assert t[2].whisper_leak == Mean(total=0.0, count=1)


def test_fallbacks_retries_and_usage_per_seat_and_model() -> None:
    answers = [answer(1, 0), answer(1, 1, defaulted="timeout"), answer(4, 1)]
    traces = [
        call(1, 0, tokens=(100, 10), cost=0.01),
        call(1, 1, tokens=(100, 10), cost=0.01),
        call(1, 1, attempt=2, tokens=(120, 5), cost=0.02, model="m2"),
    ]
    beliefs = [belief(4, 1, {1: 0.5}).model_copy(update={"calls": (call(4, 0, tokens=(50, 5)),)})]
    replay = make_replay([deal()], answers=answers, traces=traces, beliefs=beliefs)
    summary = summarize(replay)
    one, four = summary.seats[0].tallies, summary.seats[3].tallies
    assert one.fallbacks == Ratio(num=1, den=2) and four.fallbacks == Ratio(num=0, den=1)
    assert one.retries == Ratio(num=1, den=2) and four.retries == Ratio()
    assert one.usage.calls == 3 and one.usage.tokens == 345
    assert one.usage.cost_usd == pytest.approx(0.04)
    assert four.usage.tokens == 55
    models = {m.model: m.usage for m in model_usage([summary])}
    assert models["m1"].calls == 3 and models["m2"].tokens == 125


def test_agent_metrics_split_by_side_and_count_games() -> None:
    agents = ("x", "y", "y", "x", "x", "y", "y", "y", "y")
    events: list[Event] = [deal(), phase(VOTE, 1), vote(1, 2), vote(4, 1), vote(5, 9)]
    games = [summarize(make_replay(events, agents=agents, game_id=g)) for g in ("a", "b")]
    metrics = {m.agent: m for m in agent_metrics(games)}
    x, y = metrics["x"], metrics["y"]
    assert x.games == 2 and x.wolf_games == 2 and x.good_games == 2
    assert x.as_wolf.partner_votes == Ratio(num=2, den=2)
    assert x.as_good.vote_accuracy == Ratio(num=2, den=4)
    assert x.as_wolf.vote_accuracy == Ratio() and y.as_good.vote_accuracy == Ratio()
    assert x.tokens_per_game == 0.0


def test_a_draw_is_summarized_like_any_finished_game() -> None:
    summary = summarize(make_replay([deal(), speech(1, role=SEER)], winner=Winner.DRAW))
    assert summary.result.winner is Winner.DRAW
    assert summary.seats[0].tallies.god_claims == Ratio(num=1, den=1)
    assert deception_metrics([make_replay([deal()], winner=Winner.DRAW)])[0].games == 1


def test_unfinished_or_dealless_replays_are_refused() -> None:
    with pytest.raises(ReplayError, match="unfinished"):
        game_result(make_replay([deal()], winner=None))
    with pytest.raises(ReplayError, match="no deal"):
        game_result(make_replay([phase(NIGHT, 1)]))
    with pytest.raises(ReplayError, match="seat"):
        summarize(make_replay([deal(), speech(12)]))


def test_roles_come_from_the_deal() -> None:
    result = game_result(make_replay([deal()], agents=[f"s{i}" for i in range(1, 10)]))
    assert [s.role for s in result.seats][:4] == [Role.WEREWOLF] * 3 + [SEER]
    assert result.lineup(result.seats[0].team) == {"s1": 1, "s2": 1, "s3": 1}


def test_a_secret_admirer_who_loves_a_wolf_is_rated_with_the_wolves() -> None:
    roles = (Role.WEREWOLF,) * 3 + (Role.SEER, Role.SECRET_ADMIRER) + (Role.VILLAGER,) * 4
    for wolf_side, team in ((True, Team.WOLF), (False, Team.GOOD)):
        chose = AdmirerChose(visibility=REFEREE, seat=5, target=1, wolf_side=wolf_side)
        result = game_result(make_replay([deal(roles), chose], winner=Winner.WOLVES))
        assert result.seats[4].role is Role.SECRET_ADMIRER and result.seats[4].team is team
    assert game_result(make_replay([deal(roles)])).seats[4].team is Team.GOOD


def test_votes_on_a_secret_admirer_who_loves_a_wolf_count_as_votes_on_a_wolf() -> None:
    roles = (Role.WEREWOLF,) * 3 + (Role.SEER, Role.SECRET_ADMIRER) + (Role.VILLAGER,) * 4
    chose = AdmirerChose(visibility=REFEREE, seat=5, target=1, wolf_side=True)
    summary = summarize(make_replay([deal(roles), chose, vote(6, 5), vote(5, 6)]))
    assert summary.seats[5].tallies.vote_accuracy == Ratio(num=1, den=1)
    assert summary.seats[4].tallies.partner_votes == Ratio(num=0, den=1)
