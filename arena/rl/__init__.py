"""A PettingZoo environment over the referee, for training policies (`werewolf-arena[rl]`).

`arena.rl.env(board="std9", seed=7)` returns an AEC environment (`WerewolfEnv`); the
observation, action and reward conventions are in `docs/agents.md` ("An RL environment")
and in the docstrings of `arena.rl.observation`, `arena.rl.codec` and `arena.rl.reward`.
A policy trained here sits at a real table as an `Agent` through `arena.rl.agent`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.rl.environment import WerewolfEnv

EXTRA_HINT = "the RL environment needs the rl extra: pip install 'werewolf-arena[rl]'"


def env(board: Any = "std9", seed: int | None = None, **kwargs: Any) -> WerewolfEnv:
    """A `WerewolfEnv` on `board` (an id or a `Board`), first game dealt from `seed`.

    Keyword arguments are `WerewolfEnv`'s: `preset`, `lang`, `overrides`, `text`,
    `render_mode`, and `opponents` (any seat spec at the seats the policy does not play:
    `{4: "bot"}` or `"4-12=bot"`, `arena.rl.opponents`).

    Raises:
        ArenaError: pettingzoo or gymnasium is not installed.
        ConfigError: an unknown board, preset or knob.
    """
    try:
        from arena.rl.environment import WerewolfEnv
    except ImportError as exc:
        raise ArenaError(f"{EXTRA_HINT} ({exc.name} is missing)") from None
    return WerewolfEnv(board, seed, **kwargs)


def raw_env(board: Any = "std9", seed: int | None = None, **kwargs: Any) -> WerewolfEnv:
    """The same environment (PettingZoo's name for an env without wrappers)."""
    return env(board, seed, **kwargs)
