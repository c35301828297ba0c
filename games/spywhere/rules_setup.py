"""Set-up: the removed nationality (chosen), the secret passports, the hands and the centre (chance).

With 4 players or fewer the first player chooses the removed nationality on their screen unless
the option already names it ("retirez une nationalité au choix"). On the table each dealt card is sensed: a passport or a hand card is scanned face down on its
owner's pad, a centre card is laid face up on its slot. Deals may come in any order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Action, BadConfig, Effect, GameConfig, Rejection, Step, evolve
from games.spywhere.pieces import (
    CENTRE_SLOTS,
    HAND_SIZE,
    IDENTIFY_FROM_ROUND,
    REMOVE_AT_MOST,
    card_set,
    deck,
    nat_name,
    nat_of,
)
from games.spywhere.state import (
    DRAW,
    PLAY,
    SpyState,
    empty_centre,
    empty_slots,
    passports_per_seat,
    put,
    undealt_passports,
    without,
)
from games.spywhere.texts import MESSAGES, REFUSALS, SILENT
from games.texts import seat_label

CHOOSE = "choose"  # option value: the first player picks the removed nationality on their screen


def initial_state(config: GameConfig) -> SpyState:
    """The state before any deal; the config must already be validated."""
    n = config.players
    removal = config.option("removed_nationality", CHOOSE)
    ids = card_set().ids
    if n > REMOVE_AT_MOST and removal != CHOOSE:
        raise BadConfig(f"spywhere: a nationality is removed only with {REMOVE_AT_MOST} players or fewer")
    pending = n <= REMOVE_AT_MOST and removal == CHOOSE
    removed = removal if n <= REMOVE_AT_MOST and removal != CHOOSE else None
    nats = () if pending else tuple(i for i in ids if i != removed)
    return SpyState(
        players=n,
        retriple=config.option("retriple", "off") == "on",
        first=int(config.option("first_player", 0)),
        identify_from=str(config.option("identify_from", IDENTIFY_FROM_ROUND)),
        removal_pending=pending,
        removed=removed,
        nationalities=nats,
        passports=((),) * n,
        hands=((),) * n,
        centre=empty_centre(),
        pile=deck(nats),
        clues=((),) * n,
        guesses=((),) * n,
    )


def setup_outcomes(state: SpyState) -> list[Action]:
    """Every chance deal possible now (each equally likely); none before the removal."""
    if state.removal_pending:
        return []
    out: list[Action] = []
    per = passports_per_seat(state)
    spare = undealt_passports(state)
    for seat in range(state.players):
        if len(state.passports[seat]) < per:
            out += [{"type": "passport", "to": seat, "card": p} for p in spare]
    for seat in range(state.players):
        if len(state.hands[seat]) < HAND_SIZE:
            out += [{"type": "deal", "to": seat, "card": c} for c in state.pile]
    for slot in empty_slots(state):
        out += [{"type": "centre", "slot": slot, "card": c} for c in state.pile]
    return out


def _seat(action: Mapping[str, Any], players: int) -> int | None:
    to = action.get("to")
    if isinstance(to, int) and not isinstance(to, bool) and 0 <= to < players:
        return to
    return None


def check_setup(state: SpyState, action: Mapping[str, Any]) -> Rejection | None:
    """None if `action` is one of the set-up chance outcomes, else why not."""
    kind = action.get("type")
    if kind == "passport" and set(action) == {"type", "to", "card"}:
        seat = _seat(action, state.players)
        if seat is None:
            return REFUSALS("bad_chance")
        if len(state.passports[seat]) >= passports_per_seat(state):
            return REFUSALS("seat_served")
        return None if action["card"] in undealt_passports(state) else REFUSALS("passport_unavailable")
    if kind == "deal" and set(action) == {"type", "to", "card"}:
        seat = _seat(action, state.players)
        if seat is None:
            return REFUSALS("bad_chance")
        if len(state.hands[seat]) >= HAND_SIZE:
            return REFUSALS("seat_served")
        return None if action["card"] in state.pile else REFUSALS("not_in_pile")
    if kind == "centre" and set(action) == {"type", "slot", "card"}:
        return check_centre(state, action)
    return REFUSALS("bad_chance")


def check_centre(state: SpyState, action: Mapping[str, Any]) -> Rejection | None:
    """A card laid from the pile on an empty centre slot (set-up and refill)."""
    slot = action.get("slot")
    if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= CENTRE_SLOTS:
        return REFUSALS("bad_slot")
    if state.centre[slot - 1] is not None:
        return REFUSALS("slot_taken")
    return None if action.get("card") in state.pile else REFUSALS("not_in_pile")


def apply_setup(state: SpyState, action: Mapping[str, Any]) -> Step[SpyState]:
    """Apply a checked set-up deal or removal; the first turn starts once everything is dealt."""
    kind = action["type"]
    effects: list[Effect] = []
    if kind == "remove":
        nat = action["nationality"]
        nats = tuple(n for n in card_set().ids if n != nat)
        state = evolve(state, removal_pending=False, removed=nat, nationalities=nats, pile=deck(nats))
        effects.append(Effect("message", MESSAGES("removed", nat=nat_name(nat)),
                              data={"nationality": nat}))
    elif kind == "passport":
        seat, card = action["to"], action["card"]
        state = evolve(state, passports=put(state.passports, seat, state.passports[seat] + (card,)))
        effects.append(Effect("secret", MESSAGES("passport", nat=nat_name(nat_of(card))),
                              frozenset({seat}), {"zone": f"pad.{seat}", "piece": card}))
    elif kind == "deal":
        seat, card = action["to"], action["card"]
        hand = tuple(sorted(state.hands[seat] + (card,)))
        state = evolve(state, hands=put(state.hands, seat, hand), pile=without(state.pile, card))
        effects.append(Effect("secret", MESSAGES("dealt", nat=nat_name(nat_of(card))),
                              frozenset({seat}), {"zone": f"pad.{seat}", "piece": card}))
    else:
        slot, card = action["slot"], action["card"]
        state = evolve(state, centre=put(state.centre, slot - 1, card), pile=without(state.pile, card))
        # everyone sees a face-up card: data for logs and LEDs, no banner
        effects.append(Effect("centre", SILENT, data={"zone": f"centre.{slot}", "piece": card}))
    if _dealt(state):
        state = evolve(state, phase=PLAY, step=DRAW, active=state.first, turn=0)
        effects.append(Effect("message", MESSAGES("starts", seat=seat_label(state.first)),
                              data={"seat": state.first}))
    return Step(state, tuple(effects))


def _dealt(state: SpyState) -> bool:
    per = passports_per_seat(state)
    return (not state.removal_pending
            and all(len(p) == per for p in state.passports)
            and all(len(h) == HAND_SIZE for h in state.hands)
            and not empty_slots(state))
