"""ZOP's blind exchange across two tables: what may be done with cards that stay at home.

Each player holds its own deck at its own table, so a card never changes tables. The exchange is
made as the rulebook has it with the cards left where they are: the victim shuffles the cards left
in its hand face down, the taker chooses one blindly by its place (PICK), the victim lays that card
on its pad to be read and sets it aside (SHOW; a refused kind is taken back and another place is
chosen), then the taker lays a card of its own on its pad to give back, and sets it aside (GIVE).
Each card exchanged is then *held* by the other player: known to both, laid from its holder's
menu (it is not on the holder's table), never laid again by its owner.

The table knows no hand in sensed mode; the places to choose among are counted from what it does
know: a hand is the first `hand_size` of the cards a player has left at the start of a turn, less
those laid and set aside since. Cards held of the other deck take no place in a hand.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Rejection
from games.zop.pieces import Deck
from games.zop.state import GIVE, PICK, SHOW, ExchangeStep, ZopState, other
from games.zop.texts import REFUSALS

# action type -> its fields besides "type"
FIELDS: dict[str, frozenset[str]] = {"pick": frozenset({"slot"}), "hand_over": frozenset({"card"})}


def refused(deck: Deck, card: str) -> frozenset[str]:
    """The effect kinds the Échange card refuses (a Reculer pour mieux sauter drawn goes back)."""
    ability = deck.card(card).ability
    assert ability is not None and ability.kind == "blind_exchange", card
    return frozenset(ability.refuse)


def gives_back(deck: Deck, card: str) -> bool:
    """True when the taker gives a card back (the deck's `give = "choice"`)."""
    ability = deck.card(card).ability
    return ability is not None and ability.give == "choice"


def lent(state: ZopState, seat: int) -> frozenset[str]:
    """The seat's own cards the other player holds (set aside at this seat's table)."""
    return frozenset(state.sides[other(seat)].held)


def free(deck: Deck, state: ZopState, seat: int) -> tuple[str, ...]:
    """The seat's own cards still at its table in play: not played, laid nor set aside."""
    gone = {c for s in state.sides for c in s.line + s.laid} | lent(state, seat)
    return tuple(c for c in deck.ids(deck.set_of_seat(seat)) if c not in gone)


def layable(deck: Deck, state: ZopState, seat: int) -> tuple[str, ...]:
    """Cards the seat may lay: its own still in play (on its pad), and those it holds (from its menu)."""
    gone = {c for s in state.sides for c in s.line + s.laid}
    return free(deck, state, seat) + tuple(c for c in state.sides[seat].held if c not in gone)


def _this_turn(state: ZopState, seat: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The seat's own cards revealed this turn and those it set aside in this turn's exchanges."""
    record = state.turns[-1] if state.turns and state.turns[-1].turn == state.turn else None
    played = record.cards[seat] if record is not None else ()
    aside = tuple(s.taken if s.taker != seat else s.given for s in state.swaps if s.turn == state.turn)
    return played, tuple(c for c in aside if c is not None)


def hand_left(deck: Deck, state: ZopState, seat: int) -> int:
    """Cards of its own deck the seat still holds in hand after this turn's reveal."""
    own = frozenset(deck.ids(deck.set_of_seat(seat)))
    played, aside = _this_turn(state, seat)
    played_own = [c for c in played if c in own]
    at_start = len(free(deck, state, seat)) + len(played_own) + len(aside)
    return max(0, min(deck.hand_size, at_start) - len(played_own) - len(aside))


def opening(deck: Deck, state: ZopState, taker: int, card: str) -> ExchangeStep | None:
    """The exchange's first step, None when it cannot be made (no card to take, or to give back)."""
    slots = hand_left(deck, state, other(taker))
    if slots == 0 or (gives_back(deck, card) and hand_left(deck, state, taker) == 0):
        return None
    return ExchangeStep(taker, card, PICK, slots=slots)


def showable(deck: Deck, state: ZopState, step: ExchangeStep) -> tuple[str, ...]:
    """The victim's cards that may be at the chosen place (a refused one shown is not again)."""
    return tuple(c for c in free(deck, state, other(step.taker)) if c not in step.shown)


def giveable(deck: Deck, state: ZopState, step: ExchangeStep) -> tuple[str, ...]:
    """The taker's own cards it may give back (never a refused kind)."""
    refuse = refused(deck, step.card)
    return tuple(c for c in free(deck, state, step.taker) if deck.card(c).kind not in refuse)


def acting(state: ZopState) -> int | None:
    """Who acts in the exchange now: the taker chooses and gives, the victim shows."""
    step = state.exchange
    if step is None:
        return None
    return other(step.taker) if step.stage == SHOW else step.taker


def legal(deck: Deck, state: ZopState, seat: int) -> list[Action]:
    """The seat's moves in the exchange."""
    step = state.exchange
    if step is None or seat != acting(state):
        return []
    if step.stage == PICK:
        return [{"type": "pick", "slot": i} for i in range(1, step.slots + 1)]
    if step.stage == SHOW:
        return [{"type": "hand_over", "card": c} for c in showable(deck, state, step)]
    if step.stage == GIVE:
        return [*({"type": "give", "card": c} for c in giveable(deck, state, step)), {"type": "exchange_skip"}]
    return []


def check(deck: Deck, state: ZopState, seat: int, kind: str, action: Action) -> Rejection | None:
    """None when the exchange move is legal, else the precise reason."""
    step = state.exchange
    stage = {"pick": PICK, "hand_over": SHOW, "give": GIVE, "exchange_skip": GIVE}.get(kind)
    if step is None or stage is None or step.stage != stage:
        return REFUSALS("wrong_phase")
    if seat != acting(state):
        return REFUSALS("not_your_turn")
    if kind == "pick":
        slot = action["slot"]
        ok = isinstance(slot, int) and not isinstance(slot, bool) and 1 <= slot <= step.slots
        return None if ok else REFUSALS("bad_slot")
    if kind == "exchange_skip":
        return None
    return _check_card(deck, state, seat, step, kind, action["card"])


def _check_card(deck: Deck, state: ZopState, seat: int, step: ExchangeStep, kind: str, card: Any
                ) -> Rejection | None:
    """A card laid on the pad to be taken (hand_over) or given back (give)."""
    if not deck.is_card(card):
        return REFUSALS("bad_card")
    if deck.owner(card) != seat:
        return REFUSALS("not_yours")
    if card in lent(state, seat):
        return REFUSALS("lent")
    if card in step.shown:
        return REFUSALS("shown")
    if card not in free(deck, state, seat):
        return REFUSALS("already_played")
    if kind == "give" and deck.card(card).kind in refused(deck, step.card):
        return REFUSALS("cannot_give")
    return None
