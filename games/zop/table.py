"""ZOP on the physical table: cards on the seat pads, the button menus, labels and refusals.

The only sensed zones are the two pads. A card laid face down on `pad.<seat>` during the commit
is that seat's commit gesture; revealed cards leave the pads for the player's line (not sensed),
so the pads are expected empty again once the turn is revealed.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.core import Action, Choice, Layout, Rejection, Text, pad
from games.zop import rules, rules_apart, rules_supply
from games.zop.pieces import Deck, short_label
from games.zop.rules_sealed import is_sealed
from games.zop.rules_transition import next_label
from games.zop.state import COMMIT, GIVE, ROUND_END, SHOW, ZopState
from games.zop.texts import LABELS, REFUSALS, ROUNDS


def expected_layout(state: ZopState) -> Layout:
    """The cards lying face down on the pads: those laid this turn, not yet revealed (a card held
    of the other deck is laid from the menu: it lies at its owner's table, set aside)."""
    if state.phase != COMMIT:
        return {}
    if not state.apart:
        return {pad(s): frozenset(state.sides[s].laid) for s in (0, 1) if state.sides[s].laid}
    out = {pad(s): frozenset(c for c in state.sides[s].laid if c not in state.sides[s].held) for s in (0, 1)}
    return {z: cards for z, cards in out.items() if cards}


def footprint(state: ZopState, seat: int, action: Action) -> Layout:
    """The pads right after the player's own gesture: a card added to or lifted from its pad.

    The last card of a turn triggers the reveal, after which the pads are expected empty: the
    footprint still shows the card on the pad, so the runtime recognises the gesture.
    """
    layout = {z: set(p) for z, p in expected_layout(state).items()}
    kind = action.get("type") if isinstance(action, Mapping) else None
    held = state.sides[seat].held if seat in (0, 1) else ()
    if kind in ("commit", "hand_over", "give") and action.get("card") in held:
        pass  # laid from the menu: nothing moves on the pad
    elif kind == "commit" or (kind in ("hand_over", "give") and state.apart):
        layout.setdefault(pad(seat), set()).add(action["card"])
    elif kind == "withdraw":
        layout.get(pad(seat), set()).discard(action["card"])
    return {z: frozenset(p) for z, p in layout.items() if p}


def describe_action(deck: Deck, state: ZopState, seat: int, action: Action) -> Text:
    """A short label for a menu entry or a log line."""
    kind = action.get("type")
    card = action.get("card")
    name = short_label(deck, (card,)) if isinstance(card, str) and deck.is_card(card) else Text("?", "?")
    if kind in ("commit", "withdraw") and isinstance(card, str) and seat in (0, 1) and card in state.sides[seat].held:
        return LABELS(f"{kind}_held", card=name)
    if kind in ("commit", "withdraw") and is_sealed(card):  # laid face down at the other table
        return LABELS(f"{kind}_sealed")
    if kind == "open":  # that card shown at the reveal, where every card of the turn is shown
        return LABELS("open", card=name)
    if kind in ("commit", "withdraw", "give", "draw", "blind_take", "hand_over"):
        return LABELS(str(kind), card=name)
    if kind == "pick":
        return LABELS("pick", slot=action.get("slot"))
    if kind == "exchange_skip" and state.apart:
        return LABELS("give_none")
    if kind in ("exchange_done", "exchange_skip"):
        return LABELS(str(kind))
    if kind == "review":
        turn = action.get("turn")
        back = isinstance(turn, int) and turn < state.review[seat]
        return LABELS("review_back" if back else "review_next", turn=turn)
    if kind == "next_round":
        upcoming = next_label(state.results) if state.results else None
        name = ROUNDS[upcoming] if upcoming else LABELS("next")
        return LABELS("next_round", name=Text(name.fr.lower(), name.en.lower()))
    return LABELS("unknown")


def choices(deck: Deck, state: ZopState, seat: int) -> list[Choice]:
    """The seat's button menu: cards to give, exchange confirmations, the round-end count."""
    if state.phase == COMMIT:
        # cards are laid on or lifted from the pad, but a card held of the other deck from the menu
        held = state.sides[seat].held if seat in (0, 1) else ()
        if not held:
            return []
        return [Choice(describe_action(deck, state, seat, a), a) for a in rules.legal_actions(deck, state, seat)
                if a["card"] in held]
    legal = rules.legal_actions(deck, state, seat)
    if state.phase == ROUND_END:
        # the count is read one turn at a time: only the neighbouring turns are offered
        current = state.review[seat]
        near = [a for a in legal if a["type"] == "review" and abs(a["turn"] - current) == 1]
        rest = [a for a in legal if a["type"] == "next_round"]
        return [Choice(describe_action(deck, state, seat, a), a) for a in near + rest]
    menu = ("pick", "exchange_skip") if state.apart else ("give", "exchange_done", "exchange_skip")
    return [Choice(describe_action(deck, state, seat, a), a) for a in legal if a["type"] in menu]


def explain(deck: Deck, state: ZopState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a card sensed on the seat's own pad is not a move (shown on that seat's screen only)."""
    if zone != pad(seat):
        return None
    if not deck.is_card(piece):
        return REFUSALS("bad_card")
    if piece in state.sides[seat].line:
        return REFUSALS("to_line")
    step = state.exchange
    if state.apart and (piece in rules_apart.lent(state, seat) or (step is not None and piece == step.taken)):
        return REFUSALS("lent")
    if state.apart and step is not None and piece in step.shown:
        return REFUSALS("shown")
    if state.apart and step is not None and step.stage in (SHOW, GIVE) and seat == rules_apart.acting(state):
        kind = "hand_over" if step.stage == SHOW else "give"  # the card shown or given back: why not this one
        return rules.check(deck, state, seat, {"type": kind, "card": piece})
    return rules.check(deck, state, seat, {"type": "commit", "card": piece})


def highlights(deck: Deck, state: ZopState) -> dict[str, str]:
    """The pads of the seats that still have to lay a card (public: visible on the table)."""
    if state.phase != COMMIT:
        return {}
    return {pad(s): "blue" for s in (0, 1)
            if len(state.sides[s].laid) < rules_supply.announced(deck, state, s)}


def pieces(deck: Deck) -> list[str]:
    """Every tagged card of both decks."""
    return list(deck.all_ids())

