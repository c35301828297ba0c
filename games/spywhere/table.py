"""The physical table: which card lies on which centre slot, what a gesture looks like, the menus.

Pads are empty between gestures: a dealt or drawn card is laid face down on its owner's pad to
be scanned, then taken back into the hand. Centre cards lie face up on centre.1..centre.5.
Identifications are made with the buttons (the physical identification card is then laid face
down in front of the opponent, off the sensed zones).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Action, Choice, IllegalAction, Layout, Rejection, Text, centre, pad
from games.spywhere.pieces import HAND_SIZE, nat_name, nat_of, nat_short
from games.spywhere.rules import check, legal_actions
from games.spywhere.state import (
    BONUS,
    DRAW,
    IDENTIFY,
    PLAY,
    REFILL,
    SETUP,
    SWAP,
    TAKE,
    SpyState,
    empty_slots,
    own_nats,
    passports_per_seat,
    triple_nats,
)
from games.spywhere.texts import LABELS, REFUSALS
from games.texts import seat_label


def expected_layout(state: SpyState) -> dict[str, frozenset[str]]:
    """The centre cards on their slots; pads and other zones empty."""
    return {centre(i + 1): frozenset({c}) for i, c in enumerate(state.centre) if c is not None}


def footprint(state: SpyState, seat: int, action: Mapping[str, Any]) -> Layout:
    """The layout right after the gesture of `action` (see Game.footprint); IllegalAction if refused."""
    rejection = check(state, seat, action)
    if rejection is not None:
        raise IllegalAction(rejection, seat, action)
    layout = dict(expected_layout(state))
    kind = action["type"]
    if kind in ("passport", "deal"):
        layout[pad(action["to"])] = frozenset({action["card"]})
    elif kind == "draw":
        layout[pad(state.active)] = frozenset({action["card"]})
    elif kind in ("centre", "swap"):
        layout[centre(action["slot"])] = frozenset({action["card"]})
    elif kind == "take":
        for slot in action["slots"]:
            layout.pop(centre(slot), None)
    return layout


def highlights(state: SpyState) -> dict[str, str]:
    """LED hints, all public: pads awaiting a scan (blue), slots to fill (green) or to use (yellow)."""
    empty = [centre(s) for s in empty_slots(state)]
    if state.phase == SETUP and not state.removal_pending:
        per = passports_per_seat(state)
        out = {pad(s): "blue" for s in range(state.players)
               if len(state.passports[s]) < per or len(state.hands[s]) < HAND_SIZE}
        return {**out, **{z: "green" for z in empty}}
    if state.phase != PLAY:
        return {}
    if state.step in (DRAW, BONUS):
        return {pad(state.active): "blue"}
    if state.step == REFILL:
        return {z: "green" for z in empty}
    if state.step == SWAP:
        return {centre(i + 1): "yellow" for i, c in enumerate(state.centre) if c is not None}
    if state.step == TAKE:
        # every triple, takeable or not: lighting only the allowed ones would show the passport
        nats = set(triple_nats(state.centre))
        return {centre(i + 1): "yellow" for i, c in enumerate(state.centre) if c is not None and nat_of(c) in nats}
    return {}


def effect(state: SpyState, zone: str, piece: str, lifted: bool) -> Rejection | None:
    """Why the game itself takes a centre card off `zone` (`lifted`: a swap's, a triple taken or
    shuffled back into the pile) or lays one there (a swap's, drawn from the pile), in its words;
    None otherwise. Centre cards lie face up: their nationality is everyone's."""
    if not zone.startswith("centre."):
        return None
    swap = state.last_swap
    if swap is not None and piece in swap[2:] and zone == f"centre.{swap[1]}" and (piece == swap[3]) == lifted:
        return REFUSALS("swapped", seat=seat_label(swap[0]), laid=nat_name(nat_of(swap[2])),
                        lifted=nat_name(nat_of(swap[3])))
    if lifted:
        if piece in state.pile:
            return REFUSALS("retriple", nat=nat_name(nat_of(piece)))
        taker = next((s for s, clues in enumerate(state.clues) if piece in clues), None)
        if taker is None:
            return None
        return REFUSALS("taken", seat=seat_label(taker), nat=nat_name(nat_of(piece)))
    slot = zone[len("centre."):]
    if not slot.isdigit() or not 1 <= int(slot) <= len(state.centre) or state.centre[int(slot) - 1] != piece:
        return None
    # the set-up's cards (no swap yet), or a refill since the last take and no swap laid there since
    # (a swap comes first in a turn: the active player's own one came before its refill)
    if not state.swaps or int(slot) in state.refilled and (swap is None or swap[0] == state.active):
        return REFUSALS("refill")
    return None


def explain(state: SpyState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a card laid on a centre slot is no legal gesture of the active player (their screen only)."""
    if state.phase != PLAY or seat != state.active or not zone.startswith("centre."):
        return None
    if state.step == SWAP:
        return None if piece in state.hands[seat] else REFUSALS("not_in_hand")
    if state.step in (TAKE, IDENTIFY):
        return REFUSALS(f"wrong_step:{state.step}")
    return None


def explain_removal(state: SpyState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why the active player may not lift a centre card: a triple of their own nationality."""
    if state.phase != PLAY or seat != state.active or not zone.startswith("centre.") or state.step != TAKE:
        return None
    nat = nat_of(piece)
    if sum(1 for c in state.centre if c is not None and nat_of(c) == nat) >= 3 and nat in own_nats(state, seat):
        return REFUSALS("triple_refused")
    return None


def describe_action(state: SpyState, seat: int, action: Mapping[str, Any]) -> Text:
    """A short label for an action (menus, logs); never raises on a malformed action."""
    try:
        return _describe(state, action)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return LABELS("unknown")


def _describe(state: SpyState, action: Mapping[str, Any]) -> Text:
    """The label of an action. Secret deals are described without the card."""
    kind = action.get("type")
    if kind in ("swap", "centre"):
        return LABELS(kind, nat=nat_name(nat_of(str(action.get("card")))), slot=action.get("slot"))
    if kind == "take":
        slots = ",".join(str(s) for s in action.get("slots", ()))
        first = state.centre[action["slots"][0] - 1] if action.get("slots") else None
        return LABELS("take", nat=nat_short(nat_of(first)) if first else LABELS("unknown_nationality"), slots=slots)
    if kind in ("leave", "end_turn", "done"):
        return LABELS(kind)
    if kind == "identify":
        return _describe_identify(action.get("target", 0), action.get("nationality"))
    if kind == "remove":
        return LABELS("remove", nat=nat_name(str(action.get("nationality"))))
    if kind in ("passport", "deal"):
        return LABELS(kind, seat=seat_label(int(action.get("to", 0))))
    if kind == "draw":
        return LABELS("draw", seat=seat_label(state.active))
    return LABELS("unknown")


def choices(state: SpyState, seat: int) -> list[Choice]:
    """Button choices of a seat to act: take/leave a triple, identify/end the turn, finish.

    Swaps and deals are sensed, not chosen. A take chosen with the buttons is then guided
    (lift the three cards).
    """
    acts: list[Action] = legal_actions(state, seat)
    out = []
    for a in acts:
        kind = a["type"]
        if kind == "swap":
            continue
        if kind == "identify":  # many of them at every turn: each label made once
            label, ask = _identify_labels(a["target"], a["nationality"])
            out.append(Choice(label, a, ask))
            continue
        out.append(Choice(describe_action(state, seat, a), a, None))
    return out


def _identify_labels(target: int, nationality: str) -> tuple[Text, Text]:
    """The label of an identification and its question, made once for each (seat, nationality)."""
    key = (target, nationality)
    known = _IDENTIFY.get(key)
    if known is None:
        if len(_IDENTIFY) >= 256:  # bounded: a few seats times a few nationalities in play
            _IDENTIFY.clear()
        label = _describe_identify(target, nationality)
        known = _IDENTIFY[key] = (label, LABELS("confirm_identify", label=label))
    return known


# (target seat, nationality) -> (the label, its question): the card set is read once, texts are immutable
_IDENTIFY: dict[tuple[int, str], tuple[Text, Text]] = {}


def _describe_identify(target: object, nationality: object) -> Text:
    return LABELS("identify", seat=seat_label(int(target)), nat=nat_name(str(nationality)))  # type: ignore[call-overload]
