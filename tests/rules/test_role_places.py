"""Every role has its rules data and its page: the places docs/architecture.md names.

A role added to `Role` needs a `RoleSpec` in `ROLES` (its names, team and powers; the
referee, the transcripts and the board files read them) and a section of docs/roles.md
under a heading that names it in Chinese, as every role's does.
"""

from __future__ import annotations

from pathlib import Path

from arena.rules.roles import ROLES
from arena.rules.types import Role

ROLES_DOC = Path(__file__).resolve().parents[2] / "docs" / "roles.md"


def test_every_role_has_a_role_spec() -> None:
    assert set(ROLES) == set(Role)


def test_every_role_has_a_heading_in_docs_roles() -> None:
    lines = ROLES_DOC.read_text(encoding="utf-8").splitlines()
    headings = "\n".join(line for line in lines if line.startswith("#"))
    assert [role.value for role in Role if ROLES[role].zh not in headings] == []
