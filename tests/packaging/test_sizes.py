"""The size ratchet (scripts/sizes.py): each way to break it fails with a line that says how."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sizes", ROOT / "scripts" / "sizes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sizes = _load()


def _module(lines: int) -> str:
    return "".join(f"X{n} = {n}\n" for n in range(lines))


def _function(name: str, lines: int) -> str:
    body = "".join(f"    x{n} = {n}\n" for n in range(lines - 2))
    return f"def {name}() -> int:\n{body}    return 0\n"


def _branchy(name: str, branches: int) -> str:
    tests = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(branches))
    return f"def {name}(x: int) -> int:\n{tests}    return -1\n"


def _checkout(tmp: Path, files: dict[str, str], allowed: str = "", exempt: str = "") -> Path:
    (tmp / "scripts").mkdir()
    (tmp / "dashboard").mkdir()
    (tmp / "scripts" / "sizes.toml").write_text(allowed)
    lint = f"[tool.ruff.lint.per-file-ignores]\n{exempt}"
    (tmp / "pyproject.toml").write_text(lint)
    for path, text in files.items():
        (tmp / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp / path).write_text(text)
    return tmp


def _check(root: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    code = sizes.main(list(argv), root)
    said = capsys.readouterr().err.splitlines()
    assert code == (1 if said else 0)
    return said


def test_rooms_within_the_limits_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _function("fits", 60) + _branchy("branchy", 14) + _module(300)
    root = _checkout(tmp_path, {"arena/ok.py": text, "dashboard/page.py": _module(400)})
    assert _check(root, capsys) == []


def test_a_new_long_module_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _checkout(tmp_path, {"dashboard/page.py": _module(401)})
    (said,) = _check(root, capsys)
    assert said.startswith("dashboard/page.py: module of 401 lines, over the limit of 400.")
    assert "Split it" in said and "do not list it" in said


def test_a_listed_module_may_shrink_but_not_grow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _checkout(tmp_path, {"arena/big.py": _module(450)}, '[module]\n"arena/big.py" = 460\n')
    assert _check(root, capsys) == []
    (root / "arena" / "big.py").write_text(_module(461))
    (said,) = _check(root, capsys)
    assert said.startswith("arena/big.py: module of 461 lines, grown past the 460")
    assert "(limit 400)" in said and "may only shrink" in said


def test_a_listed_module_split_below_the_limit_must_leave_the_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _checkout(tmp_path, {"arena/big.py": _module(400)}, '[module]\n"arena/big.py" = 460\n')
    (said,) = _check(root, capsys)
    assert said.startswith("arena/big.py: no longer a module over 400 lines; delete its line")
    (root / "arena" / "big.py").unlink()
    assert _check(root, capsys) == [said]


def test_long_functions_are_named_with_their_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nested = "class Box:\n" + "".join(
        f"    {line}\n" for line in _function("long", 61).splitlines()
    )
    listed = '[function]\n"arena/m.py:Box.long" = 61\n'
    root = _checkout(tmp_path, {"arena/m.py": nested + _function("other", 62)}, listed)
    (said,) = _check(root, capsys)
    assert said.startswith("arena/m.py:other: function of 62 lines, over the limit of 60.")


def test_complexity_is_ratcheted_like_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = '[complexity]\n"arena/c.py:decide" = 17\n'
    exempt = '"arena/c.py" = ["C901"]\n'
    root = _checkout(tmp_path, {"arena/c.py": _branchy("decide", 16)}, listed, exempt)
    assert _check(root, capsys) == []
    (root / "arena" / "c.py").write_text(_branchy("decide", 17) + _branchy("new", 15))
    new, grown = _check(root, capsys)
    assert grown.startswith("arena/c.py:decide: function of complexity 18, grown past the 17")
    assert new.startswith("arena/c.py:new: function of complexity 16, over the limit of 15.")


def test_a_c901_exception_outlives_its_offender(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exempt = '"arena/c.py" = ["C901"]\n"tests/**" = ["C901"]\n'
    root = _checkout(tmp_path, {"arena/c.py": _branchy("decide", 3)}, exempt=exempt)
    (said,) = _check(root, capsys)
    assert said.startswith("arena/c.py: exempt from C901 in pyproject.toml's per-file-ignores")


def test_shrink_lowers_sizes_and_drops_what_is_no_longer_an_offender(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = '[module]\n"arena/a.py" = 500\n"arena/b.py" = 500\n'
    files = {"arena/a.py": _module(450), "arena/b.py": _module(10)}
    root = _checkout(tmp_path, files, listed)
    assert _check(root, capsys, "--shrink") == []
    assert sizes.read_allowed(root)["module"] == {"arena/a.py": 450}
    (root / "arena" / "a.py").write_text(_module(451))
    assert _check(root, capsys)[0].startswith("arena/a.py: module of 451 lines, grown past the 450")


def test_shrink_never_admits_a_new_offender(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _checkout(tmp_path, {"arena/a.py": _module(401)})
    assert len(_check(root, capsys, "--shrink")) == 1
    assert sizes.read_allowed(root)["module"] == {}
