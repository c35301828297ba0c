"""The physical table: tagged document cards on the seat pads, button menus, labels, LEDs.

A reader lays a card on their pad to choose it; it stays there while documents are prepared,
then readers take it in hand to read it (no piece is expected during the transmission).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, Action, Choice, Layout, Rejection, Text, pad, tr

from .data import GameData
from .messages import reject
from .prepare import check_prepare, may_volunteer, visible_lines
from .screens import fit
from .state import INITIAL_HINT_TICKS, PREPARE, TRANSMIT, OZState, reading_of

GAME_ID = "operation-zebre"
PIECE_PREFIX = f"{GAME_ID}/documents/"


def piece_id(card: str) -> str:
    """The piece id of a card key ("sample/3" -> "operation-zebre/documents/sample/3")."""
    return PIECE_PREFIX + card


def card_of(piece: str) -> str | None:
    """The card key of a piece id, None for anything else."""
    return piece[len(PIECE_PREFIX):] if piece.startswith(PIECE_PREFIX) else None


def all_pieces(data: GameData) -> list[str]:
    """Every tagged document card."""
    return [piece_id(k) for k in data.library.card_keys()]


def label(piece: str) -> Text:
    """A neutral name for a card (never its content: instructions may be read by anyone)."""
    card = card_of(piece)
    if card is None or "/" not in card:
        return Text(piece, piece)
    deck, _, num = card.partition("/")
    if deck == "sample":
        return tr(f"le dossier exemple n°{num}", f"sample document no. {num}")
    if deck == "box":
        return tr(f"le dossier n°{num}", f"document no. {num}")
    return tr(f"le dossier {deck} n°{num}", f"document {deck} no. {num}")


def layout(state: OZState) -> dict[str, frozenset[str]]:
    """Cards lie on their reader's pad while documents are prepared; nothing otherwise."""
    if state.phase != PREPARE:
        return {}
    return {pad(r.seat): frozenset({piece_id(r.card)}) for r in state.readings if r.card is not None}


def footprint(state: OZState, seat: int, action: Mapping[str, Any]) -> Layout:
    """The layout just after the player's gesture: laying or lifting a card; buttons change nothing."""
    out = dict(layout(state))
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


def menu(data: GameData, state: OZState, seat: int, legal: list[Action]) -> list[Choice]:
    """The button menu: legal actions that move no card, in a useful order ("Valider" last but
    one press of ◀ away, since the cursor wraps)."""
    buttons = [a for a in legal if not is_gesture(state, seat, a)]
    buttons.sort(key=lambda a: _ORDER.get(a["type"], 9))
    return [Choice(describe(data, state, seat, a), a, _confirm(state, seat, a)) for a in buttons]


def _confirm(state: OZState, seat: int, action: Mapping[str, Any]) -> Text | None:
    """The question asked before a choice that throws work away (the other side of the card
    starts its censoring again), None for the others."""
    reading = reading_of(state, seat)
    if action.get("type") == "side" and reading is not None and (any(reading.hidden) or reading.mission is not None):
        return tr("Autre face ? La censure faite sera perdue", "Other side? The censoring done is lost")
    return None


def describe(data: GameData, state: OZState, seat: int, action: Mapping[str, Any]) -> Text:
    """A short label for an action (menu entries, logs)."""
    kind = action.get("type")
    lib = data.library
    reading = reading_of(state, seat) if seat != CHANCE else None
    if kind == "lay":
        return label(piece_id(str(action.get("card"))))
    if kind == "side" and reading is not None and reading.card is not None:
        doc = lib.document(lib.card(reading.card).side(action["side"]))
        side = {"recto": ("Recto", "Front"), "verso": ("Verso", "Back")}[action["side"]]
        title = doc.title if doc is not None else "?"
        return Text(fit(f"{side[0]} : {title}"), fit(f"{side[1]}: {title}"))
    if kind == "censor" and reading is not None and reading.document is not None:
        i = action["line"]
        ln = lib.documents[reading.document].lines[i]
        mark = "■" if reading.hidden[i] else "□"
        text = f"{mark}{i + 1} ({ln.value}) {ln.text}"
        return Text(fit(text), fit(text))
    if kind == "confirm" and reading is not None:
        ticks = visible_lines(data, reading)[1]
        return tr(f"Valider ({ticks} croix)", f"Confirm ({ticks} ticks)")
    if kind == "mission":
        m = action["mission"]
        if m is None or state.mission_card is None:
            return tr("Sans mission", "No mission")
        text = data.mission_cards[state.mission_card].missions[m].text
        return Text(fit(f"M{m + 1} {text.fr}"), fit(f"M{m + 1} {text.en}"))
    if kind == "hint":
        if action["hint"] == "initial":
            return tr(f"Indice Initiale +{INITIAL_HINT_TICKS}", f"Initial hint +{INITIAL_HINT_TICKS}")
        if "line" in action and reading is not None and reading.document is not None:
            ln = lib.documents[reading.document].lines[action["line"]]
            text = f"Eff. L{action['line'] + 1} +{ln.value} {ln.text}"
            return Text(fit(text), fit(text.replace("Eff.", "Era.")))
        return tr(f"Effacer : ligne +{action.get('value')}", f"Erase: line +{action.get('value')}")
    fixed = {
        "no_card": ("Sans carte (somme)", "No card (enter sum)"),
        "withdraw": ("Changer de dossier", "Change document"),
        "read": ("Lu à voix haute", "Read aloud"),
        "intercept": ("Réponse notée", "Answer written"),
        "no_intercept": ("Pas de réponse", "No answer"),
        "echec": ("Carte ÉCHEC", "ÉCHEC card"),
        "protocol": ("Carte Protocole", "Protocol card"),
        "missions": ("Carte Missions", "Missions card"),
    }
    if kind in fixed:
        return tr(*fixed[kind])
    if kind == "enter_sum":
        return tr(f"Somme visible : {action['value']}", f"Visible sum: {action['value']}")
    if kind == "guess":
        return tr("Bonne réponse", "Right answer") if action.get("correct") else tr("Mauvaise réponse", "Wrong answer")
    if kind == "intercept_check":
        return tr("Interception juste", "Interception right") if action.get("correct") else \
            tr("Interception fausse", "Interception wrong")
    return Text(str(kind), str(kind))


def explain(data: GameData, state: OZState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a card on a pad is not taken as a move (shown to that seat)."""
    card = card_of(piece)
    if card is None or zone != pad(seat):
        return None
    if state.phase != PREPARE:
        return reject("wrong_phase")
    return check_prepare(data, state, seat, {"type": "lay", "card": card})


def highlights(state: OZState) -> dict[str, str]:
    """Light the pads waiting for a document (green) and the reader's pad (blue)."""
    if state.phase == PREPARE:
        return {pad(s): "green" for s in range(state.players)
                if reading_of(state, s) is None and may_volunteer(state, s) is None}
    if state.phase == TRANSMIT and state.reader is not None:
        return {pad(state.reader): "blue"}
    return {}

