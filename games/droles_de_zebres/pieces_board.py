"""The savannah board: squares, territories and rivers (from a data file), the guardian's path."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from games.core import COLUMNS, ROWS, SQUARES, Text, tr

BOARDS_DIR: Final = Path(__file__).parent / "data" / "boards"
DEFAULT_BOARD: Final = "standard"
WIDTH: Final = len(COLUMNS)
SQUARE_INDEX: Final = {sq: i for i, sq in enumerate(SQUARES)}


class BoardError(ValueError):
    """A board data file that cannot describe a playable board (names the file and the fault)."""


def neighbours(index: int) -> tuple[int, ...]:
    """Orthogonally adjacent square indices (up, down, left, right that exist)."""
    row, col = divmod(index, WIDTH)
    out = []
    if row > 0:
        out.append(index - WIDTH)
    if row < ROWS - 1:
        out.append(index + WIDTH)
    if col > 0:
        out.append(index - 1)
    if col < WIDTH - 1:
        out.append(index + 1)
    return tuple(out)


NEIGHBOURS: Final = tuple(neighbours(i) for i in range(len(SQUARES)))


@dataclass(frozen=True)
class Board:
    """A board printing: the territory of each square and the derived river crossings."""

    name: str
    label: Text
    territory: tuple[str, ...]  # territory letter per square index
    territories: tuple[str, ...]  # territory letters, sorted
    members: tuple[tuple[int, ...], ...]  # square indices of each territory, same order
    across: tuple[tuple[int, ...], ...]  # per square: neighbours on the other side of a river

    def rows(self) -> tuple[str, ...]:
        """The territory map as text rows ("a b c c c c"), as in the data file."""
        return tuple(" ".join(self.territory[r * WIDTH:(r + 1) * WIDTH]) for r in range(ROWS))


def _fail(path: Path, message: str) -> BoardError:
    return BoardError(f"board file {path}: {message}")


def parse_board(name: str, data: dict[str, Any], path: Path) -> Board:
    """Build and validate a Board from a decoded data file; raises BoardError naming `path`."""
    rows = data.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise _fail(path, "'rows' must be a list of 5 strings of 6 territory letters")
    if len(rows) != ROWS:
        raise _fail(path, f"'rows' has {len(rows)} rows, expected {ROWS}")
    territory: list[str] = []
    for number, row in enumerate(rows, start=1):
        letters = row.split()
        if len(letters) != WIDTH:
            raise _fail(path, f"row {number} has {len(letters)} squares, expected {WIDTH}: {row!r}")
        for letter in letters:
            if len(letter) != 1 or not ("a" <= letter <= "z"):
                raise _fail(path, f"row {number}: territory names are single letters a-z, got {letter!r}")
        territory.extend(letters)
    names = tuple(sorted(set(territory)))
    if len(names) < 2:
        raise _fail(path, "a board needs at least 2 territories")
    members = tuple(tuple(i for i, t in enumerate(territory) if t == n) for n in names)
    for n, squares in zip(names, members):
        if not _connected(squares):
            cells = ", ".join(SQUARES[i] for i in squares)
            raise _fail(path, f"territory {n!r} is not one connected block: {cells}")
    across = tuple(tuple(j for j in NEIGHBOURS[i] if territory[j] != territory[i])
                   for i in range(len(SQUARES)))
    label_fr = data.get("label_fr", name)
    label_en = data.get("label_en", label_fr)
    if not isinstance(label_fr, str) or not isinstance(label_en, str):
        raise _fail(path, "'label_fr' and 'label_en' must be strings")
    return Board(name, tr(label_fr, label_en), tuple(territory), names, members, across)


def _connected(squares: tuple[int, ...]) -> bool:
    todo = [squares[0]]
    seen = {squares[0]}
    inside = set(squares)
    while todo:
        for j in NEIGHBOURS[todo.pop()]:
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen == inside


def load_board_file(path: Path) -> Board:
    """Read and validate one board data file; raises BoardError naming the file."""
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise _fail(path, f"cannot be read ({exc.strerror or exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise _fail(path, f"is not valid TOML ({exc})") from exc
    return parse_board(path.stem, data, path)


def available_boards(directory: Path = BOARDS_DIR) -> tuple[str, ...]:
    """Board names found in the data folder, the standard one first."""
    names = sorted(p.stem for p in directory.glob("*.toml"))
    if DEFAULT_BOARD in names:
        names.remove(DEFAULT_BOARD)
        names.insert(0, DEFAULT_BOARD)
    return tuple(names)


@cache
def get_board(name: str) -> Board:
    """The validated board called `name` (cached); raises BoardError."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise BoardError(f"bad board name {name!r}")
    return load_board_file(BOARDS_DIR / f"{name}.toml")


# ---------------------------------------------------------------------------------------------
# The guardian's patrol path: 22 positions clockwise around the board, corners excluded.
# 0-5 above columns A->F, 6-10 right of rows 1->5, 11-16 below columns F->A, 17-21 left of rows 5->1.

PATH_LENGTH: Final = 2 * (WIDTH + ROWS)


def _position_line(position: int) -> tuple[str, str, str]:
    """(side, "col"|"row", line name) faced from a path position."""
    if position < WIDTH:
        return "top", "col", COLUMNS[position]
    if position < WIDTH + ROWS:
        return "right", "row", str(position - WIDTH + 1)
    if position < 2 * WIDTH + ROWS:
        return "bottom", "col", COLUMNS[2 * WIDTH + ROWS - 1 - position]
    return "left", "row", str(PATH_LENGTH - position)


def _line_squares(kind: str, name: str) -> tuple[int, ...]:
    if kind == "col":
        col = COLUMNS.index(name)
        return tuple(r * WIDTH + col for r in range(ROWS))
    row = int(name) - 1
    return tuple(row * WIDTH + c for c in range(WIDTH))


POSITIONS: Final = tuple(_position_line(p) for p in range(PATH_LENGTH))
LINE_SQUARES: Final = tuple(_line_squares(kind, name) for _, kind, name in POSITIONS)
LINE_IDS: Final = tuple(f"{kind}:{name}" for _, kind, name in POSITIONS)

_SIDES: Final = {"top": tr("Haut", "Top"), "right": tr("Droite", "Right"),
                 "bottom": tr("Bas", "Bottom"), "left": tr("Gauche", "Left")}


def line_label(position: int) -> Text:
    """The line a position faces: "col. C" / "col C", "ligne 3" / "row 3"."""
    _, kind, name = POSITIONS[position]
    return tr(f"col. {name}", f"col {name}") if kind == "col" else tr(f"ligne {name}", f"row {name}")


def position_label(position: int) -> Text:
    """A path position with its side: "Haut col. C" / "Top col C"."""
    side = _SIDES[POSITIONS[position][0]]
    line = line_label(position)
    return tr(f"{side.fr} {line.fr}", f"{side.en} {line.en}")


def line_id(position: int) -> str:
    """A compact machine name of the faced line: "col:C" or "row:3"."""
    return LINE_IDS[position]
