"""The match queue: jobs, the `JobQueue` port and its two backends, and the worker.

- `jobs`: what travels on the queue (`MatchJob`, `Lease`, `MatchResult`, …).
- `base`: the `JobQueue` Protocol and its contract.
- `redis_queue`: Redis Streams with a consumer group (workers on many machines);
  `memory_queue`: the in-process twin behind `arena tournament run`.
- `worker`: claim, play or resume under a fenced lease, make durable, acknowledge.
- `seating`: a job's agents, and per-endpoint call limits.

Layout and guarantees are documented in docs/tournaments.md.
"""
