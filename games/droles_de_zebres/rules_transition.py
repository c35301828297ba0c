"""State transitions: placing animals, the lion and crocodile effects, ending a turn, the guardian."""

from __future__ import annotations

from functools import cache

from games.core import CHANCE, SQUARES, Action, Effect, Step, Text
from games.droles_de_zebres.pieces import (
    COLOUR_LABEL,
    CROCODILE,
    GAZELLE,
    LION,
    ZEBRA,
    capitalise,
    kind_of,
    piece_label,
    sort_pieces,
)
from games.droles_de_zebres.pieces_board import NEIGHBOURS, PATH_LENGTH, SQUARE_INDEX, line_id, line_label
from games.droles_de_zebres.rules import forced_position, guardian_steps, swap_targets
from games.droles_de_zebres.scoring import INAUGURATION_BONUS, full_territories, totals, winners_of
from games.droles_de_zebres.state import (
    CROCODILE as CROC_PHASE,
)
from games.droles_de_zebres.state import (
    GUARDIAN,
    MOVE,
    OVER,
    PLACE,
    DdzState,
    Token,
    board_full,
    hides_near_lion,
    lion_next_to,
    next_player,
    other,
    seat_of,
)
from games.droles_de_zebres.state import evolve as replace
from games.droles_de_zebres.texts import MESSAGES


def transition(state: DdzState, seat: int, action: Action) -> Step[DdzState]:
    """Apply an action already checked legal; returns the new state and its effects."""
    kind = action["type"]
    if seat == CHANCE:
        first = int(action["seat"])
        return Step(replace(state, phase=GUARDIAN, first=first),
                    (_message("first", MESSAGES("first", c=_colour(state, first))),))
    if kind == "guardian":
        return _place_guardian(state, seat, int(action["position"]))
    if kind == "place":
        return _place(state, seat, action["piece"], SQUARE_INDEX[action["square"]])
    if kind == "swap":
        return _swap(state, seat, SQUARE_INDEX[action["square"]])
    if kind == "stop":
        return _end_turn(state, seat, ())
    if kind == "move":
        position = (state.guardian + int(action["steps"])) % PATH_LENGTH  # type: ignore[operator]
        return _guardian_moved(state, seat, position, int(action["steps"]), forced=False, effects=())
    raise AssertionError(f"unchecked action {action!r}")  # check() refuses every other type


def _colour(state: DdzState, seat: int) -> Text:
    """A seat's colour name in both languages ("Blanc" / "White")."""
    return COLOUR_LABEL[state.colours[seat]]


@cache
def _guardian_text(forced: bool, position: int) -> Text:
    """Where the guardian now looks (44 texts, made once: one is said after every move)."""
    return MESSAGES("guardian_forced" if forced else "guardian_faces", l=line_label(position))


@cache
def _move_text(steps: tuple[int, ...]) -> Text:
    """The steps the guardian may take (a handful of texts, made once)."""
    return MESSAGES("move", s="/".join(str(k) for k in steps))


def _token(piece: str, face_up: bool) -> Token:
    token = object.__new__(Token)
    token.__dict__.update(piece=piece, face_up=face_up)  # as in _message
    return token


def _step(state: DdzState, effects: tuple[Effect, ...]) -> Step[DdzState]:
    step: Step[DdzState] = object.__new__(Step)
    step.__dict__.update(state=state, effects=effects)  # as in _message: one update, not two __setattr__
    return step


def _message(kind: str, text: Text, audience: frozenset[int] | None = None,
             data: dict[str, object] | None = None) -> Effect:
    # the fields set in one dict update, as games.core.evolve does: a frozen dataclass's __init__
    # sets them one by one through object.__setattr__, a tenth of a random playout's time
    effect = object.__new__(Effect)
    effect.__dict__.update(kind=kind, text=text, audience=audience, data=data or {})
    return effect


def _place_guardian(state: DdzState, seat: int, position: int) -> Step[DdzState]:
    new = replace(state, phase=PLACE, guardian=position, first=seat, turn=other(seat))
    eff = _message("guardian", MESSAGES("guardian_placed", l=line_label(position), c=_colour(state, other(seat))),
                   data={"position": position, "line": line_id(position), "steps": 0, "forced": False})
    return _step(new, (eff,))


def _place(state: DdzState, seat: int, piece: str, index: int) -> Step[DdzState]:
    cells = list(state.cells)
    mine = list(state.reserves[seat])
    mine.remove(piece)  # a sorted reserve stays sorted without one of its animals
    square = SQUARES[index]
    face_up = not (hides_near_lion(piece) and lion_next_to(state, index))
    cells[index] = _token(piece, face_up)
    effects: list[Effect] = []
    if not face_up:
        effects.append(_message("face_down", MESSAGES("face_down", p=piece_label(piece), s=square),
                                data={"square": square, "piece": piece}))
    kind = kind_of(piece)
    fled: list[tuple[str, str, str | None]] = []
    if kind == LION:
        reserves = [list(state.reserves[0]), list(state.reserves[1])]
        reserves[seat] = mine
        effects.extend(_lion_roars(state, cells, reserves, index, fled))
        kept = (sort_pieces(reserves[0]), sort_pieces(reserves[1]))  # gazelles came home
    else:
        kept = (tuple(mine), state.reserves[1]) if seat == 0 else (state.reserves[0], tuple(mine))
    new = replace(state, cells=tuple(cells), reserves=kept, moved=tuple(fled))
    if kind == CROCODILE and swap_targets(new, index, ()):
        new = replace(new, phase=CROC_PHASE, croc=index, swapped=())
        effects.append(_croc_prompt(new, seat, index))
        return _step(new, tuple(effects))
    return _end_turn(new, seat, tuple(effects))


def _lion_roars(state: DdzState, cells: list[Token | None], reserves: list[list[str]],
                index: int, fled: list[tuple[str, str, str | None]]) -> list[Effect]:
    """A new lion hides its face-up zebra neighbours and sends every neighbouring gazelle home
    (each one added to `fled`).

    Face-down gazelles flee too: the rulebook's lion sets no face-up condition ("Any Gazelles
    present there comes back to their owners"); only the crocodile ignores hidden gazelles.
    """
    effects = []
    for j in NEIGHBOURS[index]:
        cell = cells[j]
        if cell is None:
            continue
        kind = kind_of(cell.piece)
        square = SQUARES[j]
        if kind == ZEBRA and cell.face_up:  # a hidden zebra is already hidden: nothing to do
            cells[j] = _token(cell.piece, False)
            effects.append(_message("flip", MESSAGES("flip", p=piece_label(cell.piece), s=square),
                                    data={"square": square, "piece": cell.piece, "face_up": False}))
        elif kind == GAZELLE:
            owner = seat_of(state, cell.piece)
            cells[j] = None
            reserves[owner].append(cell.piece)
            fled.append((cell.piece, square, None))
            effects.append(_message("return", MESSAGES("return", p=capitalise(piece_label(cell.piece)), s=square,
                                                       c=_colour(state, owner)),
                                    data={"square": square, "piece": cell.piece, "seat": owner}))
    return effects


def _croc_prompt(state: DdzState, seat: int, croc: int) -> Effect:
    targets = [SQUARES[j] for j in swap_targets(state, croc, state.swapped)]
    return _message("crocodile", MESSAGES("crocodile", t=" ".join(targets)),
                    frozenset({seat}), {"square": SQUARES[croc], "targets": targets})


def _swap(state: DdzState, seat: int, target: int) -> Step[DdzState]:
    assert state.croc is not None
    croc = state.croc
    gazelle = state.cells[target]
    crocodile = state.cells[croc]
    assert gazelle is not None and crocodile is not None
    # The gazelle lands where the crocodile was: next to a lion it hides, as when placed there.
    face_up = not lion_next_to(state, croc)
    cells = list(state.cells)
    cells[croc] = _token(gazelle.piece, face_up)
    cells[target] = crocodile
    swapped = (*state.swapped, gazelle.piece)
    moved = (*state.moved, (gazelle.piece, SQUARES[target], SQUARES[croc]),
             (crocodile.piece, SQUARES[croc], SQUARES[target]))
    new = replace(state, cells=tuple(cells), croc=target, swapped=swapped, moved=moved)
    text = MESSAGES("swap", c=piece_label(crocodile.piece, article=False), a=SQUARES[croc],
                    g=piece_label(gazelle.piece, article=False), b=SQUARES[target])
    effects = [_message("swap", text, data={"crocodile": crocodile.piece, "gazelle": gazelle.piece,
                                            "from": SQUARES[croc], "to": SQUARES[target]})]
    if not face_up:
        effects.append(_message("face_down", MESSAGES("swap_face_down", p=capitalise(piece_label(gazelle.piece)),
                                                      s=SQUARES[croc]),
                                data={"square": SQUARES[croc], "piece": gazelle.piece}))
    if swap_targets(new, target, swapped):
        effects.append(_croc_prompt(new, seat, target))
        return _step(new, tuple(effects))
    return _end_turn(new, seat, tuple(effects))


def _end_turn(state: DdzState, seat: int, effects: tuple[Effect, ...]) -> Step[DdzState]:
    """After the placement and its effects: inauguration, end of game, or the guardian's move."""
    # the changes are gathered and the state rebuilt once: this runs on every move of every playout
    changes: dict[str, object] = {"croc": None, "swapped": (), "turns": state.turns + 1}
    out = list(effects)
    if state.inauguration is None:
        full = full_territories(state)
        if full:
            changes["inauguration"] = seat
            out.append(_message("inauguration", MESSAGES("inauguration", b=INAUGURATION_BONUS, c=_colour(state, seat)),
                                data={"seat": seat, "territories": list(full)}))
    if board_full(state):
        new = replace(state, phase=OVER, turn=None, **changes)
        scores = totals(new)
        out.append(_message("game_over", MESSAGES("game_over", a=_colour(new, 0), x=scores[0],
                                                  b=_colour(new, 1), y=scores[1]),
                            data={"scores": [float(scores[0]), float(scores[1])],
                                  "winners": list(winners_of(scores))}))
        return _step(new, tuple(out))
    assert state.guardian is not None
    steps = guardian_steps(state)
    if len(steps) > 1:
        new = replace(state, phase=MOVE, turn=seat, **changes)
        out.append(_message("move", _move_text(steps),
                            frozenset({seat}), {"steps": list(steps)}))
        return _step(new, tuple(out))
    position = (state.guardian + steps[0]) % PATH_LENGTH if steps else forced_position(state)
    assert position is not None  # a board not full has an open line
    return _guardian_moved(state, seat, position, (position - state.guardian) % PATH_LENGTH, forced=True,
                           effects=tuple(out), changes=changes)


def _guardian_moved(state: DdzState, seat: int, position: int, steps: int, forced: bool,
                    effects: tuple[Effect, ...], changes: dict[str, object] | None = None) -> Step[DdzState]:
    nxt = next_player(state, seat)
    new = replace(state, phase=PLACE, guardian=position, turn=nxt, **(changes or {}))
    out = [*effects, _message("guardian", _guardian_text(forced, position), data={"position": position, "line": line_id(position),
                                                      "steps": steps, "forced": forced})]
    if nxt == seat:
        out.append(_message("pass", MESSAGES("pass", o=_colour(state, other(seat)), c=_colour(state, seat)),
                            data={"seat": other(seat)}))
    return _step(new, tuple(out))
