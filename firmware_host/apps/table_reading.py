"""The sensed table read by a game in progress: its pieces sorted from strangers, a settled change
matched against the legal moves, and otherwise the one instruction that brings the table back to
the game, with the reason of the mistake behind it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from firmware_host.apps import mistakes, reconcile
from firmware_host.apps.computer_seats import ComputerSeats
from firmware_host.apps.copies import Copies
from firmware_host.apps.reconcile import Instruction, Refusal
from firmware_host.apps.table_draws import draws
from firmware_host.screens.frames import zone_label
from firmware_host.storage.tags import TagRegistry
from games.core import CHANCE, Action, Game

T = TypeVar("T")
_NOBODY: frozenset[int] = frozenset()  # no computer's move to lay (made once)
Layout = dict[str, frozenset[str]]
Read = tuple[Layout, Layout, list[reconcile.Stranger]]  # (layout, on the zones sensed, strangers)


class Play(Protocol):
    """What reading the table needs of the game in progress (the session)."""

    game: Game[Any, Any]
    state: Any
    registry: TagRegistry
    seats: tuple[int | None, ...]
    computers: ComputerSeats
    remote: Any  # the seats played at another table, or None
    cues: list[str]
    auto_chance: bool

    @property
    def over(self) -> bool: ...
    def of_state(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T: ...
    def known(self, key: tuple[Any, ...]) -> bool: ...
    def to_logical(self, zone: str) -> str | None: ...
    def to_physical(self, zone: str) -> str | None: ...
    def logical_zones(self) -> set[str]: ...
    def expected(self) -> dict[str, Any]: ...
    def to_act(self) -> frozenset[int]: ...
    def humans_to_act(self) -> frozenset[int]: ...
    def run_chance(self) -> None: ...
    def apply(self, seat: int, action: Action) -> bool: ...


ZoneReading = tuple[frozenset[str], frozenset[str], tuple[reconcile.Stranger, ...]]  # (tags, pieces, strangers)


class ZoneReadings:
    """Per physical zone, the tags last read there and what they read as (this game's pieces, the
    strangers), with the registry (and its changes) and the game they were read for: a settled
    change moves a piece or two, only their zones are read again. What a zone's tags read as
    depends on nothing else, so a copy of the session shares these (copying them would cost
    more than reading the table)."""

    __slots__ = ("mark", "zones")

    def __init__(self) -> None:
        self.mark: tuple[TagRegistry, int, str] | None = None
        self.zones: dict[str, ZoneReading] = {}

    def __copy__(self) -> ZoneReadings:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ZoneReadings:
        return self


class TableReading:
    """What the table last sensed, and what the game asks of it now."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.sensed: dict[str, frozenset[str]] = {}  # physical zone -> UIDs, last settled
        self.strangers: list[reconcile.Stranger] = []  # tags of no piece of this game, last settled
        self.instruction: Instruction | None = None
        # why the game refused the gesture behind the current instruction, shown with that
        # instruction on that seat's screen only, and gone with it
        self.reason: Refusal | None = None
        # a sensed change is read as a move only once the table matched the game since the last
        # action: otherwise a piece that must leave (a scared gazelle) could count as a new move
        self.synced = False
        # the sensed layout when the table last matched the game: a zone sensed as it was then has
        # seen no gesture (what the game wants there is a move still to be laid, a computer's)
        self.matched: dict[str, frozenset[str]] | None = None
        # the zones each computer's move changed (its own gesture), until the table matches the game
        self.gestures: dict[int, Layout] = {}
        self._layout: tuple[Layout, Read] | None = None  # (sensed it was read from, read())
        self._zones = ZoneReadings()
        self._prepared: tuple[Any, bool] | None = None  # (state, synced) last prepared for
        self.copies = Copies()  # identical cards laid for one another
        # computers_to_lay() asked for every seat's frame at every event: (what it read, the answer)
        self._to_lay: tuple[tuple[Any, ...], frozenset[int]] | None = None
        self._laid: tuple[Any, Any, tuple[int, Action] | None] | None = None  # (layout, state, laid())

    def sense(self, sensed: Mapping[str, frozenset[str]]) -> list[reconcile.Stranger]:
        """A settled layout (physical zone -> UIDs): match an action or guide. Returns strangers."""
        self.sensed = dict(sensed)
        self.strangers = self.read()[2]
        self.reconcile()
        return self.strangers

    def moved(self, gesture: tuple[int, Layout] | None = None) -> None:
        """The game moved on: the pieces must match it before a sensed change is a move again.
        `gesture`: a computer seat and its move's footprint, for a human to lay."""
        self.synced = False
        self._to_lay = None
        if gesture is not None:
            seat, foot = gesture
            before = self.matched if self.matched is not None else self.read()[1]
            # on the shared zones only: a human's pad changes by what the move did to that human
            # (a card played goes to its line), never by the computer's own hand
            self.gestures[seat] = {z: foot.get(z, frozenset()) for z in set(foot) | set(before)
                                   if foot.get(z, frozenset()) != before.get(z, frozenset())
                                   and not z.startswith("pad.")}

    def computers_to_lay(self) -> frozenset[int]:
        """The computer seats whose move the table waits to see laid (the game moved on already)."""
        if self.synced or self.instruction is None:
            return _NOBODY
        s = self.play
        # gestures change only with `moved` and `reconcile`, which forget the answer
        known = self._to_lay
        if known is not None:
            state, sensed_from, layout, instruction = known[0]
            if state is s.state and sensed_from is self.sensed and layout is self._layout \
                    and instruction is self.instruction:
                return known[1]
        sensed, expected = self.read()[1], s.expected()
        lay = frozenset(seat for seat, zones in self.gestures.items()
                        if any(sensed.get(z, frozenset()) != expected.get(z, frozenset()) for z in zones))
        self._to_lay = ((s.state, self.sensed, self._layout, self.instruction), lay)
        return lay

    def forget(self) -> None:
        """Read the sensed tags again (the zones the game senses changed)."""
        self._layout = None

    def layout(self) -> Layout:
        """This game's pieces as sensed, in logical zones."""
        return self.read()[0]

    def read(self) -> Read:
        """The sensed tags read once per settled change: (layout, layout on the zones the game
        senses, strangers)."""
        if self._layout is not None and self._layout[0] is self.sensed:
            return self._layout[1]
        s = self.play
        pieces, strangers = self._classify()
        out: dict[str, frozenset[str]] = {}
        for zone, ps in self.copies.read(pieces).items():
            logical = s.to_logical(zone)
            if logical is not None:
                out[logical] = ps
        read = (out, reconcile.restrict(out, s.logical_zones()), strangers)
        self._layout = (self.sensed, read)
        return read

    def _classify(self) -> tuple[dict[str, frozenset[str]], list[reconcile.Stranger]]:
        """`reconcile.classify` of the sensed tags, each zone's worked out again only when its tags
        (or the registry) changed since the last reading."""
        s = self.play
        cache = self._zones
        mark = cache.mark
        if mark is None or mark[0] is not s.registry or mark[1] != s.registry.changes or mark[2] != s.game.id:
            cache.zones, cache.mark = {}, (s.registry, s.registry.changes, s.game.id)
        known = cache.zones
        fresh: dict[str, ZoneReading] = {}
        pieces: dict[str, frozenset[str]] = {}
        strangers: list[reconcile.Stranger] = []
        for zone, uids in self.sensed.items():
            got = known.get(zone)
            if got is None or got[0] != uids:
                tags = uids if type(uids) is frozenset else frozenset(uids)
                found, odd = reconcile.classify({zone: tags}, s.registry, s.game.id)
                got = (tags, found.get(zone, frozenset()), tuple(odd))
            fresh[zone] = got
            if got[1]:
                pieces[zone] = got[1]
            strangers.extend(got[2])
        strangers.sort(key=lambda x: (x.zone, x.uid))
        cache.zones = fresh
        return pieces, strangers

    def _chance_sensed(self) -> bool:
        return CHANCE in self.play.to_act() and not self.play.auto_chance

    def footprints(self) -> list[tuple[int, Action, dict[str, frozenset[str]]]]:
        """Every legal action of the seats to act (sensed chance outcomes included) with its
        footprint on the sensed zones: what a settled change is matched against."""
        s = self.play
        chance_sensed = self._chance_sensed()
        return s.of_state(("footprints", chance_sensed), lambda: reconcile.footprints(
            s.game, s.state, s.logical_zones(), chance_sensed))

    def prepare(self) -> bool:
        """Idle time: work out now what the next piece moved will be matched against (the table is
        waiting for a player, often for seconds), so the table answers that move sooner. True if
        there was something to do."""
        s = self.play
        done = self._prepared
        if done is not None and done[0] is s.state and done[1] == self.synced:
            return False  # nothing new since the last time (a burst of raw tags changes neither)
        self._prepared = (s.state, self.synced)
        if not self.synced or s.over:
            return False
        if s.known(("footprints", self._chance_sensed())):
            return False
        self.footprints()
        return True

    def laid(self, settling: Mapping[str, frozenset[str]]) -> tuple[int, Action] | None:
        """The move a layout still settling would be read as, the first thing `reconcile` would
        apply once it settles (None: it would read none, or not one alone). Nothing is changed."""
        s = self.play
        known = self._laid
        if known is not None and known[0] is settling and known[1] is s.state:
            return known[2]
        found: list[tuple[int, Action]] = []
        # as `reconcile` reads it: after the draws the table makes itself (none is worked out here)
        if self.synced and not s.over and s.remote is None and not draws(s):
            kept = self.sensed, self._layout
            self.sensed, self._layout = dict(settling), None
            try:  # read as a settled layout would be: the zones' readings are kept by their tags
                target = self.read()[1]
            finally:
                self.sensed, self._layout = kept
            if target != s.expected():
                found = [(seat, act) for seat, act, foot in self.footprints() if foot == target]
        self._laid = (settling, s.state, found[0] if len(found) == 1 else None)
        return self._laid[2]

    def reconcile(self) -> None:
        """Apply the one action the table shows, or set the next instruction."""
        s = self.play
        for _ in range(100):  # each round applies one action; a game never chains 100
            s.run_chance()
            if s.over:  # an ended game asks nothing more of the table
                self.instruction = self.reason = None
                return
            target = self.read()[1]
            if target == s.expected():
                self.instruction = None
                self.reason = None
                self.synced = True
                self.matched = target
                self.gestures.clear()
                self._to_lay = None
                return
            if not self.synced:
                break
            # a remote seat's move comes from its own table, never from a hand here
            found = [(seat, act) for seat, act, foot in self.footprints()
                     if foot == target and (s.remote is None or not s.remote.from_link(seat))]
            if len(found) == 1:
                if not s.apply(*found[0]):
                    break
                self.matched = target  # the table as that move left it: a gesture, not a mistake
                continue
            break
        self._set_instruction()

    def _set_instruction(self) -> None:
        s = self.play
        sensed = self.read()[1]
        todo = reconcile.fixes(s.expected(), sensed)
        if self.copies.take(s.game, s.state, todo):
            self._layout = None  # a copy laid for the other: read the table again
            self.reconcile()
            return
        if self.matched is not None:  # a gesture's fixes first: a mistake is undone before what is still to lay
            before = self.matched
            todo.sort(key=lambda f: sensed.get(f.zone, frozenset()) == before.get(f.zone, frozenset()))
        if not todo or self._half_move():  # the rest of a legal move is awaited: nothing to say
            self.instruction = None
            self.reason = None
            return
        fix = todo[0]
        physical = s.to_physical(fix.zone)
        if physical is None:  # a seatless player's pad cannot hold anything: nothing to guide
            self.instruction = None
            self.reason = None
            return
        audience = self._audience(physical)
        # a pad instruction is read by its owner only: "votre plateau"
        owner = s.seats[next(iter(audience))] if len(audience) == 1 else None
        label = zone_label(physical, owner)
        text = reconcile.instruction(s.game, fix, label)
        scene = self._scene()  # read again at every change: the table as it is now says what went wrong
        was = self.reason if self.instruction is not None and self.instruction.fix == fix else None
        if mistakes.still_to_lay(scene, fix):
            self.reason = mistakes.guidance(scene, fix)
        else:
            self.reason = mistakes.classify(scene, fix, label)
        if self.reason is not None and self.reason.mistake is not None and self.reason != was:
            s.cues.append("error")  # a new mistake sounds once
        self.instruction = Instruction(fix, audience, text)

    def _scene(self) -> mistakes.Scene:
        """What the table knows of the change it could not read as a move."""
        s = self.play
        humans = frozenset(x for x, t in enumerate(s.seats) if t is not None and x not in s.computers.seats)
        return mistakes.Scene(s.game, s.state, s.expected(), self.read()[1], self.matched,
                              mistakes.Later(self.footprints), humans,
                              s.computers.seats, s.to_act(), self.computers_to_lay())

    def _half_move(self) -> bool:
        """True when the table shows the first part of a legal move of a human to act."""
        return self.synced and mistakes.half_move(self._scene())

    def _audience(self, physical_zone: str) -> frozenset[int]:
        """Who sees an instruction about a zone: the pad's owner, else every player."""
        s = self.play
        logical = s.to_logical(physical_zone)
        if logical is not None and logical.startswith("pad."):
            return frozenset({int(logical[4:])})
        return frozenset(x for x, t in enumerate(s.seats) if t is not None)
