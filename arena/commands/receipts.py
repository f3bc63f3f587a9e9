"""What a submission leaves behind, and what the server will keep of it.

`submit` keeps a receipt of the games it queued under the replay folder
(`.arena/submitted.json`), so `status` can tell a game the server lost (submitted, no
longer known) from one never submitted. `durability_warning` is the one line `submit` and
`arena worker` print when the server would lose its data in a restart.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from arena.queue.jobs import Durability

RECEIPTS = Path(".arena") / "submitted.json"
"""Under the replay folder: per `prefix/name`, the server epoch and the game ids queued."""


def durability_warning(durability: Durability, url: str) -> str | None:
    """One line on what a restart of the server at `url` would lose, or None if nothing."""
    if not durability.known:
        return (
            f"note: cannot tell whether Redis at {url} keeps its data across a restart "
            "(it refused CONFIG GET); without persistence a restart loses every queued and "
            "running game (docs/tournaments.md)"
        )
    if durability.appendonly:
        return None
    if durability.save:
        return (
            f"note: Redis at {url} keeps snapshots only (save {durability.save!r}, appendonly "
            "no): a restart loses what changed since the last snapshot; appendonly yes is "
            "safer (docs/tournaments.md)"
        )
    return (
        f"warning: Redis at {url} does not persist its data (appendonly no, no snapshots): "
        "a restart loses every queued and running game; start it with --appendonly yes "
        "(docs/tournaments.md)"
    )


def read_receipts(replays: Path) -> dict[str, dict[str, object]]:
    """What `submit` queued from here, by `prefix/name` (empty if nothing or unreadable)."""
    try:
        data = json.loads((replays / RECEIPTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def submitted_ids(replays: Path, prefix: str, name: str) -> set[str]:
    """The game ids `submit` queued from here for this tournament."""
    entry = read_receipts(replays).get(f"{prefix}/{name}", {})
    games = entry.get("games", []) if isinstance(entry, dict) else []
    return {g for g in games if isinstance(g, str)} if isinstance(games, list) else set()


def write_receipt(replays: Path, prefix: str, name: str, epoch: str | None, ids: list[str]) -> None:
    """Remember what was queued (best effort: a read-only folder only loses the receipt)."""
    receipts = read_receipts(replays)
    ids = sorted(submitted_ids(replays, prefix, name) | set(ids))
    receipts[f"{prefix}/{name}"] = {"epoch": epoch, "games": ids}
    path = replays / RECEIPTS
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(receipts, indent=1), encoding="utf-8")
        tmp.replace(path)
