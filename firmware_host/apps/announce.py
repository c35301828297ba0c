"""A computer's move put in words for every human, checked a slice at a time on the loop.

The words of a computer's move may be shown to every human only when they tell nobody a secret
(`public_steps`). Proving it applies every other move the seat had and every move it could have
made in up to MAX_VARIANTS hidden variants of the state per human: most moves take a fraction of a
millisecond, a few take tens on the table's host, fifteen times that on a Pi Zero 2 W. The check is
a generator; the table advances it STEP_UNITS units at a time (a unit: at most one move applied
and its views compared, one variant made), first with the move itself, then from the loop's idle
time and its ticks, so no single pass of the loop holds the screens and buttons for long.

While a move's words are checked, the messages that come after it for the seats wait behind it
(`Announcements.hold`): every seat reads them in the order of the moves, as when the words were
known at once. A message about what a player just did (`first`) goes ahead at once, as always.
The words of a move taken back meanwhile, or of a game left, are never shown.
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import Action, Game, IllegalAction, Text, tr
from games.texts import seat_label

log = logging.getLogger(__name__)

MAX_VARIANTS = 24  # hidden variants of a state read before a computer's move is said in words
STEP_UNITS = 4  # units of the check done in one pass of the loop (a unit: one move applied, at most)

Check = Generator[None, None, bool]


def public_steps(game: Game[Any, Any], state: Any, seat: int, action: Action, humans: Sequence[int]) -> Check:
    """The check, one unit per step: returns True when every human can tell this move from every
    other move the seat had (it shows on the board or a centre slot, or nothing about it is
    hidden): its words then tell nobody a secret. A card laid face down is not public even when
    the human knows the hand it came from.

    Which moves the seat had can be the secret itself (a single card left in a hand): the words
    must also read the same for every move it could have made in every state a human cannot tell
    from this one (the game's hidden variants) that leaves that human the same view."""
    mine = game.apply(state, seat, action).state
    seen = [game.view(mine, h) for h in humans]
    yield
    for other in game.legal_actions(state, seat):
        if other == action:
            continue
        try:
            after = game.apply(state, seat, other).state
        except IllegalAction:
            yield
            continue
        if any(game.view(after, h) == v for h, v in zip(humans, seen, strict=True)):
            return False
        yield
    words = game.describe_action(state, seat, action)
    for h, view in zip(humans, seen, strict=True):
        for variant in itertools.islice(game.hidden_variants(state, h), MAX_VARIANTS):
            yield  # a variant made (a game may work out all of them for the first)
            for other in game.legal_actions(variant, seat):
                try:
                    after = game.apply(variant, seat, other).state
                except IllegalAction:
                    yield
                    continue
                if game.view(after, h) == view and game.describe_action(variant, seat, other) != words:
                    return False
                yield
    return True


def advance(check: Check, units: int) -> tuple[bool | None, int]:
    """Run up to `units` units of `check`: (its answer, None while unfinished; the units used)."""
    for used in range(1, units + 1):
        try:
            next(check)
        except StopIteration as done:
            answer: bool = done.value
            return answer, used
    return None, units


def wording(game: Game[Any, Any], state: Any, seat: int, action: Action, public: bool) -> Text:
    """The computer's move as every human may read it: its words if public, else "J2 a joué"."""
    name = seat_label(seat)
    if public:
        what = game.describe_action(state, seat, action)
        return tr(f"{name.fr} : {what.fr}", f"{name.en}: {what.en}")
    return tr(f"{name.fr} a joué", f"{name.en} played")


class Seats(Protocol):
    """What the announcements need of the game in progress (the session)."""

    game: Game[Any, Any]
    moves: list[tuple[int, Action]]

    def humans(self) -> list[int]: ...
    def notify(self, audience: frozenset[int] | None, text: Text, first: bool = False,
               public: bool = False, urgent: bool = False) -> None: ...


@dataclass
class Wording:
    """A move whose words are being checked: `entry` is its item of the moves while it stands."""

    state: Any  # before the move
    seat: int
    action: Action
    at: int
    entry: tuple[int, Action]
    check: Check


@dataclass(frozen=True)
class Held:
    """A message for the seats that came after a move still being put in words."""

    audience: frozenset[int] | None
    text: Text
    public: bool
    urgent: bool


class Announcements:
    """The computers' moves still being put in words, in order, and the messages waiting behind them."""

    def __init__(self, play: Seats) -> None:
        self.play = play
        self.queue: deque[Wording | Held] = deque()
        self._saying = False  # the queue's own messages are being given to the seats
        self.told = 0  # messages given to the seats from the queue so far

    @property
    def pending(self) -> bool:
        """True while a move's words are still being checked."""
        return any(isinstance(x, Wording) for x in self.queue)

    def add(self, state: Any, seat: int, action: Action, units: int = STEP_UNITS) -> None:
        """Put in words the move just applied (the last of the moves), from `state` before it: the
        first units at once, the rest by `work`."""
        s = self.play
        check = public_steps(s.game, state, seat, action, s.humans())
        self.queue.append(Wording(state, seat, action, len(s.moves) - 1, s.moves[-1], check))
        self.work(units)

    def hold(self, audience: frozenset[int] | None, text: Text, first: bool, public: bool, urgent: bool) -> bool:
        """True when this message must wait behind a move still being put in words (kept here)."""
        if not self.queue or self._saying or first:
            return False
        self._drop_stale()
        if not self.queue:
            return False
        self.queue.append(Held(audience, text, public, urgent))
        return True

    def work(self, units: int = STEP_UNITS) -> bool:
        """Advance the first check by up to `units` units; say its words when done, then the
        messages behind it. True when there was something to do."""
        if not self.queue:
            return False
        self._drop_stale()
        while self.queue and units > 0:
            head = self.queue[0]
            if isinstance(head, Wording):
                try:
                    answer, used = advance(head.check, units)
                except Exception:  # a rules bug must not stop the table: the move is said without its words
                    log.error("%s: checking the words of a %r move failed", self.play.game.id,
                              head.action.get("type"), exc_info=True)
                    answer, used = False, units
                units -= used
                if answer is None:
                    return True
                self.queue.popleft()
                self._say(head, answer)
            self._release()
        return True

    def drop(self) -> None:
        """The game is left: nothing more is said."""
        self.queue.clear()

    def taken_back(self) -> None:
        """Moves were taken back: their checks are forgotten, the messages after them said now."""
        self._drop_stale()

    def _stands(self, w: Wording) -> bool:
        moves = self.play.moves
        return w.at < len(moves) and moves[w.at] is w.entry

    def _drop_stale(self) -> None:
        """Forget the checks of moves taken back; the messages after them are said at once."""
        if any(isinstance(x, Wording) and not self._stands(x) for x in self.queue):
            self.queue = deque(x for x in self.queue if not isinstance(x, Wording) or self._stands(x))
            self._release()

    def _release(self) -> None:
        """Give the seats the messages up to the next move still being checked."""
        s = self.play
        self._saying = True
        try:
            while self.queue and isinstance(self.queue[0], Held):
                held = self.queue.popleft()
                assert isinstance(held, Held)
                self.told += 1
                s.notify(held.audience, held.text, public=held.public, urgent=held.urgent)
        finally:
            self._saying = False

    def _say(self, w: Wording, public: bool) -> None:
        """The move's words for every human, and on its own seat's screen (which every human reads)."""
        s = self.play
        text = wording(s.game, w.state, w.seat, w.action, public)
        self.told += 1
        self._saying = True
        try:
            for x in s.humans():
                s.notify(frozenset({x}), text)
            s.notify(frozenset({w.seat}), text, public=True)
        finally:
            self._saying = False


def at_once(game: Game[Any, Any], state: Any, seat: int, action: Action, humans: Sequence[int]) -> Text:
    """The words of a move, the whole check run in one go (tests, benches)."""
    check = public_steps(game, state, seat, action, humans)
    answer: bool | None = None
    while answer is None:
        answer, _ = advance(check, 1 << 30)
    return wording(game, state, seat, action, answer)

