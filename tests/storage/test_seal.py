"""Replay signatures: the arena's key, the signature line, and what `validate` says of forgeries."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import ArenaError
from arena.replay_check import check_replay
from arena.storage.replay_file import ReplayError, parse_replay_lines, read_replay
from arena.storage.seal import arena_key
from tests.support.forgery import forged_set, play


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("forged")
    original = play(folder / "original.jsonl", "std9-real", seed=11)
    return {"original": original, **forged_set(original, folder / "forgeries")}


def test_a_written_game_ends_with_a_signature_that_verifies(forged: dict[str, Path]) -> None:
    lines = forged["original"].read_text(encoding="utf-8").splitlines()
    assert lines[-1].startswith('{"type":"signature","alg":"hmac-sha256"')
    report = check_replay(forged["original"])
    assert report.ok and report.signature == "signed", report.message
    key = arena_key()
    assert key is not None and key.id in report.signature_message


def test_the_digest_is_the_same_streamed_from_a_file_or_from_lines(
    forged: dict[str, Path],
) -> None:
    from_file = read_replay(forged["original"])
    lines = forged["original"].read_text(encoding="utf-8").removesuffix("\n").split("\n")
    from_lines = parse_replay_lines(lines)
    assert from_file.seal is not None and from_file.seal == from_lines.seal
    assert from_file.digest == from_lines.digest == from_file.seal.sha256
    assert from_file.body_digest == from_lines.body_digest


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("new_id", "the content changed after it was signed"),
        ("agents", "the content changed after it was signed"),
        ("resigned", "not this arena's key"),
        ("our_key_id", "forged (the MAC does not verify)"),
    ],
)
def test_every_forgery_is_a_bad_signature(forged: dict[str, Path], name: str, reason: str) -> None:
    report = check_replay(forged[name])
    assert not report.ok and report.signature == "bad"
    assert reason in report.message


def test_a_copy_verifies_and_a_stripped_file_is_unsigned(forged: dict[str, Path]) -> None:
    """A copy is the arena's own game (the leaderboard counts it once); a stripped one is
    not signed at all (rated only when asked, shown apart)."""
    assert check_replay(forged["copy"]).signature == "signed"
    stripped = check_replay(forged["stripped"])
    assert stripped.ok and stripped.signature == "unsigned"


def test_a_line_after_the_signature_is_refused(forged: dict[str, Path], tmp_path: Path) -> None:
    text = forged["original"].read_text(encoding="utf-8")
    extra = tmp_path / "extra.jsonl"
    extra.write_text(text + text.splitlines()[1] + "\n", encoding="utf-8")
    with pytest.raises(ReplayError, match="after the signature line"):
        read_replay(extra)


def test_an_old_unsigned_file_loads_and_validates_as_unsigned() -> None:
    old = Path(__file__).parent.parent / "golden" / "std9-default-1.jsonl"
    report = check_replay(old)
    assert report.ok and report.signature == "unsigned"
    assert read_replay(old).header.schema_version == 1


def test_validate_says_signed_unsigned_or_bad(
    forged: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    old = Path(__file__).parent.parent / "golden" / "std9-default-1.jsonl"
    assert main(["validate", str(forged["original"]), str(old)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ok ") and "; signed (key " in out[0]
    assert out[1].startswith("ok ") and "unsigned" in out[1]
    assert main(["validate", str(forged["agents"])]) == 1
    out = capsys.readouterr().out
    assert out.startswith("BAD ") and "bad signature" in out


def test_replay_warns_in_one_line_on_a_game_that_does_not_verify(
    forged: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(forged["original"]), "--lang", "en"]) == 0
    assert "does not verify" not in capsys.readouterr().out
    assert main(["replay", str(forged["agents"]), "--lang", "en"]) == 0
    warning = capsys.readouterr().out.splitlines()[0]
    assert warning.startswith("(warning: this game does not verify"), warning
    assert "bad signature" in warning
    assert main(["replay", str(forged["stripped"]), "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("(note: this game is unsigned")


def test_the_key_file_is_made_on_first_signing_private_and_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ARENA_KEY")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert arena_key() is None  # checking never makes a key
    made = arena_key(create=True)
    path = tmp_path / "config" / "werewolf-arena" / "key"
    assert made is not None and made.source == str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = arena_key(create=True)
    assert again is not None and again.id == made.id
    monkeypatch.setenv("ARENA_KEY_FILE", str(path))
    named = arena_key()
    assert named is not None and named.id == made.id


def test_a_short_or_missing_key_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ARENA_KEY", "secret")
    with pytest.raises(ArenaError, match="at least 32"):
        arena_key()
    monkeypatch.delenv("ARENA_KEY")
    monkeypatch.setenv("ARENA_KEY_FILE", str(tmp_path / "nowhere"))
    with pytest.raises(ArenaError, match="no key file"):
        arena_key(create=True)


def test_without_a_key_a_signed_file_cannot_be_verified(
    forged: dict[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ARENA_KEY")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    report = check_replay(forged["original"])
    assert report.signature == "bad" and "no arena key" in report.message
