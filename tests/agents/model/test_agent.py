import asyncio

from arena.agents.base import Agent, Believer
from arena.agents.model.agent import BELIEF_STEP, LLMAgent
from arena.llm.base import ProviderError
from arena.llm.types import ModelReply, Usage
from arena.rules.actions import Inspect, Pass, RunForSheriff
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer
from tests.support.scripted import ScriptedChatModel, act, text_reply

CONFIG = GameConfig(
    board="std9",
    deal=(
        Role.SEER,
        Role.WITCH,
        Role.HUNTER,
        Role.WEREWOLF,
        Role.WEREWOLF,
        Role.WEREWOLF,
        Role.VILLAGER,
        Role.VILLAGER,
        Role.VILLAGER,
    ),
)


def first_request(kind: DecisionKind) -> tuple[Observation, DecisionRequest]:
    """The first `kind` request of the `CONFIG` game played by defaults, and its seat's view."""
    referee = Referee(CONFIG, 1)
    while True:
        for request in referee.pending():
            if request.kind is kind:
                return observe(referee.events, SeatViewer(seat=request.seat)), request
            referee.submit(request.seat, request.default, defaulted="test")


def agent(*steps) -> tuple[LLMAgent, ScriptedChatModel]:
    model = ScriptedChatModel(list(steps), model="scripted-7b")
    return LLMAgent(model, lang="en", label="openai:scripted-7b"), model


def test_the_agent_is_an_agent_and_a_believer() -> None:
    llm, _ = agent()
    assert isinstance(llm, Agent) and isinstance(llm, Believer)
    assert (llm.name, llm.model, llm.prompt_version) == (
        "openai:scripted-7b",
        "scripted-7b",
        "werewolf-en@v2",
    )


def test_a_valid_answer_becomes_the_action_with_a_trace() -> None:
    view, request = first_request(DecisionKind.SEER)
    target = request.options[0].targets[0]
    reply = act({"action": "inspect", "target": target}).model_copy(
        update={"usage": Usage(prompt_tokens=900, completion_tokens=12), "cost_usd": 0.002}
    )
    llm, model = agent(reply)
    answer = asyncio.run(llm.decide(view, request))
    assert answer.action == Inspect(target=target) and answer.error is None
    (record,) = answer.calls
    assert (record.seat, record.step, record.attempt) == (1, request.step, 1)
    assert record.parsed_action == {"kind": "inspect", "target": target}
    assert record.usage.prompt_tokens == 900 and record.cost_usd == 0.002
    assert record.prompt_id == "werewolf-en@v2" and record.model == "scripted-7b"
    assert [t.name for t in record.tools or ()] == ["act"]
    assert model.calls[0].tool_choice == "act"
    question = model.calls[0].messages[-1].content
    assert f'"action": "inspect", "target": {target}' in question
    model.assert_done()


def test_the_one_tool_is_offered_whatever_the_options() -> None:
    view, request = first_request(DecisionKind.RUN_FOR_SHERIFF)
    llm, model = agent(act({"action": "run_for_sheriff"}))
    assert asyncio.run(llm.decide(view, request)).action == RunForSheriff()
    assert model.calls[0].tool_choice == "act"
    assert [t.name for t in model.calls[0].tools] == ["act"]
    question = model.calls[0].messages[-1].content
    assert '{"action": "run_for_sheriff"}' in question and '{"action": "pass"}' in question


def test_prose_and_malformed_json_are_errors_not_actions() -> None:
    view, request = first_request(DecisionKind.SEER)
    llm, _ = agent(text_reply("I check seat 5."), act('{"answer": {"action": "inspect",, '))
    prose = asyncio.run(llm.decide(view, request))
    assert prose.action is None and "not valid JSON" in (prose.error or "")
    broken = asyncio.run(llm.decide(view, request, feedback=prose.error))
    assert broken.action is None and "not valid JSON" in (broken.error or "")
    assert broken.calls[0].attempt == 2 and broken.calls[0].error == broken.error


def test_a_refusal_continues_the_conversation_in_text() -> None:
    view, request = first_request(DecisionKind.SEER)
    legal = request.options[0].targets[0]
    llm, model = agent(
        act({"action": "inspect", "target": 99}), act({"action": "inspect", "target": legal})
    )
    first = asyncio.run(llm.decide(view, request))
    assert first.action == Inspect(target=99)
    second = asyncio.run(llm.decide(view, request, feedback="seat 99 is not a legal target"))
    assert second.action == Inspect(target=legal)
    retry = model.calls[1].messages
    assert retry[: len(model.calls[0].messages)] == model.calls[0].messages
    said, refused = retry[-2:]
    assert said.role == "assistant" and '"target": 99' in said.content and not said.tool_calls
    assert refused.role == "user" and "seat 99 is not a legal target" in refused.content
    assert '"action": "inspect"' in refused.content
    assert second.calls[0].attempt == 2


def test_a_provider_failure_is_traced_and_the_model_only_hears_no_answer_came() -> None:
    view, request = first_request(DecisionKind.SEER)
    llm, model = agent(
        ProviderError("ep@http://10.1.1.1/v1: HTTP 500 (after 4 tries)"), act({"action": "pass"})
    )
    failed = asyncio.run(llm.decide(view, request))
    assert (
        failed.action is None and failed.error == "ep@http://10.1.1.1/v1: HTTP 500 (after 4 tries)"
    )
    assert failed.calls[0].reply is None and failed.calls[0].error == failed.error
    again = asyncio.run(llm.decide(view, request, feedback=failed.error))
    assert again.action == Pass()
    first, second = model.calls[0].messages, model.calls[1].messages
    assert len(second) == len(first) and second[:-1] == first[:-1]
    assert second[-1].content.startswith(first[-1].content)
    assert "http" not in second[-1].content and "no answer came back" in second[-1].content


def test_belief_reports_come_in_the_same_conversation_with_one_retry() -> None:
    view, _ = first_request(DecisionKind.SEER)
    others = [s for s in view.knowledge.present() if s != 1]
    good = [{"seat": s, "p": 0.25} for s in others]
    llm, model = agent(
        act({"action": "report_belief", "wolf_probability": [{"seat": 2, "p": 0.5}]}),
        act({"action": "report_belief", "wolf_probability": good}),
    )
    report = asyncio.run(llm.believe(view))
    assert report is not None
    assert report.seat == 1 and report.after_seq == view.log_length
    assert report.wolf_probability == dict.fromkeys(others, 0.25)
    assert [c.step for c in report.calls] == [BELIEF_STEP, BELIEF_STEP]
    assert "missing" in (report.calls[0].error or "")
    assert model.calls[0].tool_choice == "act"
    assert model.calls[1].messages[: len(model.calls[0].messages)] == model.calls[0].messages
    model.assert_done()


def test_a_belief_that_stays_malformed_is_declined_and_its_calls_are_kept() -> None:
    view, _ = first_request(DecisionKind.SEER)
    llm, _ = agent(text_reply("no"), text_reply("still no"))
    assert asyncio.run(llm.believe(view)) is None
    assert len(llm.pending_traces()) == 2 and llm.pending_traces() == ()


def test_a_vote_carries_the_daily_beliefs() -> None:
    view, request = first_request(DecisionKind.VOTE)
    others = [s for s in view.knowledge.present() if s != request.seat]
    target = request.options[0].targets[0]
    rows = [{"seat": s, "p": 0.5} for s in others]
    llm, model = agent(act({"action": "vote", "target": target, "wolf_probability": rows}))
    answer = asyncio.run(llm.decide(view, request))
    assert answer.belief is not None and answer.belief.wolf_probability == dict.fromkeys(
        others, 0.5
    )
    assert answer.belief.calls == ()
    assert "wolf_probability" in model.calls[0].messages[-1].content


def test_usage_defaults_when_the_model_reports_none() -> None:
    view, request = first_request(DecisionKind.SEER)
    llm, _ = agent(ModelReply(tool_calls=act({"action": "pass"}).tool_calls))
    answer = asyncio.run(llm.decide(view, request))
    assert answer.calls[0].usage == Usage() and answer.action == Pass()
