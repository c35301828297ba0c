"""The runtime's side of the journal: it never raises into the loop.

Each journal failure becomes a state and a message every screen shows:
- damaged (any query, any check): the file is set aside, the readable games are salvaged into a
  new journal, and the game in play is written again from memory;
- locked by another process: "journal busy", retried every few seconds, the file untouched;
- full, read-only or failing disk: the game goes on without saving (the players may quit it with
  the usual long press); the moves not yet written are written as soon as the journal accepts
  them again. A journal opened read-only at start-up (a full or read-only disk) is opened again
  for writing once its disk has room, off the loop (journal_reopen.py), and every screen is told
  that saving goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalCorrupt, JournalError, disk_problem
from firmware_host.storage.journal_reopen import Reopen, disk_writable
from firmware_host.storage.journal_rows import GameRecord, RemoteRecord
from firmware_host.storage.journal_texts import (
    BACK,
    BACK_IDLE,
    BUSY,
    DISK_ERROR_PLAYING,
    FULL,
    READ_ONLY,
    UNUSABLE,
)
from games.core import Action, GameConfig, Text

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
CHECK_SECONDS = 0.5  # idle time between two parts of the journal's check (64 moves a part)
# commits between two checkpoints inside a game: each commit adds about 8 KB (two pages) to the
# WAL, which only a checkpoint lets SQLite reuse, so a long game's WAL stays near 300 KB
CHECKPOINT_COMMITS = 32
T = TypeVar("T")

@dataclass
class _Game:
    """The game in play as the keeper must write it: its start and every move, in memory."""

    game_id: str
    config: GameConfig
    seats: tuple[int | None, ...]
    computers: dict[int, str] = field(default_factory=dict)
    hints: bool = False
    remote: RemoteRecord | None = None
    jid: int | None = None  # its id in the journal, None while its start is not written
    moves: list[tuple[int, Action]] = field(default_factory=list)
    written: int = 0  # moves committed


class JournalKeeper:
    """Wraps the runtime's journal (or its absence); see the module docstring."""

    def __init__(self, journal: Journal | None, clock: Callable[[], float],
                 opener: Callable[[], Journal] | None = None):
        self.journal = journal
        self.clock = clock
        # how to open the journal again later (it was busy at start-up); None: never
        self.opener = opener
        self.problem: str | None = None if journal is not None or opener is None else "busy"
        self.alerts: list[Text] = []  # messages for every screen, taken by the runtime
        self.game: _Game | None = None
        self.next_retry = 0.0
        self.set_asides = 0
        self.recoveries = 0  # times a failed journal came back (the menu then looks for a game again)
        # a game boundary was committed: its WAL checkpoint waits for the loop's idle time (a few
        # hundred microseconds of CPU and two fsyncs that no player waits for)
        self.checkpoint_due = False
        # a long game's WAL to copy, without waiting for readers (`games list`): the WAL file is
        # then written again from its start, so it stops growing
        self.commits = 0  # commits since the last checkpoint
        self.wal_due = False
        # while the loop handles one event, its moves (a player's and the chance draws that follow)
        # wait to be committed together, in one transaction (one fsync), before anything is shown
        self.holding = False
        # the journal's check in idle time: where it goes on (game id, move), and when
        self.checked_to = (0, 0)
        self.next_check = 0.0
        # a journal opened read-only at start-up: opened for writing on a thread once its disk has room
        self.reopening: Reopen | None = None
        self.next_reopen = 0.0
        self.reopen_failed: str | None = None  # why the last attempt failed (logged when it changes)

    def open_later(self, opener: Callable[[], Journal]) -> None:
        """No journal now (locked at start-up): open it with `opener` at the next retries."""
        self.opener = opener
        if self.journal is None:
            self.problem = "busy"

    # -- state ----------------------------------------------------------------------------------
    @property
    def saving(self) -> bool:
        """True when the game in play (if any) is fully written."""
        return self.problem is None and (self.game is None or
                                         (self.game.jid is not None and self.game.written == len(self.game.moves)))

    def _alert(self, text: Text) -> None:
        if not self.alerts or self.alerts[-1] != text:
            self.alerts.append(text)

    def _fail(self, exc: JournalError, doing: str) -> None:
        problem = {"busy": "busy"}.get(exc.kind, "unusable")
        if exc.kind == "unwritable":  # the disk decides: full, read-only or failing
            problem = disk_problem(None if self.journal is None else self.journal.path,
                                   str(getattr(exc, "reason", "io")))
        log.error("journal: %s failed: %s", doing, exc)
        if problem != self.problem:
            self._alert({"busy": BUSY, "full": FULL, "readonly": READ_ONLY, "io": DISK_ERROR_PLAYING}
                        .get(problem, UNUSABLE))
        self.problem = problem
        self.next_retry = self.clock() + RETRY_SECONDS

    def _guard(self, doing: str, op: Callable[[Journal], T]) -> T | None:
        """Run `op` on the journal; a damaged journal is set aside once and `op` tried again."""
        for attempt in range(2):
            if self.journal is None:
                return None
            try:
                return op(self.journal)
            except JournalCorrupt as exc:
                if attempt or not self._set_aside(str(exc)):
                    self._fail(exc, doing)
                    return None
            except JournalError as exc:
                self._fail(exc, doing)
                return None
        return None

    def _set_aside(self, reason: str) -> bool:
        """Move the damaged file aside, salvage, and re-attach the game in play. False if impossible."""
        from firmware_host.storage.journal_salvage import set_aside

        old = self.journal
        assert old is not None
        old._close_quietly()
        skip = {self.game.jid} if self.game is not None and self.game.jid is not None else set()
        try:
            result = set_aside(old.path, reason, skip, connect=old.connect, exists=old.exists)
        except JournalError as exc:
            log.error("journal: %s", exc)
            self.journal = None
            self._fail(exc, "setting the damaged journal aside")
            return False
        self.journal = result.journal
        self.journal.on_commit = old.on_commit
        self.set_asides += 1
        if self.game is not None:  # written again, whole, from memory
            self.game.jid, self.game.written = None, 0
        self._alert(result.text)
        return True

    def _due(self) -> bool:
        """Write now? Not while a failed journal waits for its next retry: a lock would cost
        every move the busy timeout."""
        return self.problem is None or self.clock() >= self.next_retry

    def _recovered(self, reopened: bool = False) -> None:
        """Saving goes on: every screen is told (`reopened`: the read-only journal is now writable)."""
        if self.problem is not None or reopened:
            self.problem = None
            self.recoveries += 1
            self._alert(BACK if self.game is not None else BACK_IDLE)

    # -- reading --------------------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        """The game left playing, if it can be read."""
        return self._guard("reading the unfinished game", lambda j: j.unfinished())

    def record(self, jid: int) -> GameRecord | None:
        """A journaled game, None if it cannot be read."""
        return self._guard(f"reading game {jid}", lambda j: j.record(jid))

    # -- the game in play -------------------------------------------------------------------------
    def start(self, game_id: str, config: GameConfig, seats: tuple[int | None, ...],
              computers: dict[int, str] | None = None, hints: bool = False,
              remote: RemoteRecord | None = None) -> None:
        """A new game (with its computer seats): written now if the journal can, later otherwise."""
        self.game = _Game(game_id, config, seats, dict(computers or {}), hints, remote)
        if self._due():
            self._flush()

    def resume(self, rec: GameRecord) -> None:
        """A journaled game taken up again."""
        self.game = _Game(rec.game, rec.config, rec.seats, rec.computers, rec.hints, rec.remote, rec.id,
                          list(rec.moves), len(rec.moves))

    def move(self, seat: int, action: Action) -> None:
        """An accepted action: committed before this returns when the journal can (never raises)."""
        if self.game is None:
            return
        self.game.moves.append((seat, action))
        if not self.holding and self._due():
            self._flush()

    def hold(self) -> None:
        """Keep the next moves in memory until `release` (the loop: one event's moves)."""
        self.holding = True

    def release(self) -> None:
        """Commit the moves held since `hold`, in one transaction (never raises)."""
        self.holding = False
        game = self.game
        if game is not None and game.written < len(game.moves) and self._due():
            self._flush()

    def end(self, outcome: dict[str, Any] | None, status: str = "finished") -> None:
        """The game is over or left: its last moves and its end written if possible."""
        game = self.game
        if game is None:
            return
        self._flush()
        self.game = None
        if game.jid is not None and game.written == len(game.moves):
            jid = game.jid
            self._guard("ending the game", lambda j: j.finish(jid, outcome, status, checkpoint=False))
            self.checkpoint_due = True

    def detach(self) -> None:
        """Stop following the game in play (it stays "playing" in the journal: it can be resumed)."""
        self.game = None

    def abandon(self, jid: int) -> None:
        """The players abandoned the unfinished game from the menu."""
        self._guard("abandoning a game", lambda j: j.finish(jid, None, "abandoned", checkpoint=False))
        self.checkpoint_due = True

    def tidy(self) -> bool:
        """The loop's idle work: the checkpoint a game boundary (or a long game's WAL) left due,
        else the next part of the journal's check. True if it did some."""
        if not (self.checkpoint_due or self.wal_due):
            return self._check_part()
        passive = not self.checkpoint_due
        self.checkpoint_due = self.wal_due = False
        self.commits = 0
        self._guard("copying the journal's WAL into its file", lambda j: j.checkpoint(wait=False, passive=passive))
        return True

    def _check_part(self) -> bool:
        """Read the next few rows of the journal, one part per CHECK_SECONDS of idle time: a page
        damaged in an old game is found, and set aside as at boot, before anyone asks for that game.
        A clean stop skips the check at boot; this one goes round the journal all the time."""
        now = self.clock()
        if self.journal is None or self.problem is not None or now < self.next_check:
            return False
        self.next_check = now + CHECK_SECONDS
        at = self.checked_to
        nxt = self._guard("checking the journal", lambda j: j.check_part(*at))
        if nxt is None:  # damaged (set aside and salvaged now, as at boot) or unusable: start again
            self.checked_to = (0, 0)
        else:
            self.checked_to = nxt
        return True

    def _flush(self) -> bool:
        """Write what the journal lacks of the game in play; True when it is all written."""
        game = self.game
        if game is None or self.journal is None:
            return game is None
        if self.journal.read_only:  # said once; the journal is opened for writing when the disk allows
            if self.problem is None:
                self.problem = disk_problem(self.journal.path, "readonly")
                log.error("journal: %s is open read-only, the game in play is not saved", self.journal.path)
                self._alert({"full": FULL, "io": DISK_ERROR_PLAYING}.get(self.problem, READ_ONLY))
            self.next_retry = self.clock() + RETRY_SECONDS
            return False
        if game.jid is None:
            jid = self._guard("starting a game", lambda j: j.start_game(game.game_id, game.config, game.seats,
                                                                       game.computers, game.hints,
                                                                       remote=game.remote,
                                                                       checkpoint=False))
            self.checkpoint_due = self.checkpoint_due or jid is not None
            if jid is None:
                return False
            if game.jid is None:  # not re-attached by a set-aside meanwhile
                game.jid, game.written = jid, 0
        while game.written < len(game.moves) and game.jid is not None:
            idx, jid, pending = game.written, game.jid, game.moves[game.written:]

            def record(j: Journal, jid: int = jid, idx: int = idx, pending: list[tuple[int, Action]] = pending) -> bool:
                j.append_many(jid, idx, pending)
                return True

            done = self._guard("recording a move", record)
            if not done:
                return False
            if game.jid is None:  # set aside while writing: start again from the game's start
                return self._flush()
            game.written = idx + len(pending)
            self.commits += 1
            if self.commits >= CHECKPOINT_COMMITS:
                self.wal_due = True
        self._recovered()
        return True

    # -- time -----------------------------------------------------------------------------------
    def tick(self) -> None:
        """Retry a failed journal every few seconds; open a read-only one for writing when it can be."""
        if self.journal is not None and self.journal.read_only:
            self._reopen()
            return
        if self.problem is None or self.clock() < self.next_retry:
            return
        self.next_retry = self.clock() + RETRY_SECONDS
        if self.journal is None:
            if self.opener is None:
                return
            try:
                self.journal = self.opener()
            except JournalError as exc:
                self._fail(exc, "opening the journal")
                return
        if self._flush() and self.game is None:
            self._recovered()

    def _reopen(self) -> None:
        """Look at the disk every RETRY_SECONDS; with room, open the journal for writing on a
        thread; once open, write the game in play and tell every screen. Never blocks the loop."""
        old = self.journal
        assert old is not None
        if self.reopening is None:
            if self.clock() < self.next_reopen:
                return
            self.next_reopen = self.clock() + RETRY_SECONDS
            self.next_retry = self.next_reopen
            if not disk_writable(old.path):
                return
            path, connect, exists = old.path, old.connect, old.exists
            self.reopening = Reopen(lambda: Journal(path, connect=connect, exists=exists))
            return
        if not self.reopening.done:
            return
        got, self.reopening = self.reopening.result(), None
        if isinstance(got, JournalCorrupt):  # found by the open's integrity check: as at boot
            if self._set_aside(str(got)):
                self._flush()
                self._recovered(reopened=True)
            return
        if isinstance(got, JournalError):
            if str(got) != self.reopen_failed:  # said once, not every RETRY_SECONDS
                log.warning("journal: not yet writable: %s", got)
            self.reopen_failed = str(got)
            return
        got.on_commit = old.on_commit
        old._close_quietly()
        self.journal = got
        log.info("journal: %s open for writing again", got.path)
        if self._flush():
            self._recovered(reopened=True)

    def close(self) -> None:
        """Close the journal cleanly (the next start skips the integrity check)."""
        if self.reopening is not None:
            self.reopening.abandon()
            self.reopening = None
        if self.journal is not None:
            self.journal.close()

