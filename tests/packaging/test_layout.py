"""The source layout and the wheel's package list agree.

`pyproject.toml` lists every package by hand (the top-level `dashboard/` and `prompts/` are
mapped into `arena`, which `packages.find` cannot do), so a new sub-package that is not
listed would be missing from the wheel. This test names it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _packages_on_disk() -> set[str]:
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "arena").rglob("__init__.py")
    }
    homes = {"arena.dashboard": ROOT / "dashboard", "arena.prompts": ROOT / "prompts"}
    for name, folder in homes.items():
        found |= {
            ".".join((name, *init.parent.relative_to(folder).parts))
            for init in folder.rglob("__init__.py")
        }
    return found


def test_every_package_on_disk_is_listed_for_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    assert _packages_on_disk() == listed, {
        "missing from pyproject.toml": sorted(_packages_on_disk() - listed),
        "listed but not on disk": sorted(listed - _packages_on_disk()),
    }
    assert setuptools["package-dir"] == {"arena.dashboard": "dashboard", "arena.prompts": "prompts"}


def test_the_card_s_top_level_homes_exist_and_the_package_has_no_copies() -> None:
    assert (ROOT / "dashboard" / "app.py").is_file()
    assert (ROOT / "prompts" / "README.md").is_file()
    assert not (ROOT / "arena" / "dashboard").exists()
    assert not (ROOT / "arena" / "prompts").exists()
    assert not (ROOT / "arena" / "llm" / "prompts").exists()
