"""The physical table: where each tagged animal should lie, gestures, button menus, labels."""

from __future__ import annotations

import json

from games.core import SQUARES, Action, Choice, Layout, Rejection, Text, tr
from games.droles_de_zebres.pieces import COLOUR_LABEL, KINDS, colour_of, is_piece, kind_of, piece_label
from games.droles_de_zebres.pieces_board import PATH_LENGTH, SQUARE_INDEX, line_label, position_label
from games.droles_de_zebres.rules import check, legal_actions, swap_targets
from games.droles_de_zebres.state import CROCODILE, GUARDIAN, MOVE, PLACE, DdzState, empty_in_line
from games.droles_de_zebres.texts import LABELS, REFUSALS


def expected_layout(state: DdzState) -> dict[str, frozenset[str]]:
    """Each occupied square and its animal; reserves lie off the board (no antenna)."""
    return {SQUARES[i]: frozenset({c.piece}) for i, c in enumerate(state.cells) if c is not None}


def footprint(state: DdzState, seat: int, action: Action) -> Layout:
    """The board right after the player's own gesture, before the lion's or forced effects.

    place: the animal appears on its square (fleeing gazelles are still there: their removal is
    guidance afterwards). swap: the crocodile and the gazelle exchange squares. Button actions
    (guardian, move, stop) leave the board as it is.
    """
    layout = expected_layout(state)
    kind = action.get("type")
    if kind == "place" and action.get("square") in SQUARE_INDEX and isinstance(action.get("piece"), str):
        layout[action["square"]] = frozenset({action["piece"]})
    elif kind == "swap" and state.croc is not None and action.get("square") in SQUARE_INDEX:
        gazelle = state.cells[SQUARE_INDEX[action["square"]]]
        crocodile = state.cells[state.croc]
        if gazelle is not None and crocodile is not None:
            layout[SQUARES[state.croc]] = frozenset({gazelle.piece})
            layout[action["square"]] = frozenset({crocodile.piece})
    return layout


def describe_action(state: DdzState, seat: int, action: Action) -> Text:
    """A short label for an action (menu entry, log line); raw JSON for a malformed one."""
    try:
        return _describe(state, action)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        text = json.dumps(dict(action), ensure_ascii=False, sort_keys=True, default=str)
        return tr(text, text)


def _describe(state: DdzState, action: Action) -> Text:
    kind = action.get("type")
    if kind == "guardian":
        return position_label(int(action["position"]))
    if kind == "place":
        return LABELS("place", piece=piece_label(action["piece"], article=False), square=action["square"])
    if kind == "swap":
        return LABELS("swap", square=action["square"])
    if kind == "stop":
        return LABELS("stop_swapping" if state.swapped else "no_swap")
    if kind == "move":
        steps = int(action["steps"])
        assert state.guardian is not None
        return LABELS("move", steps=steps, line=line_label((state.guardian + steps) % PATH_LENGTH))
    if kind == "first_player":
        return LABELS("first_player", colour=COLOUR_LABEL[state.colours[int(action["seat"])]])
    return tr(str(kind), str(kind))


def choices(state: DdzState, seat: int) -> list[Choice]:
    """The button menu: guardian position or move, crocodile swaps (or doing them by hand)."""
    if state.phase not in (GUARDIAN, CROCODILE, MOVE):
        return []  # placing is done by laying the tagged animal on its square
    return [Choice(describe_action(state, seat, a), a) for a in legal_actions(state, seat)]


def highlights(state: DdzState) -> dict[str, str]:
    """LED hints: the guarded line's free squares; the crocodile and the gazelles it may swap with."""
    if state.phase == PLACE and state.guardian is not None:
        return {SQUARES[i]: "green" for i in empty_in_line(state, state.guardian)}
    if state.phase == CROCODILE and state.croc is not None:
        out = {SQUARES[j]: "blue" for j in swap_targets(state, state.croc, state.swapped)}
        out[SQUARES[state.croc]] = "yellow"
        return out
    return {}


def effect(state: DdzState, zone: str, piece: str, lifted: bool) -> Rejection | None:
    """The effect that moves `piece` off `zone` (`lifted`) or onto it since the last placement: a
    gazelle that fled the lion, or a crocodile swap (which animal goes where), else None."""
    if not is_piece(piece) or not any(p == piece and (start == zone if lifted else True) for p, start, _ in state.moved):
        return None
    now = next((SQUARES[i] for i, c in enumerate(state.cells) if c is not None and c.piece == piece), None)
    if now is None:
        return REFUSALS("fled", c=COLOUR_LABEL[colour_of(piece)])
    if not lifted and now != zone:
        return None
    return REFUSALS("swap_moves", p="elle" if KINDS[kind_of(piece)].feminine else "il", s=now)


def explain(state: DdzState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a sensed animal on `zone` is no legal gesture of `seat` (for that seat's screen)."""
    if zone not in SQUARE_INDEX:
        return REFUSALS("off_board")
    if state.phase == CROCODILE and state.croc is not None and is_piece(piece):
        crocodile = state.cells[state.croc]
        if crocodile is not None and piece == crocodile.piece:
            return check(state, seat, {"type": "swap", "square": zone})
        if zone == SQUARES[state.croc]:  # a gazelle brought onto the crocodile's square
            origin = next((SQUARES[i] for i, c in enumerate(state.cells) if c is not None and c.piece == piece), None)
            if origin is not None:
                return check(state, seat, {"type": "swap", "square": origin})
    return check(state, seat, {"type": "place", "piece": piece, "square": zone})

