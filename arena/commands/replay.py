"""`arena replay` and `arena validate`: a finished or running game's file, read back."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena.call_view import print_calls, replay_calls
from arena.commands.seen import VIEWERS, print_seen, viewer_of
from arena.commands.values import RefusedValue
from arena.replay_check import check_read, check_replay
from arena.rules.observation import observe
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer
from arena.storage.replay_file import Replay, ReplayHeader, read_replay, replay_status
from arena.storage.seal import arena_key
from arena.text import Lang, game_lang, inert, parse_display, printed_in, refusal, t
from arena.text.script import CLI_CHOICES, Display

DEFAULT_DISPLAY: Display = "zh-Hant"
"""What a replay without a recorded language prints in (`--lang`'s default before)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena replay` and `arena validate`."""
    replay = sub.add_parser("replay", help="print a replay as one viewer saw it")
    replay.add_argument("file", type=Path, help="a replay file (.jsonl)")
    replay.add_argument(
        "--as",
        dest="viewer",
        default=None,
        help=f"print as {VIEWERS} (default: public; with --calls, god)",
    )
    replay.add_argument(
        "--until",
        type=_step,
        default=None,
        metavar="STEP",
        help="stop before event STEP, 0 or more (what the viewer knew at that moment; "
        "default: the whole game)",
    )
    replay.add_argument(
        "--lang",
        choices=CLI_CHOICES,
        default=None,
        help="language of the transcript: en, zh-Hant (zh) or zh-Hans (Simplified); default: "
        "the game's own (its header's lang), else zh-Hant",
    )
    replay.add_argument(
        "--calls",
        nargs="?",
        const="brief",
        choices=["brief", "full"],
        default=None,
        help="print the model calls instead of the transcript: each request's messages as "
        "sent, the tools offered (name and size; their whole schemas with --calls=full), "
        "the reply, parsed action, error, usage and cost; every seat's (god view, the "
        "default here) or with --as seat:N only that seat's own",
    )
    replay.set_defaults(handler=_replay)

    validate = sub.add_parser("validate", help="re-run a replay's answers and compare the log")
    validate.add_argument("files", type=Path, nargs="+", metavar="FILE", help="replay files")
    validate.set_defaults(handler=_validate)


def _step(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise RefusedValue("step")
    return value


def _replay(args: argparse.Namespace) -> int:
    as_text = args.viewer or ("god" if args.calls else "public")
    if args.calls is not None:
        _calls_allowed(as_text, args.until)
    replay = read_replay(args.file, torn_tail="drop")
    display = replay_display(args.lang, replay.header)
    with printed_in(display):
        return _replay_in(args, replay, as_text, game_lang(display))


def replay_display(flag: str | None, header: ReplayHeader) -> Display:
    """The language `arena replay` prints in: `--lang`, else the game's own.

    A game is read in the script it was played in (a `zh-Hans` game in Simplified) unless
    the reader asks otherwise; a file from before the header recorded it reads in
    Traditional Chinese, the default `--lang` had then.
    """
    if flag is not None:
        return parse_display(flag)
    return header.lang or DEFAULT_DISPLAY


def _replay_in(args: argparse.Namespace, replay: Replay, as_text: str, lang: Lang) -> int:
    """`arena replay` of `replay` in `lang` (the output is in the display language's script)."""
    viewer = viewer_of(as_text, len(replay.header.seats) or replay.header.config.board_spec.seats)
    doubt = _doubt(replay, args.file)
    if doubt == "unsigned":
        print(t("cli.unsigned", lang))
    elif doubt is not None:
        print(inert(t("cli.unverified", lang, reason=doubt)))
    if args.calls is not None:
        calls = replay_calls(replay)
        if isinstance(viewer, SeatViewer):
            calls = [c for c in calls if c.seat == viewer.seat]
        if not print_calls(calls, lang, full=args.calls == "full"):
            print(t("cli.no_calls", lang))
    else:
        observation = observe(replay.events, viewer, until=args.until)
        print_seen(observation.seen, lang)
        if (
            args.until is not None
            and args.until < len(replay.events)
            and not isinstance(viewer, PublicViewer)
        ):
            print(t("cli.cut", lang, step=args.until, total=len(replay.events)))
    _print_status(replay, lang)
    return 0


def _print_status(replay: Replay, lang: Lang) -> None:
    """The note after a transcript whose file is torn, cut short or still running."""
    status = replay_status(replay)
    if status.torn_line is not None:
        print(t("cli.torn", lang, line=status.torn_line, events=status.events))
    elif status.state == "truncated":
        print(t("cli.truncated", lang, events=status.events, expected=status.expected))
    elif status.state == "unfinished":
        print(t("cli.unfinished", lang, events=status.events))


def _doubt(replay: Replay, path: Path) -> str | None:
    """Why a finished game does not verify (`arena validate`'s check), or None.

    `unsigned` for a file without a signature, else the reason it fails. An unfinished
    game is neither signed nor complete yet: the note after its transcript
    says so instead.
    """
    if replay_status(replay).state != "finished":
        return None
    report = check_read(replay, path, arena_key())
    if not report.ok:
        return report.message
    return None if report.signature == "signed" else "unsigned"


def _calls_allowed(as_text: str, until: int | None) -> None:
    """Refuse `--calls` where it would show more than the viewer saw, or cannot apply.

    A request holds its seat's private prompt (role, checks, wolf whispers) and the
    model's own reasoning, so the calls are god-view data; a seat's own calls are exactly
    what that seat was sent and answered, so `--as seat:N` shows those. Traces are placed
    by request, not by event, so `--until` does not cut them.
    """
    viewer = viewer_of(as_text, seats=10**6)  # the seat's range is checked once the file is read
    if not isinstance(viewer, GodViewer | SeatViewer):
        raise refusal("error.calls_viewer", viewer=as_text)
    if until is not None:
        raise refusal("error.calls_until")


def _validate(args: argparse.Namespace) -> int:
    """One line per file: `ok` or `BAD`, the log's verdict, then the signature's."""
    bad = 0
    key = arena_key()
    for path in args.files:
        report = check_replay(path, key)
        where = f"{report.path}:{report.line}" if report.line else report.path
        message = report.message
        signature = report.signature_message
        if signature is not None and signature not in message:
            message += f"; {signature}"
        print(inert(f"{'ok ' if report.ok else 'BAD'} {where}: {message}"))
        bad += not report.ok
    return 1 if bad else 0
