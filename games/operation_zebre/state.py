"""Opération Zèbre's immutable state and the small helpers every rule module shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.core import evolve

COOP: Final = "coop"
COMPETITIVE: Final = "competitive"

# phases
SETUP: Final = "setup"  # chance draws the PROTOCOLE / MISSIONS card asked at random
PREPARE: Final = "prepare"  # choose and censor documents (simultaneous)
TRANSMIT: Final = "transmit"  # readers in turn
ECHEC: Final = "echec"  # chance draws an ÉCHEC card after a wrong answer (cooperative)
OVER: Final = "over"

# transmit steps
READ: Final = "read"  # competitive: the reader reads aloud once, then presses OK
WINDOW: Final = "window"  # competitive: the other team's 10-second interception window
GUESS: Final = "guess"  # hint and guess result on the reader's buttons
CHECK: Final = "check"  # competitive: waiting for the other team's secret interception check

# preparation stages of a reading
STAGE_CARD: Final = "card"  # a card lies on the pad, its side is to choose
STAGE_CENSOR: Final = "censor"  # censoring lines (known document) or entering the sum (unknown)
STAGE_READY: Final = "ready"  # censoring confirmed, its boxes ticked

# rulebook numbers (not data: printed in the rulebook itself)
INITIAL_HINT_TICKS: Final = 2
WRONG_ANSWER_TICKS: Final = 5  # competitive mode
INTERCEPTION_BOXES: Final = 6
INTERCEPTION_SECONDS: Final = 10.0
READERS_PER_TEAM: Final = 2
# table choices for entering values with the buttons (unknown documents)
MAX_SUM_ENTRY: Final = 30
MAX_LINE_ENTRY: Final = 6


def interception_points(ticks: int) -> int:
    """Interception points by the suspicion the reader ticked: 0–1 → 3, 2–3 → 2, 4+ → 1."""
    return 3 if ticks <= 1 else 2 if ticks <= 3 else 1


@dataclass(frozen=True)
class Track:
    """A suspicion track: `size` boxes, `ticked` of them ticked; competitive boxes carry values."""

    size: int
    ticked: int = 0
    values: tuple[int, ...] = ()

    @property
    def left(self) -> int:
        """Boxes still free."""
        return self.size - self.ticked

    @property
    def score(self) -> int:
        """The highest value among the boxes still visible (competitive), 0 when none."""
        return max(self.values[self.ticked:], default=0)

    def tick(self, n: int) -> tuple[Track, bool]:
        """Tick `n` boxes; True as second item when a box was needed and none was left."""
        if n > self.left:
            return evolve(self, ticked=self.size), True
        return evolve(self, ticked=self.ticked + n), False


@dataclass(frozen=True)
class Reading:
    """One reader's document this round.

    Private to the reader: card, side, document, hidden, mission (until the reading starts),
    erase_line. Public: stage (as preparing/ready), ticks once ready, and everything set when the
    reading is under way (started, category, hint, initial, erase_value, result, title).
    """

    seat: int
    stage: str = STAGE_CARD
    card: str | None = None  # "<deck>/<n>"; None = no tagged card
    side: str | None = None
    document: str | None = None  # known document id, None = values entered with the buttons
    hidden: tuple[bool, ...] = ()  # censored lines
    mission: int | None = None
    erase_line: int | None = None
    ticks: int = 0  # suspicion ticked for this document: censoring + hint
    started: bool = False
    category: str | None = None  # announced theme (known documents)
    hint: str | None = None  # "initial" | "erase"
    initial: str | None = None
    erase_value: int | None = None
    result: bool | None = None
    title: str | None = None  # revealed once the guess is entered


@dataclass(frozen=True)
class OZState:
    """The whole game. Readings are this round's, in the order their readers came forward."""

    mode: str
    players: int
    difficulty: str
    rounds: int
    tracks: tuple[Track, ...]  # cooperative: one shared track; competitive: team A, team B
    hints: bool = True
    round: int = 1
    phase: str = PREPARE
    echec_values: tuple[int, ...] = ()
    echec_limit: int = 0  # cards that may be drawn (fewer ÉCHEC cards = harder)
    echecs_drawn: tuple[int, ...] = ()  # indices into echec_values
    protocols: tuple[str, ...] = ()  # PROTOCOLE cards in play (one or several)
    mission_cards: tuple[str, ...] = ()  # MISSIONS SPÉCIALES cards in play (one or several)
    missions_done: tuple[bool, ...] = ()  # every mission of those cards, card after card
    draw_protocol: bool = False
    draw_missions: bool = False
    readings: tuple[Reading, ...] = ()
    order: tuple[int, ...] = ()  # reading order (seats) of this round's transmission
    turn: int = 0
    step: str = GUESS
    lock: bool | None = None  # competitive: interception written in time (None: window open)
    check: bool | None = None  # competitive: the other team's secret check of its interception
    interceptions: tuple[tuple[int, ...], ...] = ((), ())
    lost: int | None = None  # the team that lost at once (cooperative: 0)
    reason: str | None = None  # why the game ended: "suspicion", "echec", "missions", "rounds"

    @property
    def competitive(self) -> bool:
        """True in the two-team mode."""
        return self.mode == COMPETITIVE

    @property
    def reader(self) -> int | None:
        """The seat reading now, None outside the transmission."""
        if self.phase not in (TRANSMIT, ECHEC) or self.turn >= len(self.order):
            return None
        return self.order[self.turn]


def team_of(state: OZState, seat: int) -> int:
    """A seat's team: seats alternate A, B, A, B around the table; cooperative: 0."""
    return seat % 2 if state.competitive else 0


def team_seats(state: OZState, team: int) -> tuple[int, ...]:
    """Every seat of a team (cooperative: everyone)."""
    return tuple(s for s in range(state.players) if team_of(state, s) == team)


def track_of(state: OZState, seat: int) -> int:
    """Index of the suspicion track a seat ticks."""
    return team_of(state, seat)


def reading_index(state: OZState, seat: int) -> int | None:
    """Index of a seat's reading this round, None when it is not a reader."""
    for i, r in enumerate(state.readings):
        if r.seat == seat:
            return i
    return None


def reading_of(state: OZState, seat: int) -> Reading | None:
    """A seat's reading this round, None when it is not a reader."""
    i = reading_index(state, seat)
    return None if i is None else state.readings[i]


def with_reading(state: OZState, reading: Reading) -> OZState:
    """The state with one seat's reading replaced (or added at the end)."""
    i = reading_index(state, reading.seat)
    if i is None:
        return evolve(state, readings=state.readings + (reading,))
    return evolve(state, readings=state.readings[:i] + (reading,) + state.readings[i + 1:])


def without_reading(state: OZState, seat: int) -> OZState:
    """The state with a seat's reading removed."""
    return evolve(state, readings=tuple(r for r in state.readings if r.seat != seat))


def readers_of(state: OZState, team: int) -> tuple[Reading, ...]:
    """A team's readings this round (competitive)."""
    return tuple(r for r in state.readings if team_of(state, r.seat) == team)


def opponents(state: OZState, seat: int) -> tuple[int, ...]:
    """The seats of the other team (competitive)."""
    return team_seats(state, 1 - team_of(state, seat))


def echecs_left(state: OZState) -> tuple[int, ...]:
    """Indices of the ÉCHEC cards still in the deck."""
    return tuple(i for i in range(len(state.echec_values)) if i not in state.echecs_drawn)


def can_draw_echec(state: OZState) -> bool:
    """True while an ÉCHEC card may still be drawn."""
    return len(state.echecs_drawn) < state.echec_limit and bool(echecs_left(state))
