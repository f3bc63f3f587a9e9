"""Your own agent at the table: `py:MODULE:FACTORY` seat specs and installed entry points.

A plug-in is any callable that returns an `Agent` (docs/agents.md): a class, or a factory
function. A seat names it in one of two ways:

- `py:my_pkg.agents:make_agent` — the module is imported (installed, on `PYTHONPATH`, or
  in the current folder, which is put on `sys.path` as uvicorn does) and the attribute,
  which may be dotted (`Class.create`), is looked up in it;
- `my-agent` — a name an installed package registers under the entry-point group
  `werewolf_arena.agents` (`[project.entry-points."werewolf_arena.agents"]`).

The factory is called once per seat and game, with the keyword arguments it accepts
among `seat`, `seed`, `lang` and `options` (a factory taking `**kwargs` gets them all),
so a class with no constructor arguments is a factory too. Only the spec string travels
(a queued job carries it, never a pickled object): every worker imports the plug-in
itself, so it must be installed there too.

Everything that can go wrong before a game — a module that is missing or fails to
import, a missing attribute, a factory that needs an argument the arena does not pass,
raises, or returns something that is not an agent — is one `ArenaError` line naming the
spec. Everything that goes wrong during one — `decide` raising, returning garbage or
hanging — is the seat's recorded default, never the game's end (`PluginAgent`).
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from arena.agents.base import Agent
from arena.agents.plugin_seat import PluginAgent, described, one_line, wrap
from arena.errors import ArenaError
from arena.text.script import AgentLang

ENTRY_POINT_GROUP = "werewolf_arena.agents"
"""The entry-point group installed packages register their agents under."""

PREFIX = "py:"
"""The seat-spec prefix of a plug-in named by its import path."""

_IDENTIFIER = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_REF = re.compile(rf"^py:({_IDENTIFIER}):({_IDENTIFIER})$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

OFFERED = ("seat", "seed", "lang", "options")
"""The keyword arguments a factory may take (it is passed those it names)."""

Factory = Callable[..., object]

BUILT_IN = frozenset({"bot", "random", "human"})
"""Bare names that are the arena's own seats; they win over an entry point's name."""


def is_plugin_spec(spec: str) -> bool:
    """Whether `spec` names a plug-in: `py:…`, or a bare name that is not built in.

    A bare name is taken for an entry point's even if none is installed, so that the
    error is about the missing agent (`load_factory`), not about the spec's syntax.
    """
    return spec.startswith(PREFIX) or (spec not in BUILT_IN and bool(_NAME.match(spec)))


def is_plugin_ref(spec: str) -> bool:
    """Whether `spec` is a well-formed `py:MODULE:FACTORY` (nothing is imported)."""
    return bool(_REF.match(spec))


def entry_point_agents() -> dict[str, EntryPoint]:
    """The agents installed packages register, by name (a name registered twice is left out).

    Such a name is refused by `load_factory` with the packages that claim it.
    """
    found: dict[str, list[EntryPoint]] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, []).append(point)
    return {name: points[0] for name, points in found.items() if len(points) == 1}


def unknown_agent(name: str) -> str:
    """The error for a bare name that is neither built in nor an installed agent's."""
    known = ", ".join(sorted(entry_point_agents())) or "none installed"
    return (
        f"unknown agent spec {name!r}: not bot, random, human, openai:MODEL, "
        f"langchain:PROVIDER:MODEL, py:MODULE:FACTORY or a URL, and no installed package "
        f"registers it under {ENTRY_POINT_GROUP} ({known})"
    )


def load_factory(spec: str) -> Factory:
    """Import the class or factory `spec` names (nothing is called yet).

    Raises:
        ArenaError: a malformed spec, an unknown entry-point name (or one two packages
            register), a module that is missing or fails to import, a missing attribute,
            or an attribute that cannot be called.
    """
    if spec.startswith(PREFIX):
        match = _REF.match(spec)
        if match is None:
            raise ArenaError(
                f"bad agent spec {spec!r}: use py:MODULE:FACTORY, e.g. py:my_pkg.agents:make_agent"
            )
        found = _import_attribute(spec, match[1], match[2])
    else:
        found = _load_entry_point(spec)
    if not callable(found):
        raise ArenaError(
            f"{spec}: {type(found).__name__} is not a class or factory (nothing to call)"
        )
    factory: Factory = found
    return factory


def _import_attribute(spec: str, module_name: str, attribute: str) -> object:
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name + ".").startswith(exc.name + "."):
            raise ArenaError(
                f"{spec}: no module named {exc.name!r} (install it, or run from the folder "
                "that holds it, or add that folder to PYTHONPATH)"
            ) from None
        raise ArenaError(f"{spec}: importing {module_name} failed: {one_line(exc)}") from None
    except Exception as exc:
        raise ArenaError(f"{spec}: importing {module_name} failed: {described(exc)}") from None
    found: object = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise ArenaError(f"{spec}: {module_name} has no attribute {attribute!r}")
        found = getattr(found, part)
    return found


def _load_entry_point(name: str) -> object:
    points = [p for p in entry_points(group=ENTRY_POINT_GROUP) if p.name == name]
    if not points:
        raise ArenaError(unknown_agent(name))
    if len(points) > 1:
        claims = ", ".join(sorted(p.value for p in points))
        raise ArenaError(f"agent {name!r} is registered twice ({claims}): uninstall one")
    try:
        return points[0].load()
    except Exception as exc:
        raise ArenaError(f"{name}: loading {points[0].value} failed: {described(exc)}") from None


def plugin_agent(
    spec: str,
    *,
    seat: int,
    seed: int,
    lang: AgentLang = "zh",
    options: Mapping[str, Any] | None = None,
    decision_timeout_s: float | None = None,
) -> PluginAgent:
    """The agent `spec` makes for `seat`, ready to sit at the table.

    `seed` is the seat's own seed (derived from the game's), `lang` the game's language
    as the game was given it (`en`, `zh`, `zh-Hans`: `arena.text.script.AgentLang`),
    `options` the spec or tournament file's settings for this agent (a fresh copy per
    seat), and `decision_timeout_s` an operator's time limit per decision (None: the
    match's).

    Raises:
        ArenaError: one line, if the plug-in cannot be loaded (`load_factory`), its factory
            needs an argument the arena does not pass, raises, or returns no agent.
    """
    factory = load_factory(spec)
    offered: dict[str, Any] = {
        "seat": seat,
        "seed": seed,
        "lang": lang,
        "options": dict(options or {}),
    }
    made = _call(factory, spec, offered)
    _check_agent(made, spec)
    assert isinstance(made, Agent)
    return wrap(made, spec, decision_timeout_s)


def check_plugin(
    spec: str, *, options: Mapping[str, Any] | None = None, build: bool = False
) -> None:
    """Refuse a plug-in that cannot be imported (with `build`, also one that cannot be made).

    Raises:
        ArenaError: one line naming the spec and what is wrong.
    """
    if build:
        plugin_agent(spec, seat=1, seed=0, options=options)
    else:
        load_factory(spec)


def _call(factory: Factory, spec: str, offered: dict[str, Any]) -> object:
    """Call `factory` with the offered keyword arguments it accepts."""
    kwargs = offered
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin or C type: offer everything
        signature = None
    if signature is not None:
        params = signature.parameters
        named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            kwargs = {k: v for k, v in offered.items() if k in params and params[k].kind in named}
        required = [
            p.name
            for p in params.values()
            if p.default is p.empty
            and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
            and p.name not in kwargs
        ]
        if required:
            raise ArenaError(
                f"{spec}: the factory needs argument {required[0]!r}, which the arena does not "
                f"pass (it passes {', '.join(OFFERED)}: put settings in options)"
            )
    try:
        return factory(**kwargs)
    except Exception as exc:
        raise ArenaError(f"{spec}: the factory raised {described(exc)}") from None


def _check_agent(made: object, spec: str) -> None:
    if isinstance(made, type):
        raise ArenaError(f"{spec}: the factory returned the class {made.__name__}, not an instance")
    try:
        name = made.name  # type: ignore[attr-defined]
        decide = made.decide  # type: ignore[attr-defined]
    except Exception:
        name = decide = None
    if not isinstance(name, str) or not callable(decide):
        raise ArenaError(
            f"{spec}: the factory returned {type(made).__name__}, not an Agent (it needs a "
            "`name` string and a `decide(view, request, feedback)` method; docs/agents.md)"
        )
