import json
import urllib.error
import urllib.request

import pytest

from tests.support.seats import ACT
from tests.support.stub_policy import (
    CallTool,
    HttpError,
    StubRequest,
    first,
    random_legal,
    uniform,
)
from tests.support.stub_server import StubModel, StubServer

VOTE_TOOL = {
    "type": "function",
    "function": {
        "name": "vote",
        "parameters": {
            "type": "object",
            "properties": {"target": {"type": "integer", "enum": [4, 5]}},
            "required": ["target"],
            "additionalProperties": False,
        },
    },
}


def post(server: StubServer, body: dict) -> tuple[int, dict, dict]:
    request = urllib.request.Request(
        server.url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), dict(exc.headers)


def test_models_route_lists_the_configured_models() -> None:
    with StubServer(models={"bad": random_legal()}) as server:
        with urllib.request.urlopen(server.url + "/models", timeout=5) as response:
            names = [m["id"] for m in json.loads(response.read())["data"]]
    assert names == ["bad", "stub"]


def test_random_legal_policy_answers_with_schema_valid_tool_calls() -> None:
    with StubServer(random_legal(3)) as server:
        for _ in range(10):
            status, body, _ = post(server, {"model": "m", "messages": [], "tools": [VOTE_TOOL]})
            call = body["choices"][0]["message"]["tool_calls"][0]["function"]
            assert status == 200
            assert call["name"] == "vote"
            assert json.loads(call["arguments"])["target"] in (4, 5)


def test_scripted_replies_come_first_then_the_policy() -> None:
    seen: list[str | None] = []

    def policy(request: StubRequest) -> CallTool:
        seen.append(request.forced)
        return CallTool("vote", '{"target": 5}')

    script = first([HttpError(429, retry_after_s=1.5)], then=policy)
    with StubServer(models={"m": script}) as server:
        body = {
            "model": "m",
            "messages": [],
            "tools": [VOTE_TOOL],
            "tool_choice": {"type": "function", "function": {"name": "vote"}},
        }
        status, _, headers = post(server, body)
        assert (status, headers["Retry-After"]) == (429, "1.5")
        status, reply, _ = post(server, body)
    assert status == 200
    assert seen == ["vote"]
    assert reply["choices"][0]["finish_reason"] == "tool_calls"


def test_capabilities_are_emulated() -> None:
    caps = {"plain": StubModel(tools=False, json_schema=False), "loose": StubModel(strict=False)}
    strict_tool = {**VOTE_TOOL, "function": {**VOTE_TOOL["function"], "strict": True}}
    with StubServer(capabilities=caps) as server:
        assert post(server, {"model": "plain", "messages": [], "tools": [VOTE_TOOL]})[0] == 400
        assert post(server, {"model": "loose", "messages": [], "tools": [strict_tool]})[0] == 400
        assert post(server, {"model": "loose", "messages": [], "tools": [VOTE_TOOL]})[0] == 200
        fmt = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
        assert post(server, {"model": "plain", "messages": [], "response_format": fmt})[0] == 400


def test_repeated_long_prefixes_report_cached_tokens() -> None:
    system = {"role": "system", "content": "rules " * 2000}
    with StubServer() as server:
        _, cold, _ = post(
            server, {"model": "m", "messages": [system, {"role": "user", "content": "a"}]}
        )
        _, warm, _ = post(
            server, {"model": "m", "messages": [system, {"role": "user", "content": "b"}]}
        )
    assert cold["usage"]["prompt_tokens_details"]["cached_tokens"] == 0
    cached = warm["usage"]["prompt_tokens_details"]["cached_tokens"]
    assert 1024 <= cached <= warm["usage"]["prompt_tokens"]
    assert cached % 128 == 0


def test_unknown_routes_and_bad_bodies_are_errors() -> None:
    with StubServer() as server:
        request = urllib.request.Request(server.url + "/chat/completions", data=b"{not json")
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("expected an HTTP error")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
        try:
            urllib.request.urlopen(server.url + "/nothing", timeout=5)
            raise AssertionError("expected an HTTP error")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404


def named(tool: dict) -> dict:
    return {"type": "function", "function": {"name": tool["function"]["name"]}}


def test_multi_tool_and_required_choices_are_refused_when_switched_off() -> None:
    other = {**VOTE_TOOL, "function": {**VOTE_TOOL["function"], "name": "pass"}}
    with StubServer(capabilities={"m": StubModel(required_choice=False)}) as server:
        two = {"model": "m", "messages": [], "tools": [VOTE_TOOL, other]}
        assert post(server, {**two, "tool_choice": named(VOTE_TOOL)})[0] == 500
        required = {"model": "m", "messages": [], "tools": [VOTE_TOOL], "tool_choice": "required"}
        assert post(server, required)[0] == 500
        one = {"model": "m", "messages": [], "tools": [VOTE_TOOL], "tool_choice": named(VOTE_TOOL)}
        assert post(server, one)[0] == 200


def test_null_content_is_refused_when_switched_off() -> None:
    with StubServer(capabilities={"m": StubModel(null_content=False)}) as server:
        null = [{"role": "assistant", "content": None}]
        status, body, _ = post(server, {"model": "m", "messages": null})
        assert status == 400 and "content" in body["error"]["message"]
        text = [{"role": "assistant", "content": "…"}]
        assert post(server, {"model": "m", "messages": text})[0] == 200


def test_tool_messages_are_dropped_before_the_model_sees_them() -> None:
    seen: list[list[str]] = []

    def policy(request: StubRequest) -> CallTool:
        seen.append([m["role"] for m in request.body["messages"]])
        return CallTool("vote", '{"target": 4}')

    messages = [
        {"role": "user", "content": "vote"},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "tool", "tool_call_id": "c1", "content": "refused"},
    ]
    caps = {"m": StubModel(tool_messages=False)}
    with StubServer(models={"m": policy, "full": policy}, capabilities=caps) as server:
        post(server, {"model": "m", "messages": messages, "tools": [VOTE_TOOL]})
        post(server, {"model": "full", "messages": messages, "tools": [VOTE_TOOL]})
    assert seen == [["user", "assistant"], ["user", "assistant", "tool"]]


def test_a_long_max_length_crashes_and_a_long_request_exceeds_the_context() -> None:
    long_text = {"type": "string", "maxLength": 1200}
    speak = {
        "type": "function",
        "function": {
            "name": "speak",
            "parameters": {"type": "object", "properties": {"t": long_text}},
        },
    }
    caps = {"grammar": StubModel(max_length=500), "small": StubModel(context_tokens=100)}
    with StubServer(capabilities=caps) as server:
        status, body, _ = post(server, {"model": "grammar", "messages": [], "tools": [speak]})
        assert status == 500 and "grammar" in body["error"]["message"]
        assert post(server, {"model": "grammar", "messages": [], "tools": [VOTE_TOOL]})[0] == 200
        big = [{"role": "user", "content": "word " * 500}]
        status, body, _ = post(server, {"model": "small", "messages": big})
        assert status == 400 and "maximum context length" in body["error"]["message"]
        assert post(server, {"model": "small", "messages": big[:0]})[0] == 200


def test_a_json_body_fault_answers_200_with_a_body_that_is_not_json() -> None:
    with StubServer(capabilities={"m": StubModel(json_body=False)}) as server:
        request = urllib.request.Request(
            server.url + "/chat/completions",
            data=json.dumps({"model": "m", "messages": []}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            status, raw = response.status, response.read()
    assert status == 200
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw)


def test_an_ignored_tool_choice_over_one_tool_answers_in_text() -> None:
    with StubServer(capabilities={"m": StubModel(tool_choice=False)}) as server:
        body = {
            "model": "m",
            "messages": [],
            "tools": [VOTE_TOOL],
            "tool_choice": named(VOTE_TOOL),
        }
        _, reply, _ = post(server, body)
    message = reply["choices"][0]["message"]
    assert "tool_calls" not in message
    assert json.loads(message["content"])["target"] in (4, 5)


def question(options: list[str]) -> dict:
    lines = "\n".join(f"- {o} — vote" for o in options)
    return {"role": "user", "content": f"Vote.\nLegal answers now:\n{lines}"}


def test_random_legal_reads_the_question_and_uniform_ignores_it() -> None:
    act = {"type": "function", "function": {"name": "act", "parameters": ACT.parameters}}
    body = {
        "model": "m",
        "messages": [question(['{"action": "vote", "target": 2|7}'])],
        "tools": [act],
        "tool_choice": named(act),
    }

    def targets(policy) -> set[int]:
        found: set[int] = set()
        with StubServer(policy) as server:
            for _ in range(40):
                _, reply, _ = post(server, body)
                arguments = reply["choices"][0]["message"]["tool_calls"][0]["function"]
                answer = json.loads(arguments["arguments"])["answer"]
                if answer.get("action") == "vote":
                    found.add(answer["target"])
        return found

    assert targets(random_legal(1)) == {2, 7}
    assert targets(uniform(1)) - {2, 7}


def test_a_reproducible_policy_answers_each_request_alike_in_any_order() -> None:
    act = {"type": "function", "function": {"name": "act", "parameters": ACT.parameters}}

    def body(n: int) -> dict:
        legal = "|".join(str(s) for s in range(1, 13) if s != n)
        return {
            "model": "m",
            "messages": [question([f'{{"action": "vote", "target": {legal}}}'])],
            "tools": [act],
            "tool_choice": named(act),
        }

    def targets(order: list[int]) -> dict[int, int]:
        with StubServer(random_legal(3, reproducible=True)) as server:
            replies = {n: post(server, body(n))[1] for n in order}
        calls = {n: r["choices"][0]["message"]["tool_calls"][0] for n, r in replies.items()}
        return {
            n: json.loads(c["function"]["arguments"])["answer"]["target"] for n, c in calls.items()
        }

    first = targets(list(range(1, 13)))
    assert targets([7, 3, 12, 1, 9, 5, 11, 2, 8, 4, 10, 6]) == first
    assert all(first[n] != n for n in first)  # each answer still reads its own question
    assert len(set(first.values())) > 1  # and draws: the seed and the messages decide
