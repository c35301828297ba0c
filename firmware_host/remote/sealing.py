"""The joining table's cards laid face down in a game whose reveal is shared (ZOP across tables):
what it sends for them, and how it reads them back in the host's moves.

A card laid here crosses as a placeholder only (games/zop/rules_sealed.py: "#" and the SHA-256 of a salt
and the card), taken back as that placeholder, and opened (the card and its salt) once the host's
game says every card of the turn is laid: from then on the host's players cannot change theirs,
and the card must be the one laid. Each salt is an HMAC of this table's secret (random at the
join, kept in its journal) and of the number of the journal entry that laid the card: after a power
cut the table finds every salt again, and no two cards laid ever share one (the host never learns
that a card laid again is the one taken back).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

from games.core import Action, Game, IllegalAction
from games.zop.rules_sealed import SALT_BYTES, is_sealed, placeholder

Moves = list[tuple[int, Action]]


class Sealer:
    """This table's commitments to the cards its `seats` laid face down, from its `secret` (None: a
    journal without one: its cards cross as they are, and no placeholder is read as one of them)."""

    def __init__(self, secret: bytes | None, seats: Iterable[int]):
        self.secret = secret
        self.seats = frozenset(seats)
        self.known: dict[str, tuple[str, bytes]] = {}  # placeholder -> (card, salt)
        self.held: dict[str, str] = {}  # card -> the placeholder the host holds (or was sent) for it

    def salt(self, entry: int) -> bytes:
        """The salt of the card laid by journal entry `entry`."""
        assert self.secret is not None
        return hmac.new(self.secret, b"zop-salt:%d" % entry, hashlib.sha256).digest()[:SALT_BYTES]

    def learn(self, history: Iterable[tuple[int, Action]]) -> None:
        """The commitments of every card this table's seats laid (its journal's entries, in order)."""
        if self.secret is None:
            return
        for entry, (seat, action) in enumerate(history):
            if seat in self.seats and action.get("type") == "commit" and isinstance(action.get("card"), str) \
                    and not is_sealed(action["card"]):
                self._commit(action["card"], entry)

    def _commit(self, card: str, entry: int) -> str:
        salt = self.salt(entry)
        sealed = placeholder(card, salt)
        self.known[sealed] = (card, salt)
        return sealed

    def sent(self, seat: int, action: Action, entry: int) -> Action:
        """What crosses for this table's move `action` of `seat`, journal entry `entry`: a card laid
        or taken back as its placeholder, anything else as it is."""
        kind, card = action.get("type"), action.get("card")
        if seat not in self.seats or not isinstance(card, str) or self.secret is None:
            return dict(action)
        if kind == "commit":
            self.held[card] = self._commit(card, entry)
            return {"type": "commit", "card": self.held[card]}
        if kind == "withdraw" and card in self.held:
            return {"type": "withdraw", "card": self.held[card]}
        return dict(action)

    def card(self, sealed: str) -> str:
        """The card behind one of this table's placeholders (ValueError: not one of its own)."""
        found = self.known.get(sealed)
        if found is None:
            raise ValueError("a placeholder this table never sent")
        return found[0]

    def plain(self, told: Moves) -> Moves:
        """The host's moves as this table's engine holds them: its placeholders as its cards, the
        openings left out (its own engine reveals as soon as every card is laid)."""
        out: Moves = []
        for seat, action in told:
            kind, card = action.get("type"), action.get("card")
            if seat in self.seats and kind == "open":
                continue
            if seat in self.seats and kind in ("commit", "withdraw") and is_sealed(card):
                real = self.card(card)
                if kind == "commit":
                    self.held[real] = card
                action = {"type": kind, "card": real}
            out.append((seat, action))
        return out

    def names(self, move: tuple[int, Action], moves: Moves) -> bool:
        """True when `move` of this table's is in `moves` as its placeholder (or as it is)."""
        seat, action = move
        return move in moves or any(
            s == seat and a.get("type") == action.get("type") and is_sealed(a.get("card"))
            and self.known.get(str(a.get("card")), ("",))[0] == action.get("card") for s, a in moves)

    def opening(self, game: Game[Any, Any], state: Any) -> tuple[int, Action] | None:
        """The opening the host's game waits for in `state` (its moves as told): the first of this
        table's placeholders still on its pad, with its seat, card and salt; None when none is waited for."""
        for seat in sorted(self.seats):
            if seat not in game.to_act(state):
                continue
            sealed = next((c for c in state.sides[seat].laid if is_sealed(c)), None)
            if sealed is not None and sealed in self.known:
                card, salt = self.known[sealed]
                action: Action = {"type": "open", "card": card, "salt": salt.hex()}
                if game.check(state, seat, action) is None:
                    return seat, action
        return None


def replay(game: Game[Any, Any], state: Any, moves: Moves, start: int, turn: int) -> tuple[Any, int]:
    """The state after `moves` (numbered from `start`) from `state`, and where the turn on the pads
    began (`turn`: where it began before them); ValueError when a move is refused."""
    for i, (seat, action) in enumerate(moves, start=start):
        try:
            state = game.apply(state, seat, action).state
        except IllegalAction as exc:
            raise ValueError(f"the host's moves as told: {exc.code}") from None
        if not any(side.laid for side in state.sides):  # nothing on the pads: what came before is settled
            turn = i + 1
    return state, turn
