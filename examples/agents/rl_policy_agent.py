"""A policy from the RL environment, seated at a real table as a `py:` plug-in.

    PYTHONPATH=examples/agents arena play --seat 3=py:rl_policy_agent:make_agent

`arena.rl.env(...)` trains a policy on vectors and action masks; `PolicyAgent` shows it the
same vector and mask at a real game and turns its index into the seat's answer. Without
options the seat plays a random legal policy; with `options: {preferences: FILE}` (a
spec file's, or a tournament entry's) it plays the preferences a training run saved with
`numpy.save` (docs/agents.md, "Training against any seats"): the legal index it prefers
most. Replace either with your trained policy (anything mapping the observation dict to
an index), for example a torch network:

    def policy(obs):
        logits = net(torch.as_tensor(obs["observation"], dtype=torch.float32))
        logits[torch.as_tensor(obs["action_mask"]) == 0] = -torch.inf
        return int(logits.argmax())

Needs the rl extra: pip install 'werewolf-arena[rl]'.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.rl.agent import EnvObservation, PolicyAgent, random_policy


def make_agent(
    seed: int = 0, lang: str = "en", options: dict[str, Any] | None = None
) -> PolicyAgent:
    """The seat's agent: the saved preferences in `options`, else a random legal policy."""
    speech = "en" if lang == "en" else "zh"  # zh-Hans: the arena shows it Simplified
    path = (options or {}).get("preferences")
    if path is None:
        return PolicyAgent(random_policy(seed), lang=speech)
    preferences = np.load(path)

    def policy(obs: EnvObservation) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[preferences[legal].argmax()])

    return PolicyAgent(policy, lang=speech, label="rl-preferences")
