"""The reveal: how the cards laid by both seats in one turn score, with every special effect.

Pure and mode-free: the same code scores a turn of the full deck model and of physical play.

Each seat laid a sequence of cards (one, or more after Reculer pour mieux sauter). Cards face
each other by position (slot): the first card of each seat, then the second card of a seat
against the opponent's second card or against nothing. Mauvaise idée acts on the whole turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.zop.pieces import ATTACK, DEFENCE, CardDef, Deck
from games.zop.state import Pending

Played = tuple[CardDef, int]  # a card that takes effect and its effective strength


@dataclass(frozen=True)
class Resolution:
    """What a revealed turn does: points, cancelled cards, effects waiting, exchanges to make."""

    points: tuple[int, int]
    cancelled: tuple[tuple[str, ...], tuple[str, ...]]
    pending: tuple[Pending, Pending]
    exchanges: tuple[tuple[int, str], ...]  # (seat, Échange card) for each blind exchange, in order
    notes: tuple[str, ...]


def _cancellations(deck: Deck, laid: tuple[tuple[str, ...], tuple[str, ...]]
                   ) -> tuple[list[set[int]], list[bool], list[str]]:
    """Indices of cards with no effect per seat, whether each seat's play is cancelled, notes."""
    cancels = [[i for i, c in enumerate(seq) if deck.card(c).kind == "cancel"] for seq in laid]
    mutual = min(len(cancels[0]), len(cancels[1]))
    # two facing Mauvaise idée cancel each other and nothing else (rulebook precision)
    dead = [set(cancels[0][:mutual]), set(cancels[1][:mutual])]
    notes = ["mutual_cancel"] if mutual else []
    cancelled = [False, False]
    for s in (0, 1):
        if len(cancels[s]) > mutual:
            o = 1 - s
            cancelled[o] = True
            dead[o] |= set(range(len(laid[o])))
            notes.append(f"cancel_by_{s}")
    return dead, cancelled, notes


def _sequence(deck: Deck, seq: tuple[str, ...], dead: set[int], incoming: Pending
              ) -> tuple[list[Played | None], Pending, list[str]]:
    """Effective strengths of one seat's cards, the effects left waiting, exchanges it makes."""
    plays: list[Played | None] = []
    carry = incoming
    extra = 0
    exchanges: list[str] = []
    for i, piece in enumerate(seq):
        card = deck.card(piece)
        attached, carry = carry, Pending()  # a waiting bonus goes to the very next card, even a dead one
        if i in dead:
            plays.append(None)
            continue
        strength = card.value * attached.factor + attached.boost if card.type in (ATTACK, DEFENCE) else 0
        plays.append((card, strength))
        ability = card.ability
        if ability is None:
            continue
        if ability.kind == "boost":
            carry = Pending(boost=ability.amount)
        elif ability.kind == "multiply":
            carry = Pending(factor=ability.factor)
        elif ability.kind == "extra_cards" and ability.timing == "next_turn":
            extra += ability.count
        elif ability.kind == "blind_exchange":
            exchanges.append(piece)
    if not seq:
        carry = Pending()  # an effect waits one turn only: a seat that laid nothing loses it
    return plays, Pending(carry.boost, carry.factor, extra), exchanges


def gain(mine: Played | None, theirs: Played | None) -> int:
    """Points scored by one card against the card facing it (None = no card or no effect)."""
    if mine is None:
        return 0
    card, strength = mine
    if card.type == ATTACK:
        if theirs is None:
            return strength
        opp, opp_strength = theirs
        if opp.type == DEFENCE:
            return strength - opp_strength if strength > opp_strength else 0
        if opp.ability and opp.kind == "counter" and opp.ability.against == ATTACK and opp.ability.block:
            return 0
        return strength
    ability = card.ability
    if ability is None:
        return 0
    if ability.kind == "score":
        return ability.points
    if ability.kind == "counter" and ability.score and theirs is not None and theirs[0].type == ability.against:
        return theirs[0].value  # the printed value: a Renforcement is not counted (rulebook)
    return 0


def resolve(deck: Deck, laid: tuple[tuple[str, ...], tuple[str, ...]],
            incoming: tuple[Pending, Pending]) -> Resolution:
    """Score one revealed turn from the laid sequences and the effects waiting from the last turn."""
    dead, cancelled, notes = _cancellations(deck, laid)
    pending_in = [Pending() if cancelled[s] else incoming[s] for s in (0, 1)]
    plays: list[list[Played | None]] = []
    pending: list[Pending] = []
    takers: list[tuple[int, str]] = []
    for s in (0, 1):
        p, out, exchanges = _sequence(deck, laid[s], dead[s], pending_in[s])
        plays.append(p)
        pending.append(out)
        takers += [(s, piece) for piece in exchanges]
    points = [0, 0]
    for i in range(max(len(laid[0]), len(laid[1]))):
        a = plays[0][i] if i < len(plays[0]) else None
        b = plays[1][i] if i < len(plays[1]) else None
        points[0] += gain(a, b)
        points[1] += gain(b, a)
        for s, mine, theirs in ((0, a, b), (1, b, a)):
            if theirs and mine and mine[0].type == ATTACK and theirs[0].kind == "counter" \
                    and theirs[0].ability and theirs[0].ability.block and theirs[0].ability.against == ATTACK:
                notes.append(f"blocked_{s}")
    dead_cards = tuple(tuple(c for i, c in enumerate(laid[s]) if i in dead[s]) for s in (0, 1))
    return Resolution((points[0], points[1]), (dead_cards[0], dead_cards[1]), (pending[0], pending[1]),
                      tuple(takers), tuple(notes))
