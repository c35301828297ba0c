"""Helpers shared by the Operation: Mata Hari tests (state builders, action shortcuts); checked in test_kit.py."""

from __future__ import annotations

from typing import Any

from games.core import CHANCE, GameConfig, Step
from games.mata_hari import GAME
from games.mata_hari.pieces import card, objective_id, partner_id, resource_id, setup
from games.mata_hari.state import MHState


def res(obj: str, value: int) -> str:
    """A resource card id."""
    return resource_id(obj, value)


def par(kind: str, n: int = 1) -> str:
    """A partner card id."""
    return partner_id(kind, n)


def obj(resource: str) -> str:
    """An objective card id."""
    return objective_id(resource)


def step(state: MHState, seat: int, /, **action: Any) -> Step:
    """Apply one action (raises IllegalAction)."""
    return GAME.apply(state, seat, action)


def play(state: MHState, seat: int, /, **action: Any) -> MHState:
    """Apply one action and keep the state."""
    return GAME.apply(state, seat, action).state


def dealt(players: int, hands: dict[int, list[str]] | None = None,
          objectives: dict[int, str] | None = None, lift: bool = True) -> MHState:
    """A state right after the deal, with chosen cards and objectives (the rest filled with resources).

    Filler cards are dealt round-robin from the sorted resources not chosen (partners only once
    resources run out, at 6-7 players), so no seat holds a whole priority value by accident.
    """
    hands = hands or {}
    objectives = objectives or {}
    su = setup(players)
    used = {c for h in hands.values() for c in h}
    filler = [c for c in su.deck if c not in used and card(c).family == "resource"]
    filler += [c for c in su.deck if c not in used and card(c).family == "partner"]
    full: dict[int, list[str]] = {i: list(hands.get(i, [])) for i in range(players)}
    i = 0
    while any(len(h) < su.deal for h in full.values()):
        seat = i % players
        if len(full[seat]) < su.deal:
            full[seat].append(filler.pop(0))
        i += 1
    free_objs = [o for o in su.objectives if o not in objectives.values()]
    state = GAME.initial_state(GameConfig(players=players))
    for seat in range(players):
        o = objectives.get(seat) or free_objs.pop(0)
        state = play(state, CHANCE, type="deal", seat=seat, card=o)
        for c in full[seat]:
            state = play(state, CHANCE, type="deal", seat=seat, card=c)
    if lift:
        for seat in range(players):
            state = play(state, seat, type="lift")
    return state


def lay_all(state: MHState, seat: int, cards: list[str]) -> MHState:
    """Lay cards one by one on the seat's pad."""
    for c in cards:
        state = play(state, seat, type="lay", card=c)
    return state


def say(state: MHState, seat: int, what: str, q: str, n: int, cat: str, value: Any) -> MHState:
    """Build one statement on the buttons: open, quantifier, category, value."""
    state = play(state, seat, type="say", what=what)
    quant: dict[str, Any] = {"type": "quant", "q": q}
    if q in ("least", "exact"):
        quant["n"] = n
    state = GAME.apply(state, seat, quant).state
    state = play(state, seat, type="cat", cat=cat)
    return play(state, seat, type="pred", value=value)


def lift_all(state: MHState) -> MHState:
    """Every seat lifts the cards lying loose on its pad."""
    for seat in range(state.players):
        if state.seats[seat].loose:
            state = play(state, seat, type="lift")
    return state
