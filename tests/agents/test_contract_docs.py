"""docs/agents.md names every decision kind an agent may be asked (issue 31, smaller).

`interrupt` — the window after each speech to self-explode or duel — was asked of every
agent and named nowhere in the agent docs.
"""

from __future__ import annotations

from pathlib import Path

from arena.rules.decisions import DecisionKind

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def test_every_decision_kind_is_named_in_the_agent_docs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    missing = [k.value for k in DecisionKind if f"`{k.value}`" not in text]
    assert not missing, f"docs/agents.md does not name: {missing}"
    assert "`interrupt`\n  is the window after each speech" in text
