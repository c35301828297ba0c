"""Which actions are legal, and why an action is refused (stable codes, short FR/EN messages)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import chain
from operator import itemgetter
from typing import Any, Final

from games.core import CHANCE, SQUARES, Action, Rejection, is_int
from games.droles_de_zebres.pieces import ALL_PIECES, COLOURS, GAZELLE, colour_pieces, is_piece, kind_of
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
AHEAD: Final = tuple(tuple((k, itemgetter(*LINE_SQUARES[(g + k) % PATH_LENGTH], LINE_SQUARES[(g + k) % PATH_LENGTH][0]))
                            for k in range(1, MAX_STEPS + 1)) for g in range(PATH_LENGTH))


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
    (k1, ahead1), (k2, ahead2), (k3, ahead3) = AHEAD[state.guardian]
    # a line is open when not all its cells hold a Token (a Token is true, an empty square None)
    if all(ahead1(cells)):
        if all(ahead2(cells)):
            return () if all(ahead3(cells)) else (k3,)
        return (k2,) if all(ahead3(cells)) else (k2, k3)
    if all(ahead2(cells)):
        return (k1,) if all(ahead3(cells)) else (k1, k3)
    return (k1, k2) if all(ahead3(cells)) else (k1, k2, k3)


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


# every action a legal list may hold, made once and never handed out: a list is made of fresh
# copies (callers may keep or change theirs), one C call each where a dict display runs bytecode
PLACE_ACTIONS: Final = {piece: tuple({"type": "place", "piece": piece, "square": square} for square in SQUARES)
                         for piece in ALL_PIECES}
MOVE_ACTIONS: Final = {k: {"type": "move", "steps": k} for k in range(1, MAX_STEPS + 1)}
_COPY: Final = dict.copy
_OWN: Final = {colour: frozenset(colour_pieces(colour)) for colour in COLOURS}  # each colour's animals


def legal_actions(state: DdzState, seat: int) -> list[Action]:
    """Every action `seat` may take now."""
    phase = state.phase
    if phase == PLACE:
        if seat != state.turn or state.guardian is None:
            return []
        cells = state.cells
        empty = [i for i in LINE_SQUARES[state.guardian] if cells[i] is None]
        if not empty:
            return []
        actions = map(PLACE_ACTIONS.__getitem__, state.reserves[seat])
        if len(empty) == 1:
            return list(map(_COPY, map(itemgetter(empty[0]), actions)))
        return list(map(_COPY, chain.from_iterable(map(itemgetter(*empty), actions))))
    if phase == MOVE:
        if seat != state.turn:
            return []
        return list(map(_COPY, map(MOVE_ACTIONS.__getitem__, guardian_steps(state))))
    if seat == CHANCE or seat not in to_act(state):
        return []
    if phase == GUARDIAN:
        return [{"type": "guardian", "position": p} for p in range(PATH_LENGTH)]
    if phase == CROCODILE:
        assert state.croc is not None
        swaps: list[Action] = [{"type": "swap", "square": SQUARES[j]}
                               for j in swap_targets(state, state.croc, state.swapped)]
        return [*swaps, {"type": "stop"}]
    return []


def random_legal_action(state: DdzState, seat: int, rng: random.Random) -> Action | None:
    """`rng.choice(legal_actions(state, seat))` from the same random number (None: no action); a
    placement is taken at the drawn index of that list's order (animal by animal, each over the
    line's empty squares) without making the list: a random playout's most frequent move; a
    guardian's move among its steps."""
    if state.phase == PLACE and seat == state.turn and state.guardian is not None:
        cells = state.cells
        empty = [i for i in LINE_SQUARES[state.guardian] if cells[i] is None]
        pieces = state.reserves[seat]
        if empty and pieces:
            piece, square = divmod(rng.choice(range(len(pieces) * len(empty))), len(empty))
            return _COPY(PLACE_ACTIONS[pieces[piece]][empty[square]])
    elif state.phase == MOVE and seat == state.turn:
        steps = guardian_steps(state)
        return _COPY(MOVE_ACTIONS[rng.choice(steps)]) if steps else None
    legal = legal_actions(state, seat)
    return rng.choice(legal) if legal else None


def chance_outcomes(state: DdzState) -> list[tuple[Action, float]]:
    """Who places the guardian, when the first player is drawn at random."""
    if state.phase != FIRST:
        return []
    return [({"type": "first_player", "seat": 0}, 0.5), ({"type": "first_player", "seat": 1}, 0.5)]


def check(state: DdzState, seat: int, action: Action) -> Rejection | None:
    """None if `action` is legal for `seat` now, else the precise reason."""
    if type(action) is dict and seat == state.turn and plainly_legal(state, seat, action):
        return None
    return _reason(state, seat, action)


def plainly_legal(state: DdzState, seat: int, action: dict[str, Any]) -> bool:
    """True for a well-formed placement or guardian move that is legal now: most actions checked
    are (every move of a replay or a playout); anything else is judged by `_reason`."""
    kind = action.get("type")
    if kind == "place":
        if len(action) != 3 or state.phase != PLACE:
            return False
        piece = action.get("piece")
        square = action.get("square")
        if type(piece) is not str or type(square) is not str:
            return False
        index = SQUARE_INDEX.get(square)
        return (index is not None and state.cells[index] is None and state.guardian is not None
                and index in LINE_SQUARES[state.guardian] and piece in state.reserves[seat]
                and piece in _OWN[state.colours[seat]])
    if kind == "move":
        steps = action.get("steps")
        return (len(action) == 2 and state.phase == MOVE and type(steps) is int and 1 <= steps <= MAX_STEPS
                and state.guardian is not None and line_open(state, (state.guardian + steps) % PATH_LENGTH))
    return False


def _reason(state: DdzState, seat: int, action: Action) -> Rejection | None:
    """None if `action` is legal for `seat` now, else the first reason it is not."""
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
