"""`zebra-table sim`: the whole table on simulated hardware, played from the terminal."""

from __future__ import annotations

import argparse
import os
import select
import shlex
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host.apps.menu import MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.commands.common import stop_on, whole_number
from firmware_host.loop.affinity import pin_table
from firmware_host.loop.events import Stop
from firmware_host.loop.simulator import SimError, SimTable
from firmware_host.screens.render import frame_text
from firmware_host.storage.config import ConfigError, TableConfig, load_config
from firmware_host.storage.journal_lock import JournalInUse, lock_journal
from firmware_host.storage.settings import settings_path
from firmware_host.venue import attach as attach_venue

if TYPE_CHECKING:
    from firmware_host.storage.journal import Journal
    from firmware_host.venue import VenueLink
    from firmware_host.web.service import WebService

HELP = """Commands (seats 1-8; zones A1..F5, seatN.pad, centre.1..5):
  <seat> <button>            press a button: 1 ok, 2 left, 2 right (also <, >)
  long <seat> [button]       long press (OK: quit a game)
  place <zone> <piece>       lay a tag: place C3 white/lion/1 (any unique end of a piece id)
  remove <zone> <piece>      lift it: remove C3 white/lion/1
  move <from> <to> <piece>   lift and lay
  show [seat]                print every screen (or one)
  board                      what the reader senses on the board
  pieces [text]              piece ids of the current game (filtered)
  png <seat> [file]          save a seat's screen as PNG (default screens/seatN.png)
  wait <seconds>             let time pass (countdowns)
  help, quit"""


def add_parser(sub: Any) -> None:
    """Register the `sim` sub-command."""
    p = sub.add_parser("sim", help="the whole table on simulated hardware, in the terminal")
    p.add_argument("--config", help="table config (default: the simulated 8-seat table)")
    p.add_argument("--seed", type=int, default=None, help="seed for chance events")
    p.add_argument("--journal", help="SQLite journal (default: the config's, under $XDG_DATA_HOME/zebra-table)")
    p.add_argument("--no-journal", action="store_true", help="keep no journal: a stopped game is lost")
    p.add_argument("--no-web", action="store_true", help="the terminal only: no virtual table in a browser")
    p.add_argument("--web-port", type=whole_number(0, 65535), default=None,
                   help="port of the web pages (default: the config's web.port)")
    p.set_defaults(func=lambda args: run(args, pin=True))  # the command itself: a process of its own


class Console:
    """Reads commands, acts on the SimTable, prints the screens that changed."""

    def __init__(self, sim: SimTable, out: TextIO):
        self.sim = sim
        self.out = out
        self.printed: dict[int, list[str]] = {}

    def screens(self, only: int | None = None, changed: bool = False, quiet: bool = False) -> bool:
        """Print seats' screens as the OLED lays them out; True if anything was printed.

        `quiet`: the lit LEDs only with a screen that changed (a look while nobody types)."""
        printed = False
        lang = self.sim.runtime.language
        for seat, frame in sorted(self.sim.frames().items()):
            if only is not None and seat != only:
                continue
            lines = frame_text(frame, lang)
            if changed and self.printed.get(seat) == lines:
                continue
            self.printed[seat] = lines
            printed = True
            width = max([24, *(len(text) for text in lines)])
            print(f"┌─ seat {seat} " + "─" * (width - 7) + "┐", file=self.out)
            for line in lines:
                print(f"│ {line.ljust(width)} │", file=self.out)
            print("└" + "─" * (width + 2) + "┘", file=self.out)
        lit = self.sim.runtime.lit
        if lit and (printed or not quiet):
            print("LEDs: " + ", ".join(f"{z} {c}" for z, c in sorted(lit.items())), file=self.out)
        return printed

    def command(self, line: str) -> bool:
        """Run one command; False to quit."""
        words = shlex.split(line)
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        sim = self.sim
        buttons = {"<": "left", ">": "right", "ok": "ok", "left": "left", "right": "right"}
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd == "help":
            print(HELP, file=self.out)
        elif cmd.isdigit():
            sim.press(int(cmd), buttons.get(args[0].lower() if args else "ok", args[0] if args else "ok"))
        elif cmd == "long":
            sim.long_press(int(args[0]), buttons.get(args[1], args[1]) if len(args) > 1 else "ok")
        elif cmd in ("place", "remove") and len(args) == 2:
            getattr(sim, cmd)(args[0], args[1])
            sim.settle()
        elif cmd == "move" and len(args) == 3:
            sim.remove(args[0], args[2])
            sim.place(args[1], args[2])
            sim.settle()
        elif cmd == "show":
            self.screens(int(args[0]) if args else None)
            return True
        elif cmd == "board":
            self.board()
            return True
        elif cmd == "pieces":
            self.pieces(args[0] if args else "")
            return True
        elif cmd == "png" and args:
            seat = int(args[0])
            path = Path(args[1]) if len(args) > 1 else Path("screens") / f"seat{seat}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            print(f"saved {sim.table.save_png(seat, path, scale=4)}", file=self.out)
            return True
        elif cmd == "wait" and args:
            time.sleep(float(args[0]))
        else:
            raise SimError(f"unknown command {line.strip()!r} (type help)")
        time.sleep(0.05)  # let the runtime's thread handle the event
        self.screens(changed=True)
        return True

    def board(self) -> None:
        """The sensed board, one row per line."""
        raw = self.sim.runtime.raw
        reg = self.sim.registry
        for row in range(1, 6):
            cells = []
            for col in "ABCDEF":
                uids = raw.get(f"{col}{row}", set())
                names = [(reg.piece(u) or u).split("/", 1)[-1] for u in uids]
                cells.append(f"{col}{row}:{'+'.join(names) or '.'}")
            print("  ".join(cells), file=self.out)

    def pieces(self, text: str) -> None:
        """List piece ids of the current game (or all) containing `text`."""
        app = self.sim.runtime.app
        prefix = app.game.id + "/" if isinstance(app, GameSession) else ""
        names = [p for _, p in self.sim.registry if p.startswith(prefix) and text in p]
        print("\n".join(names[:80]) + (f"\n… {len(names) - 80} more" if len(names) > 80 else ""), file=self.out)


def run(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None, *, pin: bool = False) -> int:
    """Entry point of `zebra-table sim`."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if getattr(args, "no_journal", False):
        return _simulate(args, config, None, inp, out, pin)
    path = args.journal or config.journal
    try:
        lock = lock_journal(path)  # before the journal is opened (or a damaged one moved)
    except JournalInUse as exc:
        print(exc, file=sys.stderr)
        return 4
    try:
        return _simulate(args, config, path, inp, out, pin)
    finally:
        lock.release()


def _simulate(args: argparse.Namespace, config: TableConfig, path: str | None, inp: TextIO, out: TextIO,
              pin: bool) -> int:
    """The simulated table with the journal at `path` (None: none), once it is this process's."""
    from firmware_host.commands.common import open_journal, open_journal_or_raise

    # damaged: set aside; busy, full: said on screen
    journal, notice = (None, None) if path is None else open_journal(path)
    if journal is not None:
        print(f"journal: {journal.path} (a stopped game is offered again; --no-journal keeps none)", file=out)
    sim = SimTable(config, seed=args.seed if args.seed is not None else int(time.time()),
                   journal=journal, hold_time=0.3, threaded=True,
                   settings=None if path is None else settings_path(config.data_dir))
    if path is not None and journal is None:  # busy (or not there yet): retried every few seconds, as `run` does
        sim.runtime.keeper.open_later(lambda: open_journal_or_raise(path))
    venue = attach_venue(config, journal)
    web, started = _start_web(args, sim, journal)
    if not started:
        _close(sim, venue)
        return 3
    if notice is not None and isinstance(sim.runtime.app, MenuApp):
        sim.runtime.app.notice = notice
    if pin:  # as the service does (config pin_cpu); not when a caller runs the simulator in its own process
        pin_table(config.pin_cpu)
    loop = threading.Thread(target=sim.runtime.run, kwargs={"on_idle": sim.table.poll}, daemon=True)
    loop.start()
    restore = _stop_on_signals()
    try:
        _play(Console(sim, out), inp, out, web)
    except KeyboardInterrupt:
        pass  # Ctrl-C, a kill or the terminal closed ends the simulator: the table is stopped, the journal closed
    finally:
        restore()  # a second signal meanwhile stops the process at once
        sim.runtime.post(Stop())
        loop.join(2.0)
        if web is not None:
            web.stop()
        _close(sim, venue)
    return 0


def _start_web(args: argparse.Namespace, sim: SimTable, journal: Journal | None) -> tuple[WebService | None, bool]:
    """The virtual table's pages unless --no-web; False when they cannot start (said in one line)."""
    if getattr(args, "no_web", True):
        return None, True
    from firmware_host.web.server import WebError
    from firmware_host.web.service import start_web

    try:
        return start_web(sim.table, sim.registry, journal_path=None if journal is None else str(journal.path),
                         port=getattr(args, "web_port", None), port_hint="--web-port"), True
    except WebError as exc:  # the port is taken, the address cannot be used: one line
        print(exc, file=sys.stderr)
        return None, False


def _close(sim: SimTable, venue: VenueLink | None) -> None:
    sim.close()
    if venue is not None:
        venue.close()
    # the journal in use (opened later, or a new one after a set-aside): a clean stop, so the next
    # start has nothing to check or report
    sim.runtime.keeper.close()


def _play(console: Console, inp: TextIO, out: TextIO, web: WebService | None) -> None:
    """Read and run commands until quit or the end of input, printing the screens that change."""
    interactive = inp.isatty()
    terminal = _Terminal(inp, out) if interactive else None
    console.sim.wait_ready()
    time.sleep(0.1)
    print("zebra-table simulator — 'help' lists the commands. Press a seat's button to begin: 1 ok", file=out)
    if web is not None:
        print(f"Virtual table in your browser: {web.url}  (spectators: {web.server.url}/watch)", file=out)
    console.screens()
    while True:
        if interactive:
            print("> ", end="", file=out, flush=True)
        line = terminal.line(lambda: console.screens(changed=True, quiet=True)) if terminal else inp.readline()
        if not line:
            if web is not None and not interactive:  # no terminal: the browser plays; Ctrl-C ends
                _wait_for_signal()
            return
        try:
            if not console.command(line):
                return
        except (SimError, ValueError, IndexError) as exc:
            print(f"! {exc}", file=out)


class _Terminal:
    """A terminal's lines, read so that the screens changing meanwhile are printed at once.

    A computer's move, a hint or a countdown changes screens while nobody types: waiting in
    `readline` would show them only after the next command. Bytes are read from the descriptor
    (not through Python's buffer, which `select` cannot see), a line at a time."""

    REFRESH = 0.25  # seconds between two looks at the screens while waiting for a line

    def __init__(self, inp: TextIO, out: TextIO):
        self.fd = inp.fileno()
        self.out = out
        self.pending = b""

    def line(self, refresh: Callable[[], bool]) -> str:
        """The next line ("" at end of input); `refresh` prints what changed while waiting."""
        while b"\n" not in self.pending:
            if not select.select([self.fd], [], [], self.REFRESH)[0]:
                if refresh():
                    print("> ", end="", file=self.out, flush=True)
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                rest, self.pending = self.pending, b""
                return rest.decode("utf-8", errors="replace")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode("utf-8", errors="replace") + "\n"


def _stop_on_signals() -> Callable[[], None]:
    """SIGTERM and SIGHUP (a `kill`, the terminal closed) stop the simulator as Ctrl-C does, so that
    it stops cleanly: the table, the pages, the journal closed. Returns what puts the handlers back.
    A signal someone ignores (`nohup`) stays ignored; outside the main thread nothing changes."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    return stop_on(("SIGTERM", "SIGHUP"), signal.default_int_handler)  # raises KeyboardInterrupt


def _wait_for_signal() -> None:
    """Sleep until Ctrl-C or a stop signal (`_stop_on_signals`) raises KeyboardInterrupt."""
    while True:
        time.sleep(1.0)  # the table runs on its own threads: this one only waits for the stop
