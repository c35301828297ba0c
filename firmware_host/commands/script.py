"""`zebra-table script FILE`: the simulated table driven by JSON lines, writing a transcript.

Each input line is one hardware event (see docs/scripts.md); each output line is the table after
it: every seat's screen as text, LEDs, the game, seats to act, moves, outcome, public view; with
`--acks`, also the moves the journal committed during the line and a digest of the game state.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any, BinaryIO, TextIO

from drivers.reader.protocol import DEVICE_MESSAGES
from firmware_host.apps.app import StartRequest
from firmware_host.apps.computer import InlineThinker
from firmware_host.apps.menu import Do, MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.commands.script_events import check_event
from firmware_host.loop.simulator import FakeClock, SimError, SimTable
from firmware_host.storage import inputs
from firmware_host.storage.config import ConfigError, load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalError
from firmware_host.storage.journal_lock import JournalInUse, JournalLock, lock_journal
from firmware_host.venue import attach as attach_venue
from games.core import Action, to_json

EXIT_ERRORS = 1
FRAME_FAULTS = ("drop", "corrupt", "truncate", "duplicate", "reorder")
READER_EVENTS = ("disappear", "reappear", *FRAME_FAULTS, "garbage", "stats")
READER_FRAME_KINDS = tuple(DEVICE_MESSAGES)  # frame types the controller sends


def add_parser(sub: Any) -> None:
    """Register the `script` sub-command."""
    p = sub.add_parser("script", help="drive the simulated table from JSON lines, print a transcript")
    p.add_argument("file", help="script file (JSON lines); - = stdin")
    p.add_argument("--config", help="table config (default: the simulated 8-seat table)")
    p.add_argument("--seed", type=int, default=0, help="seed for chance events")
    p.add_argument("--journal", help="SQLite journal file (default: none)")
    p.add_argument("--changed-only", action="store_true", help="only the screens that changed")
    p.add_argument("--acks", action="store_true",
                   help="with --journal: list the moves committed during each line, and a state digest")
    p.add_argument("-o", "--output", help="transcript file (default: stdout)")
    p.add_argument("--tables", type=int, choices=(1, 2), default=1,
                   help="2: two tables (a, b) playing one remote game through the config's [remote] broker")
    p.set_defaults(func=run)


def state_digest(state: Any) -> str:
    """A short digest of a game state, equal for equal states in any process (tests compare runs)."""
    import hashlib  # here: every command's module is imported by `zebra-table run`, and libcrypto is 3-4 MB

    text = json.dumps(to_json(state), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class AckingJournal(Journal):
    """The journal, also keeping each move it committed until the transcript reports it."""

    def __init__(self, path: str):
        super().__init__(path)
        self.committed: list[list[Any]] = []

    def append_many(self, game: int, first: int, moves: list[tuple[int, Action]]) -> None:
        """Commit moves, then remember them: a move is acknowledged only once durable."""
        super().append_many(game, first, moves)
        self.committed += [[game, first + i, seat, to_json(act)] for i, (seat, act) in enumerate(moves)]

    def take(self) -> list[list[Any]]:
        """The moves committed since the last call, as [game id, index, seat, action]."""
        out, self.committed = self.committed, []
        return out


class ScriptRunner:
    """Applies script events to a SimTable with a fake clock."""

    def __init__(self, sim: SimTable, clock: FakeClock):
        self.sim = sim
        self.clock = clock
        self.report: dict[str, Any] = {}  # extra transcript fields from the last event

    def line(self, line: str | inputs.InputError, where: str) -> dict[str, Any]:
        """One script line: {"event": ...} once done, with "error" if it was refused (nothing changed)."""
        entry: dict[str, Any] = {}
        self.report = {}
        try:
            if isinstance(line, inputs.InputError):
                raise line
            ev = inputs.json_text(line, where)
            entry["event"] = ev
            check_event(ev, self.sim.runtime.seat_ids, where)
            self.apply(ev)
        except (SimError, ValueError, KeyError, TypeError) as exc:
            entry["error"] = str(exc) if not isinstance(exc, KeyError) else f"missing key {exc}"
        except OSError as exc:  # a png that cannot be written
            entry["error"] = f"{where}: {exc.strerror or exc}: {exc.filename or ''}"
        return entry

    def apply(self, ev: dict[str, Any]) -> None:
        """One event; raises SimError/ValueError/KeyError for a bad one."""
        sim = self.sim
        self.report = {}
        settle = ev.get("settle", True)
        if "place" in ev:
            sim.place(ev["place"], _piece(ev))
            if settle:
                sim.settle()
        elif "remove" in ev:
            sim.remove(ev["remove"], _piece(ev))
            if settle:
                sim.settle()
        elif "press" in ev:
            sim.press(int(ev["press"]), ev.get("button", "ok"))
        elif "long" in ev:
            sim.long_press(int(ev["long"]), ev.get("button", "ok"))
        elif "advance" in ev:
            self._advance(float(ev["advance"]))
        elif "start" in ev:
            sim.runtime.start(start_request(ev["start"]))
            sim.runtime.refresh()
        elif "resume" in ev:
            self._resume(bool(ev["resume"]), ev.get("seat"))
        elif "reader" in ev:
            self._reader(ev["reader"], ev)
        elif "screen" in ev:
            spec = sim.config.seat(int(ev["screen"])).screen
            if spec is None:
                raise SimError(f"seat {ev['screen']} has no screen")
            bank = sim.table.sim_screens
            (bank.unplug if ev.get("fail", True) else bank.plug)(spec.bus, spec.address)
            self._advance(0.0)
        elif "png" in ev:
            folder = os.path.dirname(os.path.abspath(ev["path"]))
            if not os.path.isdir(folder):
                raise SimError(f"png: no folder {folder}")
            sim.table.save_png(int(ev["png"]), ev["path"])
        elif "comment" in ev:
            pass  # a note for the script's reader: the table does nothing
        else:
            raise SimError(f"unknown event {json.dumps(ev)} (place, remove, press, long, advance, start, "
                           "resume, reader, screen, png, comment)")

    def _advance(self, seconds: float) -> None:
        # small steps so countdowns, banners and screen retries see each moment they wait for
        remaining = seconds
        while remaining > 0:
            step = min(0.25, remaining)
            self.clock.advance(step)
            remaining -= step
            self.sim.runtime.tick()
            self.sim.table.poll()
        self.sim.runtime.tick()
        self.sim.table.poll()

    def _resume(self, resume: bool, seat: Any) -> None:
        """Choose "Reprendre" (or "Abandonner") in the menu with a seat's buttons, as players do."""
        runtime = self.sim.runtime
        menu = runtime.app
        if not isinstance(menu, MenuApp) or menu.step != "home" or menu.unfinished is None:
            raise SimError("resume: the menu offers no unfinished game")
        if menu.host is None:
            first = int(seat) if seat is not None else next(s for s in menu.unfinished.seats if s is not None)
            self.sim.press(first, "ok")  # the first press only takes the menu
        host = menu.host
        if host is None:
            raise SimError("resume: the press did not reach the menu")
        keys = [key for _, key in menu.entries()]
        target = keys.index(Do("resume") if resume else Do("abandon"))
        for _ in range(len(keys)):
            if menu.cursor == target:
                break
            self.sim.press(host, "right")
        self.sim.press(host, "ok")
        if not resume and step_of(menu) == "abandon":  # the table asks again, "Non" first: "Oui"
            self.sim.press(host, "right")
            self.sim.press(host, "ok")
        if resume and not isinstance(runtime.app, GameSession):
            raise SimError("resume: the game did not start again")

    def _reader(self, what: str, ev: dict[str, Any]) -> None:
        sim, reader = self.sim, self.sim.reader
        if what == "disappear":
            reader.disappear()
            sim.pump(lambda: sim.runtime.reader_state != "ready")
        elif what == "reappear":
            reader.reappear(reset=False)
            sim.wait_ready()
            sim.settle()
        elif what in FRAME_FAULTS:
            # a held-back frame is let out by the next one of its kinds: heartbeats included, so
            # a reordered last event still arrives (late) without another event to follow it
            default = ("ADD", "DEL", "HB") if what == "reorder" else ("ADD", "DEL")
            kinds = tuple(ev.get("kinds", default))
            unknown = [k for k in kinds if k not in READER_FRAME_KINDS]
            if unknown or not kinds:
                raise SimError(f"reader {what}: kinds {unknown or '[]'} not among "
                               f"{', '.join(READER_FRAME_KINDS)}")
            count = int(ev.get("count", 1))
            if count < 1:
                raise SimError(f"reader {what}: count must be 1 or more, got {count}")
            if what == "reorder":  # each reorder swaps one pair of frames
                for _ in range(count):
                    reader.reorder(kinds=kinds)
            else:
                getattr(reader, what)(count, kinds=kinds)
        elif what == "garbage":
            reader.inject(size=int(ev.get("size", 32)))
        elif what == "stats":
            self.report["reader_stats"] = {
                "link": dataclasses.asdict(sim.table.link.stats),
                "controller": {"frames_sent": reader.frames_sent, "faults": dict(reader.faults_applied)},
            }
        else:
            raise SimError(f"reader: {what!r} ({', '.join(READER_EVENTS)})")


def start_request(spec: dict[str, Any]) -> StartRequest:
    """The StartRequest of a checked start event: computer players sit after the humans."""
    seats: list[int | None] = list(spec["seats"])
    computers: dict[int, str] = {}
    for item in spec.get("computers", []):
        computers[len(seats)] = item["level"] if isinstance(item, dict) else item
        seats.append(item.get("seat") if isinstance(item, dict) else None)
    hints = spec.get("hints", len(spec["seats"]) == 1 and bool(computers))
    return StartRequest(spec["game"], tuple(seats), dict(spec.get("options", {})), extra=int(spec.get("extra", 0)),
                        computers=computers, hints=bool(hints))


def _piece(ev: dict[str, Any]) -> str:
    piece = ev.get("piece") or ev.get("tag")
    if not isinstance(piece, str):
        raise SimError('a place/remove event needs "piece" (a piece id) or "tag" (a UID)')
    return piece


def _transcript(sim: SimTable, clock: FakeClock, journal: Journal | None, stream: BinaryIO, name: str, sink: TextIO,
                changed_only: bool) -> int:
    """Play the script's lines (blank lines and # comments skipped), one transcript line each;
    returns how many lines failed."""
    runner = ScriptRunner(sim, clock)
    last: dict[str, Any] = {}
    errors = 0
    events = ((n, t) for n, t in inputs.lines(stream, name)
              if isinstance(t, inputs.InputError) or (t.strip() and not t.lstrip().startswith("#")))
    for index, (number, line) in enumerate(events):
        entry: dict[str, Any] = {"i": index}
        entry.update(runner.line(line, f"{name}:{number}"))
        errors += "error" in entry
        entry["t"] = round(clock() - 1000.0, 3)
        entry.update(sim.status())
        entry.update(runner.report)
        if isinstance(journal, AckingJournal):
            entry["acked"] = journal.take()
            app = sim.runtime.app
            if isinstance(app, GameSession):
                entry["state"] = state_digest(app.state)
        screens = sim.screens_text()
        entry["screens"] = {s: f for s, f in screens.items() if last.get(s) != f} if changed_only else screens
        last = screens
        sink.write(json.dumps(entry, ensure_ascii=False) + "\n")
        sink.flush()
    return errors


def _transcript_two(sims: dict[str, SimTable], clock: FakeClock, broker: Any, stream: BinaryIO, name: str,
                    sink: TextIO) -> int:
    """Two tables' script (firmware_host/remote/script.py): each line reports its table, and both
    tables' moves and links; returns how many lines failed."""
    from firmware_host.remote.script import TwoTables

    two = TwoTables({t: ScriptRunner(sim, clock) for t, sim in sims.items()}, broker)
    errors = 0
    try:
        events = ((n, t) for n, t in inputs.lines(stream, name)
                  if isinstance(t, inputs.InputError) or (t.strip() and not t.lstrip().startswith("#")))
        for index, (number, line) in enumerate(events):
            entry: dict[str, Any] = {"i": index}
            entry.update(two.line(line, f"{name}:{number}"))
            errors += "error" in entry
            sim = sims[entry.get("table", "a")]
            entry["t"] = round(clock() - 1000.0, 3)
            entry.update(sim.status())
            entry["tables"] = two.status()
            entry["screens"] = sim.screens_text()
            sink.write(json.dumps(entry, ensure_ascii=False) + "\n")
            sink.flush()
    finally:
        two.close()
    return errors


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Entry point of `zebra-table script`."""
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.acks and not args.journal:
        print("--acks needs --journal (a move is acknowledged once the journal committed it)", file=sys.stderr)
        return 2
    try:
        stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        print(f"{args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    own_out = out is None and args.output is not None
    try:
        sink = out or (open(args.output, "w", encoding="utf-8") if args.output else sys.stdout)  # noqa: SIM115 (own_out)
    except (OSError, ValueError) as exc:  # a missing or unwritable folder; a NUL in the name
        print(f"{args.output}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        stream.close()
        return 2
    clock = FakeClock()
    journal: Journal | None = None
    lock: JournalLock | None = None
    if args.journal:
        try:
            lock = lock_journal(args.journal)  # a table process may be using it: never both
            journal = AckingJournal(args.journal) if args.acks else Journal(args.journal)
        except (JournalError, JournalInUse) as exc:  # a test tool: say it, never set a file aside on its own
            print(f"journal: {exc}", file=sys.stderr)
            if lock is not None:
                lock.release()
            stream.close()
            if own_out:
                sink.close()
            return 2
    sim = SimTable(config, clock=clock, seed=args.seed, journal=journal)
    # computer players think inline with iteration budgets: the script waits, transcripts repeat
    sim.runtime.thinker = InlineThinker()
    # the second table of a two-table script: its own reader, screens and buttons; no journal
    other = SimTable(config, clock=clock, seed=args.seed + 1) if getattr(args, "tables", 1) == 2 else None
    venue = attach_venue(config, journal)
    try:
        if not sim.wait_ready() or (other is not None and not other.wait_ready()):
            print("the virtual reader controller did not come up", file=sys.stderr)
            return 2
        sim.settle()
        name = "<stdin>" if args.file == "-" else args.file
        with stream:
            if other is not None:
                other.settle()
                errors = _transcript_two({"a": sim, "b": other}, clock, config.remote, stream, name, sink)
            else:
                errors = _transcript(sim, clock, journal, stream, name, sink, args.changed_only)
    finally:
        if other is not None:
            other.close()
        sim.close()
        if venue is not None:
            venue.close()
        if journal is not None:
            sim.runtime.keeper.close()  # the journal in use (a damaged one may have been replaced)
        if lock is not None:
            lock.release()
        if own_out:
            sink.close()
    return EXIT_ERRORS if errors else 0


def step_of(menu: MenuApp) -> str:
    """The menu's step now (read after presses that changed it: no narrowing from before them)."""
    return menu.step
