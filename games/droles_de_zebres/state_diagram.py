"""Positions written as text diagrams: for tests, the rulebook examples and debugging.

A diagram is 5 rows of 6 cells separated by spaces. A cell is "." (empty) or a colour letter
("w" white, "g" green) followed by a kind letter (Z zebra, G gazelle, C crocodile, E elephant,
L lion); an upper-case kind letter is face up, lower-case face down. Example row: "wZ gg . . wL .".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.core import ROWS, SQUARES
from games.droles_de_zebres.pieces import (
    COLOURS,
    CROCODILE,
    ELEPHANT,
    GAZELLE,
    KINDS,
    LION,
    ZEBRA,
    colour_pieces,
    parse_piece,
    piece_id,
    sort_pieces,
)
from games.droles_de_zebres.pieces_board import PATH_LENGTH, WIDTH, get_board
from games.droles_de_zebres.state import FIRST_EITHER, PLACE, DdzState, Token

_KIND_LETTERS: Final = {"z": ZEBRA, "g": GAZELLE, "c": CROCODILE, "e": ELEPHANT, "l": LION}
_COLOUR_LETTERS: Final = {"w": "white", "g": "green"}


class DiagramError(ValueError):
    """A diagram that does not describe a possible board."""


def from_diagram(rows: Sequence[str], *, guardian: int | None = 0, turn: int | None = 0,
                 phase: str = PLACE, first: int | None = None, inauguration: int | None = None,
                 colours: tuple[str, str] = COLOURS, board: str = "standard",
                 first_mode: str = FIRST_EITHER, turns: int = 0) -> DdzState:
    """A state with the diagram's animals on the board and every other animal in its reserve."""
    if len(rows) != ROWS:
        raise DiagramError(f"a diagram has {ROWS} rows, got {len(rows)}")
    if guardian is not None and not 0 <= guardian < PATH_LENGTH:
        raise DiagramError(f"guardian position {guardian} not in 0..{PATH_LENGTH - 1}")
    get_board(board)  # fail early on an unknown board
    used: dict[tuple[str, str], int] = {}
    cells: list[Token | None] = []
    for r, row in enumerate(rows, start=1):
        items = row.split()
        if len(items) != WIDTH:
            raise DiagramError(f"row {r} has {len(items)} cells, expected {WIDTH}: {row!r}")
        for item in items:
            cells.append(None if item == "." else _token(item, used, r))
    placed = {c.piece for c in cells if c is not None}
    reserves = tuple(sort_pieces([p for p in colour_pieces(colour) if p not in placed]) for colour in colours)
    return DdzState(board=board, colours=colours, first_mode=first_mode, phase=phase, cells=tuple(cells),
                    reserves=(reserves[0], reserves[1]), guardian=guardian,
                    first=1 - turn if first is None and turn is not None else first, turn=turn,
                    inauguration=inauguration, turns=turns)


def _token(item: str, used: dict[tuple[str, str], int], row: int) -> Token:
    if len(item) != 2 or item[0] not in _COLOUR_LETTERS or item[1].lower() not in _KIND_LETTERS:
        raise DiagramError(f"row {row}: bad cell {item!r} (e.g. wZ, gg, .)")
    colour = _COLOUR_LETTERS[item[0]]
    kind = _KIND_LETTERS[item[1].lower()]
    face_up = item[1].isupper()
    if not face_up and kind not in (ZEBRA, GAZELLE):
        raise DiagramError(f"row {row}: only zebras and gazelles lie face down ({item!r})")
    n = used.get((colour, kind), 0) + 1
    if n > KINDS[kind].count:
        raise DiagramError(f"too many {colour} {kind}s (at most {KINDS[kind].count})")
    used[(colour, kind)] = n
    return Token(piece_id(colour, kind, n), face_up)


def to_diagram(state: DdzState) -> tuple[str, ...]:
    """The board of a state as diagram rows (the inverse of from_diagram for the board)."""
    out = []
    for r in range(ROWS):
        cells = []
        for i in range(r * WIDTH, (r + 1) * WIDTH):
            cell = state.cells[i]
            if cell is None:
                cells.append(".")
                continue
            p = parse_piece(cell.piece)
            letter = next(k for k, v in _KIND_LETTERS.items() if v == p.kind)
            cells.append(p.colour[0] + (letter.upper() if cell.face_up else letter))
        out.append(" ".join(cells))
    return tuple(out)


def square_of(state: DdzState, piece: str) -> str | None:
    """The square a piece lies on, or None when it is in a reserve."""
    for i, cell in enumerate(state.cells):
        if cell is not None and cell.piece == piece:
            return SQUARES[i]
    return None
