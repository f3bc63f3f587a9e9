"""The layer table (pyproject's `[tool.importlinter]`, docs/architecture.md) holds, and bites.

`lint-imports` runs on a copy of the package in a temporary folder (it imports the package
from its working directory, so the copy is what it reads): the copy as it is keeps every
contract, and the copy with one deliberate back-import breaks the contract that forbids
it, named in the output.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOUSE = "The house: every layer imports only the layers below it"
PROVIDERS = "The provider layer knows nothing of the game"
PAGES = "The dashboard's pages reach games only through arena.humans"


def _copy(tmp_path: Path) -> Path:
    for name in ("arena", "dashboard"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(where: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys, importlinter.cli as c; sys.exit(c.lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_tree_keeps_every_contract(tmp_path: Path) -> None:
    done = _lint(_copy(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(f"{name} KEPT" in done.stdout for name in (HOUSE, PROVIDERS, PAGES))


@pytest.mark.parametrize(
    ("module", "back_import", "contract"),
    [
        ("arena/rules/types.py", "import arena.agents.base", HOUSE),
        ("arena/storage/jsonl.py", "import arena.match", HOUSE),
        ("arena/llm/tokens.py", "import arena.rules.types", PROVIDERS),
        ("dashboard/screens/play.py", "import arena.match", PAGES),
        ("dashboard/hosted.py", "import arena.humans.host", PAGES),
    ],
)
def test_a_back_import_breaks_its_contract(
    tmp_path: Path, module: str, back_import: str, contract: str
) -> None:
    where = _copy(tmp_path)
    path = where / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{back_import}  # noqa\n", "utf-8")
    done = _lint(where)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{contract} BROKEN" in done.stdout
    importer = module.removesuffix(".py").replace("/", ".")
    assert f"{importer} -> {back_import.split()[-1]}" in done.stdout
