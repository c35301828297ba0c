"""Drôles de Zèbres: the board data file, its validation, rivers and the guardian's path."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core import SQUARES, BadConfig, GameConfig
from games.droles_de_zebres import GAME
from games.droles_de_zebres import pieces_board as board_mod
from games.droles_de_zebres.pieces_board import (
    LINE_SQUARES,
    PATH_LENGTH,
    BoardError,
    available_boards,
    get_board,
    line_id,
    load_board_file,
    position_label,
)

STANDARD_ROWS = ("a b c c c c", "a b b c d d", "a a b c c d", "e a b b b f", "e e f f f f")


def _names(indices) -> set[str]:
    return {SQUARES[i] for i in indices}


def test_standard_board_is_the_issue_map():
    board = get_board("standard")
    assert board.rows() == STANDARD_ROWS
    sizes = {name: len(members) for name, members in zip(board.territories, board.members)}
    assert sizes == {"a": 5, "b": 7, "c": 7, "d": 3, "e": 3, "f": 5}
    # the rulebook: two territories of 3, two of 5, two of 7
    assert sorted(sizes.values()) == [3, 3, 5, 5, 7, 7]


def test_rivers_separate_territories_only():
    board = get_board("standard")
    i = SQUARES.index
    assert _names(board.across[i("C4")]) == {"B4", "C5"}  # C3 and D4 are in b too
    assert _names(board.across[i("B4")]) == {"A4", "B5", "C4"}  # B3 is in a too
    assert _names(board.across[i("A1")]) == {"B1"}
    assert _names(board.across[i("F5")]) == set()
    for sq in range(30):
        for j in board.across[sq]:
            assert board.territory[j] != board.territory[sq]


@pytest.mark.parametrize("body, fault", [
    ('rows = ["a b", "a b", "a b", "a b", "a b"]', "row 1 has 2 squares"),
    ('rows = ["a a a a a a"]', "has 1 rows, expected 5"),
    ('rows = ["a a a a a a", "a a a a a a", "a a a a a a", "a a a a a a", "a a a a a 7"]', "single letters"),
    ('rows = ["a b a a a a", "a b a a a a", "a b a a a a", "a b a a a a", "a b a a a c"]', "not one connected"),
    ('rows = ["a a a a a a", "a a a a a a", "a a a a a a", "a a a a a a", "a a a a a a"]', "at least 2"),
    ('rows = "abc"', "'rows' must be a list"),
    ('rows = [', "not valid TOML"),
])
def test_bad_board_file_is_refused_with_file_name(tmp_path: Path, body: str, fault: str):
    path = tmp_path / "broken.toml"
    path.write_text(body + "\n", encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board_file(path)
    assert str(path) in str(info.value)
    assert fault in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_board_file_and_bad_names():
    with pytest.raises(BoardError, match="cannot be read"):
        get_board("no-such-printing")
    with pytest.raises(BoardError, match="bad board name"):
        get_board("../standard")


def test_another_printing_is_found_and_playable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "standard.toml").write_text((board_mod.BOARDS_DIR / "standard.toml").read_text("utf-8"), "utf-8")
    (tmp_path / "mirror.toml").write_text(
        'label_fr = "Miroir"\nrows = ["c c c c b a", "d d c b b a", "d c c b a a", "f b b b a e", "f f f f e e"]\n',
        "utf-8")
    monkeypatch.setattr(board_mod, "BOARDS_DIR", tmp_path)
    get_board.cache_clear()
    try:
        assert available_boards(tmp_path) == ("standard", "mirror")
        mirror = get_board("mirror")
        assert mirror.label.fr == "Miroir" and mirror.label.en == "Miroir"
        assert _names(mirror.across[SQUARES.index("D4")]) == {"E4", "D5"}  # the mirror of C4
        assert _names(mirror.across[SQUARES.index("E4")]) == {"D4", "F4", "E5"}
    finally:
        get_board.cache_clear()


def test_board_option_lists_the_data_files():
    option = {o.key: o for o in GAME.options}["board"]
    assert option.default == "standard"
    assert set(option.choices) == set(available_boards())
    with pytest.raises(BadConfig):
        GAME.initial_state(GameConfig(players=2, options={"board": "nope"}))


def test_broken_board_file_becomes_bad_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "standard.toml").write_text('rows = ["a"]\n', "utf-8")
    monkeypatch.setattr(board_mod, "BOARDS_DIR", tmp_path)
    get_board.cache_clear()
    try:
        with pytest.raises(BadConfig, match="standard.toml"):
            GAME.initial_state(GameConfig(players=2))
    finally:
        get_board.cache_clear()


def test_guardian_path_is_22_positions_clockwise_without_corners():
    assert PATH_LENGTH == 22
    expected = (["col:" + c for c in "ABCDEF"] + [f"row:{r}" for r in range(1, 6)]
                + ["col:" + c for c in "FEDCBA"] + [f"row:{r}" for r in range(5, 0, -1)])
    assert [line_id(p) for p in range(PATH_LENGTH)] == expected
    assert _names(LINE_SQUARES[2]) == {"C1", "C2", "C3", "C4", "C5"}
    assert _names(LINE_SQUARES[19]) == {"A3", "B3", "C3", "D3", "E3", "F3"}
    assert position_label(0).fr == "Haut col. A" and position_label(11).en == "Bottom col F"
    assert position_label(6).en == "Right row 1" and position_label(21).fr == "Gauche ligne 1"
