import asyncio
from pathlib import Path

import pytest

from arena.agents.model.agent import LLMAgent
from arena.agents.preflight import aclose_models, preflight
from arena.agents.random_agent import RandomAgent
from arena.agents.seats import (
    EndpointSettings,
    MatchSpec,
    SeatSpec,
    build_agents,
    endpoint_settings,
    load_spec_file,
    parse_seat_spec,
    parse_seats,
    seat_seed,
    with_endpoint_flags,
)
from arena.errors import ArenaError
from arena.llm.langchain_provider import LangChainChatModel
from arena.llm.openai_provider import OpenAIChatModel
from arena.rules.config import GameConfig
from tests.support.stub_server import StubModel, StubServer

CONFIG = GameConfig(board="wwk_guard")


def test_specs_parse_with_overrides_replacing_and_bot_as_default() -> None:
    seats = parse_seats(
        ["1-6=openai:gpt-4.1-mini", "7-10=random"],
        12,
        overrides=["3=langchain:anthropic:claude-sonnet-4-5", "5, 9=bot"],
    )
    assert seats[1] == SeatSpec(kind="openai", model="gpt-4.1-mini")
    assert seats[3].label == "langchain:anthropic:claude-sonnet-4-5"
    assert seats[5].kind == "bot" and seats[9].kind == "bot"
    assert seats[8].kind == "random"
    assert seats[11].kind == "bot" and seats[12].kind == "bot"
    assert parse_seat_spec("2=openai:llama3.1:8b", 12)[2].model == "llama3.1:8b"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("1-6", "use SEATS=AGENT"),
        ("x=bot", "use SEATS=AGENT"),
        ("0=bot", "within 1-12"),
        ("11-13=bot", "within 1-12"),
        ("6-1=bot", "write the range 6-1 as 1-6"),
        ("1-3,2=bot", "names a seat twice"),
        ("1=openai", "openai:MODEL"),
        ("1=langchain:anthropic", "langchain:PROVIDER:MODEL"),
        ("1=gpt-4", "bot, random"),
        ("1=bot:fast", "bot, random"),
    ],
)
def test_bad_specs_name_themselves(spec: str, message: str) -> None:
    with pytest.raises(ArenaError, match=f"bad seat spec '{spec}'.*{message}"):
        parse_seat_spec(spec, 12)


def test_agents_are_built_and_model_seats_share_a_model(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    seats = parse_seats(["1-3=openai:gpt-4.1-mini", "4=langchain:openai:gpt-4.1", "5=random"], 12)
    agents = build_agents(seats, CONFIG, seed=7, spec=MatchSpec(lang="en"))
    assert all(isinstance(agents[s], LLMAgent) for s in (1, 2, 3, 4))
    assert agents[1].chat is agents[2].chat is agents[3].chat
    assert isinstance(agents[1].chat, OpenAIChatModel)
    assert isinstance(agents[4].chat, LangChainChatModel)
    assert agents[1].name == "openai:gpt-4.1-mini" and agents[1].lang == "en"
    assert agents[1].conversation.rules == CONFIG.rules
    assert isinstance(agents[5], RandomAgent)
    assert type(agents[6]).__name__ == "BotAgent"


def test_endpoint_limits_reach_the_model_seats(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    limits = EndpointSettings(decision_timeout_s=7, history_tokens=5000, mode="tools")
    spec = MatchSpec(lang="en", endpoints={"openai:slow": limits})
    seats = parse_seats(["1=openai:slow", "2=openai:gpt-4.1-mini"], 12)
    agents = build_agents(seats, CONFIG, seed=1, spec=spec)
    slow, other = agents[1], agents[2]
    assert isinstance(slow, LLMAgent) and isinstance(other, LLMAgent)
    assert (slow.decision_timeout_s, slow.conversation.budget_tokens) == (7, 5000)
    assert slow.chat.capabilities is not None and slow.chat.capabilities.mode == "tools"
    assert not slow.chat.capabilities.probed
    assert other.decision_timeout_s is None and other.chat.capabilities is None


def test_the_most_specific_endpoint_entry_applies(tmp_path: Path) -> None:
    path = tmp_path / "match.yaml"
    path.write_text(
        "seats: ['1-12=openai:qwen']\nlang: en\nendpoints:\n"
        "  openai: {base_url: 'http://127.0.0.1:1/v1', timeout_s: 5}\n"
        "  openai:qwen: {base_url: 'http://127.0.0.1:2/v1', mode: tools}\n",
        encoding="utf-8",
    )
    spec = load_spec_file(path)
    assert spec.seats == ("1-12=openai:qwen",)
    qwen = endpoint_settings(SeatSpec(kind="openai", model="qwen"), spec)
    other = endpoint_settings(SeatSpec(kind="openai", model="qwen2"), spec)
    assert qwen.base_url == "http://127.0.0.1:2/v1" and qwen.mode == "tools"
    assert other.base_url == "http://127.0.0.1:1/v1" and other.timeout_s == 5
    assert endpoint_settings(SeatSpec(kind="bot"), spec) == EndpointSettings()


@pytest.mark.parametrize(
    ("text", "message"),
    [("seats: [1, 2", "not valid YAML"), ("lang: fr", "lang"), ("colour: red", "colour")],
)
def test_bad_spec_files_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ArenaError, match=message):
        load_spec_file(path)
    with pytest.raises(ArenaError, match="missing.yaml: no such spec file"):
        load_spec_file(tmp_path / "missing.yaml")


def test_preflight_probes_each_endpoint_once_and_returns_header_records() -> None:
    caps = {"local-7b": StubModel(strict=False)}
    with StubServer(capabilities=caps) as server:
        spec = MatchSpec(lang="en", endpoints={"openai": EndpointSettings(base_url=server.url)})
        seats = parse_seats(["1-6=openai:local-7b", "7=openai:gpt-4.1-mini"], 12)
        agents = build_agents(seats, CONFIG, seed=1, spec=spec)

        async def go():
            try:
                return await preflight(agents)
            finally:
                await aclose_models(agents)

        records = asyncio.run(go())
        probes = len(server.requests)
    assert set(records) == {f"openai:local-7b@{server.url}", f"openai:gpt-4.1-mini@{server.url}"}
    local = records[f"openai:local-7b@{server.url}"]
    assert (local["mode"], local["strict_tools"], local["priced"]) == ("tools", False, False)
    assert records[f"openai:gpt-4.1-mini@{server.url}"]["mode"] == "tools_strict"
    assert records[f"openai:gpt-4.1-mini@{server.url}"]["priced"] is True
    # each: json_legal's two forms (json_object not enforced: one request; json_schema
    # counted as prompt: two); local-7b: strict tools refused (one 400), then a vote and a
    # speech; gpt-4.1-mini: a vote and a speech
    assert probes == 3 + 3 + 3 + 2


def test_preflight_fails_before_the_game_on_a_missing_key(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    agents = build_agents(parse_seats(["2-4=openai:gpt-4.1-mini"], 12), CONFIG, seed=1)
    with pytest.raises(ArenaError, match="seats 2,3,4: OPENAI_API_KEY is not set"):
        asyncio.run(preflight(agents))


def test_preflight_fails_before_the_game_on_an_unreachable_endpoint() -> None:
    with StubServer() as server:
        url = server.url
    spec = MatchSpec(endpoints={"openai": EndpointSettings(base_url=url, retries=0)})
    agents = build_agents(parse_seats(["5=openai:local"], 12), CONFIG, seed=1, spec=spec)
    with pytest.raises(ArenaError, match=r"seats 5: openai:local@.* is unreachable"):
        asyncio.run(preflight(agents))


def test_a_spec_file_key_variable_must_be_set(monkeypatch) -> None:
    monkeypatch.delenv("MY_GATEWAY_KEY", raising=False)
    spec = MatchSpec(endpoints={"langchain": EndpointSettings(api_key_env="MY_GATEWAY_KEY")})
    with pytest.raises(ArenaError, match="MY_GATEWAY_KEY is not set"):
        build_agents(parse_seats(["1=langchain:openai:gpt-4.1"], 12), CONFIG, seed=1, spec=spec)


def test_the_probe_limit_follows_the_request_limit_unless_set_apart(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    spec = MatchSpec(
        endpoints={
            "openai:a": EndpointSettings(timeout_s=7),
            "openai:b": EndpointSettings(timeout_s=7, probe_timeout_s=5),
        }
    )
    seats = parse_seats(["1=openai:a", "2=openai:b", "3=openai:c"], 12)
    agents = build_agents(seats, CONFIG, seed=1, spec=spec)
    limits = [(agents[s].chat.timeout_s, agents[s].chat.probe_timeout_s) for s in (1, 2, 3)]
    assert limits == [(7, 28), (7, 5), (300, 1200)]
    flagged = with_endpoint_flags(spec, timeout_s=9, probe_timeout_s=30)
    agents = build_agents(seats, CONFIG, seed=1, spec=flagged)
    assert {(agents[s].chat.timeout_s, agents[s].chat.probe_timeout_s) for s in (1, 2, 3)} == {
        (9, 30)
    }


def test_a_spec_seeds_its_seats_alike_in_play_the_worker_and_the_play_host(
    tmp_path: Path,
) -> None:
    from arena.agents.bot.agent import BotAgent
    from arena.humans.host import seat_agents
    from arena.queue.memory_queue import MemoryQueue
    from arena.queue.seating import build_seats
    from arena.storage.desk import MemoryDesk, SeatPlan, Table
    from tests.queue.conftest import make_jobs, run_all

    job = make_jobs(agents={"a": "bot", "b": "bot"})[0]
    seats = range(1, len(job.seats) + 1)
    worker: dict[int, int] = {}

    def recording(job_: object) -> dict[int, object]:
        agents = build_seats(job_)  # type: ignore[arg-type]
        worker.update({s: a.seed for s, a in agents.items() if isinstance(a, BotAgent)})
        return agents  # type: ignore[return-value]

    asyncio.run(run_all(MemoryQueue(), [job], tmp_path, seat_builder=recording))
    played = build_agents(parse_seats((f"1-{len(seats)}=bot",), len(seats)), job.config, job.seed)
    table = Table(
        game_id="g",
        board=job.config.board,
        seats={s: SeatPlan(kind="human" if s == 1 else "bot") for s in seats},
    )
    hosted = seat_agents(MemoryDesk(), table, job.config, job.seed, poll_s=0.01)
    expected = {s: seat_seed(job.seed, s) for s in seats}
    assert worker == expected
    assert {s: a.seed for s, a in played.items() if isinstance(a, BotAgent)} == expected
    hosted_bots = {s: a for s, a in hosted.items() if isinstance(a, BotAgent)}
    assert {s: a.seed for s, a in hosted_bots.items()} == {s: expected[s] for s in seats if s != 1}
    assert hosted[1].fallback.seed == expected[1]  # type: ignore[attr-defined]
