"""ZOP across tables: what the joining table is told when the cards are revealed.

Until the reveal, each card the host's player lays face down crosses as a stand-in (shadow.py).
At the reveal the rules show which cards lay on that pad, in the order laid: the stand-ins still on
the pad become those cards; a stand-in laid and taken back stays what it was (the card really
taken back was never shown, and never crosses).
"""

from __future__ import annotations

from typing import Any

from firmware_host.remote.shadow import Moves, Secrets
from games.core import Action, Game, IllegalAction


def settle(game: Game[Any, Any], start: Any, moves: Moves, real: Any, seats: frozenset[int]) -> Moves | None:
    """The moves from `start` that reach `real` as the joining seats may know them, or None."""
    if not real.turns:
        return None
    shown = real.turns[-1].cards  # the cards each seat laid, in the order laid (public once revealed)
    kept: dict[int, list[int]] = {}
    # cards on the pad at `start` crossed before it (a card laid face up by a special card's effect):
    # the revealed cards after them are the ones laid since
    before = {seat: len(start.sides[seat].laid) for seat in range(len(shown)) if seat not in seats}
    for i, (seat, action) in enumerate(moves):
        if seat in seats:
            continue
        stack = kept.setdefault(seat, [])
        if action.get("type") == "commit":
            stack.append(i)
        elif action.get("type") == "withdraw":
            if stack:
                stack.pop()
            elif before.get(seat, 0):
                before[seat] -= 1
    card_at = {i: shown[seat][before[seat] + j] for seat, stack in kept.items()
               if before[seat] + len(stack) == len(shown[seat]) for j, i in enumerate(stack)}
    if sum(len(stack) for stack in kept.values()) != len(card_at):
        return None
    state, out = start, []
    for i, (seat, action) in enumerate(moves):
        told = _told(game, state, seat, action, card_at.get(i)) if seat not in seats else action
        if told is None:
            return None
        try:
            state = game.apply(state, seat, told).state
        except IllegalAction:
            return None
        out.append((seat, told))
    return out


def _told(game: Game[Any, Any], state: Any, seat: int, action: Action, card: str | None) -> Action | None:
    """A hidden seat's move as told: a kept card as revealed, a card taken back as its stand-in."""
    kind = action.get("type")
    if card is not None:
        return {"type": "commit", "card": card}
    if kind == "withdraw":
        laid = state.sides[seat].laid
        return {"type": "withdraw", "card": laid[-1]} if laid else None
    if kind == "commit":  # laid, then taken back: its stand-in, or the first card it could lay here
        if game.check(state, seat, action) is None:
            return action
        return next((a for a in sorted(game.legal_actions(state, seat), key=lambda a: str(a.get("card")))
                     if a.get("type") == "commit"), None)
    return action


def prefer(game: Game[Any, Any], state: Any, seat: int, action: Action) -> int:
    """A card of the seat's own deck first as a stand-in: the other player never lays it."""
    card = action.get("card")
    deck: Any = getattr(game, "deck")  # noqa: B009 - ZOP's deck, which the Game contract does not name
    return 0 if isinstance(card, str) and deck.is_card(card) and deck.owner(card) == seat else 1


# each table senses its own cards (the tracked mode would deal both hands at the host); a blind
# exchange is made with cards that stay at their tables (games/zop/rules_apart.py)
SECRETS = Secrets(settle, prefer, {"deck": "sensed", "tables": "two"})
