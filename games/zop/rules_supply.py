"""Where each seat's cards come from, in both table modes.

Tracked mode models the whole deck: a shuffled first pass of the pile (each draw a chance
event), hands of four, discards that become the next pile without shuffling. Sensed mode knows
only what was laid on the pads: a seat holds "its 20 cards minus those played", by count.
The rules ask this module the same questions in both modes (what may be laid, how many cards
must be laid, is the seat out of cards), so the turn and scoring code is shared.
"""

from __future__ import annotations

from games.core import evolve, last_state
from games.zop import rules_apart
from games.zop.pieces import Deck
from games.zop.rules_sealed import PREFIX
from games.zop.state import COMMIT, TRACKED, Side, ZopState


def new_side(deck: Deck, mode: str, seat: int) -> Side:
    """A seat's cards at the start of a round: the whole deck shuffled (tracked) or unknown."""
    if mode == TRACKED:
        return Side(shuffled=tuple(sorted(deck.ids(deck.set_of_seat(seat)))))
    return Side()


def deck_total(deck: Deck, side: Side) -> int:
    """Cards a seat has this round: its deck, plus cards received, minus cards given."""
    return len(deck.cards) + side.received - side.given


def refill(deck: Deck, side: Side) -> Side:
    """Draw up to the hand size without chance: from a known pile, recycling the discard.

    Stops when the next card must come from the shuffled first pass (a chance draw).
    The discard becomes the pile when a card is needed and the pile is empty; it is not
    turned over nor shuffled, so the last card discarded is the first drawn.
    """
    hand, pile, discard = side.hand, side.pile, side.discard
    while len(hand) < deck.hand_size:
        if pile:
            hand, pile = hand + pile[:1], pile[1:]
        elif side.shuffled:
            break
        elif discard:
            pile, discard = tuple(reversed(discard)), ()
        else:
            break
    return evolve(side, hand=hand, pile=pile, discard=discard)


def needs_draw(deck: Deck, side: Side) -> bool:
    """True when a seat's hand must be completed by a chance draw from the shuffled pass."""
    return len(side.hand) < deck.hand_size and not side.pile and bool(side.shuffled)


def draw(side: Side, card: str) -> Side:
    """The side after drawing `card` from the shuffled pass (the chance outcome)."""
    return evolve(side, hand=side.hand + (card,), shuffled=tuple(c for c in side.shuffled if c != card))


def available(deck: Deck, state: ZopState, seat: int) -> int:
    """Cards the seat can lay this turn at most (its hand, or every card it still holds)."""
    side = state.sides[seat]
    if state.mode == TRACKED:
        return len(side.hand)
    return max(0, deck_total(deck, side) - len(side.line))


def required(deck: Deck, state: ZopState, seat: int) -> int:
    """How many cards the seat lays this turn: one, plus extra cards owed, within what it has."""
    side = state.sides[seat]
    wanted = 1 + side.pending.extra
    for piece in side.laid:
        if piece.startswith(PREFIX):  # a placeholder: opened at the reveal (no same-turn card is sealed)
            continue
        ability = deck.card(piece).ability
        if ability is not None and ability.kind == "extra_cards" and ability.timing == "same_turn":
            wanted += ability.count
    return min(wanted, available(deck, state, seat))


def announced(deck: Deck, state: ZopState, seat: int) -> int:
    """The cards everyone knows the seat lays this turn: one, plus extra cards owed from the last
    turn. A Reculer pour mieux sauter played "same_turn" adds one that only its owner knows of,
    until the extra card arrives on the pad."""
    return min(1 + state.sides[seat].pending.extra, available(deck, state, seat))


def out_of_cards(deck: Deck, state: ZopState, seat: int) -> bool:
    """True when the seat has played every card it had this round."""
    side = state.sides[seat]
    if state.mode == TRACKED:
        return not (side.hand or side.shuffled or side.pile or side.discard)
    return len(side.line) >= deck_total(deck, side)


def unplayed(state: ZopState, piece: str) -> bool:
    """True when no seat has played the card this round."""
    return all(piece not in side.line for side in state.sides)


@last_state  # checked for each card a seat might lay: worked out once for the seat's state
def layable(deck: Deck, state: ZopState, seat: int) -> tuple[str, ...]:
    """Cards the seat may lay now (before counting how many it must lay)."""
    side = state.sides[seat]
    if state.mode == TRACKED:
        return tuple(c for c in side.hand if c not in side.laid)
    if state.apart:  # each card exchanged is known: no count of who may hold what is needed
        return rules_apart.layable(deck, state, seat)
    taken = {c for s in state.sides for c in s.line + s.laid}
    if not any(s.received for s in state.sides):
        return tuple(c for c in deck.ids(deck.set_of_seat(seat)) if c not in taken)
    counts = _counts(deck, state)
    return tuple(c for c in deck.all_ids() if c not in taken and _feasible(deck, counts, seat, c))


def _counts(deck: Deck, state: ZopState) -> tuple[list[int], list[int], int]:
    """Per seat: cards of the other deck it may still play (f), cards still to play (n); and
    the unplayed cards of deck 0 — counting laid cards as played."""
    f, n = [0, 0], [0, 0]
    gone: set[str] = set()
    for s, side in enumerate(state.sides):
        played = side.line + side.laid
        gone.update(played)
        f[s] = side.received - sum(1 for c in played if deck.owner(c) != s)
        n[s] = deck_total(deck, side) - len(played)
    return f, n, sum(1 for c in deck.ids(deck.sets[0]) if c not in gone)


def _feasible(deck: Deck, counts: tuple[list[int], list[int], int], seat: int, card: str) -> bool:
    """Sensed mode after blind exchanges: can both seats still play out their cards if `seat` lays
    `card`? Each seat plays at most as many cards of the other deck as it received.

    With x_s the cards of the other deck seat s will still play (0 <= x_s <= min(f_s, n_s)), every
    unplayed card of deck 0 gets played: U_0 = (n_0 - x_0) + x_1, so U_0 - n_0 = x_1 - x_0 must
    lie in [-min(f_0, n_0), min(f_1, n_1)]. A card a player really holds always passes.
    """
    f, n, unplayed_0 = list(counts[0]), list(counts[1]), counts[2]
    owner = deck.owner(card)
    n[seat] -= 1
    if owner != seat:
        f[seat] -= 1
    if owner == 0:
        unplayed_0 -= 1
    if min(f) < 0 or min(n) < 0:
        return False
    d = unplayed_0 - n[0]
    return -min(f[0], n[0]) <= d <= min(f[1], n[1])


def discard_hand(side: Side) -> Side:
    """End of turn: the cards left in hand go on the discard, in the order they were drawn."""
    return evolve(side, hand=(), discard=side.discard + side.hand)


def sealed(state: ZopState, seat: int) -> tuple[str, ...]:
    """The placeholders on the seat's pad: cards laid at the other table, not opened yet."""
    return tuple(c for c in state.sides[seat].laid if c.startswith(PREFIX))  # the rules let no other in


def opening(deck: Deck, state: ZopState) -> bool:
    """True when every card of the turn is laid and some are placeholders: the reveal waits for them."""
    return state.apart and state.phase == COMMIT and any(sealed(state, s) for s in (0, 1)) and all(
        len(state.sides[s].laid) >= required(deck, state, s) for s in (0, 1))
