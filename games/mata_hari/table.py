"""The physical table: where cards lie (pads, cover stock), gestures' footprints, button menus."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, Choice, Layout, Rejection, Text, pad
from games.mata_hari import pieces as C
from games.mata_hari.rules import malformed, reject
from games.mata_hari.rules_actions import candidates
from games.mata_hari.rules_statements import category_label, predicate_label, quant_label
from games.mata_hari.state import COUNTER, DEAL, DRAW, OFFER, OVER, MHState
from games.mata_hari.texts import LABELS, REFUSALS
from games.texts import seat_label

# Actions made by moving a card; every other action is a button choice.
GESTURES = frozenset({"deal", "draw", "lift", "take_cover", "lay", "take_back", "pick"})


def cover_zone() -> str:
    """The centre slot where the cover stock lies."""
    return str(C.card_set().table["cover_zone"])


def expected_layout(state: MHState) -> dict[str, frozenset[str]]:
    """Cover stock on its centre slot; on each pad the offer and the cards still to lift."""
    out: dict[str, frozenset[str]] = {}
    if state.stock:
        out[cover_zone()] = frozenset(state.stock)
    for i, s in enumerate(state.seats):
        if s.offer or s.loose:
            out[pad(i)] = frozenset((*s.offer, *s.loose))
    return out


def footprint(state: MHState, seat: int, action: Mapping[str, Any]) -> Layout:
    """The layout right after the gesture of `action` (button actions: unchanged)."""
    out = dict(expected_layout(state))
    kind = action.get("type") if isinstance(action, Mapping) else None
    if kind not in GESTURES or malformed(action) is not None:
        return out
    if not all(isinstance(action.get(k, ""), str) for k in ("card", "cover")):
        return out  # not a gesture of this game: nothing moves
    if (seat == CHANCE) != (kind in ("deal", "draw")):
        return out  # chance deals and draws, players do the rest
    if seat == CHANCE and not (type(action["seat"]) is int and 0 <= action["seat"] < state.players):
        return out
    if seat != CHANCE and not (type(seat) is int and 0 <= seat < state.players):
        return out  # no such seat: nothing moves
    if kind == "take_cover":
        zone = cover_zone()
        out[zone] = out.get(zone, frozenset()) - {action["cover"]}
        return out
    target = action["seat"] if seat == CHANCE else seat
    zone = pad(target)
    here = out.get(zone, frozenset())
    if kind in ("deal", "draw", "lay", "pick"):
        out[zone] = here | {action["card"]}
    elif kind == "take_back":
        out[zone] = here - {action["card"]}
    else:  # lift
        gone = {action["card"]} if "card" in action else set(state.seats[seat].loose)
        out[zone] = here - gone
    return out


def describe_action(state: MHState, seat: int, action: Mapping[str, Any]) -> Text:
    """A short label for a menu entry or a log line (never raises)."""
    if malformed(action) is None:
        try:
            return _describe(state, seat, action)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass  # a well-formed action with wrong field types: show it raw
    return Text(str(action), str(action))


def _describe(state: MHState, seat: int, action: Mapping[str, Any]) -> Text:
    kind = action.get("type")
    card = action.get("card")
    cid = "" if card is None else str(card)
    if kind in ("deal", "draw"):
        return LABELS("receives", seat=seat_label(action["seat"]), card=C.label(cid))
    if kind in ("lay", "take_back", "pick"):
        return LABELS(str(kind), card=C.label(cid))
    if kind == "lift":
        return LABELS("lift", card=C.label(cid)) if cid else LABELS("lift_all")
    if kind == "take_cover":
        return LABELS("take_cover", card=C.label(action["cover"]))
    if kind == "say":
        return LABELS(f"say:{action['what']}")
    if kind == "quant":
        return quant_label(action["q"], action.get("n", 0))
    if kind == "cat":
        return category_label(action["cat"])
    if kind == "pred":
        d = state.seats[seat].draft
        return predicate_label(d.cat, action["value"]) if d and d.cat else LABELS("unknown_value")
    if kind == "accuse":
        t = seat_label(action["target"])
        if "partner" in action:
            return LABELS("accuse_partner", seat=t, partner=C.name(action["partner"]))
        return LABELS("accuse", seat=t)
    if kind == "accept":
        return LABELS("accept_hitman" if action.get("hitman") else "accept", seat=seat_label(action["seat"]))
    if kind == "visionary":
        return LABELS("visionary", value=action["value"])
    if isinstance(kind, str) and kind in LABELS.keys():  # noqa: SIM118 - Messages is no dict  # the buttons with a fixed label
        return LABELS(kind)
    return Text(str(kind), str(kind))


def choices(state: MHState, seat: int) -> list[Choice]:
    """The button menu: the legal button actions, in the order rules_actions.candidates lists them."""
    if type(seat) is not int or not 0 <= seat < state.players:  # as legal_actions
        return []
    # gestures left out before `reject`: rejecting every card's gesture was most of a menu's cost
    return [Choice(_label(state, seat, a), a) for a in candidates(state, seat, gestures=False)
            if reject(state, seat, a, True) is None]


def _label(state: MHState, seat: int, action: Mapping[str, Any]) -> Text:
    """`describe_action` of a candidate: well-formed by construction, not checked again."""
    try:
        return _describe(state, seat, action)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return Text(str(action), str(action))


def explain(state: MHState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a card the seat laid on its own pad matches no legal action (for that seat only)."""
    if zone != pad(seat) or not isinstance(piece, str) or not 0 <= seat < state.players:
        return None
    if piece in C.setup(state.players).removed or piece in state.removed:
        return REFUSALS("not_in_play")
    s = state.seats[seat]
    if state.phase in (DEAL, DRAW):
        if piece in state.pile or piece in state.objectives:
            return None  # a chance outcome: only ambiguous if several cards came at once
        return REFUSALS("already_known")
    if piece in state.pile:
        if s.picks:
            return None
        return REFUSALS("in_pile")
    return reject(state, seat, {"type": "lay", "card": piece})


def effect(state: MHState, zone: str, piece: str, lifted: bool) -> Rejection | None:
    """Why the game wants a card on `zone` that is not there: dealt or drawn for the pad's owner
    (its reason on that seat's screen only), the Cover cards laid out in the centre, else None."""
    if lifted:
        return None
    if zone == cover_zone() and piece in state.stock:
        return REFUSALS("cover_stock")
    seat = next((i for i in range(state.players) if zone == pad(i)), None)
    if seat is None:
        return None
    s = state.seats[seat]
    # a card the seat's own gesture never puts there: dealt or drawn by the table (chance)
    if piece in s.loose and (piece in s.hand or piece == s.objective):
        return REFUSALS("received")
    return None


def stands_for(state: MHState, zone: str, wanted: str, laid: str) -> bool:
    """True when the partner card `laid` on a pad may be read as the partner `wanted` there: the
    same kind (the copies of a kind are printed alike), `wanted` lying on that pad in the game
    (an offer, a card to lift), `laid` held in that pad owner's hand or still in the pile, so the
    swap changes nothing any seat can tell."""
    if not (C.is_card(wanted) and C.is_card(laid)) or wanted == laid:
        return False
    kind = C.card(wanted).partner
    if kind is None or C.card(laid).partner != kind:
        return False
    owner = next((i for i in range(state.players) if pad(i) == zone), None)
    if owner is None:
        return False
    s = state.seats[owner]
    if wanted not in (*s.offer, *s.loose):
        return False
    held = laid in s.hand and laid not in s.offer and laid not in s.loose
    return held or laid in state.pile


def highlights(state: MHState) -> dict[str, str]:
    """LED hints: the cover stock when a cover is due, the active pad, pads to lift or fill."""
    out: dict[str, str] = {}
    if state.phase in (OVER, DEAL):
        return out
    if state.covers_due:
        out[cover_zone()] = "red"
    for i, s in enumerate(state.seats):
        if s.loose:
            out[pad(i)] = "blue"  # cards to lift
        elif s.picks:
            out[pad(i)] = "yellow"  # lay the cards chosen in the pile here
    if state.phase in (OFFER, COUNTER) and pad(state.active) not in out:
        out[pad(state.active)] = "green"
    return out
