"""`zebra-table games replay` of a game not finished shows the public screen only, and names only
the moves everyone saw; every player's screen (their cards included) needs a finished game or
`--all-seats`; `--seat N` shows that player's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.commands.main import main
from firmware_host.screens.frames import Frame
from firmware_host.storage.journal import Journal
from games.core import replay
from games.registry import get_game
from tests.service.commands.test_usage import journal_with_a_game


def replayed(path: Path, gid: int, *words: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["games", "--journal", str(path), "replay", str(gid), *words]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_game_in_progress_replays_as_everyone_saw_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite"
    gid = journal_with_a_game(path)  # Spywhere, 4 players, still "playing"
    out = replayed(path, gid, capsys=capsys)
    assert out[0].startswith("(partie non terminée (playing)") and "--all-seats" in out[0]
    screens = [line for line in out if line.startswith("  [")]
    assert screens and all(line.startswith("  [public] ") for line in screens)
    # each step's screen is the public one, no player's
    journal = Journal(path, read_only=True)
    rec = journal.record(gid)
    journal.close()
    game = get_game(rec.game)
    config = game.validate_config(rec.config)
    for i, line in enumerate(screens):
        state = replay(game, config, rec.moves[:i])
        text = Frame(game.screen(game.view(state, None), None)).text("fr")
        assert line == f"  [public] {text['title']}: " + " | ".join(text["lines"]), (i, line)  # type: ignore[arg-type]
    heads = [line for line in out if line.startswith("--- step ") and not line.startswith("--- step 0/")]
    assert len(heads) == len(rec.moves)
    for (_, act), head in zip(rec.moves, heads, strict=True):
        if act["type"] in ("deal", "draw", "passport"):  # cards into a hand: nobody else saw them
            assert head.endswith(": chance …"), head
        if act["type"] == "swap":  # a card laid face up in the centre: everyone saw it
            assert re.search(r": J\d Poser \w+ en \d$", head), head
    guesses = [h for (s, a), h in zip(rec.moves[:-1], heads, strict=False) if a["type"] == "identify"]
    assert guesses and all(h.endswith(" …") for h in guesses), guesses


def test_every_seat_for_a_finished_game_or_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite"
    gid = journal_with_a_game(path)
    for words in (("--all-seats",), ()):
        if not words:  # the game ends: its secrets are every player's to see
            journal = Journal(path)
            journal.finish(gid, None)
            journal.close()
        out = replayed(path, gid, *words, capsys=capsys)
        assert not out[0].startswith("(") and "  [public] " not in "\n".join(out)
        for player in ("J1", "J2", "J3", "J4"):
            assert f"  [{player}] " in "\n".join(out)
        assert any(re.search(r": J\d J\d : \w+ \?$", h) for h in out[:-2]), "a guess is named"


def test_one_seat_of_a_game_in_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite"
    gid = journal_with_a_game(path)
    out = replayed(path, gid, "--seat", "2", capsys=capsys)
    screens = [line for line in out if line.startswith("  [")]
    assert screens and all(line.startswith("  [J2] ") for line in screens)
