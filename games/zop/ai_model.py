"""A light model of one ZOP round for the computer player's playouts: lists, no effects.

The turn is scored by the game's own `games.zop.rules_reveal.resolve` (memoised: it is pure); this
module only moves cards as games/zop/flow.py and supply.py do: hands of four drawn from the
shuffled first pass then from the unshuffled discard, cards laid, blind exchanges, discards.
tests/games/zop/test_ai.py replays real games through both and compares them after every turn.

In the "sensed" table mode the table does not know the hands: a seat may lay any card it has
not played, and the model does the same (its "hand" is every card left). Blind exchanges are
then left out (the table only counts them), a simplification of the playouts only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from games.zop.pieces import Deck
from games.zop.rules_reveal import Resolution, resolve
from games.zop.state import TRACKED, Pending, ZopState

NO_PENDING: Final = Pending()
# the reveal of two sets of laid cards, by (cards of seat 0, cards of seat 1, pending of each)
ResolveKey = tuple[tuple[str, ...], tuple[str, ...], Pending, Pending]
# the same, each pending effect by its number in _PENDING_IDS: a playout's reveals look up tuples of
# strings and ints (a frozen dataclass hashes through a Python-level __hash__, a microsecond each)
TurnKey = tuple[tuple[str, ...], tuple[str, ...], int, int]
# what a reveal does to the model: points of each seat, pending of each, their numbers, the extra
# cards each owes next turn, the blind exchanges
Turn = tuple[int, int, Pending, Pending, int, int, int, int, tuple[tuple[int, str], ...]]
_PENDING_IDS: dict[Pending, int] = {}
# memos of `resolve` shared by every model of a deck (by id; the deck kept alive beside its memo):
# playouts meet the same few hundred pairs of cards over and over
_MEMOS: dict[int, tuple[Deck, dict[ResolveKey, Resolution]]] = {}
_TURNS: dict[int, tuple[Deck, dict[TurnKey, Turn]]] = {}
MEMO_LIMIT: Final = 100_000  # entries kept before a memo starts afresh (memory on the Pi)
# picks the next card to lay: (model, seat, choices) -> card
Picker = Callable[["RoundModel", int, list[str]], str]


def pending_id(pending: Pending) -> int:
    """A small number standing for a pending effect's value (equal values, equal numbers)."""
    number = _PENDING_IDS.get(pending)
    if number is None:
        number = _PENDING_IDS[pending] = len(_PENDING_IDS)
    return number


class SideModel:
    """One seat's cards in the round. `hand` excludes the cards laid this turn (in `laid`)."""

    __slots__ = ("hand", "pile", "shuffled", "discard", "laid", "pending", "points", "played")

    def __init__(self, hand: list[str], pile: list[str], shuffled: list[str], discard: list[str],
                 laid: list[str], pending: Pending, points: int, played: int):
        self.hand = hand
        self.pile = pile  # top first
        self.shuffled = shuffled  # the first pass, in the order the draws will come (popped from the end)
        self.discard = discard  # bottom first
        self.laid = laid
        self.pending = pending
        self.points = points
        self.played = played

    def copy(self) -> SideModel:
        """An independent copy."""
        return SideModel(self.hand[:], self.pile[:], self.shuffled[:], self.discard[:], self.laid[:],
                         self.pending, self.points, self.played)

    def out_of_cards(self) -> bool:
        """True when the seat has nothing left to lay this round."""
        return not (self.hand or self.laid or self.pile or self.shuffled or self.discard)


class RoundModel:
    """The round being played, from the start of a turn's commit to the end of the round."""

    __slots__ = ("deck", "tracked", "sides", "turn", "_memo", "_extra", "_turns", "_kinds")

    def __init__(self, deck: Deck, tracked: bool, sides: list[SideModel], turn: int,
                 memo: dict[ResolveKey, Resolution] | None = None):
        self.deck = deck
        self.tracked = tracked
        self.sides = sides
        self.turn = turn
        self._memo: dict[ResolveKey, Resolution] = {} if memo is None else memo
        self._extra = same_turn_extra(deck)
        self._turns = turn_memo(deck)
        self._kinds = card_kinds(deck)

    def copy(self) -> RoundModel:
        """An independent copy (the resolve memo is shared: it only caches a pure function)."""
        return RoundModel(self.deck, self.tracked, [s.copy() for s in self.sides], self.turn, self._memo)

    # -- the commit ----------------------------------------------------------------------------
    def required(self, seat: int) -> int:
        """Cards `seat` lays this turn (games.zop.rules_supply.required)."""
        side = self.sides[seat]
        wanted = 1 + side.pending.extra
        extra = self._extra
        for piece in side.laid:
            wanted += extra.get(piece, 0)
        return min(wanted, len(side.hand) + len(side.laid))

    def lay(self, seat: int, card: str) -> None:
        """`seat` lays `card` from its hand (sensed mode: a card received by exchange is not in the
        model's hand, and is laid all the same)."""
        side = self.sides[seat]
        if card in side.hand:
            side.hand.remove(card)
        side.laid.append(card)

    def fill(self, seat: int, pick: Picker) -> None:
        """`seat` lays cards chosen by `pick` until it has laid what it must."""
        side = self.sides[seat]
        while len(side.laid) < self.required(seat):
            side.hand.remove(card := pick(self, seat, side.hand))
            side.laid.append(card)

    def resolution(self) -> Resolution:
        """The reveal of the cards laid (memoised games.zop.rules_reveal.resolve)."""
        a, b = self.sides
        key = (tuple(a.laid), tuple(b.laid), a.pending, b.pending)
        res = self._memo.get(key)
        if res is None:
            res = self._memo[key] = resolve(self.deck, (key[0], key[1]), (a.pending, b.pending))
        return res

    def _turn(self, key: TurnKey) -> Turn:
        """The reveal of the cards laid as the model applies it (memoised by `key`)."""
        turn = self._turns.get(key)
        if turn is None:
            a, b = self.sides
            res = resolve(self.deck, (key[0], key[1]), (a.pending, b.pending))
            pa, pb = res.pending
            turn = self._turns[key] = (res.points[0], res.points[1], pa, pb, pending_id(pa), pending_id(pb),
                                       pa.extra, pb.extra, res.exchanges)
        return turn

    # -- the reveal and after ------------------------------------------------------------------
    def reveal(self, rng: random.Random, give: Picker) -> None:
        """Score the laid cards, make the blind exchanges, end the turn and deal the next one."""
        a, b = self.sides
        turn = self._turn((tuple(a.laid), tuple(b.laid), pending_id(a.pending), pending_id(b.pending)))
        a.points += turn[0]
        b.points += turn[1]
        a.pending, b.pending = turn[2], turn[3]
        for side in self.sides:
            side.played += len(side.laid)
            side.laid = []
        if self.tracked:
            for taker, card in turn[8]:
                self.exchange(taker, card, rng, give)
        self.end_turn(rng)

    def exchange(self, taker: int, card: str, rng: random.Random, give: Picker) -> None:
        """A blind exchange (games.zop.rules_transition.next_exchange, blind_take and give)."""
        ability = self.deck.card(card).ability
        assert ability is not None
        refuse = ability.refuse
        kinds = self._kinds
        mine, theirs = self.sides[taker], self.sides[1 - taker]
        takeable = [c for c in theirs.hand if kinds[c] not in refuse]
        gift = ability.give == "choice"
        giveable = [c for c in mine.hand if kinds[c] not in refuse]
        if not takeable or (gift and not giveable):
            return
        taken = takeable[int(rng.random() * len(takeable))]
        theirs.hand.remove(taken)
        mine.hand.append(taken)
        if gift:
            back = give(self, taker, giveable)
            mine.hand.remove(back)
            theirs.hand.append(back)

    def end_turn(self, rng: random.Random) -> None:
        """Unplayed cards to the discard, then the next turn's hands (games.zop.rules_transition.end_turn)."""
        if self.tracked:
            for side in self.sides:
                side.discard.extend(side.hand)
                side.hand = []
        if self.over():
            return
        self.turn += 1
        if self.tracked:
            hand_size = self.deck.hand_size
            for side in self.sides:
                _draw(side, hand_size)

    def over(self) -> bool:
        """True once both seats have laid every card of the round."""
        return self.sides[0].out_of_cards() and self.sides[1].out_of_cards()

    def play_out(self, rng: random.Random, pick: Picker, give: Picker) -> None:
        """Finish the round (from a turn's commit) with `pick` choosing every card."""
        if isinstance(pick, UniformPicker) and not self._extra:
            self._play_out_uniform(pick.rng, rng, give)
            return
        while not self.over():
            self.fill(0, pick)
            self.fill(1, pick)
            self.reveal(rng, give)

    def _play_out_uniform(self, cards: random.Random, rng: random.Random, give: Picker) -> None:
        """`play_out` with uniformly random cards drawn from `cards` and no card that makes its
        seat lay more the same turn: fill, reveal and end_turn inlined, the same draws in the same
        order (tests/games/zop/test_ai_model_fast.py holds it to the general loop)."""
        a, b = self.sides
        if a.out_of_cards() and b.out_of_cards():
            return
        draw = cards.random
        turns, tracked, hand_size = self._turns, self.tracked, self.deck.hand_size
        ida, idb = pending_id(a.pending), pending_id(b.pending)
        extra_a, extra_b = a.pending.extra, b.pending.extra
        # the first turn may have cards laid already; card ids are unique: pop(i) = remove(hand[i])
        for side, extra in ((a, extra_a), (b, extra_b)):
            hand, laid = side.hand, side.laid
            need = min(1 + extra, len(hand) + len(laid))
            while len(laid) < need:
                laid.append(hand.pop(int(draw() * len(hand))))
        laid_a, laid_b = tuple(a.laid), tuple(b.laid)
        a.laid, b.laid = [], []
        while True:
            turn = turns.get((laid_a, laid_b, ida, idb))
            if turn is None:
                turn = self._turn((laid_a, laid_b, ida, idb))
            gain_a, gain_b, a.pending, b.pending, ida, idb, extra_a, extra_b, exchanges = turn
            a.points += gain_a
            b.points += gain_b
            a.played += len(laid_a)
            b.played += len(laid_b)
            if tracked:
                for taker, card in exchanges:
                    self.exchange(taker, card, rng, give)
                a.discard.extend(a.hand)
                b.discard.extend(b.hand)
                a.hand, b.hand = [], []
            if not (a.hand or a.pile or a.shuffled or a.discard or b.hand or b.pile or b.shuffled or b.discard):
                return
            self.turn += 1
            if tracked:
                _draw(a, hand_size)
                _draw(b, hand_size)
            hand = a.hand
            if extra_a:
                laid_a = tuple([hand.pop(int(draw() * len(hand))) for _ in range(min(1 + extra_a, len(hand)))])
            else:
                laid_a = (hand.pop(int(draw() * len(hand))),) if hand else ()
            hand = b.hand
            if extra_b:
                laid_b = tuple([hand.pop(int(draw() * len(hand))) for _ in range(min(1 + extra_b, len(hand)))])
            else:
                laid_b = (hand.pop(int(draw() * len(hand))),) if hand else ()

    def margin(self, seat: int) -> int:
        """`seat`'s points minus the opponent's in this round."""
        return self.sides[seat].points - self.sides[1 - seat].points


def _draw(side: SideModel, hand_size: int) -> None:
    """Fill an empty hand: the pile's top first, then the shuffled first pass (from its end),
    then the discard turned over into the pile (bottom card first) when both are out."""
    pile = side.pile
    hand = pile[:hand_size]
    del pile[:hand_size]
    need = hand_size - len(hand)
    if need:
        shuffled = side.shuffled
        if shuffled:
            taken = shuffled[-need:]
            del shuffled[-need:]
            taken.reverse()
            hand += taken
            need = hand_size - len(hand)
        if need and side.discard:  # the pile and the first pass are both out
            side.pile = pile = side.discard[::-1]
            side.discard = []
            hand += pile[:need]
            del pile[:need]
    side.hand = hand


class UniformPicker:
    """A picker choosing any card with equal chance (`RoundModel.play_out` draws its cards itself,
    with the same numbers from the same generator)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def __call__(self, model: RoundModel, seat: int, choices: list[str]) -> str:
        """One of `choices`, any with equal chance."""
        return choices[int(self.rng.random() * len(choices))]


def uniform_picker(rng: random.Random) -> Picker:
    """A picker choosing any card with equal chance."""
    return UniformPicker(rng)


def from_state(deck: Deck, state: ZopState, rng: random.Random) -> RoundModel:
    """The model of a state's round at a turn's commit; the shuffled first pass in a random order.

    Sensed mode: a seat's hand is every card of its deck not played nor laid (blind exchanges are
    not modelled there).
    """
    tracked = state.mode == TRACKED
    taken = {c for s in state.sides for c in s.line + s.laid}
    sides = []
    for seat, side in enumerate(state.sides):
        if tracked:
            hand = [c for c in side.hand if c not in side.laid]
            shuffled = list(side.shuffled)
            rng.shuffle(shuffled)
            model = SideModel(hand, list(side.pile), shuffled, list(side.discard), list(side.laid),
                              side.pending, side.points, len(side.line))
        else:
            hand = [c for c in deck.ids(deck.set_of_seat(seat)) if c not in taken]
            model = SideModel(hand, [], [], [], list(side.laid), side.pending, side.points, len(side.line))
        sides.append(model)
    return RoundModel(deck, tracked, sides, state.turn, shared_memo(deck))


_EXTRA: dict[int, tuple[Deck, dict[str, int]]] = {}


def same_turn_extra(deck: Deck) -> dict[str, int]:
    """Cards of `deck` that make their player lay more cards this very turn, and how many more."""
    entry = _EXTRA.get(id(deck))
    if entry is None or entry[0] is not deck:
        extra: dict[str, int] = {}
        for piece in deck.all_ids():
            ability = deck.card(piece).ability
            if ability is not None and ability.kind == "extra_cards" and ability.timing == "same_turn":
                extra[piece] = ability.count
        entry = _EXTRA[id(deck)] = (deck, extra)
    return entry[1]


_KINDS: dict[int, tuple[Deck, dict[str, str]]] = {}


def card_kinds(deck: Deck) -> dict[str, str]:
    """Each card of `deck` by id: its effect's kind (what a blind exchange may refuse)."""
    entry = _KINDS.get(id(deck))
    if entry is None or entry[0] is not deck:
        entry = _KINDS[id(deck)] = (deck, {piece: deck.card(piece).kind for piece in deck.all_ids()})
    return entry[1]


def turn_memo(deck: Deck) -> dict[TurnKey, Turn]:
    """The memo of the model's reveals for `deck`, shared by its models (emptied when too big)."""
    entry = _TURNS.get(id(deck))
    if entry is None or entry[0] is not deck:
        entry = _TURNS[id(deck)] = (deck, {})
    elif len(entry[1]) > MEMO_LIMIT:
        entry[1].clear()
    return entry[1]


def shared_memo(deck: Deck) -> dict[ResolveKey, Resolution]:
    """The memo of `resolve` shared by the models of `deck` (emptied when it grows too big)."""
    entry = _MEMOS.get(id(deck))
    if entry is None or entry[0] is not deck:
        entry = _MEMOS[id(deck)] = (deck, {})
    elif len(entry[1]) > MEMO_LIMIT:
        entry[1].clear()
    return entry[1]
