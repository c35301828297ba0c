"""The physical table: tagged document cards on the seat pads, button menus, labels, LEDs.

A reader lays a card on their pad to choose it; it stays there while documents are prepared,
then readers take it in hand to read it (no piece is expected during the transmission).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, Choice, Layout, Rejection, Text, pad
from games.operation_zebre.pieces import GameData, card_of, piece_id, piece_label
from games.operation_zebre.rules import candidates, check, to_act
from games.operation_zebre.rules_prepare import check_prepare, may_volunteer, visible_lines
from games.operation_zebre.rules_variants import mission_slots
from games.operation_zebre.state import INITIAL_HINT_TICKS, PREPARE, TRANSMIT, OZState, Reading, reading_of
from games.operation_zebre.texts import LABELS, MESSAGES, REFUSALS


def expected_layout(state: OZState) -> dict[str, frozenset[str]]:
    """Cards lie on their reader's pad while documents are prepared; nothing otherwise."""
    if state.phase != PREPARE:
        return {}
    return {pad(r.seat): frozenset({piece_id(r.card)}) for r in state.readings if r.card is not None}


def footprint(state: OZState, seat: int, action: Mapping[str, Any]) -> Layout:
    """The layout just after the player's gesture: laying or lifting a card; buttons change nothing."""
    out = dict(expected_layout(state))
    kind = action.get("type") if isinstance(action, Mapping) else None
    if seat != CHANCE and state.phase == PREPARE and kind == "lay" and isinstance(action.get("card"), str):
        out[pad(seat)] = frozenset({piece_id(action["card"])})
    elif seat != CHANCE and state.phase == PREPARE and kind == "withdraw":
        out.pop(pad(seat), None)
    return out


def is_gesture(state: OZState, seat: int, action: Mapping[str, Any]) -> bool:
    """True for actions made by moving a card rather than with the buttons."""
    if action.get("type") == "lay":
        return True
    if action.get("type") == "withdraw":
        reading = reading_of(state, seat)
        return reading is not None and reading.card is not None
    return False


_ORDER = {"censor": 0, "enter_sum": 0, "mission": 1, "side": 2, "no_card": 3, "withdraw": 4, "confirm": 5,
          "read": 0, "intercept": 0, "no_intercept": 1, "intercept_check": 0, "guess": 0, "hint": 1}


def choices(data: GameData, state: OZState, seat: int) -> list[Choice]:
    """The button menu: legal actions that move no card, in a useful order ("Valider" last but
    one press of ◀ away, since the cursor wraps)."""
    if state.phase != PREPARE or type(seat) is not int or not 0 <= seat < state.players:
        return _choices(data, state, seat)
    # while documents are prepared, one reader's move leaves the others' menus as they were: a
    # seat's menu is remembered with everything it is made of (its reading, by identity)
    reading = reading_of(state, seat)
    key = (state.mode, state.players, seat in to_act(state), may_volunteer(state, seat), state.protocols,
           state.mission_cards, state.missions_done)
    hit = _PREPARE_MENUS.get(seat)
    if hit is not None and hit[0] is data and hit[1] is reading and hit[2] == key:
        return list(hit[3])
    menu = _choices(data, state, seat)
    _PREPARE_MENUS[seat] = (data, reading, key, tuple(menu))
    return menu


# seat -> (game data, reading, the rest of the state the menu depends on, the menu)
_PREPARE_MENUS: dict[int, tuple[GameData, Reading | None, tuple[Any, ...], tuple[Choice, ...]]] = {}


def _choices(data: GameData, state: OZState, seat: int) -> list[Choice]:
    # gestures left out before checking: checking every card's "lay" was most of a menu's cost
    buttons = [a for a in candidates(data, state, seat)
               if not is_gesture(state, seat, a) and check(data, state, seat, a) is None]
    buttons.sort(key=lambda a: _ORDER.get(a["type"], 9))
    return [Choice(describe_action(data, state, seat, a), a, _confirm(state, seat, a)) for a in buttons]


def _confirm(state: OZState, seat: int, action: Mapping[str, Any]) -> Text | None:
    """The question asked before a choice that throws work away (the other side of the card
    starts its censoring again), None for the others."""
    reading = reading_of(state, seat)
    if action.get("type") == "side" and reading is not None and (any(reading.hidden) or reading.mission is not None):
        return MESSAGES("confirm_side")
    return None


def describe_action(data: GameData, state: OZState, seat: int, action: Mapping[str, Any]) -> Text:
    """A short label for an action (menu entries, logs)."""
    kind = action.get("type")
    lib = data.library
    reading = reading_of(state, seat) if seat != CHANCE else None
    if kind == "lay":
        return piece_label(piece_id(str(action.get("card"))))
    if kind == "side" and reading is not None and reading.card is not None:
        doc = lib.document(lib.card(reading.card).side(action["side"]))
        return LABELS(f"side:{action['side']}", title=doc.title if doc is not None else "?")
    if kind == "censor" and reading is not None and reading.document is not None:
        i = action["line"]
        ln = lib.documents[reading.document].lines[i]
        return LABELS("censor", mark="■" if reading.hidden[i] else "□", n=i + 1, value=ln.value, text=ln.text)
    if kind == "confirm" and reading is not None:
        return LABELS("confirm", ticks=visible_lines(data, reading)[1])
    if kind == "mission":
        m = action["mission"]
        if m is None or not state.mission_cards:
            return LABELS("no_mission")
        return LABELS("mission", n=m + 1, text=mission_slots(data, state.mission_cards)[m].text)
    if kind == "hint":
        if action["hint"] == "initial":
            return LABELS("hint_initial", ticks=INITIAL_HINT_TICKS)
        if "line" in action and reading is not None and reading.document is not None:
            ln = lib.documents[reading.document].lines[action["line"]]
            return LABELS("hint_erase_line", n=action["line"] + 1, value=ln.value, text=ln.text)
        return LABELS("hint_erase", value=action.get("value"))
    if kind in ("no_card", "withdraw", "read", "intercept", "no_intercept", "echec", "protocol", "missions"):
        return LABELS(str(kind))
    if kind == "enter_sum":
        return LABELS("enter_sum", value=action["value"])
    if kind == "guess":
        return LABELS("guess_right" if action.get("correct") else "guess_wrong")
    if kind == "intercept_check":
        return LABELS("check_right" if action.get("correct") else "check_wrong")
    return Text(str(kind), str(kind))


def explain(data: GameData, state: OZState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a card on a pad is not taken as a move (shown to that seat)."""
    card = card_of(piece)
    if card is None or zone != pad(seat):
        return None
    if state.phase != PREPARE:
        reading = reading_of(state, seat)
        # the seat's own document, laid to be read and ready: the table asks for it back
        return REFUSALS("document_back" if reading is not None and reading.card == card else "wrong_phase")
    return check_prepare(data, state, seat, {"type": "lay", "card": card})


def highlights(state: OZState) -> dict[str, str]:
    """Light the pads waiting for a document (green) and the reader's pad (blue)."""
    if state.phase == PREPARE:
        return {pad(s): "green" for s in range(state.players)
                if reading_of(state, s) is None and may_volunteer(state, s) is None}
    if state.phase == TRANSMIT and state.reader is not None:
        return {pad(state.reader): "blue"}
    return {}

