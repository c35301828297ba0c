"""A compact copy of the rules for the computer player's search: integers and lists, no effects.

The search plays thousands of imagined turns per decision; the game's own `transition` builds
bilingual effects and immutable states on every move, which costs 20x more. This model keeps
only what decides the game: which animal of which colour lies face up or down on each square,
the animals left per kind, the guardian, the crocodile's swaps and the inauguration.

It must follow games/droles_de_zebres/turns.py exactly: tests/games/droles_de_zebres/test_ai.py
replays thousands of random games through both and compares every state and every legal move.
A rule changed there must be changed here too (that test fails until it is).

Animals of one kind and colour are interchangeable, so the model names a placement by kind and
square; `to_action` turns it back into an action of the real game.
"""

from __future__ import annotations

import random
from typing import Final, Literal

from games.core import SQUARES, Action
from games.droles_de_zebres.pieces import KIND_ORDER, KINDS, kind_of
from games.droles_de_zebres.pieces_board import LINE_SQUARES, NEIGHBOURS, PATH_LENGTH, SQUARE_INDEX, get_board
from games.droles_de_zebres.scoring import INAUGURATION_BONUS
from games.droles_de_zebres.state import (
    CROCODILE as CROC_PHASE,
)
from games.droles_de_zebres.state import (
    FIRST,
    GUARDIAN,
    MOVE,
    OVER,
    PLACE,
    DdzState,
    seat_of,
)

# kinds by index, in KIND_ORDER: zebra, gazelle, crocodile, elephant, lion
ZEBRA, GAZELLE, CROC, ELEPHANT, LION = range(5)
assert KIND_ORDER == ("zebra", "gazelle", "crocodile", "elephant", "lion")
N_KINDS: Final = len(KIND_ORDER)
KIND_INDEX: Final = {k: i for i, k in enumerate(KIND_ORDER)}
VALUES: Final = tuple(KINDS[k].value for k in KIND_ORDER)
COUNTS: Final = tuple(KINDS[k].count for k in KIND_ORDER)

# phases as small integers
P_FIRST, P_GUARDIAN, P_PLACE, P_CROC, P_MOVE, P_OVER = range(6)
PHASES: Final = {FIRST: P_FIRST, GUARDIAN: P_GUARDIAN, PLACE: P_PLACE, CROC_PHASE: P_CROC, MOVE: P_MOVE,
                 OVER: P_OVER}

# A cell is 0 (empty) or code = 1 + 4 * kind + 2 * owner + face_down.
def code(kind: int, owner: int, face_up: bool) -> int:
    """The integer of an animal on a square."""
    return 1 + 4 * kind + 2 * owner + (0 if face_up else 1)


CODES: Final = 1 + 4 * N_KINDS
KIND_OF: Final = (-1,) + tuple((c - 1) // 4 for c in range(1, CODES))
OWNER_OF: Final = (-1,) + tuple(((c - 1) // 2) % 2 for c in range(1, CODES))
UP: Final = (False,) + tuple((c - 1) % 2 == 0 for c in range(1, CODES))
POINTS: Final = (0,) + tuple(VALUES[KIND_OF[c]] if UP[c] else 0 for c in range(1, CODES))
HIDES: Final = (False,) + tuple(KIND_OF[c] in (ZEBRA, GAZELLE) for c in range(1, CODES))

# Model actions: ("p", kind, square) place, ("s", square) swap, ("x",) stop, ("m", steps), ("g", position)
ModelAction = tuple[Literal["p"], int, int] | tuple[Literal["s", "m", "g"], int] | tuple[Literal["x"]]


class Board:
    """The board tables the model needs: territories and river crossings as index tuples."""

    def __init__(self, name: str):
        board = get_board(name)
        self.name = name
        self.members: tuple[tuple[int, ...], ...] = board.members
        self.across: tuple[tuple[int, ...], ...] = board.across
        self.territory_of: tuple[int, ...] = tuple(board.territories.index(t) for t in board.territory)
        # per square, the squares of its territory (only the square just filled can complete one)
        self.territory_members: tuple[tuple[int, ...], ...] = tuple(self.members[t] for t in self.territory_of)


_BOARDS: dict[str, Board] = {}


def board_tables(name: str) -> Board:
    """The cached model tables of a board."""
    tables = _BOARDS.get(name)
    if tables is None:
        tables = _BOARDS[name] = Board(name)
    return tables


class Model:
    """A mutable game position for the search. `copy` before trying a move you want to undo."""

    __slots__ = ("board", "cells", "reserves", "left", "phase", "turn", "guardian", "inauguration",
                 "croc", "swapped", "first", "ahead")

    def __init__(self, board: Board, cells: list[int], reserves: list[list[int]], phase: int, turn: int,
                 guardian: int, inauguration: int, croc: int, swapped: tuple[int, ...], first: int):
        self.board = board
        self.cells = cells
        self.reserves = reserves
        self.left = [sum(reserves[0]), sum(reserves[1])]
        self.phase = phase
        self.turn = turn  # seat to act (-1: nobody / both in the guardian phase)
        self.guardian = guardian  # path position, -1 before it is placed
        self.inauguration = inauguration  # seat, -1 while nobody has it
        self.croc = croc  # square of the crocodile that may still swap, -1 otherwise
        self.swapped = swapped  # squares where the gazelles already swapped this turn now lie
        self.first = first
        # the guardian's steps while it is to be moved (worked out once: a playout asks twice)
        self.ahead: list[int] = self.steps() if phase == P_MOVE else []

    def copy(self) -> Model:
        """An independent copy."""
        new = Model.__new__(Model)
        new.board = self.board
        new.cells = self.cells[:]
        new.reserves = [self.reserves[0][:], self.reserves[1][:]]
        new.left = self.left[:]
        new.phase = self.phase
        new.turn = self.turn
        new.guardian = self.guardian
        new.inauguration = self.inauguration
        new.croc = self.croc
        new.swapped = self.swapped
        new.first = self.first
        new.ahead = self.ahead  # never changed in place: replaced on the next move
        return new

    # -- queries -----------------------------------------------------------------------------
    def lion_next_to(self, index: int) -> bool:
        """True if a lion stands orthogonally next to `index`."""
        cells = self.cells
        for j in NEIGHBOURS[index]:
            c = cells[j]
            if c and KIND_OF[c] == LION:
                return True
        return False

    def swap_targets(self, croc: int) -> list[int]:
        """Face-up gazelles across a river from `croc`, not swapped yet this turn."""
        cells = self.cells
        out: list[int] = []
        for j in self.board.across[croc]:
            c = cells[j]
            if c and KIND_OF[c] == GAZELLE and UP[c] and j not in self.swapped:
                out.append(j)
        return out

    def open_line(self, position: int) -> bool:
        """True if the line faced from `position` has an empty square."""
        cells = self.cells
        for i in LINE_SQUARES[position]:
            if not cells[i]:
                return True
        return False

    def steps(self) -> list[int]:
        """Guardian moves (1..3) after which the faced line has an empty square."""
        g = self.guardian
        return [k for k in (1, 2, 3) if self.open_line((g + k) % PATH_LENGTH)]

    def actions(self) -> list[ModelAction]:
        """Every move of the seat to act (kinds stand for any animal of that kind)."""
        phase = self.phase
        if phase == P_PLACE:
            cells = self.cells
            squares = [i for i in LINE_SQUARES[self.guardian] if not cells[i]]
            reserve = self.reserves[self.turn]
            return [("p", k, i) for k in range(N_KINDS) if reserve[k] for i in squares]
        if phase == P_MOVE:
            return [("m", k) for k in self.ahead]
        if phase == P_CROC:
            return [*(("s", j) for j in self.swap_targets(self.croc)), ("x",)]
        if phase == P_GUARDIAN:
            return [("g", p) for p in range(PATH_LENGTH)]
        return []

    def random_action(self, rng: random.Random) -> ModelAction:
        """A uniformly random legal move, drawn without building the whole list when placing."""
        if self.phase == P_PLACE:
            cells = self.cells
            squares = [i for i in LINE_SQUARES[self.guardian] if not cells[i]]
            reserve = self.reserves[self.turn]
            # every (animal, square) pair of the real game is equally likely: weight kinds by count
            r = int(rng.random() * self.left[self.turn])
            k = 0
            while r >= reserve[k]:
                r -= reserve[k]
                k += 1
            return ("p", k, squares[int(rng.random() * len(squares))])
        if self.phase == P_MOVE:
            ahead = self.ahead
            return ("m", ahead[int(rng.random() * len(ahead))])
        acts = self.actions()
        return acts[int(rng.random() * len(acts))]

    # -- moves -------------------------------------------------------------------------------
    def play(self, seat: int, act: ModelAction) -> None:
        """Apply a legal move of `seat` in place."""
        # act[0] tested each time (not a local): mypy narrows the tuple's type on it
        if act[0] == "p":
            self._place(seat, act[1], act[2])
        elif act[0] == "m":
            self._guardian_moved(seat, (self.guardian + act[1]) % PATH_LENGTH)
        elif act[0] == "s":
            self._swap(seat, act[1])
        elif act[0] == "x":
            self._end_turn(seat)
        elif act[0] == "g":
            self.guardian = act[1]
            self.first = seat
            self.turn = 1 - seat
            self.phase = P_PLACE
        else:
            raise ValueError(f"unknown model action {act!r}")

    def _place(self, seat: int, kind: int, index: int) -> None:
        cells = self.cells
        self.reserves[seat][kind] -= 1
        self.left[seat] -= 1
        face_up = not ((kind == ZEBRA or kind == GAZELLE) and self.lion_next_to(index))
        cells[index] = code(kind, seat, face_up)
        if kind == LION:
            for j in NEIGHBOURS[index]:
                c = cells[j]
                if not c:
                    continue
                k = KIND_OF[c]
                if k == ZEBRA and UP[c]:  # a face-down zebra is already hidden
                    cells[j] = c + 1
                elif k == GAZELLE:  # face down too (rulebook; rules_transition._lion_roars)
                    owner = OWNER_OF[c]
                    cells[j] = 0
                    self.reserves[owner][GAZELLE] += 1
                    self.left[owner] += 1
        elif kind == CROC:
            self.swapped = ()
            if self.swap_targets(index):
                self.phase = P_CROC
                self.croc = index
                return
        self._end_turn(seat)

    def _swap(self, seat: int, target: int) -> None:
        cells = self.cells
        croc = self.croc
        gazelle, crocodile = cells[target], cells[croc]
        # the gazelle lands where the crocodile was: face down next to a lion
        cells[croc] = code(GAZELLE, OWNER_OF[gazelle], not self.lion_next_to(croc))
        cells[target] = crocodile
        self.swapped = self.swapped + (croc,)
        self.croc = target
        if not self.swap_targets(target):
            self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        self.croc = -1
        self.swapped = ()
        cells = self.cells
        if self.inauguration < 0:
            for members in self.board.members:
                for i in members:
                    if not cells[i]:
                        break
                else:
                    self.inauguration = seat
                    break
        if not self.left[0] and not self.left[1]:
            self.phase = P_OVER
            self.turn = -1
            return
        g = self.guardian
        steps = self.steps()
        if len(steps) == 1:
            self._guardian_moved(seat, (g + steps[0]) % PATH_LENGTH)
            return
        if steps:
            self.phase = P_MOVE
            self.turn = seat
            self.ahead = steps
            return
        for k in range(4, PATH_LENGTH + 1):
            position = (g + k) % PATH_LENGTH
            if self.open_line(position):
                self._guardian_moved(seat, position)
                return
        raise AssertionError("board not full but no line open")

    def _guardian_moved(self, seat: int, position: int) -> None:
        self.guardian = position
        self.phase = P_PLACE
        self.turn = 1 - seat if self.left[1 - seat] else seat

    # -- scores ------------------------------------------------------------------------------
    def totals(self) -> tuple[int, int]:
        """Each seat's score if the game ended now (led territories' face-up points + bonus)."""
        cells = self.cells
        scores = [0, 0]
        for members in self.board.members:
            tokens = 0  # seat 0 minus seat 1
            points = 0
            for i in members:
                c = cells[i]
                if c:
                    tokens += 1 if OWNER_OF[c] == 0 else -1
                    points += POINTS[c]
            if tokens > 0:
                scores[0] += points
            elif tokens < 0:
                scores[1] += points
        if self.inauguration >= 0:
            scores[self.inauguration] += INAUGURATION_BONUS
        return scores[0], scores[1]


# -- to and from the real game ----------------------------------------------------------------


def from_state(state: DdzState) -> Model:
    """The model of a real game state."""
    cells = [0] * len(SQUARES)
    where: dict[str, int] = {}
    for i, cell in enumerate(state.cells):
        if cell is not None:
            cells[i] = code(KIND_INDEX[kind_of(cell.piece)], seat_of(state, cell.piece), cell.face_up)
            where[cell.piece] = i
    reserves = [[0] * N_KINDS, [0] * N_KINDS]
    for seat in (0, 1):
        for piece in state.reserves[seat]:
            reserves[seat][KIND_INDEX[kind_of(piece)]] += 1
    turn = -1 if state.turn is None else state.turn
    return Model(board_tables(state.board), cells, reserves, PHASES[state.phase], turn,
                 -1 if state.guardian is None else state.guardian,
                 -1 if state.inauguration is None else state.inauguration,
                 -1 if state.croc is None else state.croc,
                 tuple(where[p] for p in state.swapped), -1 if state.first is None else state.first)


def to_action(state: DdzState, seat: int, act: ModelAction) -> Action:
    """The real game's action for a model move of `seat` in `state` (any animal of the kind)."""
    if act[0] == "p":
        kind = KIND_ORDER[act[1]]
        piece = next(p for p in state.reserves[seat] if kind_of(p) == kind)
        return {"type": "place", "piece": piece, "square": SQUARES[act[2]]}
    if act[0] == "s":
        return {"type": "swap", "square": SQUARES[act[1]]}
    if act[0] == "x":
        return {"type": "stop"}
    if act[0] == "m":
        return {"type": "move", "steps": act[1]}
    if act[0] == "g":
        return {"type": "guardian", "position": act[1]}
    raise ValueError(f"unknown model action {act!r}")


def from_action(action: Action) -> ModelAction:
    """The model move of a real game action (placements forget which animal of the kind)."""
    kind = action["type"]
    if kind == "place":
        return ("p", KIND_INDEX[kind_of(action["piece"])], SQUARE_INDEX[action["square"]])
    if kind == "swap":
        return ("s", SQUARE_INDEX[action["square"]])
    if kind == "stop":
        return ("x",)
    if kind == "move":
        return ("m", action["steps"])
    if kind == "guardian":
        return ("g", action["position"])
    raise ValueError(f"no model move for {action!r}")


def signature(model: Model) -> tuple[object, ...]:
    """Everything the model knows, for comparing it with a converted real state."""
    return (tuple(model.cells), tuple(model.reserves[0]), tuple(model.reserves[1]), model.phase,
            model.turn, model.guardian, model.inauguration, model.croc, tuple(sorted(model.swapped)))


def random_playout(model: Model, rng: random.Random) -> Model:
    """Play `model` to the end with uniformly random moves (in place); returns it.

    Move by move through `play` and `random_action`: the reference of the search's own playouts
    (`ai_playout.random_playout`, the same games from the same random numbers, in one loop).
    """
    while model.phase != P_OVER:
        model.play(model.turn, model.random_action(rng))
    return model
