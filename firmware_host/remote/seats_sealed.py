"""The joining table's side of ZOP's commitments (firmware_host/remote/sealing.py): the host's moves as
this table's engine holds them, the game as the host told it, and when to open a card laid face down.

Part of `RemoteSeats` (seats.py); a game without commitments (`sealer` None) passes through.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from firmware_host.apps.session import GameSession
from firmware_host.remote.link import RemoteLink
from games.core import Action

if TYPE_CHECKING:
    from firmware_host.remote.sealing import Sealer

log = logging.getLogger(__name__)


class SealedSeats:
    """What the joining table reads of the host's game through its own placeholders."""

    session: GameSession
    link: RemoteLink
    seats: frozenset[int]
    sealer: Sealer | None
    synced: bool
    _opened: int
    _told: tuple[int, Any, int] | None
    log: list[tuple[int, Action]]
    _refused_since: int
    _counted_from: int
    _refusals: int
    _game_run: int

    def _counted(self) -> dict[str, int]:
        """The joining table: the refusals a move of its own was laid after, and since which game of the host's."""
        return {"r": self._refused_since, "g": self._counted_from}

    def count_from(self, run: int) -> None:
        """The joining table: the host's whole game came from its link's run `run`; the refusals that
        count are those after it."""
        self._refused_since, self._counted_from = 0, run

    def _laid_on_refused(self, seen: Any, since: Any) -> bool:
        """The host: True when a joining move that had received `seen` refusals since the whole game
        of the host's run `since` was laid on one refused. From another run (the joining table laid
        the move before this run's game reached it), the move came after every refusal sent since
        that game, each of a move laid before it there: with any, it is laid on one refused."""
        if seen is None:
            return False
        if not _count(seen) or (since is not None and not _count(since)):
            return True
        stale = since is not None and since != self._game_run
        return self._refusals > 0 if stale else seen < self._refusals

    def _told_over(self) -> bool:
        """True when the host's game as told is over too. The joining table's own engine may end on
        the host's stand-ins once its player lays the last card, while the host still waits for
        that card's opening: the host's reveal, the true end, is still to come."""
        s = self.session
        if self.sealer is None:
            return True
        try:
            return s.game.outcome(self.told_state()) is not None
        except ValueError:  # the host's moves as told do not replay: never expected (logged where read)
            return True

    def ahead(self, state: Any) -> bool:
        """The joining table: True when `state` (its own engine's) reveals a turn the host has not
        told yet. Its player laid the turn's last card, and its engine revealed at once with the
        stand-ins of the host's cards: that reveal (and an end on it) is not the real one, and is
        neither said nor shown until the host's reveal tells the turn as it was."""
        if self.sealer is None:
            return False
        try:
            return len(state.turns) > len(self.told_state().turns)
        except ValueError:  # the host's moves as told do not replay: never expected (logged where read)
            return False

    def _waits(self) -> bool:
        """The joining table: the host's game as told waits for the opening of one of its cards."""
        if self.sealer is None:
            return False
        try:
            return self.sealer.opening(self.session.game, self.told_state()) is not None
        except ValueError:  # the host's moves as told do not replay: never expected (logged where read)
            return False

    def plain(self) -> list[tuple[int, Action]]:
        """The joining table: the host's moves as this table's engine holds them (its own cards laid
        face down named, not as the placeholders the host holds; while the host waits for them, the
        host's card that completed the turn not yet laid)."""
        if self.sealer is None:
            return self.log
        try:
            state, turn = self._replayed()
            waiting = self.sealer.opening(self.session.game, state) is not None
        except ValueError:  # the host's moves as told do not replay: never expected (logged where read)
            turn, waiting = 0, False
        # the turns settled are held as the host holds them (a card taken back: its placeholder)
        out = self.log[:turn] + self.sealer.plain(self.log[turn:])
        if waiting and out and out[-1][0] in self.seats:
            # the host's card that completed the turn waits for the opening: laid here now, its
            # stand-in would reveal the turn with the host's cards unknown
            out = out[:-1]
        return out

    def told_state(self) -> Any:
        """The joining table: the game's state as the host told it (its placeholders for this table's cards)."""
        s = self.session
        if self.sealer is None:
            return s.state
        return self._replayed()[0]

    def _replayed(self) -> tuple[Any, int]:
        s = self.session
        done, state, turn = self._told if self._told is not None else (0, s.game.initial_state(s.config), 0)
        if done > len(self.log):
            done, state, turn = 0, s.game.initial_state(s.config), 0
        from firmware_host.remote.sealing import replay

        state, turn = replay(s.game, state, self.log[done:], done, turn)
        self._told = (len(self.log), state, turn)
        return state, turn

    def _open(self) -> None:
        """The joining table: once the host's game waits for this table's cards laid face down (every
        card of the turn is laid), open the first; the next after the host took it."""
        if self.sealer is None or not self.synced or self._opened == len(self.log) \
                or self.session.moves != self.plain():
            return
        try:
            opening = self.sealer.opening(self.session.game, self.told_state())
        except ValueError as exc:  # the host's moves as told do not replay: never expected
            log.error("remote: %s", exc)
            self._opened = len(self.log)
            return
        if opening is not None:
            self._opened = len(self.log)
            self.link.send("move", {"n": len(self.log), "seat": opening[0], "action": opening[1]})


def _count(value: Any) -> bool:
    """A count carried by a move is an int (never a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)
