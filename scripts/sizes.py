"""The size ratchet, run by `make lint`: rooms stay small, and the big ones only shrink.

Limits over arena/ and dashboard/: a module of at most 400 lines, a function of at most 60
lines (from its `def` line to its last, docstring included) and of cyclomatic complexity at
most 15 (ruff's C901, the figure `ruff check` reports). The offenders of the day the ratchet
came (issue 32) are listed in `scripts/sizes.toml` with their size then, and the list may
only shrink:
- an offender not on the list fails: split it, do not list it;
- a listed offender that grew past its recorded size fails: move something out of it;
- a listed entry that is no longer an offender fails: delete its line (`--shrink` does it,
  and also lowers every recorded size to today's, so what was taken out stays out).

ruff's own C901 check runs in `ruff check` with the listed files as per-file exceptions in
`pyproject.toml`; an exception left for a file with no listed function fails here too.

Usage: `python scripts/sizes.py [--shrink]` from anywhere; it checks the checkout it lives in.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("arena", "dashboard")
LIMITS = {"module": 400, "function": 60, "complexity": 15}
"""The most each kind may measure: lines of a module, lines of a function, C901's figure."""


def _said(kind: str, size: int, relation: str = "of") -> str:
    """A size in words: `module of 401 lines`, `function over complexity 15`."""
    if kind == "complexity":
        return f"function {relation} complexity {size}"
    return f"{kind} {relation} {size} lines"


ALLOWED = "scripts/sizes.toml"
HEADER = """\
# The size ratchet's allow-list: scripts/sizes.py, run by `make lint`.
# Offenders of the day the ratchet came (issue 32), with their size then: a module over 400
# lines, a function over 60 lines, a function over complexity 15 (ruff's C901). The list only
# shrinks: never add a line or raise a figure; split the room instead. After a split,
# `python scripts/sizes.py --shrink` deletes what is no longer an offender and lowers the rest.
"""

Sizes = dict[str, dict[str, int]]
"""Kind (`module`, `function`, `complexity`) → key (`path` or `path:qualname`) → size."""


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    """Each function in `tree` with its dotted name (`Class.method`, `outer.inner`)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + node.name, node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def _sources(root: Path) -> list[str]:
    """The Python files under the checked folders, as paths relative to `root`."""
    found = (p for folder in FOLDERS for p in (root / folder).rglob("*.py"))
    return sorted(p.relative_to(root).as_posix() for p in found)


def _complexity(root: Path, names: dict[tuple[str, int], str]) -> dict[str, int]:
    """C901's figure for each function over the limit, by `path:qualname`.

    ruff runs isolated (no per-file exception hides an offender) and names a function by
    its `def` line, which `names` maps back to the dotted name.
    """
    ruff = Path(sys.executable).parent / "ruff"
    limit = f"lint.mccabe.max-complexity={LIMITS['complexity']}"
    command = [str(ruff), "check", "--isolated", "--select", "C901", "--config", limit]
    command += ["--output-format", "json", "--exit-zero", *FOLDERS]
    found = json.loads(subprocess.run(command, cwd=root, capture_output=True, check=True).stdout)
    out: dict[str, int] = {}
    for item in found:
        path = Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix()
        name = names[(path, item["location"]["row"])]
        figure = int(re.search(r"\((\d+) > \d+\)", item["message"])[1])  # type: ignore[index]
        out[f"{path}:{name}"] = max(figure, out.get(f"{path}:{name}", 0))
    return out


def measure(root: Path) -> Sizes:
    """Every module, function and complexity over its limit under `root`'s folders."""
    sizes: Sizes = {kind: {} for kind in LIMITS}
    names: dict[tuple[str, int], str] = {}
    for path in _sources(root):
        text = (root / path).read_text(encoding="utf-8")
        if (lines := len(text.splitlines())) > LIMITS["module"]:
            sizes["module"][path] = lines
        for name, node in _functions(ast.parse(text)):
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            names[(path, node.lineno)] = name
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            key = f"{path}:{name}"
            if length > LIMITS["function"]:
                sizes["function"][key] = max(length, sizes["function"].get(key, 0))
    sizes["complexity"] = _complexity(root, names)
    return sizes


def read_allowed(root: Path) -> Sizes:
    """The allow-list, each kind's table (missing tables are empty)."""
    listed = tomllib.loads((root / ALLOWED).read_text(encoding="utf-8"))
    return {kind: dict(listed.get(kind, {})) for kind in LIMITS}


def problems(allowed: Sizes, measured: Sizes) -> list[str]:
    """What breaks the ratchet: one line each, naming the room, its size, the limit and the fix."""
    out = []
    for kind, limit in LIMITS.items():
        have, listed = measured[kind], allowed[kind]
        for key in sorted(have.keys() - listed.keys()):
            out.append(
                f"{key}: {_said(kind, have[key])}, over the limit of {limit}. Split it "
                f"(docs/architecture.md says where things live); {ALLOWED} only shrinks, "
                "so do not list it there."
            )
        for key in sorted(listed.keys() & have.keys()):
            if have[key] > listed[key]:
                out.append(
                    f"{key}: {_said(kind, have[key])}, grown past the {listed[key]} "
                    f"{ALLOWED} allows it (limit {limit}). It may only shrink: move "
                    "something out of it instead."
                )
        for key in sorted(listed.keys() - have.keys()):
            out.append(
                f"{key}: no longer a {_said(kind, limit, 'over')}; delete its line from "
                f"{ALLOWED} [{kind}] (`python scripts/sizes.py --shrink` does it)."
            )
    return out


def stale_exceptions(root: Path, allowed: Sizes) -> list[str]:
    """Files pyproject.toml exempts from C901 though none of their functions is listed."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    ignores = project["tool"]["ruff"]["lint"].get("per-file-ignores", {})
    listed = {key.partition(":")[0] for key in allowed["complexity"]}
    return [
        f"{path}: exempt from C901 in pyproject.toml's per-file-ignores, but no function of "
        f"it is listed in {ALLOWED} [complexity]; delete the exception."
        for path, codes in sorted(ignores.items())
        if "C901" in codes and "*" not in path and path not in listed
    ]


def shrunk(allowed: Sizes, measured: Sizes) -> Sizes:
    """The allow-list with each entry lowered to today's size and non-offenders gone."""
    return {
        kind: {key: min(table[key], measured[kind][key]) for key in table.keys() & measured[kind]}
        for kind, table in allowed.items()
    }


def render(allowed: Sizes) -> str:
    """The allow-list as `scripts/sizes.toml` holds it: a table per kind, keys sorted."""
    parts = [HEADER]
    for kind, limit in LIMITS.items():
        parts.append(f"\n[{kind}]  # a {_said(kind, limit, 'over')}\n")
        parts.extend(f'"{key}" = {size}\n' for key, size in sorted(allowed[kind].items()))
    return "".join(parts)


def main(argv: list[str], root: Path = ROOT) -> int:
    """Check the checkout at `root` (or, with `--shrink`, tighten its allow-list first)."""
    measured, allowed = measure(root), read_allowed(root)
    if "--shrink" in argv:
        allowed = shrunk(allowed, measured)
        (root / ALLOWED).write_text(render(allowed), encoding="utf-8")
    found = problems(allowed, measured) + stale_exceptions(root, allowed)
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
