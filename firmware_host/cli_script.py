"""`zebra-table script FILE`: the simulated table driven by JSON lines, writing a transcript.

Each input line is one hardware event (see docs/scripts.md); each output line is the table after
it: every seat's screen as text, LEDs, the game, seats to act, moves, outcome, public view.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from firmware_host.config import ConfigError, load_config
from firmware_host.journal import Journal
from firmware_host.menu import StartRequest
from firmware_host.simulator import FakeClock, SimError, SimTable

EXIT_ERRORS = 1


def add_parser(sub: Any) -> None:
    """Register the `script` sub-command."""
    p = sub.add_parser("script", help="drive the simulated table from JSON lines, print a transcript")
    p.add_argument("file", help="script file (JSON lines); - = stdin")
    p.add_argument("--config", help="table config (default: the simulated 8-seat table)")
    p.add_argument("--seed", type=int, default=0, help="seed for chance events")
    p.add_argument("--journal", help="SQLite journal file (default: none)")
    p.add_argument("--changed-only", action="store_true", help="only the screens that changed")
    p.add_argument("-o", "--output", help="transcript file (default: stdout)")
    p.set_defaults(func=run)


class ScriptRunner:
    """Applies script events to a SimTable with a fake clock."""

    def __init__(self, sim: SimTable, clock: FakeClock):
        self.sim = sim
        self.clock = clock

    def apply(self, ev: dict[str, Any]) -> None:
        """One event; raises SimError/ValueError/KeyError for a bad one."""
        sim = self.sim
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
            spec = ev["start"]
            sim.runtime.start(StartRequest(spec["game"], tuple(spec["seats"]), dict(spec.get("options", {}))))
            sim.runtime.refresh()
        elif "reader" in ev:
            self._reader(ev["reader"])
        elif "screen" in ev:
            spec = sim.config.seat(int(ev["screen"])).screen
            if spec is None:
                raise SimError(f"seat {ev['screen']} has no screen")
            (sim.table.sim_screens.unplug if ev.get("fail", True) else sim.table.sim_screens.plug)(spec.bus, spec.address)
            self._advance(0.0)
        elif "png" in ev:
            sim.table.save_png(int(ev["png"]), ev["path"])
        elif "comment" in ev:
            pass
        else:
            raise SimError(f"unknown event {json.dumps(ev)} (place, remove, press, long, advance, start, "
                           "reader, screen, png, comment)")

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

    def _reader(self, what: str) -> None:
        reader = self.sim.reader
        if what == "disappear":
            reader.disappear()
            self.sim.pump(lambda: self.sim.runtime.reader_state != "ready")
        elif what == "reappear":
            reader.reappear(reset=False)
            self.sim.wait_ready()
            self.sim.settle()
        else:
            raise SimError(f"reader: {what!r} (disappear, reappear)")


def _piece(ev: dict[str, Any]) -> str:
    piece = ev.get("piece") or ev.get("tag")
    if not isinstance(piece, str):
        raise SimError('a place/remove event needs "piece" (a piece id) or "tag" (a UID)')
    return piece


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Entry point of `zebra-table script`."""
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as exc:
        print(f"{args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    own_out = out is None and args.output is not None
    sink = out or (open(args.output, "w", encoding="utf-8") if args.output else sys.stdout)
    clock = FakeClock()
    journal = Journal(args.journal) if args.journal else None
    sim = SimTable(config, clock=clock, seed=args.seed, journal=journal)
    errors = 0
    try:
        if not sim.wait_ready():
            print("the virtual reader controller did not come up", file=sys.stderr)
            return 2
        sim.settle()
        runner = ScriptRunner(sim, clock)
        last: dict[str, Any] = {}
        with stream:
            for index, line in enumerate(l for l in stream if l.strip() and not l.lstrip().startswith("#")):
                entry: dict[str, Any] = {"i": index}
                try:
                    ev = json.loads(line)
                    if not isinstance(ev, dict):
                        raise SimError("each line must be a JSON object")
                    entry["event"] = ev
                    runner.apply(ev)
                except (SimError, ValueError, KeyError, TypeError) as exc:
                    errors += 1
                    entry["error"] = str(exc) if not isinstance(exc, KeyError) else f"missing key {exc}"
                entry["t"] = round(clock() - 1000.0, 3)
                entry.update(sim.status())
                screens = sim.screens_text()
                if args.changed_only:
                    entry["screens"] = {s: f for s, f in screens.items() if last.get(s) != f}
                else:
                    entry["screens"] = screens
                last = screens
                sink.write(json.dumps(entry, ensure_ascii=False) + "\n")
                sink.flush()
    finally:
        sim.close()
        if journal is not None:
            journal.close()
        if own_out:
            sink.close()
    return EXIT_ERRORS if errors else 0
