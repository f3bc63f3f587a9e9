"""Links the dashboard makes: they keep the reader's language and say when they stay local.

A link opens a new page (a new Streamlit session), which knows the reader's language only
from the link's `?lang=`. Join links built on a loopback address open on the creator's
computer only: the page says so, and names the flag that fixes it.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import fakeredis
import pytest
from streamlit.testing.v1 import AppTest

from arena.dashboard.i18n import Lang, text
from arena.humans.hosting import is_local_only
from arena.storage.desk import Status
from arena.storage.redis_desk import RedisDesk
from tests.dashboard.test_play_page import PLAY, create

Dash = Callable[..., AppTest]


@pytest.fixture
def fake_desk(monkeypatch: pytest.MonkeyPatch) -> RedisDesk:
    """A Redis desk the page uses (games queued for a worker, which never comes)."""
    desk = RedisDesk(fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True))
    monkeypatch.setattr(RedisDesk, "from_url", classmethod(lambda cls, url, prefix: desk))
    monkeypatch.setenv("ARENA_REDIS_URL", f"redis://fake/{id(desk)}")  # the page caches per URL
    return desk


@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
def test_the_game_over_replay_link_keeps_the_readers_language(
    dash: Dash, fake_desk: RedisDesk, lang: Lang
) -> None:
    at = dash(PLAY)
    query = create(at, lang, where="worker", game="en")
    assert query, "the game was created"
    fake_desk.set_status(query["game"], Status(state="finished", winner="good", replay="g.jsonl"))
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    label = text("play.over_replay", lang)
    (link,) = [m.value for m in at.markdown if label in str(m.value)]
    href = str(link).split("](", 1)[1].rstrip(")")
    params = {k: v[0] for k, v in parse_qs(urlsplit(href).query).items()}
    assert params == {"game": "g.jsonl", "view": "seat:1", "step": "end", "lang": lang}


@pytest.mark.parametrize(
    ("public", "warned"),
    [
        ("http://127.0.0.1:8501", True),
        ("http://localhost:8501/arena/", True),
        ("http://[::1]:8501", True),
        ("http://0.0.0.0:8501", True),
        ("http://192.168.1.20:8501", False),
        ("https://arena.example.org/ww/", False),
    ],
)
def test_join_links_to_this_computer_only_say_so_and_name_the_fix(
    dash: Dash, fake_desk: RedisDesk, monkeypatch: pytest.MonkeyPatch, public: str, warned: bool
) -> None:
    monkeypatch.setenv("ARENA_PUBLIC_URL", public)
    at = dash(PLAY)
    assert create(at, "zh-Hans", where="worker")
    warnings = [str(w.value) for w in at.warning]
    assert any(c.value.startswith(public.rstrip("/")) for c in at.code if "token=" in c.value)
    if not warned:
        assert warnings == []
        return
    host = urlsplit(public).hostname
    assert warnings == [text("play.local_links", "zh-Hans", host=host)]
    assert "--public-url" in warnings[0] and "--address" in warnings[0]


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8501/play", True),
        ("http://127.8.0.1:8501/", True),
        ("http://LOCALHOST:8501", True),
        ("http://app.localhost/", True),
        ("http://[::1]:8501", True),
        ("http://0.0.0.0:8501", True),
        ("", True),
        ("/play", True),
        ("http://10.0.0.5:8501", False),
        ("http://[2001:db8::1]:8501", False),
        ("https://arena.example.org", False),
    ],
)
def test_a_local_only_address_is_recognised(url: str, local: bool) -> None:
    assert is_local_only(url) is local
