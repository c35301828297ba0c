"""Instructions per table event: a figure of the table's work that does not move with the machine's load.

    python bench/bench_instructions.py [--events 200] [--warmup 40] [--runs 3] [--quick]
    python bench/bench_instructions.py --quick --write-baseline   # after a change that costs more, on purpose

A fixed sample of table events (every registered game played by seeded random legal moves, as
bench_table.py plays them: pieces laid and lifted, buttons pressed) goes through the runtime's
own path on one thread, with no thread and no sleep anywhere: the screens are sent on the loop's
thread (ScreenBank without writers: packing, luma's interface, the simulated I2C bus; the
controllers' RAM is not modelled), and the LED frames are written by the reader link's own
Conversation into a buffer, answered by the reference firmware's controller logic
(deploy/firmware/zt_device.py) and their ACKs fed back to the Conversation. The journal is a real
SQLite file. valgrind's callgrind counts the instructions of what the table does for each event
(the runtime, the screens' sends, the LED frames and their ACKs), and of little else: the bench's
choice of moves runs outside the counted calls, the simulated controller's reading of an event's
LED frames inside the call that sends them, as in every count so far (1.7 % of the quick sample's
interpreted bytecodes). Each counted call goes through ctypes, whose libffi entry `ffi_call`
callgrind switches collection on and off around (`--toggle-collect`; nothing else in the process
calls into libffi). PYTHONHASHSEED is
fixed, the clock is a fake one: two runs of one checkout count the same instructions (another
checkout's path, another Python or library version moves the count by a little: 0.1 % between two
directories here, well inside the 10 % CI allows).

`--quick` (CI) counts a small sample once and compares it with bench/instructions_baseline.json:
exit 1 when an event costs more than 10 % more instructions than the baseline says.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_table import Bench, Figures, seats_for
from benchkit import ROOT

from drivers.buzzer import Buzzer
from drivers.i2c_sim import SimI2C, simulated_bank
from drivers.reader.conversation import Conversation, Timing
from drivers.reader.led_wishes import RGB, LedWishes
from drivers.reader.report import LinkReport
from firmware_host.loop.events import ReaderStatus
from firmware_host.loop.runtime import Runtime
from firmware_host.loop.simulator import FakeClock
from firmware_host.loop.table import MUX_PARENT_BUS, TableOutputs
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import sim_registry
from games.registry import game_ids, get_game

BASELINE = Path(__file__).resolve().parent / "instructions_baseline.json"
QUICK = {"events": 24, "warmup": 12}
TOLERANCE = 0.10  # a quick run more than this above the baseline fails
DOOR = "PyEval_CallFunction"  # the C API function each counted call goes through (via ctypes)
MARK = "ffi_call"  # libffi's entry, which ctypes calls it by: nothing else in the process enters it


def counted() -> Callable[[Callable[[], object]], object]:
    """A caller of a no-argument function through MARK (what callgrind counts)."""
    call = getattr(ctypes.pythonapi, DOOR)
    call.restype = ctypes.py_object
    call.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return lambda fn: call(fn, b"()")  # "()": no arguments


class QuietLink:
    """The reader link's LED side without port or thread: the link's LedWishes and Conversation,
    writing into a buffer that the reference firmware answers."""

    def __init__(self, antennas: int, clock: Callable[[], float]) -> None:
        sys.path.insert(0, str(ROOT / "deploy" / "firmware"))
        import zt_device  # type: ignore[import-not-found]  # the firmware's controller logic (imports the firmware's protocol.py)

        self.clock = clock
        self.wishes = LedWishes()
        self.report = LinkReport()
        self.sent = bytearray()
        self.talk = Conversation(Timing(), self._write, self.wishes, self.report, clock)
        self.leds: dict[int, tuple[int, int, int]] = {}
        self.device = zt_device.Controller([_NoTags()] * antennas, _Leds(self.leds), self._answer, lambda: 0)
        self.answers = bytearray()
        self.talk.begin(clock())
        self.settle()
        if self.talk.phase != "run":
            raise RuntimeError(f"the controller did not answer the handshake (phase {self.talk.phase})")

    def _write(self, data: bytes) -> bool:
        self.sent += data
        return True

    def _answer(self, data: bytes) -> None:
        self.answers += data

    def set_leds(self, wishes: dict[int, RGB]) -> bool:
        """What ReaderLink.set_leds does on the loop's thread (the checks, the wishes written)."""
        if wishes:
            self.wishes.wish(wishes)
        return True

    def send(self) -> bytes:
        """The link thread's turn: the wished LEDs as frames; returns the controller's answers."""
        self.talk.send_wished_leds()
        return self.deliver()

    def deliver(self) -> bytes:
        """The controller reads what was written (counted when `send` calls it); its answers."""
        data, self.sent = bytes(self.sent), bytearray()
        self.answers = bytearray()
        if data:
            self.device.receive(data)
        return bytes(self.answers)

    def settle(self) -> None:
        """Exchange frames until neither side has anything to say (the handshake)."""
        for _ in range(10):
            answers = self.deliver()
            if not answers:
                return
            self.talk.feed(answers, self.clock())


class _NoTags:
    """The reference firmware's tag reader with no tag on it: the bench's tags reach the table directly."""

    def scan(self) -> list[str]:
        """No tag seen."""
        return []


class _Leds:
    """The reference firmware's LED strip as a dict of colours: what the controller was told to light."""

    def __init__(self, into: dict[int, tuple[int, int, int]]) -> None:
        self.into = into

    def set(self, i: int, rgb: tuple[int, int, int]) -> None:
        """LED `i` to `rgb`."""
        self.into[i] = rgb

    def off(self) -> None:
        """Every LED off."""
        self.into.clear()

    def show(self) -> None:
        """A strip pushes its colours out here; the dict holds them already: nothing to push."""


class CountedBench(Bench):
    """bench_table's player on a table without threads, each event's table work in one counted call."""

    def __init__(self, journal: Path) -> None:  # not Bench.__init__: it builds a threaded SimTable
        self.clock = FakeClock()
        self.journal = Journal(journal)  # type: ignore[assignment]  # no commit timed: the count is the table's
        config = load_config(None)
        registry = sim_registry([p for g in game_ids() for p in get_game(g).pieces()])
        self.sim = argparse.Namespace(config=config, registry=registry)  # type: ignore[assignment]  # what Bench reads of it
        specs = {s.id: s.screen for s in config.seats if s.screen is not None}
        mux = SimI2C(parents={spec.bus: MUX_PARENT_BUS for spec in specs.values()})
        self.screens, self.bus = simulated_bank(specs, mux, drivers=True, background=False, clock=self.clock)
        self.bus.rams.clear()  # the controllers' RAM model is the simulator's work, not the table's
        self.quiet = QuietLink(max(config.antennas) + 1, self.clock)
        outputs = TableOutputs(config, self.screens, self.quiet, Buzzer(None))  # type: ignore[arg-type]
        self.rt = Runtime(config, registry, outputs, clock=self.clock, auto_chance=True, seed=0, journal=self.journal)
        self.rt.handle(ReaderStatus("ready"))
        self.rng = random.Random(1)
        self.record: Figures | None = None
        self.flush = False
        self.call = counted()
        self.measured = 0
        self.all_events = 0

    def close(self) -> None:
        """Close the journal and the screens."""
        self.screens.close()
        self.journal.close()

    def event(self, kind: str, fn: Callable[[], object]) -> None:
        """One table event: the loop's idle work first (uncounted, as the table does it while the
        players think), then the event and its LED frames (counted), the controller's answer, its
        ACKs read by the link (counted)."""
        self.idle()
        link = self.quiet
        if self.record is None:
            fn()
            answers = link.send()
            link.talk.feed(answers, self.clock())
            return
        said = self.call(lambda: (fn(), link.send())[1])
        assert isinstance(said, bytes)
        self.call(lambda: link.talk.feed(said, self.clock()))
        if kind != "raw tag":
            self.record.cpu.append(0.0)  # an event counted: play() counts these
            self.measured += 1
        self.all_events += 1


def play(events: int, warmup: int) -> dict[str, int]:
    """Play every game's sample; how many events were counted."""
    work = Path(tempfile.mkdtemp(prefix="zt-bench-instr-"))
    bench = CountedBench(work / "journal.sqlite")
    try:
        for game in game_ids():
            bench.play(game, seats_for(game), events, warmup, Figures())
    finally:
        bench.close()
        shutil.rmtree(work, ignore_errors=True)
    return {"events": bench.measured, "with_raw_tags": bench.all_events}


def callgrind(events: int, warmup: int) -> tuple[int, int, int]:
    """One run under callgrind: (instructions counted, events, raw tag events among the calls)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    work = Path(tempfile.mkdtemp(prefix="zt-callgrind-"))
    try:
        out = work / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
               f"--toggle-collect={MARK}", "--dump-line=no", "--compress-strings=no",
               sys.executable, __file__, "--worker", "--events", str(events), "--warmup", str(warmup)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-15:])
            raise SystemExit(f"the counted run failed (exit {done.returncode}):\n{tail}")
        counts = json.loads(done.stdout.strip().splitlines()[-1])
        total = _total(out.read_text())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if total == 0:
        raise SystemExit(f"callgrind counted nothing: no {MARK} seen (ctypes without libffi symbols?)")
    return total, counts["events"], counts["with_raw_tags"] - counts["events"]


def _total(text: str) -> int:
    """The instructions a callgrind output file reports (its `totals:` or `summary:` line)."""
    found = re.search(r"^(?:totals|summary):\s*(\d+)", text, re.M)
    return int(found.group(1)) if found else 0


def baseline() -> dict[str, Any] | None:
    """The committed baseline, or None."""
    try:
        data: dict[str, Any] = json.loads(BASELINE.read_text())
    except (OSError, ValueError):
        return None
    return data


def main() -> int:
    """Print the figures; 1 if --quick finds a regression beyond the tolerance."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200, help="counted table events per game")
    ap.add_argument("--warmup", type=int, default=40, help="uncounted events first, per game")
    ap.add_argument("--runs", type=int, default=3, help="runs, to show the figure holds still")
    ap.add_argument("--quick", action="store_true",
                    help=f"CI: {QUICK['events']} events per game, one run, compared with the baseline")
    ap.add_argument("--write-baseline", action="store_true", help="store this run's figure as the baseline")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not 1 <= args.events <= 100_000 or not 0 <= args.warmup <= 100_000 or not 1 <= args.runs <= 20:
        ap.error("--events 1-100000, --warmup 0-100000, --runs 1-20")
    if args.worker:
        print(json.dumps(play(args.events, args.warmup)))
        return 0
    if args.quick:
        args.events, args.warmup, args.runs = QUICK["events"], QUICK["warmup"], 1
    print(f"instructions per table event (callgrind, {len(game_ids())} games x {args.events} events after "
          f"{args.warmup} of warm-up, PYTHONHASHSEED=0; the runtime, the screens' sends and the LED frames "
          f"with their ACKs, on one thread)")
    figures = []
    for run in range(args.runs):
        start = time.monotonic()
        total, events, raw = callgrind(args.events, args.warmup)
        figures.append(total / events)
        print(f"run {run + 1}: {total:,} instructions over {events} events (+{raw} raw tag events inside "
              f"settle windows): {total / events:,.0f} per event ({time.monotonic() - start:.0f} s)")
    if len(figures) > 1:
        spread = (max(figures) - min(figures)) / min(figures)
        print(f"spread over {len(figures)} runs: {spread:.3%}")
    figure = figures[0]
    base = baseline()
    same = base is not None and base.get("events") == args.events and base.get("warmup") == args.warmup
    if args.write_baseline:
        BASELINE.write_text(json.dumps({"events": args.events, "warmup": args.warmup,
                                        "per_event": round(figure), "tolerance": TOLERANCE}, indent=1) + "\n")
        print(f"baseline written: {BASELINE.relative_to(ROOT)}")
        return 0
    if base is None or not same:
        print("no baseline for this sample (bench/instructions_baseline.json is for "
              f"--events {base and base.get('events')} --warmup {base and base.get('warmup')})")
        return 0
    ratio = figure / base["per_event"]
    ok = ratio <= 1 + TOLERANCE
    print(f"baseline {base['per_event']:,} per event: this run {ratio - 1:+.1%} "
          f"({'ok' if ok else 'REGRESSION'}: at most +{TOLERANCE:.0%} allowed)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
