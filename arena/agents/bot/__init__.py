"""The scripted bot's parts: reading a view, judging seats, talking, and each decision.

`arena.agents.bot.agent.BotAgent` puts them together. Every part works from a `Reading`, which
is folded from the seat's own `Observation` and nothing else, so a bot can never act on
information its seat does not have.
"""
