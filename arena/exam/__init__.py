"""The exam: single decisions asked at recorded moments, the same for every contestant.

`arena exam build` cuts verified replays into items (`items`, `build`), `arena exam run`
asks every contestant every item through the seat contract games use (`sitting`), and
`arena exam report` scores the answers against the key kept apart (docs/agents.md and
docs/metrics.md: The exam).
"""
