"""A policy from the RL environment, seated at a real table as a `py:` plug-in.

    PYTHONPATH=examples/agents arena play --seat 3=py:rl_policy_agent:make_agent

`arena.rl.env(...)` trains a policy on vectors and action masks; `PolicyAgent` shows it the
same vector and mask at a real game and turns its index into the seat's answer. Replace
`random_policy` with your trained one (anything mapping the observation dict to an index),
for example a torch network:

    def policy(obs):
        logits = net(torch.as_tensor(obs["observation"], dtype=torch.float32))
        logits[torch.as_tensor(obs["action_mask"]) == 0] = -torch.inf
        return int(logits.argmax())

Needs the rl extra: pip install 'werewolf-arena[rl]'.
"""

from __future__ import annotations

from arena.rl.agent import PolicyAgent, random_policy


def make_agent(seed: int = 0, lang: str = "en", **_: object) -> PolicyAgent:
    """The seat's agent: a random legal policy (seeded by the seat's seed), as an `Agent`."""
    return PolicyAgent(random_policy(seed), lang="zh" if lang == "zh" else "en")
