"""`zebra-table games replay` prints a bounded number of steps (`--steps`, from `--from`), and says
which steps it did not show and how to see them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.commands.games import DEFAULT_STEPS, MAX_STEPS
from firmware_host.commands.main import main
from tests.service.commands.test_usage import journal_with_a_game


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    path = tmp_path_factory.mktemp("replay") / "j.sqlite"
    return path, journal_with_a_game(path, "zop", 2)  # 243 moves: more steps than shown by default


def replayed(path: Path, gid: int, capsys: pytest.CaptureFixture[str], *words: str) -> tuple[list[int], list[str]]:
    """(the step numbers shown, the other lines: notes, not screens)."""
    assert main(["games", "--journal", str(path), "replay", str(gid), "--all-seats", *words]) == 0
    lines = capsys.readouterr().out.splitlines()
    steps = [int(m.group(1)) for line in lines if (m := re.match(r"--- step (\d+)/243", line))]
    notes = [line for line in lines if not line.startswith(("--- step ", "  ["))]
    return steps, notes


def test_a_long_game_shows_the_default_number_of_steps_and_says_what_was_cut(long_game: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    steps, notes = replayed(*long_game, capsys)
    assert steps == list(range(DEFAULT_STEPS))
    assert notes == [f"(étapes {DEFAULT_STEPS} à 243 non montrées : {DEFAULT_STEPS} au plus (--steps) ; "
                     f"--from {DEFAULT_STEPS} pour la suite)"]


def test_from_and_steps_choose_the_window_and_both_cuts_are_said(long_game: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    steps, notes = replayed(*long_game, capsys, "--from", "10", "--steps", "5", "--lang", "en")
    assert steps == [10, 11, 12, 13, 14]
    assert notes == ["(steps 0 to 9 not shown; --from 0 to see them)",
                     "(steps 15 to 243 not shown: 5 at most (--steps); --from 15 for the rest)"]


def test_the_rest_of_the_game_to_its_end_says_nothing_was_cut(long_game: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    steps, notes = replayed(*long_game, capsys, "--from", "200", "--steps", "44")
    assert steps == list(range(200, 244))
    assert notes == ["(étapes 0 à 199 non montrées ; --from 0 pour les voir)"]


def test_a_start_past_the_end_is_one_line(long_game: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--journal", str(long_game[0]), "replay", str(long_game[1]), "--from", "244"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"partie {long_game[1]} : étapes 0 à 243, --from 244 est au-delà"


@pytest.mark.parametrize("words", [["--steps", "0"], ["--steps", str(MAX_STEPS + 1)], ["--steps", "1.5"],
                                   ["--steps", "true"], ["--steps", "inf"], ["--steps", str(10**30)],
                                   ["--from", "-1"], ["--from", "nan"], ["--from", "99999999999999999999999999"]])
def test_bad_bounds_are_one_line_naming_the_flag(long_game: tuple[Path, int], capsys: pytest.CaptureFixture[str],
                                              words: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["games", "--journal", str(long_game[0]), "replay", str(long_game[1]), *words])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and words[0] in err and "expected" in err and "Traceback" not in err, err
