"""Which actions are legal, and why an action is refused (stable codes, short FR/EN messages)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from operator import is_not, itemgetter
from typing import Any, Final

from games.core import CHANCE, SQUARES, Action, Rejection, is_int
from games.droles_de_zebres.pieces import GAZELLE, is_piece, kind_of
from games.droles_de_zebres.pieces_board import LINE_SQUARES, PATH_LENGTH, SQUARE_INDEX, line_label
from games.droles_de_zebres.state import (
    CROCODILE,
    FIRST,
    GUARDIAN,
    MOVE,
    OVER,
    PLACE,
    DdzState,
    board_of,
    face_up_gazelle,
    line_open,
    seat_of,
)
from games.droles_de_zebres.texts import REFUSALS

# action type -> (its fields besides "type", the phase in which it is played)
ACTION_FIELDS: Final = {
    "first_player": (("seat",), FIRST),
    "guardian": (("position",), GUARDIAN),
    "place": (("piece", "square"), PLACE),
    "swap": (("square",), CROCODILE),
    "stop": ((), CROCODILE),
    "move": (("steps",), MOVE),
}
MAX_STEPS: Final = 3
# each type's exact keys, compared in one step with the action's keys
_KEYS: Final = {kind: frozenset({"type", *fields}) for kind, (fields, _) in ACTION_FIELDS.items()}
# to_act's answers, made once: it is asked several times on every move
_CHANCE_ONLY: Final = frozenset({CHANCE})
_BOTH: Final = frozenset({0, 1})
_ALONE: Final = (frozenset({0}), frozenset({1}))
_NOBODY: Final = frozenset[int]()
# from each guardian position, the 1-3 steps ahead and a getter of the cells of the line faced
# there (the first square twice: an itemgetter of one index would return a cell, not a tuple)
_AHEAD: Final = tuple(tuple((k, itemgetter(*LINE_SQUARES[(g + k) % PATH_LENGTH], LINE_SQUARES[(g + k) % PATH_LENGTH][0]))
                            for k in range(1, MAX_STEPS + 1)) for g in range(PATH_LENGTH))
_TAKEN: Final = partial(is_not, None)


def to_act(state: DdzState) -> frozenset[int]:
    """Seats that may act now."""
    phase = state.phase
    if phase == FIRST:
        return _CHANCE_ONLY
    if phase == GUARDIAN:
        return _BOTH if state.first is None else _ALONE[state.first]
    if phase == OVER or state.turn is None:
        return _NOBODY
    return _ALONE[state.turn]


def swap_targets(state: DdzState, croc: int, swapped: tuple[str, ...]) -> tuple[int, ...]:
    """Squares of face-up gazelles across a river from `croc` not yet swapped this turn."""
    return tuple(j for j in board_of(state).across[croc]
                 if face_up_gazelle(state, j) and state.cells[j].piece not in swapped)  # type: ignore[union-attr]


def guardian_steps(state: DdzState) -> tuple[int, ...]:
    """The 1/2/3-step moves after which the faced line still has an empty square."""
    assert state.guardian is not None
    cells = state.cells
    return tuple([k for k, line in _AHEAD[state.guardian] if not all(map(_TAKEN, line(cells)))])


def forced_position(state: DdzState) -> int | None:
    """Where the guardian goes without a choice (one valid step, or a jump past full lines).

    None when the player has a real choice (two or three valid steps) or the board is full.
    """
    assert state.guardian is not None
    steps = guardian_steps(state)
    if len(steps) == 1:
        return (state.guardian + steps[0]) % PATH_LENGTH
    if steps:
        return None
    for k in range(MAX_STEPS + 1, PATH_LENGTH + 1):
        position = (state.guardian + k) % PATH_LENGTH
        if line_open(state, position):
            return position
    return None


def legal_actions(state: DdzState, seat: int) -> list[Action]:
    """Every action `seat` may take now."""
    if seat == CHANCE or seat not in to_act(state):
        return []
    if state.phase == GUARDIAN:
        return [{"type": "guardian", "position": p} for p in range(PATH_LENGTH)]
    if state.phase == PLACE:
        assert state.guardian is not None
        cells = state.cells
        squares = [SQUARES[i] for i in LINE_SQUARES[state.guardian] if cells[i] is None]
        return [{"type": "place", "piece": piece, "square": square}
                for piece in state.reserves[seat] for square in squares]
    if state.phase == CROCODILE:
        assert state.croc is not None
        swaps: list[Action] = [{"type": "swap", "square": SQUARES[j]}
                               for j in swap_targets(state, state.croc, state.swapped)]
        return [*swaps, {"type": "stop"}]
    if state.phase == MOVE:
        return [{"type": "move", "steps": k} for k in guardian_steps(state)]
    return []


def chance_outcomes(state: DdzState) -> list[tuple[Action, float]]:
    """Who places the guardian, when the first player is drawn at random."""
    if state.phase != FIRST:
        return []
    return [({"type": "first_player", "seat": 0}, 0.5), ({"type": "first_player", "seat": 1}, 0.5)]


def check(state: DdzState, seat: int, action: Action) -> Rejection | None:
    """None if `action` is legal for `seat` now, else the precise reason."""
    if seat not in to_act(state):
        return REFUSALS("not_your_turn")
    if seat == CHANCE:
        return None if any(a == action for a, _ in chance_outcomes(state)) else REFUSALS("bad_chance")
    # a plain dict first: the ABC check of Mapping costs more than the rest on a legal move
    if not (type(action) is dict or isinstance(action, Mapping)) or not isinstance(action.get("type"), str):
        return REFUSALS("bad_action:unreadable")
    kind = action["type"]
    spec = ACTION_FIELDS.get(kind)
    if spec is None or kind == "first_player":
        return REFUSALS("bad_action:unknown")
    if action.keys() != _KEYS[kind]:
        return REFUSALS("bad_action:malformed")
    if state.phase != spec[1]:
        return REFUSALS(f"wrong_phase:{state.phase}")
    if kind == "guardian":
        return _check_guardian(action["position"])
    if kind == "place":
        return _check_place(state, seat, action["piece"], action["square"])
    if kind == "swap":
        return _check_swap(state, action["square"])
    if kind == "move":
        return _check_move(state, action["steps"])
    return None  # "stop": always allowed while the crocodile may swap


def _check_guardian(position: Any) -> Rejection | None:
    if not is_int(position) or not 0 <= position < PATH_LENGTH:
        return REFUSALS("bad_position", last=PATH_LENGTH - 1)
    return None


def _square(value: Any) -> int | None:
    return SQUARE_INDEX.get(value) if isinstance(value, str) else None


def _check_place(state: DdzState, seat: int, piece: Any, square: Any) -> Rejection | None:
    if not is_piece(piece):
        return REFUSALS("unknown_piece")
    if seat_of(state, piece) != seat:
        return REFUSALS("not_your_piece")
    if piece not in state.reserves[seat]:
        return REFUSALS("not_in_reserve")
    index = _square(square)
    if index is None:
        return REFUSALS("bad_square")
    if state.cells[index] is not None:
        return REFUSALS("square_taken", square=square)
    assert state.guardian is not None
    if index not in LINE_SQUARES[state.guardian]:
        return REFUSALS("off_line", square=square, line=line_label(state.guardian))
    return None


def _check_swap(state: DdzState, square: Any) -> Rejection | None:
    index = _square(square)
    if index is None:
        return REFUSALS("bad_square")
    assert state.croc is not None
    cell = state.cells[index]
    if cell is None or kind_of(cell.piece) != GAZELLE:
        return REFUSALS("no_gazelle", square=square)
    if not cell.face_up:
        return REFUSALS("gazelle_hidden")
    if index not in board_of(state).across[state.croc]:
        return REFUSALS("not_across_river", square=square)
    if cell.piece in state.swapped:
        return REFUSALS("already_swapped")
    return None


def _check_move(state: DdzState, steps: Any) -> Rejection | None:
    if not is_int(steps) or not 1 <= steps <= MAX_STEPS:
        return REFUSALS("bad_steps")
    assert state.guardian is not None
    position = (state.guardian + steps) % PATH_LENGTH
    if not line_open(state, position):
        return REFUSALS("line_full", line=line_label(position))
    return None
