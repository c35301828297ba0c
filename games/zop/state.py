"""ZOP's immutable game state: per-seat card supply, the turn being laid, turn records, the match."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from games.core import evolve

TRACKED: Final = "tracked"  # full deck model: piles, draws (chance), hands, discards
SENSED: Final = "sensed"  # physical play: the table only knows the cards laid on the pads
MODES: Final = (SENSED, TRACKED)
ONE_TABLE: Final = "one"  # both players at one table: a blind exchange is made hand to hand
TWO_TABLES: Final = "two"  # a game across tables: a card exchanged stays at its owner's table
TABLES: Final = (ONE_TABLE, TWO_TABLES)

# phases
DRAW: Final = "draw"  # tracked only: chance draws from the first, shuffled pass of a pile
COMMIT: Final = "commit"  # both seats lay their card(s) face down on their pads
EXCHANGE: Final = "exchange"  # a blind exchange after the reveal
ROUND_END: Final = "round_end"  # the count of the round is shown; any seat starts the next one
OVER: Final = "over"

# rounds of the match
MANCHE: Final = "manche"
REVANCHE: Final = "revanche"
BELLE: Final = "belle"

# exchange stages
TAKE: Final = "take"  # tracked: chance picks the card taken blindly
GIVE: Final = "give"  # tracked: the taker chooses the card given back
CONFIRM: Final = "confirm"  # sensed: the taker confirms the physical exchange (or that none was possible)
PICK: Final = "pick"  # two tables: the taker chooses blindly a place in the victim's shuffled hand
SHOW: Final = "show"  # two tables: the victim lays the card at that place on its pad, to be read


@dataclass(frozen=True)
class Pending:
    """Effects waiting for a seat's next card: a bonus, a multiplier, extra cards to lay."""

    boost: int = 0
    factor: int = 1
    extra: int = 0

    @property
    def empty(self) -> bool:
        """True when nothing is waiting."""
        return self == Pending()


@dataclass(frozen=True)
class Side:
    """One seat's cards during a round.

    Tracked mode uses hand/shuffled/pile/discard; sensed mode leaves them empty (hands unknown).
    hand: cards held this turn in draw order (laid cards included until the reveal).
    shuffled: the rest of the first, shuffled pass of the pile, as a sorted set: its order is
      unknown to everyone, so each draw from it is a chance event.
    pile: the pile once it is a recycled discard, top first (known order: never shuffled).
    discard: bottom first.
    laid: cards laid face down on the pad this turn, in the order laid (unrevealed).
    line: cards played this round, in order (face up on the table).
    received/given: cards moved by blind exchanges this round (counts, both modes).
    held: two tables: the cards of the other deck this seat received this round (they stay set
      aside at their owner's table; this seat lays them from its menu). Known to both players.
    """

    hand: tuple[str, ...] = ()
    shuffled: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    laid: tuple[str, ...] = ()
    line: tuple[str, ...] = ()
    pending: Pending = field(default_factory=Pending)
    points: int = 0
    received: int = 0
    given: int = 0
    held: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnRecord:
    """One revealed turn, public: the cards each seat laid, which were cancelled, the points."""

    turn: int
    cards: tuple[tuple[str, ...], tuple[str, ...]]
    cancelled: tuple[tuple[str, ...], tuple[str, ...]]
    points: tuple[int, int]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Swap:
    """A blind exchange done: known to both players (each saw the cards change hands)."""

    turn: int
    taker: int
    taken: str | None  # None in sensed mode (the table did not see it)
    given: str | None


@dataclass(frozen=True)
class ExchangeStep:
    """The blind exchange in progress."""

    taker: int
    card: str  # the Échange card played: its effect parameters (gift, refused kinds)
    stage: str
    taken: str | None = None
    slots: int = 0  # two tables: the cards the taker chooses among (the victim's hand, face down)
    slot: int = 0  # two tables: the place chosen, from 1
    shown: tuple[str, ...] = ()  # two tables: refused cards shown and taken back by the victim


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its name in the match, points, winner (None = tie), cards played."""

    label: str
    points: tuple[int, int]
    winner: int | None
    played: tuple[int, int]


@dataclass(frozen=True)
class ZopState:
    """The whole match. Seat 0 plays the first deck set, seat 1 the second."""

    mode: str
    round_no: int
    label: str
    turn: int
    phase: str
    sides: tuple[Side, Side]
    turns: tuple[TurnRecord, ...] = ()
    exchange: ExchangeStep | None = None
    exchange_queue: tuple[tuple[int, str], ...] = ()  # (taker, Échange card) still to do
    swaps: tuple[Swap, ...] = ()
    exposed: tuple[str, ...] = ()  # cards both players saw change hands, not yet played
    results: tuple[RoundResult, ...] = ()
    review: tuple[int, int] = (1, 1)  # round end: the turn each seat is reading in the count
    apart: bool = False  # the players sit at two tables: a blind exchange moves no card (rules_apart.py)


def with_side(state: ZopState, seat: int, side: Side) -> ZopState:
    """The state with one seat's side replaced."""
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return evolve(state, sides=sides)


def other(seat: int) -> int:
    """The opponent of a seat."""
    return 1 - seat
