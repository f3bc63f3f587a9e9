"""The dashboard imports nothing that can call a model or change a game."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("arena.agents", "arena.llm", "arena.queue", "arena.match", "arena.rules.referee",
             "openai", "langchain")  # fmt: skip
ALLOWED = ("arena.llm.types", "arena.storage.calls")
"""Plain data: the trace records the god view shows, and their expansion to whole requests."""


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_dashboard_module_imports_agents_providers_or_workers() -> None:
    files = sorted((ROOT / "dashboard").rglob("*.py"))
    assert len(files) > 10
    for path in files:
        bad = {n for n in imported(path) if n.startswith(FORBIDDEN) and n not in ALLOWED}
        assert not bad, (path.name, bad)


def test_loading_the_dashboard_pulls_in_no_model_caller() -> None:
    code = (
        "import sys\n"
        "import arena.dashboard.player_ui, arena.dashboard.live, arena.dashboard.session\n"
        "import arena.dashboard.standings, arena.dashboard.charts, arena.dashboard.catalog\n"
        "import arena.dashboard.exams\n"
        "print('\\n'.join(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    callers = ("arena.agents.bot.agent", "arena.agents.random_agent", "arena.llm.openai_provider",
               "arena.llm.langchain_provider", "arena.queue", "arena.match", "openai",
               "langchain_core")  # fmt: skip
    assert not [m for m in out if m.startswith(callers)]
