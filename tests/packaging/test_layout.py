"""The source layout and the wheel's package list agree.

`pyproject.toml` lists every package by hand (the top-level `dashboard/` and `prompts/` are
mapped into `arena`, which `packages.find` cannot do), so a new sub-package that is not
listed would be missing from the wheel. A data folder (`arena/boards`, `prompts/v2/en`) is
listed too: Python imports a folder without `__init__.py`, so setuptools takes an unlisted
one for a package it would ignore and warns in every build. This test names either.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _folders(root: Path, name: str) -> set[str]:
    """The importable folders under `root` (itself included) that hold a file: code or data.

    A folder whose name Python cannot import (`.streamlit`) is plain data of its package.
    """
    found = set()
    for path in root.rglob("*"):
        parts = path.parent.relative_to(root).parts
        if path.is_file() and "__pycache__" not in parts and all(p.isidentifier() for p in parts):
            found.add(".".join((name, *parts)))
    return found


def _packages_on_disk() -> set[str]:
    homes = {"arena.dashboard": ROOT / "dashboard", "arena.prompts": ROOT / "prompts"}
    found = _folders(ROOT / "arena", "arena")
    for name, folder in homes.items():
        found |= _folders(folder, name)
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
