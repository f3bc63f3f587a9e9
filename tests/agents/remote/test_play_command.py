"""`arena play --seat N=http://…`: the example agent, a separate process, plays seats."""

from __future__ import annotations

import hashlib
import hmac
import os
import socket

import pytest

from arena.cli import main
from arena.rules import events as ev
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import example_module, example_process, served

TOKEN = "play-command-token"


def test_arena_play_seats_the_example_agent(tmp_path, capsys) -> None:
    out = tmp_path / "game.jsonl"
    with example_process() as url:
        code = main(
            [
                "play",
                "--board",
                "wwk_guard",
                "--seed",
                "4",
                "--seat",
                f"3={url}",
                "--seat",
                f"7,9={url}",
                "--out",
                str(out),
                "--quiet",
            ]
        )
    assert code == 0, capsys.readouterr().err
    replay = read_replay(out)
    assert replay.header.result is not None and not replay.header.result.void
    assert {s.seat for s in replay.header.seats if s.agent == url} == {3, 7, 9}
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert {t.seat for t in replay.traces} == {3, 7, 9}


def test_a_spec_file_signs_with_the_token_it_names(tmp_path, monkeypatch, capsys) -> None:
    out, spec = tmp_path / "game.jsonl", tmp_path / "me.yaml"
    env = {**os.environ, "AGENT_TOKEN": TOKEN}
    with example_process("--token-env", "AGENT_TOKEN", env=env) as url:
        spec.write_text(
            f'seats: ["2={url}"]\n'
            f"endpoints:\n  {url}: {{token_env: MY_TOKEN, decision_timeout_s: 5, overage_s: 1}}\n"
        )
        monkeypatch.delenv("MY_TOKEN", raising=False)
        assert main(["play", "--spec", str(spec), "--out", str(out), "--quiet"]) == 2
        assert capsys.readouterr().err.strip() == (
            "arena: error: MY_TOKEN is not set (named as token_env for the agent)"
        )
        monkeypatch.setenv("MY_TOKEN", "wrong")
        assert main(["play", "--spec", str(spec), "--out", str(out), "--quiet"]) == 2
        assert "answered hello with HTTP 401" in capsys.readouterr().err
        monkeypatch.setenv("MY_TOKEN", TOKEN)
        code = main(["play", "--spec", str(spec), "--out", str(out), "--quiet", "--force"])
    assert code == 0
    replay = read_replay(out)
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]


def test_a_down_agent_is_one_line_before_the_game(tmp_path, capsys) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{free.getsockname()[1]}/agent"
    out = tmp_path / "game.jsonl"
    assert main(["play", "--seat", f"4={url}", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == f"arena: error: seats 4: remote agent {url} is down: connection refused\n"
    assert not out.exists()


@pytest.mark.parametrize(
    ("url", "why"),
    [("http://", "use http(s)://HOST"), ("http://h:port/a", "the port is not a number")],
)
def test_a_bad_url_is_one_line(url, why, tmp_path, capsys) -> None:
    assert main(["play", "--seat", f"4={url}", "--out", str(tmp_path / "g.jsonl")]) == 2
    assert why in capsys.readouterr().err


def test_arena_agent_check_takes_a_url(capsys) -> None:
    with example_process() as url:
        assert main(["agent", "check", url, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{url} on wwk_guard:") and out.rstrip().endswith("conformant")
    assert "refused 0, timeouts 0, crashes 0" in out
    assert out.count("; end told (side ") == 2  # the example takes each game's end


def test_arena_agent_check_names_a_secret_decoded_from_hex(capsys) -> None:
    """The docs said "32 random bytes": an agent keying its HMAC with the bytes the hex
    spells has every answer refused; the check says which key encoding was expected."""
    module = example_module()

    def decoded(key: str, message: bytes) -> str:
        return "sha256=" + hmac.new(bytes.fromhex(key), message, hashlib.sha256).hexdigest()

    module.sign = decoded
    with served(module) as url:
        assert main(["agent", "check", url, "--games", "1"]) == 1
    out = capsys.readouterr().out
    assert "keyed with the secret decoded from hex; the HMAC key is the secret's 64 hex" in out
    assert "characters themselves, as ASCII text" in out
