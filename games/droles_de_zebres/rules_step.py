"""The step of an action: the next state worked out now, the effects when first read.

Replays, searches and random playouts fold `apply` over many moves and read only the states; the
table reads every step's effects. So the placements, the guardian's moves and the end of the
swaps build their next state here, and what the table says about them is made by
`rules_transition.transition` from the state before, on the first read of `Step.effects`: the same
effects, texts and audiences as if built at once. The rare moves (the first player, the guardian's
placement, a crocodile's swap) are built whole by `rules_transition`.
"""

from __future__ import annotations

from itertools import repeat
from operator import call, itemgetter
from typing import Any, Final

from games.core import CHANCE, SQUARES, Action, Effect, Step
from games.droles_de_zebres import rules, rules_transition
from games.droles_de_zebres.pieces import ALL_PIECES, CROCODILE, GAZELLE, LION, ZEBRA, kind_of, sort_pieces
from games.droles_de_zebres.pieces_board import NEIGHBOURS, PATH_LENGTH, SQUARE_INDEX
from games.droles_de_zebres.rules import MOVE_ACTIONS, PLACE_ACTIONS, forced_position
from games.droles_de_zebres.scoring import territory_getters
from games.droles_de_zebres.state import CROCODILE as CROC_PHASE
from games.droles_de_zebres.state import MOVE, OVER, PLACE, DdzState, Token, board_of, seat_of

# the tokens are immutable values: one of each (animal, side up), shared by every state
_TOKENS: Final = {(piece, face_up): Token(piece, face_up) for piece in ALL_PIECES for face_up in (True, False)}
_HIDES: Final = frozenset(p for p in ALL_PIECES if kind_of(p) in (ZEBRA, GAZELLE))
_ZEBRAS: Final = frozenset(p for p in ALL_PIECES if kind_of(p) == ZEBRA)
_LIONS: Final = frozenset(p for p in ALL_PIECES if kind_of(p) == LION)
_GAZELLES: Final = frozenset(p for p in ALL_PIECES if kind_of(p) == GAZELLE)
_CROCODILES: Final = frozenset(p for p in ALL_PIECES if kind_of(p) == CROCODILE)
# from each guardian position, a getter of the cells of the line faced 1, 2 and 3 steps ahead
_AHEAD: Final = tuple(tuple(getter for _, getter in ahead) for ahead in rules.AHEAD)
_STOP: Final = {"type": "stop"}
# a new object's fields set by one copy of a dict, not an update of an empty one, nor a frozen
# dataclass's __init__ (each field through object.__setattr__)
_SET: Final = object.__setattr__
# each square's neighbours' cells in one C call (the first twice: one index would give a cell)
_NEAR: Final = tuple(itemgetter(*near, near[0]) for near in NEIGHBOURS)


class LazyStep(Step[DdzState]):
    """A step whose effects are made by the full transition from the state before, when first read."""

    @property
    def effects(self) -> tuple[Effect, ...]:
        """The effects of the action, made once on the first read."""
        fields = self.__dict__
        made: tuple[Effect, ...] | None = fields.get("_effects")  # not a KeyError caught: read once per move
        if made is None:
            made = fields["_effects"] = rules_transition.transition(*fields["_args"]).effects
        return made

    @effects.setter
    def effects(self, value: tuple[Effect, ...]) -> None:
        # the dataclass __init__ (dataclasses.replace) sets the field through object.__setattr__
        self.__dict__["_effects"] = value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return (self.state, self.effects) == (other.state, other.effects)

    __hash__ = Step.__hash__


def _lazy(state: DdzState, before: DdzState, seat: int, action: Action) -> Step[DdzState]:
    # the action is one of the rules' own (never handed out): the caller's may change later
    step = object.__new__(LazyStep)
    _SET(step, "__dict__", {"state": state, "_args": (before, seat, action)})
    return step


def transition(state: DdzState, seat: int, action: Action) -> Step[DdzState]:
    """Apply an action already checked legal: the next state now, its effects when read."""
    kind = action["type"]
    if seat != CHANCE:
        if kind == "place":
            piece = action["piece"]
            index = SQUARE_INDEX[action["square"]]
            return _lazy(_place(state, seat, piece, index), state, seat, PLACE_ACTIONS[piece][index])
        if kind == "move":  # the next player places, where the guardian now looks
            steps = action["steps"]
            fields = state.__dict__.copy()
            fields["phase"] = PLACE
            fields["guardian"] = (state.guardian + int(steps)) % PATH_LENGTH  # type: ignore[operator]
            fields["turn"] = seat if not state.reserves[1 - seat] else 1 - seat
            new = object.__new__(DdzState)
            _SET(new, "__dict__", fields)
            return _lazy(new, state, seat, MOVE_ACTIONS[steps])
        if kind == "stop":
            new, fields = _copy(state)
            return _lazy(_end_turn(new, seat, fields), state, seat, _STOP)
    return rules_transition.transition(state, seat, action)


def _copy(state: DdzState) -> tuple[DdzState, dict[str, Any]]:
    """A new state equal to `state`, and its fields to change before anyone else sees it."""
    fields = state.__dict__.copy()
    new = object.__new__(DdzState)
    _SET(new, "__dict__", fields)
    return new, fields


def _place(state: DdzState, seat: int, piece: str, index: int) -> DdzState:
    """The state after placing an animal (as rules_transition._place): a lion's roar, a crocodile
    that may swap, or the end of the turn."""
    cells = list(state.cells)
    reserves = state.reserves
    mine = list(reserves[seat])
    mine.remove(piece)  # a sorted reserve stays sorted without one of its animals
    kept = (tuple(mine), reserves[1]) if seat == 0 else (reserves[0], tuple(mine))
    moved: tuple[tuple[str, str, str | None], ...] = ()
    if piece in _LIONS:
        cells[index] = _TOKENS[piece, True]
        kept, moved = _roar(state, cells, kept, index)
    else:
        face_up = True
        if piece in _HIDES:
            for cell in _NEAR[index](cells):
                if cell is not None and cell.piece in _LIONS:
                    face_up = False
                    break
        cells[index] = _TOKENS[piece, face_up]
    fields = state.__dict__.copy()
    fields["cells"] = tuple(cells)
    fields["reserves"] = kept
    fields["moved"] = moved
    new = object.__new__(DdzState)
    _SET(new, "__dict__", fields)
    if piece in _CROCODILES:
        for j in board_of(state).across[index]:
            cell = cells[j]
            if cell is not None and cell.face_up and cell.piece in _GAZELLES:
                fields["phase"] = CROC_PHASE
                fields["croc"] = index
                fields["swapped"] = ()
                return new
    return _end_turn(new, seat, fields)


def _roar(state: DdzState, cells: list[Token | None], kept: tuple[tuple[str, ...], tuple[str, ...]],
          index: int) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], tuple[tuple[str, str, str | None], ...]]:
    """A new lion's neighbours (as rules_transition._lion_roars): face-up zebras turned face down,
    every gazelle sent back in front of its owner; the reserves and what fled."""
    reserves = [list(kept[0]), list(kept[1])]
    fled = []
    for j in NEIGHBOURS[index]:
        cell = cells[j]
        if cell is None:
            continue
        if cell.piece in _ZEBRAS:
            if cell.face_up:
                cells[j] = _TOKENS[cell.piece, False]
        elif cell.piece in _GAZELLES:
            cells[j] = None
            reserves[seat_of(state, cell.piece)].append(cell.piece)
            fled.append((cell.piece, SQUARES[j], None))
    return (sort_pieces(reserves[0]), sort_pieces(reserves[1])), tuple(fled)


def _end_turn(new: DdzState, seat: int, fields: dict[str, Any]) -> DdzState:
    """The state at the end of `seat`'s turn (as rules_transition._end_turn): the inauguration,
    the end of the game, the guardian's move to choose, or its forced move and the next player.
    `fields` is `new`'s own dict, changed in place: nobody else has seen `new` yet."""
    state = new
    fields["croc"] = None
    fields["swapped"] = ()
    fields["turns"] = state.turns + 1
    cells = state.cells
    if state.inauguration is None and any(map(all, map(call, territory_getters(state.board), repeat(cells)))):
        fields["inauguration"] = seat
    if all(cells):  # the board is full (a Token is true, an empty square None)
        fields["phase"] = OVER
        fields["turn"] = None
        return new
    guardian = state.guardian
    assert guardian is not None
    ahead1, ahead2, ahead3 = _AHEAD[guardian]
    open1 = not all(ahead1(cells))  # a Token is true, an empty square None
    open2 = not all(ahead2(cells))
    open3 = not all(ahead3(cells))
    if open1 + open2 + open3 > 1:
        fields["phase"] = MOVE
        fields["turn"] = seat
        return new
    if open1 or open2 or open3:
        position = (guardian + (1 if open1 else 2 if open2 else 3)) % PATH_LENGTH
    else:
        forced = forced_position(state)
        assert forced is not None  # a board not full has an open line
        position = forced
    fields["phase"] = PLACE
    fields["guardian"] = position
    fields["turn"] = seat if not state.reserves[1 - seat] else 1 - seat
    return new
