"""What a ZOP seat knows, and full states drawn consistently with it (determinizations).

From its view a seat knows its own cards and every public fact: the lines of played cards, the
blind exchanges both players watched (which card went where, in the deck model), the points,
the pending effects and the opponent's counts (hand, pile, discard, cards laid). It does not
know which of the opponent's remaining cards lie in hand, pile or discard, nor the card(s) the
opponent laid face down. `sample_state` deals those at random, within every public constraint.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.core import evolve
from games.zop import rules_supply as supply
from games.zop.ai_model import RoundModel, SideModel, shared_memo
from games.zop.pieces import Deck
from games.zop.state import (
    DRAW,
    EXCHANGE,
    GIVE,
    TRACKED,
    ExchangeStep,
    Side,
    ZopState,
    other,
    with_side,
)
from games.zop.views import ZopView


@dataclass(frozen=True)
class Knowledge:
    """The facts of a view the determinizations need, computed once per decision."""

    seat: int
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    received: tuple[int, int]
    given: tuple[int, int]
    opp_pool: tuple[str, ...]  # deck model: every card the opponent holds (laid ones included), sorted
    opp_in_hand: tuple[str, ...]  # deck model: cards known to be in the opponent's hand now
    # deck model: the opponent still draws from its shuffled first pass (twenty cards, four drawn
    # at the start of each turn: blind exchanges move cards between hands, never into the pass)
    opp_first_pass: bool
    exchange: ExchangeStep | None
    exchange_queue: tuple[tuple[int, str], ...]
    exposed: tuple[str, ...]


def _exchanges_of(deck: Deck, view: ZopView) -> list[tuple[int, str]]:
    """Blind exchanges the last reveal started (games.zop.rules_reveal order): (taker, Échange card)."""
    if not view.turns:
        return []
    record = view.turns[-1]
    return [(s, c) for s in (0, 1) for c in record.cards[s]
            if deck.card(c).kind == "blind_exchange" and c not in record.cancelled[s]]


def _gift(deck: Deck) -> bool:
    """Whether an Échange card gives a card back (sensed mode counts it without seeing cards)."""
    return any(c.ability is not None and c.ability.kind == "blind_exchange" and c.ability.give == "choice"
               for c in deck.cards)


def _first_pass(deck: Deck, view: ZopView, seat: int) -> bool:
    """Deck model: whether `seat` still has cards in its shuffled first pass."""
    drawn_now = (view.sides[seat].hand_size or 0) if view.phase == DRAW else deck.hand_size
    return len(deck.cards) - deck.hand_size * (view.turn - 1) - drawn_now > 0


def knowledge(deck: Deck, view: ZopView, seat: int) -> Knowledge:
    """The facts of `view` (the view of `seat`) that determinizations are built from."""
    opp = other(seat)
    lines = (tuple(c for r in view.turns for c in r.cards[0]), tuple(c for r in view.turns for c in r.cards[1]))
    received, given = [0, 0], [0, 0]
    held: set[str] = set(deck.ids(deck.set_of_seat(opp)))
    exposed: list[str] = []
    gift = _gift(deck)
    for sw in view.swaps:
        victim = other(sw.taker)
        received[sw.taker] += 1
        given[victim] += 1
        gave = sw.given is not None if view.mode == TRACKED else gift
        if gave:
            given[sw.taker] += 1
            received[victim] += 1
        for card, to in ((sw.taken, sw.taker), (sw.given, victim)):
            if card is None:
                continue
            if to == opp:
                held.add(card)
            else:
                held.discard(card)
            if card not in exposed:
                exposed.append(card)
    in_hand: list[str] = []
    exchange = None
    queue: tuple[tuple[int, str], ...] = ()
    if view.phase == EXCHANGE and view.exchange is not None:
        ex = view.exchange
        started = _exchanges_of(deck, view)
        done = sum(1 for sw in view.swaps if sw.turn == view.turn)
        index = next((i for i, (t, _) in enumerate(started) if t == ex.taker and i >= done),
                     next((i for i, (t, _) in enumerate(started) if t == ex.taker), 0))
        card = started[index][1] if started else ""
        queue = tuple(started[index + 1:])
        exchange = ExchangeStep(ex.taker, card, ex.stage, ex.taken)
        if ex.stage == GIVE and ex.taken is not None:
            # the card just taken blindly: in the taker's hand, known to both players
            if ex.taker == opp:
                held.add(ex.taken)
                in_hand.append(ex.taken)
            else:
                held.discard(ex.taken)
            if ex.taken not in exposed:
                exposed.append(ex.taken)
    played = set(lines[0]) | set(lines[1])
    pool = tuple(sorted(held - played))
    me = view.me
    assert me is not None, "a seat's view"
    return Knowledge(seat, lines, (received[0], received[1]), (given[0], given[1]),
                     pool if view.mode == TRACKED else (), tuple(in_hand), _first_pass(deck, view, opp), exchange, queue, tuple(c for c in exposed if c not in played))


def _own_side(view: ZopView, k: Knowledge) -> Side:
    me = view.me
    assert me is not None
    pub = view.sides[k.seat]
    base = Side(laid=me.laid, line=k.lines[k.seat], pending=pub.pending, points=pub.points,
                received=k.received[k.seat], given=k.given[k.seat])
    if view.mode != TRACKED:
        return base
    return evolve(base, hand=me.hand, shuffled=me.unseen, pile=me.pile, discard=me.discard)


def _opp_side_tracked(view: ZopView, k: Knowledge, rng: random.Random) -> Side:
    opp = other(k.seat)
    pub = view.sides[opp]
    hand_size, pile_size, discard_size = pub.hand_size or 0, pub.pile_size or 0, pub.discard_size or 0
    if len(k.opp_pool) != hand_size + pile_size + discard_size:
        raise ValueError(f"inconsistent ZOP view: the opponent holds {len(k.opp_pool)} cards, "
                         f"counts say {hand_size + pile_size + discard_size}")
    rest = [c for c in k.opp_pool if c not in k.opp_in_hand]
    rng.shuffle(rest)
    free = hand_size - len(k.opp_in_hand)
    hand = list(rest[:free])
    laid = tuple(hand[:pub.laid_count])  # laid cards are hand cards the in-hand ones are not among
    hand = hand + list(k.opp_in_hand)
    rng.shuffle(hand)
    pile = rest[free:free + pile_size]
    discard = tuple(rest[free + pile_size:])
    shuffled: tuple[str, ...] = ()
    if k.opp_first_pass:
        shuffled, pile = tuple(sorted(pile)), []
    return Side(hand=tuple(hand), shuffled=shuffled, pile=tuple(pile), discard=discard, laid=laid,
                line=k.lines[opp], pending=pub.pending, points=pub.points,
                received=k.received[opp], given=k.given[opp])


def sample_state(deck: Deck, view: ZopView, seat: int, rng: random.Random, k: Knowledge | None = None) -> ZopState:
    """A full state giving `seat` exactly `view`: the opponent's unknown cards dealt at random."""
    k = knowledge(deck, view, seat) if k is None else k
    opp = other(seat)
    mine = _own_side(view, k)
    pub = view.sides[opp]
    if view.mode == TRACKED:
        theirs = _opp_side_tracked(view, k, rng)
    else:
        theirs = Side(line=k.lines[opp], pending=pub.pending, points=pub.points,
                      received=k.received[opp], given=k.given[opp])
    sides = (mine, theirs) if seat == 0 else (theirs, mine)
    review = (view.review, 1) if seat == 0 else (1, view.review)
    state = ZopState(mode=view.mode, round_no=view.round_no, label=view.label, turn=view.turn, phase=view.phase,
                     sides=sides, turns=view.turns, exchange=k.exchange, exchange_queue=k.exchange_queue,
                     swaps=view.swaps, exposed=k.exposed, results=view.results, review=review)
    if view.mode != TRACKED:
        # the sensed table knows only what lies on the pads: the opponent's face-down cards are
        # any it could have laid, one after the other
        for _ in range(pub.laid_count):
            side = state.sides[opp]
            options = supply.layable(deck, state, opp)
            if not options:
                raise ValueError("inconsistent ZOP view: the opponent laid a card it cannot have")
            state = with_side(state, opp, evolve(side, laid=side.laid + (options[int(rng.random() * len(options))],)))
    return state


# random.Random.shuffle's steps for a list of each length: (index, bound, bits of the bound)
_STEPS: list[tuple[tuple[int, int, int], ...]] = []


def shuffler(rng: random.Random) -> Callable[[list[str]], None]:
    """`rng.shuffle`, for a plain random.Random without its call per step: CPython's algorithm
    (random.Random.shuffle and _randbelow_with_getrandbits), the same numbers drawn, the same order
    made (a subclass of Random may draw otherwise: its own shuffle then)."""
    if type(rng) is not random.Random:
        return rng.shuffle
    getrandbits = rng.getrandbits

    def shuffle(x: list[str]) -> None:
        size = len(x)
        while len(_STEPS) <= size:
            n = len(_STEPS)
            _STEPS.append(tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, n))))
        for i, bound, bits in _STEPS[size]:
            j = getrandbits(bits)
            while j >= bound:
                j = getrandbits(bits)
            x[i], x[j] = x[j], x[i]
    return shuffle


class Dealer:
    """Deck model: `sample_state` then `games.zop.ai_model.from_state`, the opponent's face-down
    cards back in its hand (the flat search's determinization at a commit), straight into a round
    model. What the view fixes is worked out once; each deal shuffles the same lists in the same
    order with the same generator, so it draws the same numbers and deals the same cards
    (tests/games/zop/test_ai_model_fast.py compares both ways)."""

    def __init__(self, deck: Deck, view: ZopView, seat: int, k: Knowledge):
        if view.mode != TRACKED:
            raise ValueError("a Dealer deals the deck model only")
        me = view.me
        assert me is not None, "a seat's view"
        opp = other(seat)
        mine, pub = view.sides[seat], view.sides[opp]
        self.deck = deck
        self.seat = seat
        self.turn = view.turn
        self.hand = [c for c in me.hand if c not in me.laid]
        self.pile, self.unseen, self.discard, self.laid = list(me.pile), list(me.unseen), list(me.discard), list(me.laid)
        self.mine = (mine.pending, mine.points, len(k.lines[seat]))
        self.theirs = (pub.pending, pub.points, len(k.lines[opp]))
        self.rest = [c for c in k.opp_pool if c not in k.opp_in_hand]
        self.in_hand = list(k.opp_in_hand)
        self.free = (pub.hand_size or 0) - len(k.opp_in_hand)
        self.laid_count = pub.laid_count
        self.pile_end = self.free + (pub.pile_size or 0)
        self.first_pass = k.opp_first_pass

    def deal(self, rng: random.Random) -> RoundModel:
        """A determinization at the commit (games.zop.ai._at_commit's, for the same generator)."""
        shuffle = shuffler(rng)
        rest = self.rest[:]
        shuffle(rest)
        free = self.free
        dealt = rest[:free]
        laid = dealt[:self.laid_count]
        hand = dealt + self.in_hand
        shuffle(hand)
        pile = rest[free:self.pile_end]
        shuffled: list[str] = []
        if self.first_pass:
            shuffled, pile = sorted(pile), []
        unseen = self.unseen[:]
        # from_state shuffles each seat's first pass in seat order
        if self.seat == 0:
            shuffle(unseen)
            shuffle(shuffled)
        else:
            shuffle(shuffled)
            shuffle(unseen)
        theirs = SideModel([c for c in hand if c not in laid] + laid, pile, shuffled, rest[self.pile_end:], [],
                           *self.theirs)
        mine = SideModel(self.hand[:], self.pile[:], unseen, self.discard[:], self.laid[:], *self.mine)
        sides = [mine, theirs] if self.seat == 0 else [theirs, mine]
        return RoundModel(self.deck, True, sides, self.turn, shared_memo(self.deck))
