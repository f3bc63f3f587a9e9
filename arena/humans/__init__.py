"""People at the table from a browser: hosting their games, join tokens, pacing.

A game with people is hosted by `host.py` (in the dashboard's process, or by the worker
in `worker.py` through Redis). Each person's seat is a `BrowserSeat` agent
(`arena.agents.browser`): it publishes its pending decision to the game's `Desk`
(`arena.storage.desk`, memory or Redis) and waits for the person's answer there. The
Play page reads a seat's view and pending decision, and posts answers, only through
`access.py`, which checks the seat's secret join token first; what a pending decision
offers, and the action each of the person's picks stands for, come from `answer.py`.
"""
