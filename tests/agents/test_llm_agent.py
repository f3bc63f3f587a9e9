import asyncio

from arena.agents.base import Agent, Believer
from arena.agents.llm_agent import BELIEF_STEP, LLMAgent
from arena.llm.base import ProviderError
from arena.llm.scripted import ScriptedChatModel, text_reply, tool_reply
from arena.llm.types import ModelReply, Usage
from arena.rules.actions import Inspect, Pass, RunForSheriff
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer

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


def seer_request() -> tuple[Observation, DecisionRequest]:
    referee = Referee(CONFIG, 1)
    while True:
        for request in referee.pending():
            if request.kind is DecisionKind.SEER:
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
        "werewolf-en@v1",
    )


def test_a_valid_tool_call_becomes_the_action_with_a_trace() -> None:
    view, request = seer_request()
    target = request.options[0].targets[0]
    reply = tool_reply("inspect", {"target": target}).model_copy(
        update={"usage": Usage(prompt_tokens=900, completion_tokens=12), "cost_usd": 0.002}
    )
    llm, model = agent(reply)
    answer = asyncio.run(llm.decide(view, request))
    assert answer.action == Inspect(target=target) and answer.error is None
    (record,) = answer.calls
    assert (record.seat, record.step, record.attempt) == (1, request.step, 1)
    assert record.parsed_action == {"kind": "inspect", "target": target}
    assert record.usage.prompt_tokens == 900 and record.cost_usd == 0.002
    assert record.prompt_id == "werewolf-en@v1" and record.model == "scripted-7b"
    assert [t.name for t in record.tools] == ["inspect"]
    assert model.calls[0].tool_choice == "inspect"
    model.assert_done()


def test_with_several_options_some_tool_is_required() -> None:
    referee = Referee(CONFIG, 1)
    while not any(r.kind is DecisionKind.RUN_FOR_SHERIFF for r in referee.pending()):
        for request in referee.pending():
            referee.submit(request.seat, request.default, defaulted="test")
    request = referee.pending()[0]
    llm, model = agent(tool_reply("run_for_sheriff", {}))
    view = observe(referee.events, SeatViewer(seat=request.seat))
    assert asyncio.run(llm.decide(view, request)).action == RunForSheriff()
    assert model.calls[0].tool_choice == "required"
    assert [t.name for t in model.calls[0].tools] == ["run_for_sheriff", "pass"]


def test_no_tool_call_and_malformed_json_are_errors_not_actions() -> None:
    view, request = seer_request()
    llm, _ = agent(text_reply("I check seat 5."), tool_reply("inspect", '{"target": '))
    prose = asyncio.run(llm.decide(view, request))
    assert prose.action is None and "no tool call" in (prose.error or "")
    broken = asyncio.run(llm.decide(view, request, feedback=prose.error))
    assert broken.action is None and "not valid JSON" in (broken.error or "")
    assert broken.calls[0].attempt == 2 and broken.calls[0].error == broken.error


def test_feedback_continues_the_conversation_with_the_rejected_call() -> None:
    view, request = seer_request()
    legal = request.options[0].targets[0]
    llm, model = agent(
        tool_reply("inspect", {"target": 99}), tool_reply("inspect", {"target": legal})
    )
    first = asyncio.run(llm.decide(view, request))
    assert first.action == Inspect(target=99)
    second = asyncio.run(llm.decide(view, request, feedback="seat 99 is not a legal target"))
    assert second.action == Inspect(target=legal)
    retry = model.calls[1].messages
    assert retry[:3] == model.calls[0].messages
    assert retry[3].role == "assistant" and retry[3].tool_calls[0].arguments == '{"target": 99}'
    assert retry[4].role == "tool" and retry[4].tool_call_id == retry[3].tool_calls[0].id
    assert "seat 99 is not a legal target" in retry[4].content
    assert second.calls[0].attempt == 2


def test_a_reply_without_a_call_gets_the_feedback_as_a_user_turn() -> None:
    view, request = seer_request()
    llm, model = agent(text_reply("hmm"), tool_reply("inspect", {"target": 2}))
    asyncio.run(llm.decide(view, request))
    asyncio.run(llm.decide(view, request, feedback="no tool call"))
    roles = [m.role for m in model.calls[1].messages]
    assert roles == ["system", "user", "user", "assistant", "user"]


def test_a_provider_failure_is_an_error_and_is_traced() -> None:
    view, request = seer_request()
    llm, model = agent(ProviderError("ep: HTTP 500 (after 4 tries)"), tool_reply("pass", {}))
    failed = asyncio.run(llm.decide(view, request))
    assert failed.action is None and failed.error == "ep: HTTP 500 (after 4 tries)"
    assert failed.calls[0].reply is None and failed.calls[0].error == failed.error
    again = asyncio.run(llm.decide(view, request, feedback=failed.error))
    assert again.action == Pass()
    assert model.calls[1].messages == model.calls[0].messages


def test_belief_reports_come_through_report_belief_with_one_retry() -> None:
    view, _ = seer_request()
    others = [s for s in view.knowledge.present() if s != 1]
    good = {str(s): 0.25 for s in others}
    llm, model = agent(
        tool_reply("report_belief", {"wolf_probability": {"2": 0.5}}),
        tool_reply("report_belief", {"wolf_probability": good}),
    )
    report = asyncio.run(llm.believe(view))
    assert report is not None
    assert report.seat == 1 and report.after_seq == view.log_length
    assert report.wolf_probability == dict.fromkeys(others, 0.25)
    assert [c.step for c in report.calls] == [BELIEF_STEP, BELIEF_STEP]
    assert "missing" in (report.calls[0].error or "")
    assert model.calls[0].tool_choice == "report_belief"
    model.assert_done()


def test_a_belief_that_stays_malformed_is_declined() -> None:
    view, _ = seer_request()
    llm, _ = agent(text_reply("no"), text_reply("still no"))
    assert asyncio.run(llm.believe(view)) is None


def test_usage_defaults_when_the_model_reports_none() -> None:
    view, request = seer_request()
    llm, _ = agent(ModelReply(tool_calls=tool_reply("pass", {}).tool_calls))
    answer = asyncio.run(llm.decide(view, request))
    assert answer.calls[0].usage == Usage() and answer.action == Pass()
