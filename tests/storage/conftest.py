"""The `Desk` backends every test here runs on (`tests.support.desks`)."""

from tests.support.desks import desk

__all__ = ["desk"]
