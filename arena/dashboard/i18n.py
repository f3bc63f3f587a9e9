"""The dashboard's own words in English and Chinese; game text comes from `arena.transcript`."""

from __future__ import annotations

from arena.rules.visibility import Viewer, parse_viewer
from arena.transcript import Lang

_WORDS: dict[str, tuple[str, str]] = {
    "replays": ("Replays", "對局回放"),
    "player": ("Replay player", "回放播放器"),
    "leaderboard": ("Leaderboard", "排行榜"),
    "live": ("Live games", "進行中的對局"),
    "language": ("Language", "語言"),
    "viewpoint": ("Viewpoint", "視角"),
    "step": ("Step", "步驟"),
    "jump": ("Jump to phase", "跳到階段"),
    "play": ("Play", "播放"),
    "pause": ("Pause", "暫停"),
    "prev": ("Step back", "上一步"),
    "next": ("Step forward", "下一步"),
    "table": ("Table", "座位"),
    "transcript": ("Transcript", "記錄"),
    "speeches": ("Speeches", "發言"),
    "votes": ("Votes", "投票"),
    "beliefs": ("Beliefs", "信念"),
    "calls": ("Model calls", "模型調用"),
    "game": ("Game", "對局"),
    "open": ("Open", "打開"),
    "alive": ("in play", "在場"),
    "out": ("out", "出局"),
    "sheriff": ("sheriff", "警長"),
    "you": ("this seat", "本座位"),
    "checked_wolf": ("checked: wolf", "查殺"),
    "checked_good": ("checked: good", "金水"),
    "no_speeches": ("No speeches yet.", "還沒有發言。"),
    "no_votes": ("No votes yet.", "還沒有投票。"),
    "no_beliefs": ("No belief reports up to this step.", "此步之前沒有信念報告。"),
    "no_calls": ("No model calls up to this step.", "此步之前沒有模型調用。"),
    "nothing_yet": ("Nothing seen yet.", "還沒有看到任何事件。"),
    "unreadable": ("Unreadable files", "無法讀取的檔案"),
    "god": ("God (referee)", "上帝視角"),
    "public": ("Public spectator", "觀眾"),
    "wolves": ("Wolf team", "狼隊"),
    "seat": ("Seat {n}", "{n}號玩家"),
}


def t(key: str, lang: Lang, **values: object) -> str:
    """The UI word `key` in `lang`, with `{placeholders}` filled from `values`."""
    en, zh = _WORDS[key]
    return (zh if lang == "zh" else en).format(**values)


def viewpoints(seats: int) -> list[str]:
    """Every viewpoint of a game with `seats` seats, as `parse_viewer` spells them."""
    return ["god", "public", "wolves", *(f"seat:{n}" for n in range(1, seats + 1))]


def viewpoint_label(key: str, lang: Lang) -> str:
    """A viewpoint's display name."""
    kind, _, n = key.partition(":")
    return t(kind, lang, n=n) if kind in {"god", "public", "wolves", "seat"} else key


def viewer_of(key: str) -> Viewer:
    """The `Viewer` a viewpoint key names.

    Raises:
        ValueError: the key names no viewer.
    """
    return parse_viewer(key)
