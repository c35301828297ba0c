"""The host's messages to the joining table, made from its shadow in order; the long ones off the loop.

Most of the host's moves are told in a few hundred microseconds: one move applied to the shadow and
checked. A message that tells earlier moves again (a Spywhere stand-in changed, the end shown)
replays up to the whole game with its checks, and a Mata Hari move may search thousands of
changes of the shadow's cards: hundreds of milliseconds to seconds here, more on a Pi Zero 2 W,
during which the table's screens and buttons would be frozen. Such a move is handed to a worker
thread with the states it needs (states are immutable) and the loop goes on serving events. Every
message made after it (the next moves, a refusal, the whole game, a request to quit) waits in the
same queue, so they reach the link's outbox in the order they were made and take their sequence
numbers in that order; the worker hands each to the link when its turn comes (the link is
thread-safe), and the queue drains without the loop. The worker thread is kept between messages (a
thread's start waits for the scheduler) and ends once idle for `IDLE_S`.

While the worker holds the shadow the loop never touches it: the loop reads only the moves told so
far (`log`), a copy replaced after each message, and the seats of the host's moves whose messages
are still to be made (`told()`: both at once). A move laid at the joining table is judged on them
(`RemoteSeats._fresh`): a game may tell fewer or more moves than it plays (a Mata Hari statement
being composed is not told; once said, its steps are), so the moves told are known only once
their messages are made, but whose moves they are is known before: a message tells the moves of
the seat that made the host's move (and earlier moves again, by the same seats).

A move is journaled before it is handed over (the session's recorder writes the journal first), so
a power cut loses no move: the table that restarts makes its shadow again from its journal (in the
worker too: a long game's replay is long) and sends the whole game, as it does whenever its outbox
was lost with it.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from firmware_host.remote.shadow import CannotFollow, Moves
from games.core import JSON, Action

log = logging.getLogger(__name__)

Send = Callable[[str, dict[str, Any]], object]
Made = Callable[[Any], tuple[str, dict[str, JSON]]]  # a message made from the shadow
IDLE_S = 30.0  # the worker waits this long for the next long message before its thread ends


class Teller:
    """The host's side of what crosses: its shadow, and the messages made from it, in order."""

    def __init__(self, send: Send, wake: Callable[[], None] | None = None):
        self.send_now = send
        self.wake = wake
        self.shadow: Any = None  # the joining table's game as told (shadow.Shadow or SpyShadow)
        self.log: Moves = []  # the moves told so far: the loop's copy
        self.handed = 0  # moves handed to the worker (their messages made off the loop)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a job queued, or the queue drained
        self._waiting: deque[int] = deque()  # seats of the host's moves whose messages are not made yet
        self._queue: deque[Callable[[], None]] = deque()
        self._running = False  # the worker holds the shadow: jobs queued or being made
        self._worker: threading.Thread | None = None  # kept between messages, gone once idle a while

    @property
    def busy(self) -> bool:
        """True while messages are being made or wait behind one being made (the worker holds the shadow)."""
        with self._lock:
            return self._running

    def told(self) -> tuple[Moves, tuple[int, ...]]:
        """The moves told so far and the seats of the host's moves still to be told after them (one snapshot)."""
        with self._lock:
            return self.log, tuple(self._waiting)

    # -- the loop's side ------------------------------------------------------------------------
    def start(self, make: Callable[[], Any], long: bool, seats: Iterable[int] = ()) -> None:
        """Make the shadow (`long`: a game resumed with moves to replay, made in the worker; `seats`:
        whose moves they are)."""
        replayed = list(seats)

        def made() -> None:
            try:
                self.shadow = make()
            finally:
                self._told(getattr(self.shadow, "log", []), len(replayed))

        with self._lock:
            self._waiting.extend(replayed)
        self._in_order(made, long)

    def tell(self, before: Any, seat: int, action: Action, real: Any) -> None:
        """The message for the host's move from `before` to `real`, sent now or once its turn comes."""
        action = dict(action)

        def told() -> None:
            try:
                kind, fields = self.shadow.step(before, seat, action, real)
            except CannotFollow as exc:  # never expected (the tests play whole games): said, not crashed
                log.error("remote: %s", exc)
                return
            finally:
                self._told(getattr(self.shadow, "log", self.log), 1)
            self.send_now(kind, fields)

        with self._lock:
            self._waiting.append(seat)
        long = self.busy or _costly(self.shadow, seat, action, real)
        self.handed += long
        self._in_order(told, long)

    def made(self, make: Made) -> None:
        """A message made from the shadow as it is at this point of the queue (the whole game)."""
        def sent() -> None:
            self.send_now(*make(self.shadow))

        self._in_order(sent, False)

    def send(self, kind: str, fields: dict[str, Any]) -> None:
        """A message that needs no shadow (a refusal, a request to quit), after those made before it."""
        def sent() -> None:
            self.send_now(kind, fields)

        self._in_order(sent, False)

    def then(self, do: Callable[[], None]) -> None:
        """`do` once every message made before has reached the link (the link stops after the last)."""
        self._in_order(do, False)

    def finish(self, timeout: float | None = None) -> bool:
        """Wait for the worker (a script's end, the tests); True once nothing is left to make."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._running, timeout)

    def _told(self, moves: Moves, done: int) -> None:
        """The moves told are now `moves`, after the messages of `done` more of the host's moves."""
        with self._lock:
            self.log = list(moves)
            for _ in range(done):
                self._waiting.popleft()

    def _in_order(self, job: Callable[[], None], long: bool) -> None:
        """Run `job` now when nothing waits and it is short, else queue it for the worker."""
        with self._changed:
            queued = self._running or long
            if queued:
                self._queue.append(job)
                self._running = True
                if self._worker is None:
                    # started once and kept: a thread's start waits for the scheduler (tens of ms
                    # on a loaded Pi), a waiting thread is only notified
                    self._worker = threading.Thread(target=self._drain, name="remote-teller", daemon=True)
                    self._worker.start()
                else:
                    self._changed.notify_all()
        if not queued:
            job()

    # -- the worker's thread ----------------------------------------------------------------------
    def _drain(self) -> None:
        while True:
            with self._changed:
                # idle a while: the thread ends (a finished game's teller leaves no thread behind)
                if not self._changed.wait_for(lambda: bool(self._queue), IDLE_S):
                    self._worker = None
                    return
                job = self._queue.popleft()
            try:
                job()
            except Exception:  # a fault in one message must not hold back the ones after it
                log.exception("remote: a message to the joining table could not be made")
            with self._changed:
                if self._queue:
                    continue
                self._running = False  # the loop holds the shadow again
                self._changed.notify_all()
            if self.wake is not None:
                self.wake()  # the loop looks again (a game over stops the link once everything is sent)


def _costly(shadow: Any, seat: int, action: Action, real: Any) -> bool:
    """True when the shadow's message for this move may replay earlier moves (a shadow that can tell says so)."""
    costly = getattr(shadow, "costly", None)
    return bool(costly(seat, action, real)) if costly is not None else False
