"""Computer seats of a GameSession: when to think, what to do with the decision, hints.

A computer seat is a game seat (`ComputerSeats.levels`: seat -> level). It may sit at a free table
seat (its screen shows the public screen, "thinking…" and its moves) or at none. Its pad is
never sensed: its secret cards exist only in the table (see docs/architecture.md, *Computer
seats at the table*).

The computer is asked only with its own view (`game.view(state, seat)`), through a Thinker off the
loop. A decision that changes nothing on the sensed zones (a menu choice, a card only the table
holds) is applied at once and announced (its words once checked, a slice at a time:
firmware_host/apps/announce.py); one that moves a piece is applied too, and the table's usual
reconciliation guides a human to carry it out (the LED of the zone, "Posez … en C3" on every
seated screen) and refuses any other placement.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_host.apps.announce import Announcements, at_once
from firmware_host.apps.computer import CHOOSE, HINT_LEVEL, RANK, Job, Thinker
from games.core import CHANCE, Action, Game, GameConfig, Screen, Text, tr
from games.texts import seat_label

log = logging.getLogger(__name__)

# options a game needs with a computer seat: ZOP's computer holds its cards in the table only, so
# the table must track the decks (docs/games/zop.md, *Computer players*)
REQUIRED_OPTIONS: dict[str, dict[str, object]] = {"zop": {"deck": "tracked"}}
MAX_CHAIN = 500  # decisions applied in one step (an inline thinker, a computer-only stretch)


@dataclass
class Thinking:
    """A job under way: for `seat`, about `state` (a stale answer is dropped)."""

    seat: int
    kind: str
    state: Any
    future: Future[Any]
    since: float


def has_ai(game_id: str) -> bool:
    """True when the game has a computer player (its AI module is not imported to say so)."""
    from games.ai import has_ai as known

    return known(game_id)


def level_name(level: str) -> Text:
    """A level as the screens name it."""
    names = {"easy": tr("facile", "easy"), "greedy": tr("moyen", "medium"), "strong": tr("fort", "strong")}
    return names.get(level, Text(level, level))


def computer_name(seat: int) -> Text:
    """"J2 (ordinateur)"."""
    s = seat_label(seat)
    return tr(f"{s.fr} (ordinateur)", f"{s.en} (computer)")


class Play(Protocol):
    """What the computer seats need of the game in progress (the session)."""

    game: Game[Any, Any]
    config: GameConfig
    state: Any
    moves: list[tuple[int, Action]]
    history: list[tuple[int, Action]]
    whole_history: bool
    clock: Callable[[], float]

    @property
    def over(self) -> bool: ...
    def to_act(self) -> frozenset[int]: ...
    def humans(self) -> list[int]: ...
    def humans_to_act(self) -> frozenset[int]: ...
    def apply(self, seat: int, action: Action) -> bool: ...
    def notify(self, audience: frozenset[int] | None, text: Text, first: bool = False,
               public: bool = False, urgent: bool = False) -> None: ...
    def reconcile(self) -> None: ...


class ComputerSeats:
    """The game seats the computer plays, its thinking under way, and the hints it gave."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.levels: dict[int, str] = {}  # computer seat -> level
        self.seats: frozenset[int] = frozenset()  # = set(levels)
        self.hints = False  # human seats may ask the computer for a hint
        self.thinker: Thinker | None = None  # runs the computer's thinking off the loop
        self.thinking: Thinking | None = None  # the decision or hint under way
        self.wake: Callable[[], None] | None = None  # called (from any thread) when a job finished
        self.stuck: set[int] = set()  # computer seats that could not decide (said on the screens)
        self.hint_shown: dict[int, tuple[Any, Text]] = {}  # seat -> (the state it is about, the hint)
        self.stopped = False  # the game is left: no more thinking
        self.words = Announcements(play)  # the moves being put in words, in order

    def set(self, levels: Mapping[int, str], hints: bool) -> None:
        """Which game seats the computer plays, at which level, and whether hints are allowed."""
        self.levels = dict(levels)
        self.seats = frozenset(self.levels)
        self.hints = hints

    def thinking_text(self) -> Text | None:
        """"J2 réfléchit…" while a computer thinks, else None."""
        t = self.thinking
        if t is None or t.kind != CHOOSE:
            return None
        name = seat_label(t.seat)
        return tr(f"{name.fr} (ordinateur) réfléchit…", f"{name.en} (computer) is thinking…")

    # -- deciding --------------------------------------------------------------------------------
    def step(self) -> None:
        """Collect a finished decision (apply it), then start the next one that is due."""
        self.words.work()  # a slice of the check of a move's words, each pass of the loop
        if self.thinker is None:
            return
        for _ in range(MAX_CHAIN):
            if self.collect():  # a failed decision is asked again on the next pass, not at once
                return
            if not self.start():
                return
            if self.thinking is not None and not self.thinking.future.done():
                return

    def _due(self) -> int | None:
        """The computer seat that must decide now, if any (asked with its view only)."""
        s = self.play
        if not self.levels or s.over or self.stopped:
            return None
        from games.ai import needs_decision

        acting = s.to_act()
        seats: list[int] = sorted(x for x in acting if x != CHANCE and x in self.levels)
        if s.humans_to_act() and s.whole_history and not any(x != CHANCE for x, _ in s.history):
            # a set-up choice a human may make (who starts: whoever answers first, the others no
            # longer act) is the humans', never the computer's; a move all make at once is not
            seats = [x for x in seats if not self._takes_the_humans_turn(x)]
            if not seats:
                return None
        for seat in seats:
            if needs_decision(s.game.id, s.game.view(s.state, seat), seat):
                return seat
        # only computers to act and none with a real choice (a round end): the first one goes on
        if seats and CHANCE not in acting and all(x in self.levels for x in acting):
            return seats[0]
        return None

    def _takes_the_humans_turn(self, seat: int) -> bool:
        """True when a move of `seat` now would change what the humans to act may do (a race for a
        set-up choice: who starts), judged on the seat's first legal move; a move all make at once
        (a card laid face down by each) leaves theirs as it was."""
        s = self.play
        legal = s.game.legal_actions(s.state, seat)
        if not legal:
            return False
        after = s.game.apply(s.state, seat, legal[0]).state
        still = s.game.to_act(after)
        return any(h not in still or s.game.legal_actions(after, h) != s.game.legal_actions(s.state, h)
                   for h in s.humans_to_act())

    def start(self) -> bool:
        """Start thinking for the computer seat due, if any and if the thinker is free. True if started."""
        if self.thinking is not None or self.thinker is None:
            return False
        seat = self._due()
        if seat is None:
            return False
        s = self.play
        job = Job(s.game.id, s.game.view(s.state, seat), seat, self.levels[seat],
                  f"{s.config.seed}/{len(s.history)}/{seat}", CHOOSE)
        self.thinking = Thinking(seat, CHOOSE, s.state, self._submit(job), s.clock())
        return True

    def _submit(self, job: Job) -> Future[Any]:
        assert self.thinker is not None
        fut = self.thinker.submit(job)
        if self.wake is not None and not fut.done():
            wake = self.wake
            fut.add_done_callback(lambda _f: wake())  # on the worker's thread: only posts an event
        return fut

    def collect(self) -> bool:
        """Apply (or show, for a hint) the finished job; a stale or failed one is dropped. True
        when the job failed."""
        t = self.thinking
        if t is None or not t.future.done():
            return False
        s = self.play
        self.thinking = None
        try:
            answer = t.future.result()
        except Exception as exc:  # the table keeps answering
            log.warning("computer seat %s could not decide: %s", t.seat, type(exc).__name__)
            s.notify(frozenset(s.humans()), tr(f"{seat_label(t.seat).fr} (ordinateur) ne peut pas jouer : {exc}",
                                               f"{seat_label(t.seat).en} (computer) cannot play: {exc}"))
            if t.kind == CHOOSE:
                self.stuck.add(t.seat)
            return True
        if t.state is not s.state:  # the game moved on meanwhile (an undo, another seat): think again
            return False
        if t.kind == RANK:
            self._show_hint(t.seat, answer)
            return False
        log.info("computer seat %s plays %s after %.2f s", t.seat, answer.get("type"), s.clock() - t.since)
        self.decide(t.seat, answer)
        return False

    def decide(self, seat: int, action: Action) -> None:
        """Apply the computer's decision, let reconciliation guide its pieces, and put it in words
        for every human (the check goes on from the loop's idle time when it is long)."""
        s = self.play
        before = s.state
        if not s.apply(seat, action):  # never expected: the AI only answers legal actions
            self.stuck.add(seat)
            return
        self.words.add(before, seat, action)
        s.reconcile()

    def announcement(self, state: Any, seat: int, action: Action) -> Text:
        """The computer's move as every human may read it: its words if public, else "J2 a joué"
        (the whole check at once)."""
        return at_once(self.play.game, state, seat, action, self.play.humans())

    def work(self) -> bool:
        """Idle time: advance the check of a move's words; the screens are refreshed once they are
        said. True if there was something to do."""
        told = self.words.told
        if not self.words.work():
            return False
        if self.words.told != told and self.wake is not None:
            self.wake()  # the seats have new messages: the loop shows them
        return True

    # -- hints -----------------------------------------------------------------------------------
    def may_hint(self, seat: int) -> bool:
        """True when a human seat to act may ask for a hint (the game allows hints)."""
        return self.hints and self.thinker is not None and seat not in self.levels \
            and seat in self.play.humans_to_act()

    def ask_hint(self, seat: int) -> None:
        """The strong level's suggestion for `seat`, from its view only, for its screen only."""
        s = self.play
        if self.thinking is not None:
            s.notify(frozenset({seat}), tr("L'ordinateur réfléchit : patientez", "The computer is thinking: wait"))
            return
        from games.ai import levels

        level = HINT_LEVEL if HINT_LEVEL in levels(s.game.id) else levels(s.game.id)[-1]
        job = Job(s.game.id, s.game.view(s.state, seat), seat, level,
                  f"{s.config.seed}/{len(s.history)}/{seat}/hint", RANK)
        self.thinking = Thinking(seat, RANK, s.state, self._submit(job), s.clock())
        self.hint_shown[seat] = (s.state, tr("Conseil : je réfléchis…", "Hint: thinking…"))
        self.step()

    def _show_hint(self, seat: int, best: list[Action]) -> None:
        s = self.play
        if not best:
            text = tr("Conseil : aucun coup", "Hint: no move")
        else:
            what = s.game.describe_action(s.state, seat, best[0])  # the seat's own move, for its eyes only
            text = tr(f"Conseil : {what.fr}", f"Hint: {what.en}")
        self.hint_shown[seat] = (s.state, text)

    def hint_text(self, seat: int) -> Text | None:
        """The hint shown on `seat`'s screen while the position it is about stands."""
        shown = self.hint_shown.get(seat)
        if shown is None or shown[0] is not self.play.state:
            self.hint_shown.pop(seat, None)
            return None
        return shown[1]

    # -- screens ---------------------------------------------------------------------------------
    def screen(self, seat: int) -> Screen:
        """A computer seat's screen (it may sit at a table seat): the PUBLIC screen, never its view's."""
        s = self.play
        public = s.game.screen(s.game.view(s.state, None), None)
        name = computer_name(seat)
        level = level_name(self.levels.get(seat, ""))
        title = tr(f"{name.fr} · {level.fr}", f"{name.en} · {level.en}")
        return Screen(title, public.lines, public.big, public.bar, public.icon)

    def cancel(self) -> None:
        """Stop thinking (the game is left): the answer, if it still comes, is dropped."""
        if self.thinking is not None and self.thinker is not None:
            self.thinker.cancel()
        self.thinking = None
        self.stopped = True
        self.words.drop()
