"""Territory majorities and scores (final, or projected while the board fills)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Final

from games.core import SQUARES, Outcome, last_state
from games.droles_de_zebres.pieces import ALL_PIECES, colour_of, value_of
from games.droles_de_zebres.pieces_board import get_board
from games.droles_de_zebres.state import OVER, DdzState, Token
from games.frozen import quick_init

INAUGURATION_BONUS: Final = 5  # the rulebook's inauguration token
Cells = tuple[Token | None, ...]


@quick_init
@dataclass(frozen=True)
class TerritoryScore:
    """One territory now: tokens per seat (face down included), face-up points, who leads.

    leader is None when both seats have as many tokens there (nobody scores it; on the standard
    board every territory has an odd size, so this only happens before the board is full or on
    another printing with an even-sized territory).
    """

    name: str
    squares: tuple[str, ...]
    filled: int
    tokens: tuple[int, int]
    points: int
    leader: int | None

    @property
    def full(self) -> bool:
        """True when every square of the territory holds an animal."""
        return self.filled == len(self.squares)


def territory_scores(state: DdzState) -> tuple[TerritoryScore, ...]:
    """Every territory's majority and face-up points, in territory-letter order."""
    cells = state.cells
    first = state.colours[0]
    out = []
    for name, members, squares in _territories(state.board):
        tokens0 = tokens1 = points = filled = 0
        for i in members:
            cell = cells[i]
            if cell is None:
                continue
            filled += 1
            if _COLOUR[cell.piece] == first:  # seat 0 plays the first colour
                tokens0 += 1
            else:
                tokens1 += 1
            if cell.face_up:
                points += _VALUE[cell.piece]
        leader = 0 if tokens0 > tokens1 else 1 if tokens1 > tokens0 else None
        out.append(TerritoryScore(name, squares, filled, (tokens0, tokens1), points, leader))
    return tuple(out)


# each animal's colour and value, and each board's territories with their squares' names, read
# once: every game's outcome, and every screen of the game, counts the territories
_COLOUR: Final = {piece: colour_of(piece) for piece in ALL_PIECES}
_VALUE: Final = {piece: value_of(piece) for piece in ALL_PIECES}


@cache
def _territories(board: str) -> tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...]:
    """Per territory of a board: its name, its squares' indices and names."""
    b = get_board(board)
    return tuple((name, members, tuple([SQUARES[i] for i in members])) for name, members in zip(b.territories, b.members))


@cache
def _territory_cells(board: str) -> tuple[tuple[str, Callable[[Cells], Cells]], ...]:
    """Per territory of a board: its name and a getter of its cells (one C call), the first
    square twice (an itemgetter of one index would return a cell, not a tuple)."""
    b = get_board(board)
    return tuple((name, itemgetter(*members, members[0])) for name, members in zip(b.territories, b.members))


@cache
def territory_getters(board: str) -> tuple[Callable[[Cells], Cells], ...]:
    """Per territory of a board, in letter order, the getter of its cells (see _territory_cells)."""
    return tuple(of for _, of in _territory_cells(board))


def full_territories(state: DdzState) -> tuple[str, ...]:
    """Names of the territories whose every square is occupied."""
    cells = state.cells
    return tuple([name for name, of in _territory_cells(state.board) if all(of(cells))])  # a Token is true


def totals(state: DdzState, territories: tuple[TerritoryScore, ...] | None = None) -> tuple[int, int]:
    """Each seat's score if the game ended now: led territories' points plus the bonus."""
    territories = territory_scores(state) if territories is None else territories
    scores = [0, 0]
    for t in territories:
        if t.leader is not None:
            scores[t.leader] += t.points
    if state.inauguration is not None:
        scores[state.inauguration] += INAUGURATION_BONUS
    return scores[0], scores[1]


def winners_of(scores: tuple[int, int]) -> tuple[int, ...]:
    """The seats with the highest total; both on equal totals (a shared win)."""
    best = max(scores)
    return tuple(s for s in range(2) if scores[s] == best)


def outcome(state: DdzState) -> Outcome | None:
    """Scores once the board is full (None while playing)."""
    return _last_outcome(state) if state.phase == OVER else None


# a game driver asks for the outcome of the last state twice (whether it ended, then the result)
_last_outcome: Final = last_state(lambda state: final_outcome(state))


def final_outcome(state: DdzState) -> Outcome:
    """The outcome with a per-territory breakdown (for screens, logs and records)."""
    terr = territory_scores(state)
    scores = totals(state, terr)
    details = {
        "territories": [{"name": t.name, "squares": list(t.squares), "tokens": list(t.tokens),
                         "points": t.points, "leader": t.leader} for t in terr],
        "inauguration": state.inauguration,
        "bonus": INAUGURATION_BONUS if state.inauguration is not None else 0,
        "colours": list(state.colours),
    }
    return Outcome((float(scores[0]), float(scores[1])), winners_of(scores), details)
