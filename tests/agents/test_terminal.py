from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest

from arena.agents.base import AgentReply
from arena.agents.bot.agent import BotAgent
from arena.agents.seats import build_agents, parse_seats
from arena.agents.terminal import HELP, TerminalHuman, describe, explain, has_default, help_text
from arena.board_file import EXAMPLES, load_board_file
from arena.errors import ArenaError
from arena.match import Limits, new_header, play, run_game
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.actions import (
    ActionKind,
    CheckClaim,
    ChooseOrder,
    Claims,
    Inspect,
    Link,
    Pass,
    Poison,
    RecommendExile,
    RunForSheriff,
    Save,
    SelfExplode,
    Speak,
    Vote,
)
from arena.rules.boards import Board, board
from arena.rules.config import GameConfig
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import InvalidActionError
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.types import Direction, Phase, Role
from arena.rules.visibility import PUBLIC, SeatViewer
from arena.text.commands import (
    SEAT_KINDS,
    build_menu,
    claim_roles,
    label_template,
    parse_command,
)
from arena.transcript import render
from tests.conftest import BOARD_REFS


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("vote 3", Vote(target=3)),
        ("投票 3號", Vote(target=3)),
        ("abstain", Pass()),
        ("過", Pass()),
        ("explode", SelfExplode()),
        ("自爆 5", SelfExplode(target=5)),
        ("order desc 4", ChooseOrder(direction=Direction.DESCENDING, start=4)),
        ("順序 逆", ChooseOrder(direction=Direction.DESCENDING)),
        ("recommend 3 8", RecommendExile(targets=(3, 8))),
        ("link 3 5", Link(targets=(3, 5))),
        ("紅線 3號 5號", Link(targets=(3, 5))),
        ("查驗 #7", Inspect(target=7)),
        (
            "speak 3號查殺 | claim=seer check=3:wolf suspect=3,5",
            Speak(
                text="3號查殺",
                claims=Claims(
                    role=Role.SEER, checks=(CheckClaim(seat=3, is_wolf=True),), suspects=(3, 5)
                ),
            ),
        ),
        (
            "發言 我是預言家 | 身份=預言家 查驗=3:狼 信任=7",
            Speak(
                text="我是預言家",
                claims=Claims(
                    role=Role.SEER, checks=(CheckClaim(seat=3, is_wolf=True),), trusts=(7,)
                ),
            ),
        ),
    ],
)
def test_commands_become_actions(line: str, action: object) -> None:
    assert parse_command(line) == action


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("dance", "unknown command"),
        ("vote", "needs a seat number"),
        ("vote three", "needs a seat number"),
        ("speak hi | claim=king", "role"),
        ("speak hi | mood=happy", "unknown speech tag"),
        ("speak hi | check=3:maybe", "SEAT:wolf"),
        ("order sideways", "direction"),
    ],
)
def test_bad_commands_are_invalid_with_a_reason(line: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_command(line)


def request(kind: DecisionKind, *options: ActionOption, default: object = None) -> DecisionRequest:
    return DecisionRequest(
        step=7,
        seat=4,
        kind=kind,
        day=2,
        night=kind in (DecisionKind.WITCH, DecisionKind.SEER),
        options=options,
        default=default or Pass(),
    )


VOTE = request(
    DecisionKind.VOTE,
    ActionOption(action="vote", targets=(1, 2, 3, 5)),
    ActionOption(action="pass"),
)
WITCH = request(
    DecisionKind.WITCH,
    ActionOption(action="save", targets=(6,)),
    ActionOption(action="poison", targets=(1, 2, 3)),
    ActionOption(action="pass"),
)
RUN = request(
    DecisionKind.RUN_FOR_SHERIFF,
    ActionOption(action="run_for_sheriff"),
    ActionOption(action="pass"),
)
SPEECH = request(
    DecisionKind.SPEECH,
    ActionOption(action="speak", max_chars=100),
    ActionOption(action="self_explode"),
    default=Speak(text=""),
)


@pytest.mark.parametrize(
    ("req", "line", "action"),
    [
        (VOTE, "3", Vote(target=3)),
        (VOTE, "#5", Vote(target=5)),
        (VOTE, "0", Pass()),
        (VOTE, "投票 2", Vote(target=2)),
        (WITCH, "2", Poison(target=2)),
        (WITCH, "s", Save()),
        (RUN, "1", RunForSheriff()),
        (RUN, "0", Pass()),
        (SPEECH, "我是好人 | trust=3", Speak(text="我是好人", claims=Claims(trusts=(3,)))),
        (SPEECH, "x", SelfExplode()),
    ],
)
def test_menu_keys_seat_numbers_and_words(req: DecisionRequest, line: str, action: object) -> None:
    assert build_menu(req, "zh").pick(line) == action


def test_chinese_prompts_use_no_english_command_words() -> None:
    for req in (VOTE, WITCH, RUN, SPEECH):
        text = describe(build_menu(req, "zh"), "zh")
        for word in ("vote", "pass", "poison", "save", "run", "speak", "abstain", "Enter = p"):
            assert word not in text.replace("Enter = ", "Enter ="), (word, text)
    assert "0) 棄票" in describe(build_menu(VOTE, "zh"), "zh")
    assert "1 2 3 5) 投給N號" in describe(build_menu(VOTE, "zh"), "zh")


def scripted(lines: list[str]) -> tuple[TerminalHuman, list[str], Iterator[str]]:
    shown: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        shown.append(prompt)
        return next(feed)

    return TerminalHuman(lang="en", read=read, write=shown.append), shown, feed


def test_bad_input_asks_again_and_never_takes_the_decision_away() -> None:
    """Three (or more) bad lines used to default the decision; now each is just explained."""
    human, shown, _ = scripted(["dance", "vote 9", "vote", "seven", "help", "3"])
    view = observe([], SeatViewer(seat=4))
    reply = asyncio.run(human.decide(view, VOTE))
    assert reply.action == Vote(target=3)
    errors = [line for line in shown if line.startswith("! ")]
    assert len(errors) == 4 and "not a legal target" in errors[1]
    assert help_text("en") in shown  # no game started in this view: the generic role line


def test_after_standard_input_ends_nothing_more_is_asked() -> None:
    """A closed terminal (Ctrl-D, a file of answers run out) used to be asked again with
    the whole menu after each refusal and at every later decision, for the whole game."""
    shown: list[str] = []

    def read(prompt: str) -> str:
        shown.append(prompt)
        raise EOFError

    human = TerminalHuman(lang="en", read=read, write=shown.append)
    view = observe([], SeatViewer(seat=4))
    for request, feedback in ((VOTE, None), (VOTE, "the terminal closed"), (SPEECH, None)):
        reply = asyncio.run(human.decide(view, request, feedback=feedback))  # as match asks
        assert reply.action is None and reply.error == "the terminal closed"
    assert shown.count("> ") == 1
    assert not [line for line in shown if line.startswith("! ")]


def test_enter_takes_the_shown_default() -> None:
    human, shown, _ = scripted([""])
    reply = asyncio.run(human.decide(observe([], SeatViewer(seat=4)), SPEECH))
    assert reply.action == Speak(text="")
    assert "Enter = say nothing" in shown[0]


def test_help_documents_the_claim_syntax_in_both_languages() -> None:
    for lang, words in (("en", "claim=seer check=3:wolf"), ("zh", "身份=預言家 查驗=3:狼")):
        assert words in HELP[lang]
        assert "trust=" in HELP[lang]


def play_as_person(tmp_path: Path) -> tuple[list[str], list[str], Path]:
    """Seat 4 (the seer) of a std9 game: one nonsense line, then Enter (the default) every
    time (a wolf could not: a knife has no default)."""
    shown: list[str] = []
    typed: list[str] = []

    def read(prompt: str) -> str:
        line = "nonsense" if not typed else ""
        typed.append(line)
        return line

    config = GameConfig(board="std9")
    agents = {s: BotAgent(s) for s in range(1, 10)}
    human = TerminalHuman(lang="en", read=read, write=shown.append)
    agents[4] = human  # type: ignore[assignment]
    path = tmp_path / "human.jsonl"
    referee = asyncio.run(
        run_game(new_header("h", config, 4, agents), agents, path, limits=Limits(retries=0))
    )
    human.catch_up(observe(referee.events, SeatViewer(seat=4)))
    assert referee.finished and check_replay(path).ok
    assert not any(isinstance(e, ev.ActionDefaulted) for e in referee.events)
    return shown, typed, path


def test_a_human_seat_plays_a_whole_game_seeing_only_its_view(tmp_path: Path) -> None:
    shown, typed, _ = play_as_person(tmp_path)
    assert typed[0] == "nonsense" and any("unknown command" in line for line in shown)
    text = "\n".join(shown)
    end = text.index("Game over")
    assert "#4 is the" in text[:end]
    assert not any(f"#{s} is the" in text[:end] for s in range(1, 10) if s != 4)
    lines = [
        line
        for line in shown
        if line == render(ev.PhaseStarted.model_construct(phase=Phase.NIGHT, day=1), "en")
    ]
    assert len(lines) == 1, "the transcript is never shown twice"


@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_every_menu_key_of_every_request_is_legal(board: str) -> None:
    """A person picking random menu keys (or Enter) on every board never hits a refusal."""
    rng = random.Random(board)
    picked: list[str] = []

    class Person:
        name = "person"

        async def decide(
            self, view: Observation, req: DecisionRequest, feedback: str | None = None
        ) -> AgentReply:
            assert feedback is None
            menu = build_menu(req, "zh" if rng.random() < 0.5 else "en")
            describe(menu, "zh")
            describe(menu, "en")
            keys = [c.key for c in menu.choices] + ([""] if has_default(req) else [])
            key = rng.choice(keys)
            picked.append(key)
            if not key:
                return AgentReply(action=req.default)
            action = menu.pick(key)
            check_legal(req, action)
            return AgentReply(action=action)

    config = GameConfig(board=BOARD_REFS[board])
    for seed in range(3):
        agents: dict[int, object] = {s: Person() for s in range(1, config.board_spec.seats + 1)}
        referee = asyncio.run(play(Referee(config, seed), agents))  # type: ignore[arg-type]
        assert referee.finished
        assert not any(isinstance(e, ev.ActionDefaulted) for e in referee.events)
    assert len(picked) > 100


def test_a_named_terminal_seat_is_rated_under_its_name() -> None:
    config = GameConfig(board="std9")
    seats = parse_seats(["5=human:ann"], 9)
    agents = build_agents(seats, config, 1)
    assert agents[5].name == "human:ann" and seats[5].label == "human:ann"
    assert build_agents(parse_seats(["5=human"], 9), config, 1)[5].name == "human"
    assert new_header("g", config, 1, agents).seats[4].agent == "human:ann"
    with pytest.raises(ArenaError, match="human"):
        parse_seats(["5=human:a b"], 9)


def test_every_action_kind_has_words_in_both_languages() -> None:
    for kind in get_args(ActionKind):
        for lang in ("zh", "en"):
            if kind in SEAT_KINDS:
                assert label_template(kind, lang) != kind, (kind, lang)


def started(b: Board) -> Observation:
    """Seat 4's view of a game on `b` just set (the public composition only)."""
    start = ev.GameStarted(
        visibility=PUBLIC, board=b.id, seats=b.seats, role_counts=b.role_counts()
    )
    return observe([start], SeatViewer(seat=4))


THIEF_BOARD = EXAMPLES / "classic_thief_elder12.yaml"


@pytest.mark.parametrize(
    ("b", "absent", "wolf"),
    [
        (board("wwk_guard"), Role.IDIOT, Role.WHITE_WOLF_KING),
        (load_board_file(THIEF_BOARD), Role.WHITE_WOLF_KING, Role.WEREWOLF),
    ],
    ids=["wwk_guard", "classic_thief_elder12"],
)
def test_a_speech_claims_only_the_boards_cards(b: Board, absent: Role, wolf: Role) -> None:
    """The claim offers this board's cards (the thief's bottom cards and the wolf cards
    too: a wolf may pose as any of them), and refuses a role the board does not deal; the
    old menu took any `Role`."""
    roles = claim_roles(b.role_counts())
    assert set(roles) == set(b.roles) and absent not in roles and wolf in roles
    assert list(roles) == sorted(roles, key=list(Role).index)
    human, shown, _ = scripted([f"I am it | claim={absent.value}", f"I am it | claim={wolf.value}"])
    reply = asyncio.run(human.decide(started(b), SPEECH))
    assert reply.action == Speak(text="I am it", claims=Claims(role=wolf))
    assert any(f"no {absent.value} card on this board" in line for line in shown)
    human, shown, _ = scripted(["help", "x"])
    asyncio.run(human.decide(started(b), SPEECH))
    assert help_text("en", roles) in shown
    assert "this board's cards: " + " ".join(r.value for r in roles) in help_text("en", roles)


def test_a_refused_claim_is_explained_in_chinese() -> None:
    message = "no idiot card on this board in claim=; its cards: seer, werewolf"
    assert explain(message, "zh") == "本局沒有白痴這張牌；本局的牌：預言家、狼人"
