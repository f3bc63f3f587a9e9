"""The prompt data of model seats: one versioned library per language, shipped in the package.

`prompts/<version>/<lang>/` (installed as `arena.prompts`) holds the system prompt template,
the rules sentences, the role guides, what each decision asks and the words of the answer tool
(`prompts/README.md` lists the files). It is read with `importlib.resources`, so an
installed wheel finds it wherever it is installed. Everything a model seat says to its
model in words comes from here; the code only assembles it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.text.hans import to_hans
from arena.text.script import AgentLang
from arena.transcript import Lang
from arena.userfile import read_yaml

DEFAULT_VERSION = "v2"
"""The prompt version new games use; older versions stay loadable for comparisons."""


@dataclass(frozen=True, slots=True)
class ToolTexts:
    """The words of the answer tool, in one language."""

    actions: Mapping[str, str]
    """Descriptions by action kind, or by `kind.decision` where the decision matters
    (`pass.vote` abstains, `pass.run_for_sheriff` stays out of the race)."""
    fields: Mapping[str, str]
    """Parameter descriptions by field key (`text`, `target`, `wolf_probability`, …)."""

    def action(self, kind: str, decision: DecisionKind | None = None) -> str:
        """The description of `kind`, specific to `decision` where one is written."""
        if decision is not None and f"{kind}.{decision}" in self.actions:
            return self.actions[f"{kind}.{decision}"]
        return self.actions.get(kind, kind)

    def text_slot(self, kind: str) -> str:
        """What to write in the place of `kind`'s text (`speak.slot`, `whisper.slot`).

        It says what belongs there, in angle brackets and outside quotes, so the line of
        legal answers holds no string a model could copy for its speech.
        """
        return self.fields.get(f"{kind}.slot") or self.fields["speak.slot"]

    def field(self, key: str) -> str:
        """The description of parameter `key` (the key itself when none is written)."""
        return self.fields.get(key, key)


@dataclass(frozen=True, slots=True)
class PromptLibrary:
    """One version of the prompt data in one language (see `prompts/README.md`)."""

    version: str
    lang: Lang
    system: str
    rules: Mapping[str, Any]
    roles: Mapping[str, str]
    decisions: Mapping[str, Any]
    tools: ToolTexts
    simplified: bool = False
    """Whether the seat reads Simplified characters (a `zh-Hans` game): the library's own
    words are converted when loaded, and everything else the seat reads (the rules'
    role names, the log's lines, the speeches it heard) by `written` as it is sent."""

    @property
    def prompt_id(self) -> str:
        """`werewolf-<lang>@<version>` (`werewolf-zh-Hans@v2`), stamped on every trace."""
        return f"werewolf-{'zh-Hans' if self.simplified else self.lang}@{self.version}"

    def written(self, text: str) -> str:
        """`text` in the seat's script, as a page in its language shows it.

        The arena writes Chinese in Traditional characters (the catalog, the bots); a
        Simplified seat reads all of it converted, as a 简体 page does, speeches
        included. What the seat itself answers is never converted: it is stored as written.
        """
        return to_hans(text) if self.simplified else text

    def label(self, key: str, **fields: object) -> str:
        """A label of the state summary or of the conversation, filled in."""
        return str(self.decisions["labels"][key]).format(**fields)

    def ask(self, request: DecisionRequest) -> str:
        """What `request` asks, in words."""
        asks: Mapping[str, str] = self.decisions["ask"]
        return asks.get(f"{request.kind}.{request.context}") or asks.get(
            str(request.kind), str(request.kind)
        )

    def role_guide(self, role: str) -> str:
        """The seat's own role guide (empty for a role without one)."""
        return self.roles.get(role, "")


def prompt_root() -> Traversable:
    """The prompt library: the top-level `prompts/` folder, installed as `arena.prompts`.

    A checkout put on `sys.path` without installing it (a `.pth` file, `PYTHONPATH`, or
    `python -m arena` run from the checkout: its `arena/` shadows the installed one) has
    no `arena.prompts` package, only the folder beside `arena/`: read that one.
    """
    try:
        return resources.files("arena.prompts")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[3] / "prompts"


@functools.cache
def load_library(lang: AgentLang = "zh", version: str = DEFAULT_VERSION) -> PromptLibrary:
    """Load `prompts/<version>/<lang>/` from the installed package.

    `zh-Hans` is the Chinese library (written in Traditional characters, one copy to
    keep) converted to Simplified: a `zh-Hans` game's seats read what its pages show.

    Raises:
        ArenaError: the version or language does not exist, or a file is unreadable.
    """
    if lang == "zh-Hans":
        return _simplified(load_library("zh", version))
    folder = prompt_root() / version / lang
    if not folder.is_dir():
        known = sorted(p.name for p in prompt_root().iterdir() if p.is_dir())
        raise ArenaError(
            f"no prompts for {lang!r} version {version!r} (versions: {', '.join(known)})"
        )
    try:
        tools = _yaml(folder / "tools.yaml")
        return PromptLibrary(
            version=version,
            lang=lang,
            system=(folder / "system.md").read_text(encoding="utf-8"),
            rules=_yaml(folder / "rules.yaml"),
            roles=_yaml(folder / "roles.yaml"),
            decisions=_yaml(folder / "decisions.yaml"),
            tools=ToolTexts(actions=tools["actions"], fields=tools["fields"]),
        )
    except (OSError, KeyError) as exc:
        raise ArenaError(f"prompts {version}/{lang}: {exc}") from None


def _simplified(lib: PromptLibrary) -> PromptLibrary:
    """`lib` with every word converted to Simplified characters."""
    return PromptLibrary(
        version=lib.version,
        lang=lib.lang,
        system=to_hans(lib.system),
        rules=_to_hans(lib.rules),
        roles=_to_hans(lib.roles),
        decisions=_to_hans(lib.decisions),
        tools=ToolTexts(actions=_to_hans(lib.tools.actions), fields=_to_hans(lib.tools.fields)),
        simplified=True,
    )


def _to_hans(data: Any) -> Any:
    """`data` (a YAML mapping's values) with every string converted, keys kept."""
    if isinstance(data, str):
        return to_hans(data)
    if isinstance(data, Mapping):
        return {key: _to_hans(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_to_hans(value) for value in data]
    return data


def _yaml(path: Traversable) -> dict[str, Any]:
    data = read_yaml(path, f"prompts file {path.name}")
    if not isinstance(data, dict):
        raise ArenaError(f"prompts file {path.name} must hold a mapping")
    return data
