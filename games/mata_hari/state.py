"""The immutable game state of Operation: Mata Hari and small pure helpers over it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.core import evolve
from games.mata_hari.pieces import card

# Phases of a turn.
DEAL = "deal"  # chance deals objectives and hands
OFFER = "offer"  # the active player lays 1-3 cards and declares
COUNTER = "counter"  # the others counter-offer; anyone accuses; the active player resolves
HITMAN = "hitman"  # the active player's Hitman was revealed: its demand
SWAP = "swap"  # the Hitman's victim substitutes demanded cards
DRAW = "draw"  # chance draws 2 cards for the active player who refused every offer
SETTLE = "settle"  # covers to take and pile picks to make before the next turn
OVER = "over"

# Status of a seat's offer in the current turn.
IDLE, COMPOSING, CONFIRMED, PASSED, WITHDRAWN = "idle", "composing", "confirmed", "passed", "withdrawn"

# Draft purposes: what the statement being built on a seat's buttons is for.
DECLARE, WANT, REQUIRE, HITMAN_DEMAND, ACCUSE = "declare", "want", "require", "hitman", "accuse"


@dataclass(frozen=True)
class Statement:
    """One statement: quantifier (q, n) + predicate (category, value)."""

    q: str
    n: int
    cat: str
    value: str | int


@dataclass(frozen=True)
class Draft:
    """A statement (or accusation) being built on a seat's buttons, step by step."""

    purpose: str
    q: str | None = None
    n: int = 0
    cat: str | None = None
    target: int | None = None  # accusation target


@dataclass(frozen=True)
class Demand:
    """The active player's request: free ("je voudrais") or binding ("j'exige")."""

    mode: str  # WANT | REQUIRE
    statement: Statement


@dataclass(frozen=True)
class Accusation:
    """A counter-espionage accusation of this turn and its verdict (public)."""

    accuser: int
    accused: int
    partner: str
    founded: bool


@dataclass(frozen=True)
class Seen:
    """An offer shown secretly to one seat (unfounded accusation)."""

    viewer: int
    owner: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Hitman:
    """The Hitman step of the turn: its victim and the demand made on it (None = not yet)."""

    victim: int
    demand: Statement | None = None
    waived: bool = False  # the active player made no demand


@dataclass(frozen=True)
class End:
    """Why the game ended."""

    reason: str  # "visionary" | "pile" | "covers"
    seat: int | None = None
    value: int | None = None


@dataclass(frozen=True)
class SeatState:
    """One player's holdings and this turn's offer."""

    hand: tuple[str, ...] = ()  # sorted; includes the cards of the offer
    objective: str | None = None
    compromis: int = 0
    incognito: int = 0
    covers: tuple[str, ...] = ()  # cover pieces held (sides counted above)
    offer: tuple[str, ...] = ()  # in laying order
    statements: tuple[Statement, ...] = ()  # declaration about the offer
    status: str = IDLE
    draft: Draft | None = None
    loose: tuple[str, ...] = ()  # cards lying on the pad outside any offer, to be lifted
    picks: int = 0  # cards still to choose from the pile


@dataclass(frozen=True)
class MHState:
    """The whole game."""

    players: int
    seats: tuple[SeatState, ...]
    pile: tuple[str, ...]  # sorted; the order of the pile is chance
    objectives: tuple[str, ...]  # objectives not dealt yet (then: left in the box)
    stock: tuple[str, ...]  # covers left at the centre
    phase: str = DEAL
    active: int = 0
    turn: int = 1
    demand: Demand | None = None
    accusations: tuple[Accusation, ...] = ()
    seen: tuple[Seen, ...] = ()
    removed: tuple[str, ...] = ()  # partners revealed and removed from the game
    draws: int = 0  # chance draws still due to the active player
    # Seats that must take a Compromis cover, in the order the rules gave them: one at a time, so
    # the table knows who lifted a cover off the stock (and who took the last one).
    covers_due: tuple[int, ...] = ()
    hitman: Hitman | None = None
    exchanged_with: int | None = None  # the counter-offer accepted this turn
    end: End | None = None


def with_seat(state: MHState, i: int, **changes: object) -> MHState:
    """The state with seat i's fields changed."""
    seats = list(state.seats)
    seats[i] = evolve(seats[i], **changes)
    return evolve(state, seats=tuple(seats))


def add_cards(cards: Iterable[str], more: Iterable[str]) -> tuple[str, ...]:
    """A sorted hand with `more` added."""
    return tuple(sorted((*cards, *more)))


def remove_cards(cards: Iterable[str], gone: Iterable[str]) -> tuple[str, ...]:
    """The cards without `gone` (each once), order kept."""
    out = list(cards)
    for g in gone:
        out.remove(g)
    return tuple(out)


def offer_size(state: MHState) -> int:
    """k: how many cards the active player offered (counter-offers must match)."""
    return len(state.seats[state.active].offer)


def has_partner(cards: Iterable[str], kind: str) -> str | None:
    """The first partner card of this kind among cards, or None."""
    for c in cards:
        if card(c).partner == kind:
            return c
    return None


def may_lie(s: SeatState) -> bool:
    """A Double Agent in the offer lets its owner declare anything."""
    return has_partner(s.offer, "double-agent") is not None


def blocked(state: MHState, a: int, b: int) -> bool:
    """No exchange between a and b this turn (an unfounded accusation between them)."""
    return any(not x.founded and {x.accuser, x.accused} == {a, b} for x in state.accusations)


def pending(state: MHState) -> bool:
    """Covers still to take or pile picks still to make."""
    return bool(state.covers_due) or any(s.picks for s in state.seats)


def owed(state: MHState, seat: int) -> int:
    """How many Compromis covers the seat still has to take."""
    return state.covers_due.count(seat)


def owe_cover(state: MHState, seat: int) -> MHState:
    """The seat must take one more Compromis cover (after those already due)."""
    return evolve(state, covers_due=(*state.covers_due, seat))
