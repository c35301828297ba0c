"""The search's random playouts to the end of a game of `ai_model`, in one loop.

The strong level's UCT spends most of its time in them. `ai_model.random_playout` plays one
move at a time through the model's methods; this plays the same game, drawing the same random
numbers in the same order, with the board's tables in local variables, no move built as a
tuple, and each line's empty squares counted as the board fills.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from games.core import SQUARES
from games.droles_de_zebres.ai_model import (
    CROC,
    GAZELLE,
    LION,
    OWNER_OF,
    P_OVER,
    P_PLACE,
    ZEBRA,
    Model,
    code,
)
from games.droles_de_zebres.pieces_board import LINE_SQUARES, NEIGHBOURS, PATH_LENGTH

# The lines the guardian faces, each once (a column is faced from above and below, a row from
# both sides): per path position its line, per square its row's and its column's.
_LINES: Final = tuple(dict.fromkeys(LINE_SQUARES))
POSITION_LINE: Final = tuple(_LINES.index(squares) for squares in LINE_SQUARES)
SQUARE_LINES: Final = tuple(tuple(n for n, squares in enumerate(_LINES) if i in squares) for i in range(len(SQUARES)))
# per guardian position, the lines faced 1, 2 and 3 steps ahead
AHEAD_LINES: Final = tuple(tuple(POSITION_LINE[(g + k) % PATH_LENGTH] for k in (1, 2, 3)) for g in range(PATH_LENGTH))
LION_CODE: Final = code(LION, 0, True)  # the lowest code of a lion (the last kind): a cell >= it holds one
ZEBRA_UP: Final = (code(ZEBRA, 0, True), code(ZEBRA, 1, True))
GAZELLE_UP: Final = (code(GAZELLE, 0, True), code(GAZELLE, 1, True))
GAZELLE_CODES: Final = range(code(GAZELLE, 0, True), code(GAZELLE, 1, False) + 1)


def random_playout(model: Model, rng: random.Random) -> Model:
    """Play `model` to the end with uniformly random moves (in place); returns it.

    The same game as `ai_model.random_playout` (`play(turn, random_action(rng))` move after move),
    from the same random numbers drawn in the same order, in one loop: a playout is most of the
    search's time (tests/games/droles_de_zebres/test_ai_decisions.py compares them). The empty
    squares of each line are counted as the board fills, so the guardian's steps and a
    placement's square need no list.
    """
    while model.phase != P_PLACE:  # a crocodile's swaps or a move to choose first: the plain way
        if model.phase == P_OVER:
            return model
        model.play(model.turn, model.random_action(rng))
    cells, reserves, left = model.cells, model.reserves, model.left
    guardian, turn, inauguration = model.guardian, model.turn, model.inauguration
    across, territory_members = model.board.across, model.board.territory_members
    empty = [0] * len(_LINES)
    for i, c in enumerate(cells):
        if not c:
            for n in SQUARE_LINES[i]:
                empty[n] += 1
    draw = rng.random
    while True:
        # an animal: every (animal, square) pair equally likely, the kind drawn first (random_action)
        reserve = reserves[turn]
        r = int(draw() * left[turn])
        kind = 0
        while r >= reserve[kind]:
            r -= reserve[kind]
            kind += 1
        r = int(draw() * empty[POSITION_LINE[guardian]])
        for index in LINE_SQUARES[guardian]:
            if not cells[index]:
                if not r:
                    break
                r -= 1
        reserve[kind] -= 1
        left[turn] -= 1
        row, col = SQUARE_LINES[index]
        empty[row] -= 1
        empty[col] -= 1
        placed = 1 + 4 * kind + 2 * turn  # face up
        if kind == LION:
            cells[index] = placed
            _roar(cells, reserves, left, empty, index)
        elif kind <= GAZELLE:  # face down next to a lion
            for j in NEIGHBOURS[index]:
                if cells[j] >= LION_CODE:
                    placed += 1
                    break
            cells[index] = placed
        else:
            cells[index] = placed
            if kind == CROC:
                _swaps(cells, across, index, draw)
        # the end of the turn (Model._end_turn)
        if inauguration < 0:  # no territory was full: only the square just filled can complete one
            for i in territory_members[index]:
                if not cells[i]:
                    break
            else:
                inauguration = turn
        if not left[0] and not left[1]:
            break
        ahead1, ahead2, ahead3 = AHEAD_LINES[guardian]
        open1, open2, open3 = empty[ahead1] > 0, empty[ahead2] > 0, empty[ahead3] > 0
        choices = open1 + open2 + open3
        if choices == 1:
            guardian += 1 if open1 else 2 if open2 else 3
        elif choices == 3:
            guardian += 1 + int(draw() * 3)
        elif choices == 2:  # the move drawn among the two steps, the shorter first
            guardian += (1 if open1 else 2) if draw() < 0.5 else (3 if open3 else 2)
        else:
            guardian += _jump(empty, guardian)
        guardian %= PATH_LENGTH
        turn = 1 - turn if left[1 - turn] else turn
    model.phase, model.turn, model.guardian, model.inauguration = P_OVER, -1, guardian, inauguration
    model.croc, model.swapped, model.ahead = -1, (), []
    return model


def _roar(cells: list[int], reserves: list[list[int]], left: list[int], empty: list[int], lion: int) -> None:
    """A lion just laid: its face-up zebra neighbours turned face down, its gazelle neighbours home."""
    for j in NEIGHBOURS[lion]:
        c = cells[j]
        if c in ZEBRA_UP:
            cells[j] = c + 1
        elif c in GAZELLE_CODES:  # face up or down, it goes home
            owner = OWNER_OF[c]
            cells[j] = 0
            reserves[owner][GAZELLE] += 1
            left[owner] += 1
            for n in SQUARE_LINES[j]:
                empty[n] += 1


def _jump(empty: list[int], guardian: int) -> int:
    """The guardian's steps past the full lines to the next line with an empty square."""
    for k in range(4, PATH_LENGTH + 1):
        if empty[POSITION_LINE[(guardian + k) % PATH_LENGTH]]:
            return k
    raise AssertionError("board not full but no line open")


def _swaps(cells: list[int], across: tuple[tuple[int, ...], ...], croc: int, draw: Callable[[], float]) -> None:
    """A crocodile just laid at `croc`: its random swaps until it stops or has no prey left
    (Model._place and _swap, the moves drawn as random_action draws them)."""
    swapped: tuple[int, ...] = ()
    while True:
        targets = [j for j in across[croc] if cells[j] in GAZELLE_UP and j not in swapped]
        if not targets:
            return
        pick = int(draw() * (len(targets) + 1))
        if pick == len(targets):  # stop
            return
        target = targets[pick]
        gazelle = cells[target]
        cells[target] = cells[croc]
        for j in NEIGHBOURS[croc]:
            if cells[j] >= LION_CODE:
                gazelle += 1  # face down next to a lion
                break
        cells[croc] = gazelle
        swapped += (croc,)
        croc = target
