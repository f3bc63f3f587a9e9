"""The dashboard's languages and words: English, Simplified and Traditional Chinese.

The arena's Chinese text is written once, in Traditional characters (the rules seeds'
script; `arena.transcript` and the word table below). Simplified Chinese is derived from
it character by character (`arena.dashboard.hans`), so there is one text to maintain and
a Simplified reader never meets Traditional-only characters in the arena's own words.
Player text (speeches, whispers) is never converted: it is shown as the player wrote it.

Languages in the URL (`?lang=`): `en`, `zh-Hans` (简体), `zh-Hant` (繁體); a bare `zh`
(and `zh-CN`, `zh-SG`) means Simplified, `zh-TW`, `zh-HK`, `zh-MO` mean Traditional.
"""

from __future__ import annotations

from typing import Literal

from arena import transcript
from arena.dashboard.hans import to_hans
from arena.rules import events as ev
from arena.rules.visibility import Viewer, parse_viewer

Lang = Literal["en", "zh-Hans", "zh-Hant"]
"""A display language of the dashboard."""
LANGS: tuple[Lang, ...] = ("en", "zh-Hans", "zh-Hant")
LANG_NAMES: dict[Lang, str] = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}
_ALIASES: dict[str, Lang] = {
    "en": "en", "zh": "zh-Hans", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans",
    "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
}  # fmt: skip

_WORDS: dict[str, tuple[str, str]] = {
    # pages and sidebar
    "replays": ("Replays", "對局回放"),
    "player": ("Replay player", "回放播放器"),
    "leaderboard": ("Leaderboard", "排行榜"),
    "live": ("Live games", "進行中的對局"),
    "language": ("Language", "語言"),
    # replay list
    "f_board": ("Board", "板型"),
    "f_agent": ("Agent / model", "玩家 / 模型"),
    "f_winner": ("Winner", "勝方"),
    "f_tournament": ("Tournament", "賽事"),
    "f_date": ("Date", "日期"),
    "f_search": ("Search game id or file", "搜尋對局編號或檔名"),
    "choose": ("Choose", "請選擇"),
    "col_file": ("file", "檔案"),
    "col_game": ("game", "對局"),
    "col_started": ("started", "開始時間"),
    "col_board": ("board", "板型"),
    "col_seats": ("seats", "人數"),
    "col_agents": ("agents", "玩家"),
    "col_tournament": ("tournament", "賽事"),
    "col_winner": ("winner", "勝方"),
    "col_days": ("days", "天數"),
    "col_day": ("day", "天"),
    "col_events": ("events", "事件數"),
    "col_reason": ("reason", "原因"),
    "win_good": ("good", "好人"),
    "win_wolves": ("wolves", "狼人"),
    "win_draw": ("draw", "平局"),
    "win_unfinished": ("unfinished", "未完成"),
    "game": ("Game", "對局"),
    "open": ("Open", "打開"),
    "unreadable": ("Unreadable files", "無法讀取的檔案"),
    # player
    "viewpoint": ("Viewpoint", "視角"),
    "step": ("Step", "步驟"),
    "setup": ("Setup", "開局"),
    "jump": ("Jump to phase", "跳到階段"),
    "play": ("Play", "播放"),
    "pause": ("Pause", "暫停"),
    "first": ("To the start (Home)", "到開頭（Home）"),
    "last": ("To the end (End)", "到結尾（End）"),
    "prev": ("Step back (←)", "上一步（←）"),
    "next": ("Step forward (→)", "下一步（→）"),
    "prev_speech": ("Speech", "發言"),
    "next_speech": ("Speech", "發言"),
    "prev_vote": ("Vote", "投票"),
    "next_vote": ("Vote", "投票"),
    "prev_death": ("Death", "出局"),
    "next_death": ("Death", "出局"),
    "shortcuts": (
        "Keys: Space play/pause · ←/→ step · Home/End start/end · S/V/D next speech, vote, "
        "death (Shift: previous)",
        "快捷鍵：空白鍵 播放/暫停 · ←/→ 單步 · Home/End 開頭/結尾 · S/V/D 下一個發言、投票、"
        "出局（Shift：上一個）",
    ),
    "table": ("Table", "座位"),
    "circle": ("Table and votes", "座位與投票"),
    "transcript": ("Transcript", "記錄"),
    "speeches": ("Speeches", "發言"),
    "votes": ("Votes", "投票"),
    "beliefs": ("Beliefs", "信念"),
    "beliefs_now": ("Latest estimates", "最新估計"),
    "beliefs_time": ("Over time", "隨時間變化"),
    "calls": ("Model calls", "模型調用"),
    "alive": ("in play", "在場"),
    "out": ("out", "出局"),
    "sheriff": ("sheriff", "警長"),
    "you": ("this seat", "本座位"),
    "checked_wolf": ("checked: wolf", "查殺"),
    "checked_good": ("checked: good", "金水"),
    "abstain": ("abstain", "棄票"),
    "ctx_sheriff": ("campaign", "競選發言"),
    "ctx_sheriff_pk": ("sheriff PK", "警長PK發言"),
    "ctx_day": ("speech", "發言"),
    "ctx_pk": ("PK", "PK發言"),
    "ctx_defence": ("defence", "辯護"),
    "ctx_last_words": ("last words", "遺言"),
    "ballot_sheriff": ("sheriff election", "警長競選"),
    "ballot_sheriff_pk": ("sheriff PK vote", "警長PK投票"),
    "ballot_exile": ("exile vote", "放逐投票"),
    "ballot_nomination": ("nomination vote", "提名投票"),
    "ballot_defence": ("defence vote", "辯護投票"),
    "ballot_pk": ("PK vote", "PK投票"),
    "day": ("Day {d}", "第{d}天"),
    "voted_for": ("votes for", "投給"),
    "voter": ("voter", "投票者"),
    "target": ("target", "對象"),
    "weight": ("votes", "票數"),
    "ballot": ("ballot", "輪次"),
    "p_wolf_of": ("P(wolf) of", "是狼的機率：對象"),
    "reported_by": ("reported by", "估計者"),
    "p_wolf": ("P(wolf)", "是狼的機率"),
    "mean_p_wolf": ("mean P(wolf) others give", "其他人給出的平均狼機率"),
    "no_speeches": ("No speeches yet.", "還沒有發言。"),
    "no_votes": ("No votes yet.", "還沒有投票。"),
    "no_beliefs": ("No belief reports up to this step.", "此步之前沒有信念報告。"),
    "no_calls": ("No model calls up to this step.", "此步之前沒有模型調用。"),
    "nothing_yet": ("Nothing seen yet.", "還沒有看到任何事件。"),
    "god": ("God (referee)", "上帝視角"),
    "public": ("Public spectator", "觀眾"),
    "wolves": ("Wolf team", "狼隊"),
    "seat": ("Seat {n}", "{n}號玩家"),
    "fact_game": ("game", "對局"),
    "fact_board": ("board", "板型"),
    "fact_started": ("started", "開始時間"),
    "fact_tournament": ("tournament", "賽事"),
    "fact_seed": ("seed", "隨機種子"),
    "fact_preset": ("preset", "規則預設"),
    "fact_overrides": ("overrides", "規則調整"),
    "fact_result": ("result", "結果"),
    "board_default": ("board default", "板型預設"),
    "call_seat": ("seat", "座位"),
    "call_request": ("request", "請求"),
    "call_attempt": ("attempt", "嘗試"),
    "call_model": ("model", "模型"),
    "call_prompt": ("prompt", "提示詞"),
    "call_ms": ("ms", "毫秒"),
    "call_in": ("tokens in", "輸入詞元"),
    "call_out": ("tokens out", "輸出詞元"),
    "call_usd": ("usd", "美元"),
    "call_error": ("error", "錯誤"),
    # leaderboard
    "all_games": ("all games", "全部對局"),
    "bootstrap": ("Bootstrap resamples", "自助法重抽樣次數"),
    "rating_games": ("Rating games…", "正在計算評分…"),
    "games": ("Games", "對局數"),
    "draws": ("Draws", "平局"),
    "wolf_side_wins": ("Wolf side wins", "狼人陣營勝率"),
    "rating_title": ("Rating (mu, {level} bootstrap interval)", "評分（mu，{level} 自助法區間）"),
    "win_title": ("Win rate ({level} Wilson interval)", "勝率（{level} Wilson 區間）"),
    "rating": ("rating", "評分"),
    "win_rate": ("win rate", "勝率"),
    "side": ("side", "陣營"),
    "side_overall": ("overall", "總體"),
    "side_wolf": ("wolf", "狼人"),
    "side_good": ("good", "好人"),
    "deception_title": ("Deception and detection", "欺騙與識破"),
    "deception_x": (
        "suspicion of its wolves (lower: better liar)", "其狼人受到的懷疑（越低越會騙）"
    ),
    "deception_y": (
        "Brier of its good seats (lower: better detector)", "其好人的 Brier 分數（越低越會識破）"
    ),
    "cost_title": ("Tokens and money per game", "每局詞元與花費"),
    "tokens_per_game": ("tokens per game", "每局詞元"),
    "usd_per_game": ("USD / game", "每局美元"),
    "per_model": ("Per model", "各模型"),
    "every_number": ("Every number", "全部數據"),
    "col_model": ("model", "模型"),
    "col_games": ("games", "對局數"),
    "col_calls": ("calls", "調用次數"),
    "no_finished": ("No finished game in this folder yet.", "這個資料夾裡還沒有完成的對局。"),
    "agent": ("agent", "玩家"),
    # live
    "no_redis": (
        "Start the dashboard with `arena dashboard --redis redis://HOST:6379/0` (or set "
        "ARENA_REDIS_URL) to watch games running on workers.",
        "用 `arena dashboard --redis redis://HOST:6379/0` 啟動儀表板（或設定 ARENA_REDIS_URL），"
        "即可觀看工作節點上進行中的對局。",
    ),
    "no_running": ("No game is running right now.", "目前沒有進行中的對局。"),
    "redis_down": (
        "Cannot read running games from Redis: {error}", "無法從 Redis 讀取進行中的對局：{error}"
    ),
    "live_events": ("{n} events", "{n} 個事件"),
    "running": ("running", "進行中"),
    "ended": ("finished", "已結束"),
    "finished": ("finished: {winner} won", "已結束：{winner}獲勝"),
    "finished_draw": ("finished: a draw", "已結束：平局"),
    "published_nothing": ("the game has published nothing yet", "這局還沒有發布任何內容"),
}  # fmt: skip


def parse_lang(raw: str | None) -> Lang:
    """The language a URL's `lang` value names (English for anything unknown)."""
    return _ALIASES.get((raw or "en").lower(), "en")


def game_lang(lang: Lang) -> transcript.Lang:
    """The language `arena.transcript` renders in for `lang` (before any conversion)."""
    return "en" if lang == "en" else "zh"


def localize(zh_hant: str, lang: Lang) -> str:
    """Arena-written Chinese text in the script `lang` asks for."""
    return to_hans(zh_hant) if lang == "zh-Hans" else zh_hant


def t(key: str, lang: Lang, **values: object) -> str:
    """The UI word `key` in `lang`, with `{placeholders}` filled from `values`."""
    en, zh = _WORDS[key]
    return (en if lang == "en" else localize(zh, lang)).format(**values)


def winner_label(winner: str, lang: Lang) -> str:
    """A winner value (`good`, `wolves`, `draw`, `unfinished`) in `lang`."""
    key = f"win_{winner}"
    return t(key, lang) if key in _WORDS else winner


def words() -> dict[str, tuple[str, str]]:
    """The whole word table (for the catalog tests)."""
    return dict(_WORDS)


_PLAYER_TEXT = "\ue000"
"""Stands in for a player's text while a line is converted to Simplified."""


def render(event: ev.Event, lang: Lang) -> str | None:
    """`arena.transcript.render` in `lang`; a player's own text is never converted."""
    if lang != "zh-Hans":
        return transcript.render(event, game_lang(lang))
    text = getattr(event, "text", None)
    if not isinstance(text, str):
        line = transcript.render(event, "zh")
        return None if line is None else to_hans(line)
    line = transcript.render(event.model_copy(update={"text": _PLAYER_TEXT}), "zh")
    return None if line is None else to_hans(line).replace(_PLAYER_TEXT, text)


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
