"""The game state: an immutable value, plus small read-only helpers over it."""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Final

from games.droles_de_zebres.pieces import GAZELLE, LION, ZEBRA, colour_of, kind_of
from games.droles_de_zebres.pieces_board import LINE_SQUARES, NEIGHBOURS, Board, get_board

# Phases of play.
FIRST: Final = "first"  # chance decides who places the guardian (option first_player=random)
GUARDIAN: Final = "guardian"  # the first player places the guardian
PLACE: Final = "place"  # the seat to act places an animal
CROCODILE: Final = "crocodile"  # the seat's crocodile may swap with a gazelle (chained)
MOVE: Final = "move"  # the seat moves the guardian 1, 2 or 3 positions
OVER: Final = "over"

# Values of the option "first_player".
FIRST_EITHER: Final = "either"  # whoever places the guardian is the first player
FIRST_SEAT0: Final = "seat0"
FIRST_SEAT1: Final = "seat1"
FIRST_RANDOM: Final = "random"
FIRST_MODES: Final = (FIRST_EITHER, FIRST_SEAT0, FIRST_SEAT1, FIRST_RANDOM)


@dataclass(frozen=True)
class Token:
    """An animal on a square and which side is up (face down = worth 0, still counted).

    A Token is always true (no __bool__ nor __len__): `all(cells)` says that no square of `cells`
    is empty in one C loop, where `None in cells` would call each Token's __eq__.
    """

    piece: str
    face_up: bool = True


@dataclass(frozen=True)
class DdzState:
    """Everything about a game in progress; every field is public information.

    cells: one entry per square in SQUARES order (A1, B1, ... F5), None when empty.
    reserves: per seat, the animals still in front of that player (canonical order).
    first: the seat that placed the guardian. turn: the seat to act (None before/after play).
    croc: square index of the crocodile while it may still swap; swapped: gazelles it already
    swapped with this turn. inauguration: the seat holding the +5 token.
    moved: what the last placement's effects and the crocodile's swaps since moved, as (animal,
    from square, to square or None when it went back in front of its owner): the table says them.
    """

    board: str
    colours: tuple[str, str]
    first_mode: str
    phase: str
    cells: tuple[Token | None, ...]
    reserves: tuple[tuple[str, ...], tuple[str, ...]]
    guardian: int | None = None
    first: int | None = None
    turn: int | None = None
    inauguration: int | None = None
    croc: int | None = None
    swapped: tuple[str, ...] = ()
    turns: int = 0  # completed turns, for the screens and logs
    moved: tuple[tuple[str, str, str | None], ...] = ()


def board_of(state: DdzState) -> Board:
    """The validated board the game is played on."""
    return get_board(state.board)


def seat_of(state: DdzState, piece: str) -> int:
    """The seat owning a piece (by its colour)."""
    return state.colours.index(colour_of(piece))


def other(seat: int) -> int:
    """The opponent of a seat."""
    return 1 - seat


def empty_in_line(state: DdzState, position: int) -> tuple[int, ...]:
    """Empty square indices of the line faced from a guardian position."""
    cells = state.cells
    return tuple([i for i in LINE_SQUARES[position] if cells[i] is None])


# each line's cells read in one C call: whether a line is open is asked on every move (the
# guardian's steps), in the table's play and in thousands of rule-engine playouts
# (the first square twice: an itemgetter of one index would return a cell, not a tuple)
_LINE_CELLS: Final = tuple(itemgetter(*squares, squares[0]) for squares in LINE_SQUARES)


def line_open(state: DdzState, position: int) -> bool:
    """True if the line faced from a guardian position has an empty square."""
    return not all(_LINE_CELLS[position](state.cells))  # a Token is true, an empty square None


def board_full(state: DdzState) -> bool:
    """True when all 30 squares hold an animal."""
    return all(state.cells)  # a Token is true, an empty square None


def lion_next_to(state: DdzState, index: int) -> bool:
    """True if a lion (either colour) stands orthogonally next to a square."""
    for j in NEIGHBOURS[index]:
        cell = state.cells[j]
        if cell is not None and kind_of(cell.piece) == LION:
            return True
    return False


def hides_near_lion(piece: str) -> bool:
    """True for the animals that must lie face down next to a lion (zebras, gazelles)."""
    return kind_of(piece) in (ZEBRA, GAZELLE)


def face_up_gazelle(state: DdzState, index: int) -> bool:
    """True if a face-up gazelle stands on a square (the only prey a crocodile sees)."""
    cell = state.cells[index]
    return cell is not None and cell.face_up and kind_of(cell.piece) == GAZELLE


def next_player(state: DdzState, seat: int) -> int:
    """Who places next after `seat`'s turn: the opponent, unless they have no animal left."""
    return other(seat) if state.reserves[other(seat)] else seat


def evolve(state: DdzState, **changes: object) -> DdzState:
    """`dataclasses.replace` for DdzState without re-running the constructor (states are rebuilt
    on every move of a search's playouts; fields are trusted: they come from a valid state)."""
    new = object.__new__(DdzState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new
