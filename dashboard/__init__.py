"""The Streamlit dashboard: replays seen by any viewer, the leaderboard and live games.

Read-only. Every view is built from `arena.rules.observation.observe` for one viewer at one
step; only viewer-independent data (parsed files) is cached between sessions. Nothing here
imports code that can call a model or change a game (`arena.llm` providers, agents,
`arena.queue` workers).
"""
