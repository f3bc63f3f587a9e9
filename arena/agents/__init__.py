"""Agents: anything that answers the referee's decision requests, one seat kind each.

`bot` (the scripted player), `random_agent`, `model` (a chat model), `terminal` (a person
at the terminal), `browser` (a person on the Play page), `plugin` (`py:` agents) and
`remote` (`http://` agents); `seats` builds them from seat specs, for every way a game
runs, and derives each seat's seed.
"""
