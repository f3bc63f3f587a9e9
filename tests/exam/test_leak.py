"""An exam file holds nothing a contestant may not see: checked against an independent oracle.

Two 12-seat games are played by bots whose every speech and wolf whisper is a unique
marker, then cut into every item they offer. Each item line, byte for byte, is checked
against the oracle of who may know what (`tests/rules/knowledge.py`, which states
audiences from the rules, not from `arena.rules.visibility` or `observe`): the events in
the item are exactly those in the asked seat's audience before the item's moment, each as
the log holds it; no marker of any other event appears anywhere in the line; what the item
says the seat can conclude is the fold of those events alone; and no field carries the
deal, the seed or the key's truth.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.exam.build import build
from arena.exam.files import key_path
from arena.exam.items import KINDS
from arena.rules.config import GameConfig
from arena.rules.observation import know
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import read_replay
from tests.exam.games import play_games
from tests.rules.knowledge import audiences

MARK = re.compile(r"(?:SPEECH|WHISPER)MARK-\d+-\d+")
ITEM_KEYS = {
    "type", "id", "source", "game_id", "config", "seat", "step", "until", "day", "role",
    "kind", "request", "asked", "view",
}  # fmt: skip


@pytest.fixture(scope="module")
def cut(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, list[str], Path]:
    folder = tmp_path_factory.mktemp("marked")
    paths = play_games(folder / "games", "wwk_guard", range(21, 23), marked=True)
    out = folder / "exam.jsonl"
    build(paths, out, seed=0, kinds=KINDS, per_game=None)
    games = {}
    for path in paths:
        replay = read_replay(path)
        config = GameConfig(board="wwk_guard")
        games[replay.header.game_id] = (replay.events, audiences(replay.events, config))
    return games, out.read_text(encoding="utf-8").splitlines()[1:], out


def test_the_games_exercised_secrets_and_every_kind(cut) -> None:
    games, lines, _ = cut
    kinds = {json.loads(line)["kind"] for line in lines}
    assert kinds == set(KINDS)
    for events, _ in games.values():
        whispers = [e for e in events if e.kind == "wolf_whispered"]
        assert whispers and all(MARK.fullmatch(e.text) for e in whispers)


def test_each_item_holds_exactly_its_seats_audience(cut) -> None:
    games, lines, _ = cut
    for line in lines:
        item = json.loads(line)
        events, audience = games[item["game_id"]]
        viewer = SeatViewer(seat=item["seat"])
        view = item["view"]
        cut_at = item["until"]
        allowed = {i for i in range(cut_at) if audience[i].allows(viewer)}
        sent = {seq: event for seq, event in view["seen"]}
        assert set(sent) == allowed, (item["id"], cut_at)
        for seq, event in sent.items():
            assert event == json.loads(events[seq].model_dump_json())
        assert view["log_length"] == cut_at and view["viewer"] == {
            "kind": "seat",
            "seat": item["seat"],
        }
        visible = [events[i] for i in sorted(allowed)]
        assert view["knowledge"] == json.loads(know(viewer, visible).model_dump_json())


def test_no_marker_of_a_hidden_or_later_event_is_in_the_bytes(cut) -> None:
    games, lines, _ = cut
    checked = 0
    for line in lines:
        item = json.loads(line)
        events, audience = games[item["game_id"]]
        viewer = SeatViewer(seat=item["seat"])
        hidden = {
            mark
            for i, event in enumerate(events)
            if i >= item["until"] or not audience[i].allows(viewer)
            for mark in MARK.findall(event.model_dump_json())
        }
        assert not set(MARK.findall(line)) & hidden, item["id"]
        checked += len(hidden)
    assert checked > 1000


def test_no_field_carries_the_deal_the_seed_or_the_truth(cut) -> None:
    _, lines, out = cut
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert set(header) == {
        "type",
        "format",
        "exam_id",
        "seed",
        "kinds",
        "per_game",
        "sources",
        "items",
    }
    for line in lines:
        item = json.loads(line)
        assert set(item) == ITEM_KEYS
        assert item["config"]["deal"] is None and "seed" not in item["config"]
        assert item["role"] == item["view"]["knowledge"]["own_role"]
        request = item["request"]
        assert request is None or request["seat"] == item["seat"]
    key = key_path(out).read_text(encoding="utf-8")
    assert '"wolves"' in key and '"wolves"' not in out.read_text(encoding="utf-8")
