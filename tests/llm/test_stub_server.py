import json
import urllib.error
import urllib.request

from arena.llm.stub_policy import CallTool, HttpError, StubRequest, first, random_legal
from arena.llm.stub_server import StubModel, StubServer

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
