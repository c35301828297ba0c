"""ZOP's blind exchange across two tables, its moves (what is allowed is in rules_apart.py).

A card chosen blindly, shown on its owner's pad and set aside, then a card given back the same way:
both players see both cards (each saw one leave its hand and the other arrive), spectators do not.
"""

from __future__ import annotations

from games.core import Action, Effect, Step, evolve
from games.zop.pieces import Deck, short_label
from games.zop.rules_apart import gives_back, refused
from games.zop.rules_transition import finish_exchange, next_exchange, swap_counts
from games.zop.state import GIVE, PICK, SHOW, Swap, ZopState, other, with_side
from games.zop.texts import MESSAGES, SILENT

PLAYERS = frozenset({0, 1})


def pick(state: ZopState, seat: int, slot: int) -> Step[ZopState]:
    """The taker chooses a place among the victim's face-down cards."""
    step = state.exchange
    assert step is not None
    state = evolve(state, exchange=evolve(step, stage=SHOW, slot=slot))
    return Step(state, (Effect("exchange_pick", SILENT, None, {"taker": seat, "slot": slot}),))


def hand_over(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """The victim lays the chosen card on its pad: taken, or shown back when of a refused kind."""
    step = state.exchange
    assert step is not None
    label = short_label(deck, (card,))
    if deck.card(card).kind in refused(deck, step.card):
        slots = step.slots - 1
        data = {"taker": step.taker, "card": card}
        back = Effect("exchange_refused", MESSAGES("exchange_refused", card=label), frozenset({seat}), data)
        told = Effect("exchange_refused", MESSAGES("exchange_refused_taker", card=label), frozenset({step.taker}), data)
        if slots == 0:
            after = next_exchange(deck, evolve(state, exchange=None))
            void = Effect("exchange_void", MESSAGES("exchange_void"), None, {"taker": step.taker})
            return Step(after.state, (back, told, void) + after.effects)
        chosen = evolve(step, stage=PICK, slots=slots, slot=0, shown=step.shown + (card,))
        return Step(evolve(state, exchange=chosen), (back, told))
    take = Effect("exchange_take", MESSAGES("exchange_take", card=label), PLAYERS,
                  {"taker": step.taker, "card": card})
    if gives_back(deck, step.card):
        return Step(evolve(state, exchange=evolve(step, stage=GIVE, taken=card)), (take,))
    state = _hold(state, step.taker, card)
    done = finish_exchange(deck, swap_counts(state, step.taker, gift=False), Swap(state.turn, step.taker, card, None))
    return Step(done.state, (take,) + done.effects)


def _hold(state: ZopState, seat: int, card: str) -> ZopState:
    """`seat` now holds `card` of the other deck."""
    side = state.sides[seat]
    return with_side(state, seat, evolve(side, held=side.held + (card,)))


def give(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """The taker lays a card of its own on its pad: given back, the exchange is done."""
    step = state.exchange
    assert step is not None and step.taken is not None
    state = _hold(_hold(state, seat, step.taken), other(seat), card)
    effect = Effect("exchange_give", MESSAGES("exchange_give", card=short_label(deck, (card,))), PLAYERS,
                    {"taker": seat, "card": card})
    done = finish_exchange(deck, swap_counts(state, seat, gift=True), Swap(state.turn, seat, step.taken, card))
    return Step(done.state, (effect,) + done.effects)


def skip(deck: Deck, state: ZopState, seat: int) -> Step[ZopState]:
    """The taker has no card it may give back: the card taken goes back, no exchange."""
    after = next_exchange(deck, evolve(state, exchange=None))
    back = Effect("exchange_void", MESSAGES("exchange_back"), None, {"taker": seat})
    return Step(after.state, (back,) + after.effects)


def transition(deck: Deck, state: ZopState, seat: int, action: Action) -> Step[ZopState]:
    """Dispatch a checked move of the exchange."""
    kind = action["type"]
    if kind == "pick":
        return pick(state, seat, action["slot"])
    if kind == "hand_over":
        return hand_over(deck, state, seat, action["card"])
    if kind == "give":
        return give(deck, state, seat, action["card"])
    return skip(deck, state, seat)
