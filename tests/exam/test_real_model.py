"""A real small model sits an exam: SmolLM2-135M behind llama-server, through `openai:`.

A handful of items cut from one bot game — a vote with its belief report and role guess,
a knife, a speech — asked of the model seat as a game asks them (`arena exam run` with a
spec file naming the server), then scored (`arena exam report`). Mechanics only, as the
other real-model tests: every item is answered, most of them by the model itself, each
decision's calls are in its answer with their tokens, and the report runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from arena.cli import main
from arena.exam.answers import read_answers
from arena.exam.build import build
from arena.exam.files import read_exam
from tests.exam.games import play_games
from tests.realmodel.conftest import llama_url  # noqa: F401 (the session's server)

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(1800)]


def test_smollm2_sits_a_handful_of_items(
    llama_url: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "not-needed")
    games = play_games(tmp_path / "games", seeds=range(1, 2))
    exam = tmp_path / "exam.jsonl"
    build(games, exam, seed=0, kinds=("vote", "belief", "role", "knife", "speech"), per_game=5)
    settings = {
        "base_url": llama_url, "timeout_s": 240, "retries": 1, "max_tokens": 200,
        "decision_timeout_s": 300, "history_tokens": 2500,
    }  # fmt: skip
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump({"lang": "en", "endpoints": {"openai": settings}}), "utf-8")
    out = tmp_path / "out"
    args = ["exam", "run", str(exam), "--seat", "openai:smollm2", "--spec-file", str(spec)]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    _, answers = read_answers(out / "openai_smollm2.answers.jsonl")
    items = {i.id: i for i in read_exam(exam).items}
    assert {a.item for a in answers} == set(items) and len(items) == 5
    decisions = [a for a in answers if items[a.item].request is not None]
    assert sum(a.defaulted is None for a in decisions) >= len(decisions) - 1
    for answer in decisions:
        assert answer.calls and all(c.model == "smollm2" for c in answer.calls)
        assert sum(c.usage.prompt_tokens for c in answer.calls) > 0
    assert main(["exam", "report", str(out), "--bootstrap", "0"]) == 0
