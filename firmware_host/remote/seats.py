"""RemoteSeats: the game seats of a GameSession played at the other table.

A remote seat is a game seat without a table seat here (its screen and pad are the other table's).
Its move arrives from the link and is applied the way a computer's decision is
(`ComputerSeats.decide`): announced on every local screen, then the table's reconciliation shows
where to lay it ("Posez le lion vert sur C3" and the zone's LED) for a local human, and checks it.
A move laid here for a local seat is sent through the link. A remote seat's moves come only from
the link: a local hand laying its piece is not taken as its move.

The host's engine is the authority: the joining table sends the moves laid there with the number
of host moves it had seen, and follows the host's moves as they come, as the host's shadow of its
game tells them (shadow.py: a card laid face down crosses as a stand-in until the reveal; the
host's messages leave in order through teller.py, which makes the long ones off the loop). When the
host took another move first (a race for who starts) the joining table takes its own back, as an
undo would, and lays the host's. In a game whose players lay at the same time (ZOP), a move laid
at the joining table while the host's player laid is taken all the same: the joining table then
takes its move back without a word and lays it again after the host's.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from firmware_host.apps.app import Transition
from firmware_host.apps.session import GameSession
from firmware_host.apps.session_menu import SessionMenu
from firmware_host.apps.undo import UndoRequest, is_undo, player
from firmware_host.remote import crossing, shadow, wire
from firmware_host.remote.code import shown
from firmware_host.remote.link import RemoteLink
from firmware_host.remote.seats_sealed import SealedSeats
from firmware_host.remote.teller import Teller
from games.core import CHANCE, Action, Text, tr

if TYPE_CHECKING:
    from firmware_host.remote.sealing import Sealer

log = logging.getLogger(__name__)


class RemoteSeats(SealedSeats):
    """The seats of `session` played at the other table, through `link` (side "host" or "join")."""

    def __init__(self, session: GameSession, link: RemoteLink, seats: frozenset[int], *, resumed: bool = False,
                 secret: str = ""):
        self.session = session
        self.link = link
        self.side = link.side
        self.seats = seats  # game seats played at the other table
        # the host: the joining table's game as it was told it, and the messages made from it in order
        # (the long ones off the loop: teller.py)
        self.teller: Teller | None = None
        self._log: list[tuple[int, Action]] = list(session.moves)  # the joining table: the host's moves
        if self.side == "host":
            self.teller = Teller(lambda kind, fields: self.link.send(kind, fields), getattr(link, "wake", None))
            moves = list(session.moves)
            self.teller.start(lambda: crossing.shadow(session.game, session.config, seats, moves), bool(moves),
                              (seat for seat, _ in moves))
        self.checked = 0  # the joining table: host views compared with its own
        self.mismatches = 0  # ... and found different (never expected)
        self.refused = 0  # moves laid here that the host did not take
        self._refused_since = 0  # ... since the host's whole game last came (a joining move's "r")
        self._counted_from = 0  # ... the host's run that game came from (a joining move's "g"; 0: none came)
        self._refusals = 0  # the host: refusals sent since its whole game was last sent
        self._game_run = 0  # the host: its link's run when that game was sent (0: none was)
        self.left = False  # the other table left the game
        self.asking: int | None = None  # the player whose request to quit is put to both tables
        self._present: bool | None = None  # the presence last announced
        self._applying = False  # a move from the link is being applied: not sent back
        # the host: messages of the joining table waiting, in order, behind a move that cannot be judged
        # yet (laid after more moves than are told so far: a resumed game's moves are being told again)
        self._held: list[wire.Message] = []
        # resumed from this table's journal: its outbox was lost with the restart; the joining table
        # follows nothing of the host's until the host's whole game (sent again) says where it is
        self.resumed = resumed
        self.synced = not (resumed and self.side == "join")
        self._restarts = link.peer_restarts  # the other table's restarts already answered
        # the joining table of a game whose reveal is shared (ZOP): its cards laid face down cross as
        # placeholders, opened when the host's game waits for them (sealing.py)
        self.sealer: Sealer | None = None
        if self.side == "join" and session.game.id in crossing.SEALED:
            from firmware_host.remote.sealing import Sealer  # ZOP's rules: loaded when played

            here = frozenset(range(session.config.players)) - seats
            self.sealer = Sealer(bytes.fromhex(secret) if secret else None, here)
            self.sealer.learn(session.history)
        # the joining table: (moves replayed, their state, where the turn on the pads began) of `log`
        self._told: tuple[int, Any, int] | None = None
        self._opened = -1  # the joining table: the length of `log` when an opening was last sent
        self.inner = session.recorder
        session.recorder = self.record
        session.remote = self

    @property
    def log(self) -> list[tuple[int, Action]]:
        """The host's moves: on the host, as told so far; on the joining table, as received."""
        return self.teller.log if self.teller is not None else self._log

    @log.setter
    def log(self, moves: list[tuple[int, Action]]) -> None:
        if self.teller is not None:
            raise AttributeError("the host's moves as told are the shadow's")
        self._log = moves

    @property
    def telling(self) -> bool:
        """The host: messages are still being made (off the loop) or wait behind one."""
        return self.teller is not None and self.teller.busy

    def _send(self, kind: str, fields: dict[str, Any]) -> None:
        """A message to the other table; on the host, after those still being made."""
        if self.teller is not None:
            self.teller.send(kind, fields)
        else:
            self.link.send(kind, fields)

    def from_link(self, seat: int) -> bool:
        """True when `seat`'s moves come from the other table only, never from a hand here: the other
        table's seats, and at the joining table chance too (the host deals and draws for both)."""
        return seat in self.seats or (seat == CHANCE and self.side == "join")

    # -- moves made here ------------------------------------------------------------------------
    def record(self, seat: int, action: Action) -> None:
        """The session's recorder: the journal first, then the move to the other table."""
        if self.inner is not None:
            self.inner(seat, action)
        if is_undo(action):
            return  # a move taken back here is the host's decision (a refusal), never sent
        s = self.session
        if self.teller is not None:
            self.teller.tell(s.state, seat, action, s.game.apply(s.state, seat, action).state)
        elif not self._applying and seat != CHANCE and seat not in self.seats:
            if self.sealer is None:
                self.link.send("move", {"n": len(s.moves), "seat": seat, "action": dict(action)})
                return
            if self._waits():
                # every card of the turn is laid at the host, which takes nothing but the opening until
                # its reveal: a card taken back or laid again here would be refused, or, numbered after
                # the opening, taken as a card of the next turn; the reveal's moves take it back here
                log.info("remote: a move laid while the host's game waits for an opening stays here")
                return
            # the host's moves keep this table's openings, which its own engine does not hold
            n = len(self.log) + len(s.moves) - len(self.plain())
            self.link.send("move", {"n": n, "seat": seat, "action": self.sealer.sent(seat, action, len(s.history)),
                                    **self._counted()})

    # -- moves from the other table ---------------------------------------------------------------
    def step(self) -> Transition | None:
        """Take what the link brought (moves, refusals, requests to quit), and say who is away or
        back; LeaveGame once the other table agreed to the request of a player here."""
        if self.side == "host" and self.link.peer_restarts != self._restarts:
            self._restarts = self.link.peer_restarts
            self.send_game()  # the joining table restarted: it catches up from the whole game
        done: Transition | None = None
        held, self._held = self._held, []
        for message in [*held, *self.link.take()]:
            try:
                done = self.take(message) or done
            except (KeyError, TypeError, ValueError) as exc:  # checked on arrival: never expected
                log.error("remote: %s message %s not followed: %s", message.kind, message.seq, exc)
        self._open()
        self._presence()
        s = self.session
        # every move told: on the host, every message made (a game may tell fewer moves than it plays);
        # at the joining table, every move laid here taken by the host, and the host's game as told over
        told = not self.telling if self.teller is not None else not s.moves[len(self.plain()):]
        if s.over and told and not self.link.unacknowledged() and self._told_over():
            self.link.stop()  # the other table has every move: say "offline" and leave the broker
        return done

    def leave(self) -> None:
        """The game is left at this table: the other table is told (unless it left first), then the link stops."""
        if not self.left:
            self._send("left", {})
        if self.teller is not None:  # once the messages still being made are in the outbox
            self.teller.then(lambda: self.link.stop(after_sending=True))
        else:
            self.link.stop(after_sending=True)

    def ask_leave(self, by: int) -> frozenset[int]:
        """Player `by` here asks to quit: the other table's players are asked too, while it is there
        (the seats whose answer the request waits for; none: the other table is away, only told)."""
        if not self.link.present or self.left:
            return frozenset()
        self.asking = by
        self._send("leave", {"by": by})
        return self.seats

    def kept(self, seat: int) -> None:
        """The request to quit put to both tables is over, the game goes on (`seat` said no or withdrew it)."""
        if self.asking is not None:
            self._send("stay", {"by": self.asking, "seat": seat})
            self.asking = None

    def _asked_to_leave(self, by: int) -> None:
        """Player `by` of the other table asks to quit: this table's players are asked."""
        s = self.session
        if by not in self.seats or s.over:
            raise ValueError(f"a request to quit from seat {by}, not the other table's")
        humans = set(s.humans())
        self.asking = by
        s.menus.leaving = (by, humans)
        for x in humans:
            s.ui[x].home()  # "Non" first: a slip of the finger keeps the game

    def _stayed(self, by: int, seat: int) -> None:
        """The other table ended the request to quit of `by` (`seat` said no, or `by` withdrew it)."""
        s = self.session
        if self.asking != by:
            return  # a request already over here
        self.asking = None
        leaving = s.menus.leaving
        if leaving is not None and leaving[0] == by:
            s.menus.leaving = None
            if seat != by:
                name = player(seat)
                s.notify(frozenset({by}), tr(f"{name.fr} veut continuer la partie.",
                                             f"{name.en} wants to keep playing."))

    def _other_left(self) -> Transition | None:
        """The other table left: told here; a request to quit of a player here that waited only for it ends the game."""
        self.left = True
        s = self.session
        leaving = s.menus.leaving
        if leaving is not None and leaving[0] not in self.seats:
            leaving[1].difference_update(self.seats)
            if not leaving[1]:
                s.menus.leaving = None
                return SessionMenu.end(s)
        if leaving is not None and leaving[0] in self.seats:
            s.menus.leaving = None  # the other table's player left without waiting
        self._tell(tr("L'autre table a quitté la partie", "The other table left the game"))
        return None

    def send_game(self) -> None:
        """The host: the whole game so far, from which a joining table that restarted catches up."""
        s = self.session
        assert self.teller is not None
        self._refusals = 0  # the joining table counts the refusals that come after the whole game
        self._game_run = int(getattr(self.link, "run", 0))
        game, config, state = s.game, s.config, s.state  # as they are now: the shadow may be told later
        self.teller.made(lambda told: ("game", crossing.game_fields(game, config, told, state)))

    def take(self, message: wire.Message) -> Transition | None:
        """Follow one message of the other table (LeaveGame: the game ends here)."""
        if self.sealer is None:
            return self._take(message)
        kept = list(self.log)
        try:
            return self._take(message)
        except ValueError:  # a placeholder this table never sent: the message is not followed
            self.log, self._told = kept, None
            raise

    def _take(self, message: wire.Message) -> Transition | None:
        data = message.data
        if self._held:  # behind a move not judged yet: followed after it
            self._held.append(message)
        elif self.side == "join" and message.kind == "game":
            self._caught_up(data, message.run)
        elif self.side == "join" and not self.synced:
            log.info("remote: host %s message %s set aside until the host's game arrives", message.kind, message.seq)
        elif message.kind == "left":
            return self._other_left()
        elif message.kind == "leave":
            self._asked_to_leave(int(data["by"]))
        elif message.kind == "stay":
            self._stayed(int(data["by"]), int(data["seat"]))
        elif self.side == "host" and message.kind == "move":
            if not self._proposed(int(data["n"]), int(data["seat"]), data["action"], data.get("r"), data.get("g")):
                log.info("remote: the joining table's move %s waits for the host's moves to be told", message.seq)
                self._held.append(message)
        elif self.side == "join" and message.kind == "move":
            self._hosted(int(data["n"]), int(data["seat"]), data.get("action"), data.get("views", {}))
        elif self.side == "join" and message.kind == "rewrite":
            self._rewritten(int(data["from"]), data["moves"], data["views"], data.get("fresh"))
        elif self.side == "join" and message.kind == "refused":
            self.refused += 1
            self._refused_since += 1
            self.follow()
        return None

    def _proposed(self, n: int, seat: int, action: Any, seen: Any = None, since: Any = None) -> bool:
        """The host: a move laid at the joining table after `n` of the host's moves, taken or refused
        (False: neither yet, it cannot be judged before more of the host's moves are told). `seen`
        (ZOP): the refusals the joining table had received; fewer than were sent, the move was laid
        on one refused, which it counts in `n`: a move of the host's may fill that place, and the move
        be taken in a game it was not laid in (a card laid twice, each as its placeholder). `since`: the
        host's run whose whole game the count starts at (`_laid_on_refused`)."""
        fresh = self._fresh(n)
        if fresh is None:
            return False
        if self._laid_on_refused(seen, since) or seat not in self.seats or not isinstance(action, dict) or not fresh \
                or not self._opens(seat, action) or not self.apply(seat, action):
            log.info("remote: the joining table's move after %d moves is not taken (%d here)", n, len(self.log))
            self._refusals += 1
            self._send("refused", {"n": n})
        return True

    def _opens(self, seat: int, action: dict[str, Any]) -> bool:
        """The host: a card laid face down at the joining table, opened at the reveal, is the card it
        committed to; one that is not is refused, said on every screen here and logged."""
        s = self.session
        if action.get("type") != "open":
            return True
        rejection = s.game.check(s.state, seat, action)
        if rejection is None:
            return True
        name = player(seat)
        log.warning("remote: %s's card opened at the reveal is refused (%s): the game stays as it was",
                    name.en, rejection.code)
        self._tell(tr(f"{name.fr} : {rejection.message.fr}", f"{name.en}: {rejection.message.en}"))
        return False

    def _fresh(self, n: int) -> bool | None:
        """The host: a joining move made after `n` moves told may be taken now: nothing came since, or (in
        a game whose players lay at the same time) only the host's players' moves came since (a copy of
        a move already taken is never fresh: the move itself came since). Judged on the moves told and,
        while messages are still being made off the loop, the seats of the host's moves still to be
        told: a message tells moves of the seat that made the host's move only, and a game may tell
        none (a Mata Hari statement being composed) or several (once it is said) for one move.
        None: `n` is past the moves told while some are still to be told (a resumed game told again)."""
        told, waiting = self.teller.told() if self.teller is not None else (self.log, ())
        if n > len(told):
            return None if waiting else False
        if n == len(told) and not waiting:
            return True
        return crossing.secret(self.session.game.id) \
            and all(seat not in self.seats for seat in (*(s for s, _ in told[n:]), *waiting))

    def _hosted(self, n: int, seat: int, action: Any, views: dict[str, Any]) -> None:
        """The joining table: the host's move `n`."""
        if n != len(self.log):
            raise ValueError(f"host move {n} after {len(self.log)}")
        if action is None:
            raise ValueError("a move hidden from this table: this game cannot be followed here")
        self.log.append((seat, action))
        self.follow()
        self._check(views, f"after move {n}")

    def _rewritten(self, start: int, moves: list[Any], views: dict[str, Any], fresh: int | None = None) -> None:
        """The joining table: the host's moves from `start` on, as the rules now show them (a reveal);
        those from `fresh` on are new moves, announced (None: none is)."""
        if start > len(self.log):
            raise ValueError(f"host moves from {start} after {len(self.log)}")
        self.log[start:] = [(int(seat), action) for seat, action in moves]
        self._told = None
        self.follow(announce=False, fresh=fresh)
        self._check(views, f"rewritten from move {start}")

    def _check(self, views: dict[str, Any], where: str) -> None:
        """The digests of the host's views of this table's seats against its own (counted; never expected to differ)."""
        s = self.session
        if s.moves == self.plain():
            self.checked += 1
            try:
                told = self.told_state()
            except ValueError:  # the host's moves as told do not replay: counted as a view that differs
                told = None
            if told is None or shadow.view_digests(s.game, told, (int(k) for k in views)) != views:
                self.mismatches += 1
                log.error("remote: the host's views %s differ from this table's", where)

    def _caught_up(self, data: dict[str, Any], run: int = 0) -> None:
        """The joining table: the host's whole game, sent again after a restart; follow it from there."""
        s = self.session
        if (data["game"], int(data["players"]), int(data["seed"])) != (s.game.id, s.config.players, s.config.seed) \
                or frozenset(int(x) for x in data["remote"]) != frozenset(range(s.config.players)) - self.seats:
            raise ValueError("the host's game is not the one this table plays")
        self.log = [(int(seat), action) for seat, action in data["moves"]]
        self._told = None
        # the host counts its refusals from its whole game on (a host restarted from its journal
        # knows none of those it sent before): a move laid here on one refused after it says so
        self.count_from(run)
        plain = self.plain()
        ahead = s.moves[len(plain):]
        if s.moves[:len(plain)] == plain and ahead and not self._waits() \
                and all(seat != CHANCE and seat not in self.seats for seat, _ in ahead):
            # moves laid here that the host does not have: they stand, and are offered again (this
            # table's outbox went with its restart, or the host acknowledged one it had not journaled
            # when it lost power); the host takes each once, and refuses a copy, which changes nothing.
            # Not while the host's game waits for an opening: they go back, and the opening is sent
            for n, (seat, action) in enumerate(ahead, start=len(self.log)):
                fields = {"n": n, "seat": seat, "action": self._again(seat, action)}
                self.link.send("move", fields if self.sealer is None else {**fields, **self._counted()})
        else:
            self.follow()
        self.synced = True
        self._check(data["views"], "of its whole game")

    def _again(self, seat: int, action: Action) -> Action:
        """The joining table: a move of its own sent again from its journal, as it crossed the first
        time (a card laid face down: its placeholder, from the journal entry that laid it)."""
        if self.sealer is None:
            return dict(action)
        history = self.session.history
        entry = max((i for i, m in enumerate(history) if m == (seat, action)), default=len(history))
        return self.sealer.sent(seat, action, entry)

    def follow(self, announce: bool = True, fresh: int | None = None) -> None:
        """The joining table: its moves the host did not take go back; the host's are laid.

        Moves taken back only to be laid again in the host's order (a stand-in replaced by the card
        revealed, two cards laid at once at both tables) go back without a word."""
        s = self.session
        # a rewrite's moves before `fresh` were shown here with the very views (Spywhere, Mata Hari): told
        # again without their messages; a reveal's (ZOP, no `fresh`) may say something new: said
        shown = fresh if fresh is not None else 0
        told = self.plain()
        keep = 0
        while keep < min(len(s.moves), len(told)) and s.moves[keep] == told[keep]:
            keep += 1
        if keep < len(s.moves):
            by = next((x for x, t in enumerate(s.seats) if t is not None), 0)
            first = player(told[keep][0]) if keep < len(told) else None
            what = tr(f"{first.fr} a joué avant", f"{first.en} played first") if first is not None \
                else tr("refusé par la table hôte", "refused by the host table")
            again = told[keep:]
            mine = [m for m in s.moves[keep:] if m[0] not in self.seats and m[0] != CHANCE]
            sealer = self.sealer
            same = all(m in again if sealer is None else sealer.names(m, again) for m in mine)
            s.take_back(UndoRequest(by, keep, set(), what), tell=not same)
        laid = False
        try:
            for n, (seat, action) in enumerate(told[len(s.moves):], start=len(s.moves)):
                # the table is read once against the last of them: a pass per move would work out the
                # footprints of every legal action of each state between (seconds on a Pi for a long
                # rewrite), and could take the pieces as they lie for a move of a state already gone
                words = announce or (fresh is not None and n >= fresh)
                if not self.apply(seat, action, words, read=False, quiet=not (announce or n >= shown)):
                    log.error("remote: the host's move %d cannot be applied here", len(s.moves))
                    return
                laid = True
        finally:
            if laid:
                s.reconcile()

    def apply(self, seat: int, action: Action, announce: bool = True, read: bool = True, quiet: bool = False) -> bool:
        """Apply a move from the other table as a computer's decision is: guided, and put in words
        for every human a slice at a time (`ComputerSeats.words`: a move taken back meanwhile is
        never said, the messages after it wait behind its words); a move of this table's own, laid
        again in the host's order, is not announced. `read`: the table is read against the new state
        (else the caller reads it once after the last of several moves); `quiet`: a move the seats here
        were shown already, told again (a rewrite): its messages are not given again."""
        s = self.session
        before = s.state
        rejection = s.game.check(before, seat, action)
        if rejection is not None:  # checked before its words are made: describing it needs a legal move
            log.info("remote: a move of seat %s refused: %s", seat, rejection.code)
            return False
        self._applying = True
        try:
            if seat == CHANCE:  # the host's draw: the same as this table's own, or this table had none
                if not s.apply(seat, action, quiet):
                    return False
                if read:
                    s.reconcile()
                return True
            if not s.apply(seat, action, quiet):
                return False
        finally:
            self._applying = False
        if announce and seat in self.seats:  # the words are worked out only when they are shown
            s.computers.words.add(before, seat, action)
        if read:
            s.reconcile()
        return True

    # -- presence -------------------------------------------------------------------------------
    def _names(self) -> Text:
        names = [player(x) for x in sorted(self.seats)]
        return tr(", ".join(n.fr for n in names), ", ".join(n.en for n in names))

    def _presence(self) -> None:
        present = self.link.present
        if present == self._present:
            return
        was, self._present = self._present, present
        who = self._names()
        if present and was is False:
            self._tell(tr(f"{who.fr} (à distance) est de retour", f"{who.en} (remote) is back"))
        elif not present and was:
            self._tell(tr(f"{who.fr} (à distance) est absent", f"{who.en} (remote) is away"))

    def _tell(self, text: Text) -> None:
        s = self.session
        s.notify(frozenset(s.humans()), text)

    def status_text(self) -> Text | None:
        """What every local screen says while the other table is not there (None: it is, or the game is over)."""
        if self.link.present or self.session.over:
            return None
        who = self._names()
        if not self.link.ever_present and self.side == "host":
            code = shown(self.link.code)
            return tr(f"Partie à distance : code {code}", f"Remote game: code {code}")
        if not self.link.connected:
            return tr(f"Réseau perdu : {who.fr} absent", f"Network lost: {who.en} away")
        return tr(f"{who.fr} (à distance) absent", f"{who.en} (remote) away")
