"""A person playing one seat from the terminal: `arena play --seat 5=human`.

The person sees exactly what the seat may see — new lines of its own transcript, rendered
from its `Observation` — and answers from a menu built from the request's legal options
(`arena.text.commands`): a seat number, `0` to pass, Enter for the shown default,
`help` for every command and the speech-claim syntax, in Chinese or English.

A line that is not a legal answer is explained and asked again, as often as needed: a
typo never costs the decision. Only the person's silence (the runner's time limit) or a
closed terminal lets the arena default it.

The keyboard is read by the event loop itself (a reader on standard input, no thread),
so other seats' simultaneous decisions go on meanwhile and Ctrl-C stops the game at once.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Awaitable, Callable

from arena.agents.base import AgentReply
from arena.rules.actions import Action
from arena.rules.decisions import DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError, InvalidActionError
from arena.rules.observation import Observation
from arena.rules.roles import spec
from arena.rules.types import Role
from arena.storage.replay_file import SeatHandover
from arena.text import inert, t
from arena.text.commands import (
    HELP_WORDS,
    SEAT_KINDS,
    TITLES,
    ClaimRefused,
    Menu,
    build_menu,
    claim_roles,
    label,
    label_template,
    pass_label,
    report_fields,
)
from arena.transcript import Lang, render

_TEXT = {
    "zh": {
        "when": "第{d}夜",
        "day": "第{d}天",
        "enter": "Enter = {d}",
        "help": "說明 (help) = 操作說明",
        "type_speech": "直接輸入發言內容（可在 | 後加上結構化聲明，見 help）",
        "type_whisper": "直接輸入要對狼隊說的話",
        "seats": "輸入座位號",
        "say_nothing": "不發言",
        "closed": "終端已關閉",
    },
    "en": {
        "when": "Night {d}",
        "day": "Day {d}",
        "enter": "Enter = {d}",
        "help": "help = how to answer",
        "type_speech": "type your speech (structured claims may follow a |, see help)",
        "type_whisper": "type what to tell your fellow wolves",
        "seats": "type a seat number",
        "say_nothing": "say nothing",
        "closed": "the terminal closed",
    },
}

HELP = {
    "zh": """\
怎麼回答：
  Enter           採用顯示的預設答案
  3 / 3號 / #3    選座位（投票、查驗、守護、刀、毒、開槍、移交警徽、歸票）；歸票可給兩個：3 8
  0               過（棄票、不上警、空守、不用藥、不開槍……）
  其餘選項         輸入選單前的編號或字母（s 救、t 撕警徽、x 自爆、x5 自爆帶走5號）
也可以輸入完整指令（中英皆可）：
  投票 3 · 過 · 查驗 7 · 守護 2 · 刀 9 · 救 · 毒 4 · 開槍 6 · 自爆 [5]
  上警 · 退水 · 順序 逆 [起始座位] · 歸票 3 [8] · 移交 4 · 撕警徽 · 發言 … · 密語 …
發言時直接輸入內容；要附上結構化聲明，在 | 之後加上標籤：
  我是預言家，3號查殺 | 身份=預言家 查驗=3:狼 懷疑=3,5 信任=7
  標籤：身份=角色（claim=）· 查驗=座位:狼或好（check=3:wolf）
        懷疑=座位,…（suspect=）· 信任=座位,…（trust=）
{reports}  {roles}
Ctrl-C 立即結束遊戲（已記錄的部分留在回放檔中）。""",
    "en": """\
How to answer:
  Enter           take the default shown
  3 / #3          pick a seat (vote, check, protect, knife, poison, shoot, badge, recommend);
                  a recommendation may name two seats: 3 8
  0               pass (abstain, don't run, guard nobody, use no potion, don't shoot, …)
  other choices   type the number or letter before them (s save, t tear badge, x explode,
                  x5 explode and take #5)
Full commands work at every prompt (English or Chinese):
  vote 3 · pass · inspect 7 · protect 2 · kill 9 · save · poison 4 · shoot 6 · explode [5]
  run · withdraw · order asc|desc [start] · recommend 3 [8] · badge 4 · tear · speak … · whisper …
At a speech, just type it; structured claims follow a | as tags:
  I am the seer, #3 is a wolf | claim=seer check=3:wolf suspect=3,5 trust=7
  tags: claim=ROLE · check=SEAT:wolf|good · suspect=SEAT,… · trust=SEAT,…
{reports}  {roles}
Ctrl-C ends the game at once (what was played stays in the replay file).""",
}

_ROLES_LINE = {
    "zh": (
        "角色：預言家 女巫 獵人 守衛 白癡 平民 狼人 …（英文亦可：seer witch hunter guard …）",
        "本局的牌：{zh}（英文亦可：{en}）",
    ),
    "en": (
        "roles: seer witch hunter guard idiot villager werewolf … (Chinese names work too)",
        "this board's cards: {en} (Chinese names work too)",
    ),
}


def help_text(lang: Lang, roles: tuple[Role, ...] = ()) -> str:
    """`help`, whose role line names this board's cards (`claim_roles`) once they are known.

    A claim may name only a card the board deals (the thief's bottom cards and the wolf
    cards included), so the help lists exactly those, never the whole catalogue; and what
    a check may add after its verdict (catalog `claim_help`) only where the board deals the
    role that learns it (`report_fields`: a coroner's card found, a watchman's acted or
    idle). Before the board is known it lists both.
    """
    generic, board_line = _ROLES_LINE[lang]
    line = generic
    if roles:
        line = board_line.format(
            zh=" ".join(spec(r).zh for r in roles), en=" ".join(r.value for r in roles)
        )
    fields = report_fields(roles) if roles else frozenset(("role", "acted"))
    reports = "".join(
        f"        {t(f'claim_help.{f}', lang)}\n" for f in ("role", "acted") if f in fields
    )
    return HELP[lang].replace("{reports}", reports).replace("{roles}", line)


Reader = Callable[[str], str] | Callable[[str], Awaitable[str]]


class StdinLines:
    """Lines of standard input read by the event loop (no thread, so Ctrl-C is immediate)."""

    def __init__(self, fd: int = 0) -> None:
        self._fd = fd
        self._buffer = b""
        self._eof = False

    async def __call__(self, prompt: str) -> str:
        """Write `prompt`, then wait for one line.

        Raises:
            EOFError: standard input closed before a line came.
        """
        sys.stdout.write(prompt)
        sys.stdout.flush()
        while b"\n" not in self._buffer and not self._eof:
            await self._readable()
            chunk = os.read(self._fd, 4096)
            self._eof = not chunk
            self._buffer += chunk
        if not self._buffer:
            raise EOFError
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    async def _readable(self) -> None:
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        try:
            loop.add_reader(self._fd, lambda: None if ready.done() else ready.set_result(None))
        except (PermissionError, NotImplementedError, ValueError):
            return  # a regular file (never blocks) or a loop without readers: just read
        try:
            await ready
        finally:
            loop.remove_reader(self._fd)


class TerminalHuman:
    """A human seat at the terminal (or any line-based reader and writer)."""

    def __init__(
        self,
        lang: Lang = "zh",
        read: Reader | None = None,
        write: Callable[[str], None] = print,
        person: str | None = None,
    ) -> None:
        self.lang: Lang = lang
        self.person = person
        """The person's chosen name (`--seat 5=human:ann`), their rating identity."""
        self._read: Reader = read if read is not None else StdinLines()
        self._write = write
        self._shown = 0
        self._closed = False
        """Standard input has ended: no line will come, so nothing more is asked."""
        self.handover: SeatHandover | None = None
        """From which step the arena's defaults played the seat (the terminal closed): the
        replay header records it, and ratings do not count the seat as the person's."""

    @property
    def name(self) -> str:
        """`human`, or `human:<name>` when the person gave one (rated under it)."""
        return f"human:{self.person}" if self.person else "human"

    def catch_up(self, view: Observation) -> None:
        """Write the lines of `view` the person has not seen yet (and only those)."""
        for seen in view.seen:
            if seen.seq >= self._shown and (line := render(seen.event, self.lang)) is not None:
                self._write(inert(line))  # other players' text never acts on the terminal
        self._shown = max(self._shown, view.log_length)

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Show what is new in the seat's view, then read until a legal answer comes.

        Once standard input has ended every decision is refused at once (the recorded
        default follows) and only the game goes on being shown: asking again, with the
        menu, after each refusal and for every later decision printed menus nobody reads.
        """
        self.catch_up(view)
        if self._closed:
            return AgentReply(action=None, error=_TEXT[self.lang]["closed"])
        if feedback:
            self._write(inert(f"! {feedback}"))
        roles = claim_roles(view.knowledge.role_counts)
        menu = build_menu(request, self.lang, roles)
        self._write(describe(menu, self.lang))
        while True:
            try:
                line = await self._line("> ")
            except EOFError:
                self._closed = True
                self.handover = SeatHandover(
                    seat=request.seat,
                    step=request.step,
                    agent="default",
                    reason="the terminal closed: the arena's defaults played on",
                )
                return AgentReply(action=None, error=_TEXT[self.lang]["closed"])
            if line.strip().lower() in HELP_WORDS:
                self._write(help_text(self.lang, roles))
                continue
            try:
                action = menu.pick(line) if line.strip() else request.default
                check_legal(request, action)
            except (InvalidActionError, IllegalActionError) as exc:
                if isinstance(exc, ClaimRefused):
                    why = exc.say(self.lang)  # the board's refusal, in the catalog's words
                else:
                    why = explain(str(exc), self.lang)
                self._write(f"! {why}  ({_TEXT[self.lang]['help']})")
                continue
            return AgentReply(action=action)

    async def _line(self, prompt: str) -> str:
        got = self._read(prompt)
        return await got if isinstance(got, Awaitable) else got


_ZH_ERRORS = (
    (re.compile(r"unknown command '(.*)'"), "看不懂「{0}」：請輸入選單上的編號、座位號或指令"),
    (re.compile(r"(\w+) needs a seat number, got (.*)"), "這裡需要座位號（收到 {1}）"),
    (
        re.compile(r"seat (\d+) is not a legal target for (\w+); legal seats: (.*)"),
        "{0}號不能選；可選：{2}",
    ),
    (
        re.compile(r"seat \d+ cannot (\w+) now \((\w+)\); legal: (.*)"),
        "現在不能這樣做；請從選單中選擇",
    ),
    (
        re.compile(r"(\w+) text is (\d+) characters; the limit is (\d+)"),
        "太長了：{1} 字，上限 {2} 字",
    ),
    (re.compile(r"unknown role '(.*)' in claim="), "不認識的角色「{0}」"),
    (
        re.compile(r"unknown speech tag '(.*)';.*"),
        "不認識的標籤「{0}」：可用 身份= 查驗= 懷疑= 信任=",
    ),
)


_NO_CARD = re.compile(r"no (\w+) card on this board in claim=; its cards: (.*)")


def explain(message: str, lang: Lang) -> str:
    """An error for the person, in their language (the rules' messages are English)."""
    if lang == "zh" and (found := _NO_CARD.search(message)):
        role, cards = found.groups()
        names = "、".join(spec(Role(c)).zh for c in cards.split(", "))
        return f"本局沒有{spec(Role(role)).zh}這張牌；本局的牌：{names}"
    if lang == "zh":
        for pattern, text in _ZH_ERRORS:
            if found := pattern.search(message):
                return text.format(*found.groups())
    return message


def has_default(request: DecisionRequest) -> bool:
    """Whether Enter answers: the default is also a legal choice (an empty knife is not)."""
    try:
        check_legal(request, request.default)
    except IllegalActionError:
        return False
    return True


def default_label(request: DecisionRequest, lang: Lang) -> str:
    """What Enter answers, in words."""
    action: Action = request.default
    if action.kind == "pass":
        return pass_label(request, lang)
    if action.kind == "speak" and not getattr(action, "text", ""):
        return _TEXT[lang]["say_nothing"]
    return label(action, lang)


def _choice_lines(menu: Menu, lang: Lang) -> list[str]:
    """One line per choice, except that one action's seats share a line."""
    lines: list[str] = []
    seats: dict[str, list[str]] = {}
    for choice in menu.choices:
        if choice.key.isdigit() and choice.action.kind in (*SEAT_KINDS, "recommend_exile"):
            if choice.action.kind not in seats:
                seats[choice.action.kind] = []
                lines.append(choice.action.kind)
            seats[choice.action.kind].append(choice.key)
        else:
            lines.append(f"  {choice.key}) {choice.label}")
    placeholder = "N號" if lang == "zh" else "#N"
    for i, line in enumerate(lines):
        if line in seats:
            template = label_template(line, lang).format(s=placeholder)
            lines[i] = f"  {' '.join(seats[line])}) {template}"
    return lines


def describe(menu: Menu, lang: Lang) -> str:
    """The prompt: when, what is asked, the numbered choices and the default."""
    request = menu.request
    words = _TEXT[lang]
    when = (words["when"] if request.night else words["day"]).format(d=request.day)
    lines = [f"── {when} · {TITLES[lang].get(request.kind, request.kind)} ──"]
    if menu.text_kind is not None:
        lines.append("  " + words["type_speech" if menu.text_kind == "speak" else "type_whisper"])
    lines += _choice_lines(menu, lang)
    if has_default(request):
        lines.append(
            f"  [{words['enter'].format(d=default_label(request, lang))} · {words['help']}]"
        )
    else:
        lines.append(f"  [{words['help']}]")
    return "\n".join(lines)
