"""The display-text catalog: one YAML file per language, flattened to dotted keys.

A file nests keys by area (`event:`, `cause:`, `cli:` …); `t("event.spoke", "zh", …)`
reads `event: {spoke: …}` from `zh.yaml`. Values are `str.format` templates with named
fields only, and the same fields in every language, so a caller never depends on which
language it renders.
"""

from __future__ import annotations

import functools
import string
from importlib import resources
from typing import Literal

from arena.userfile import read_yaml

Lang = Literal["zh", "en"]
"""A display language: Chinese (Traditional characters) or English."""

LANGS: tuple[Lang, ...] = ("zh", "en")
"""Every language the catalog must cover."""


class MissingText(KeyError):
    """A key the catalog does not have in the language asked for (a bug, caught by tests)."""


def t(key: str, lang: Lang, /, **values: object) -> str:
    """The text `key` in `lang`, with its `{fields}` filled from `values`.

    Raises:
        MissingText: `key` is not in the catalog for `lang`.
    """
    try:
        template = _table(lang)[key]
    except KeyError:
        raise MissingText(f"no {lang} text for {key!r}") from None
    return template.format(**values) if values else template


def has(key: str, lang: Lang) -> bool:
    """Whether the catalog has `key` in `lang`."""
    return key in _table(lang)


def keys(lang: Lang) -> frozenset[str]:
    """Every key of `lang`'s catalog."""
    return frozenset(_table(lang))


def fields(template: str) -> frozenset[str]:
    """The named `{fields}` of a template (for the catalog's consistency test)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@functools.cache
def _table(lang: Lang) -> dict[str, str]:
    source = resources.files("arena.text") / f"{lang}.yaml"
    return dict(_flatten(read_yaml(source, f"arena/text/{lang}.yaml"), ""))


def _flatten(node: object, prefix: str) -> list[tuple[str, str]]:
    if isinstance(node, str):
        return [(prefix, node)]
    if not isinstance(node, dict):
        raise TypeError(f"catalog entry {prefix!r} is neither a text nor a table: {node!r}")
    out: list[tuple[str, str]] = []
    for name, value in node.items():
        out += _flatten(value, f"{prefix}.{name}" if prefix else str(name))
    return out
