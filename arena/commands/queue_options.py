"""The options `arena tournament` and `arena worker` share: the queue, its namespace, counts."""

from __future__ import annotations

import argparse

from arena.storage.redis_keys import PREFIX


def add_queue(parser: argparse.ArgumentParser) -> None:
    """`--redis URL`, required: the queue's server."""
    parser.add_argument(
        "--redis", required=True, metavar="URL", help="the queue's Redis, e.g. redis://host:6379/0"
    )


def add_prefix(parser: argparse.ArgumentParser) -> None:
    """`--prefix NAME`: the Redis key namespace."""
    parser.add_argument(
        "--prefix",
        default=PREFIX,
        help="Redis key namespace, to keep several arenas on one server",
    )


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
