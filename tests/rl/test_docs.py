"""The copyable example of docs/agents.md runs as written."""

import re
from pathlib import Path

DOC = Path(__file__).parents[2] / "docs" / "agents.md"


def test_the_rl_example_runs(capsys) -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## An RL environment") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    exec(compile(code.group(1), str(DOC), "exec"), {})
    assert "seat_1" in capsys.readouterr().out
