"""Benchmark of the table's hot path: host CPU per table event, journal commit, screen bus, cold start.

    python bench/bench_table.py [--events 1000] [--warmup 100] [--repeat 3] [--quick]

Every registered game (games/registry.py) is played on the simulated table by random legal moves,
pieces laid and lifted on the sensed layout, buttons pressed on the seats' menus (confirmation
questions answered), until `--events` table events are measured after `--warmup` unmeasured ones.
A table event is a settled sensed change or a button press, from the runtime taking it to every
changed screen sent and every changed LED sent and acknowledged: the loop thread's CPU (engine,
frames, rendering, packing, the journal's SQLite commit) plus the screen writer threads' CPU (their
I2C transactions) plus the reader link thread's CPU (LED frames: the loop only writes LED wishes
down, the link's thread encodes and writes them and reads the controller's ACKs; the bench waits
for those as it waits for the screens, and reads that thread's CPU clock). The journal is a real SQLite file
(WAL, synchronous=FULL) on disk; its fsync wait is reported beside. Screens are luma's
ssd1306/sh1106 drivers on a simulated I2C bus that counts 400 kHz wire time for every byte.

A second phase plays with a bus that takes real wire time (writers sleeping it) and events back
to back, and reports the longest time the loop spent handing frames to the writers.
Each measured event is followed by a calibration loop (a fixed piece of pure Python) timed on the
same thread: the p99 is also given in calibration loops, a ratio that moves less with the
machine's load and speed than milliseconds do. The headline is one run (one process, what a
table lives); with `--repeat N` the lowest of N runs per event is a second column.
`--quick` (CI) plays a few hundred events in a few seconds and checks only that figures come out.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchkit import FRAME_MS, PI_FACTOR, ROOT, on_pi, pct, verdict
from table_process import cold_start, idle_cpu, service_rss

from drivers.buttons import ButtonEvent
from drivers.screens import FRAME_BYTES
from firmware_host.apps import reconcile
from firmware_host.apps.app import LeaveGame, StartRequest
from firmware_host.apps.entries import Entry, TableChoice
from firmware_host.apps.session import GameSession
from firmware_host.loop.affinity import pin_table
from firmware_host.loop.runtime import ReaderStatus, TagChange
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.loop.table import MUX_PARENT_BUS
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import TagRegistry, sim_registry
from games.core import CHANCE, Action
from games.registry import game_ids, game_info, get_game

# one run's worst-game p99 on this machine: a Pi Zero 2 W (x15) then answers within one whole
# frame's bus time (23.3 ms), so the CPU, not the bus, never bounds how fast the screens follow
CPU_P99_TARGET_MS = 1.5
BLOCK_TARGET_MS = 1.0
SAVING_TARGET = 0.40
COLD_TARGET_S = 0.5
RSS_TARGET_MB = 40.0


class TimedJournal(Journal):
    """The journal, timing each commit: its CPU (already in the event's: the kernel's part of the
    fsync included) and its fsync wait."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.waits: list[float] = []
        self.cpu: list[float] = []

    def append_many(self, game: int, first: int, moves: list[tuple[int, Action]]) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        super().append_many(game, first, moves)
        spent = time.thread_time() - cpu
        self.cpu.append(spent)
        self.waits.append((time.perf_counter() - wall) - spent)


@dataclass
class Figures:
    """What one game's measured events cost."""

    cpu: list[float] = field(default_factory=list)  # ms per settled change or press
    kinds: dict[str, list[float]] = field(default_factory=lambda: {"settled": [], "press": [], "raw tag": []})
    bytes: list[int] = field(default_factory=list)  # I2C payload bytes per event
    whole: list[int] = field(default_factory=list)  # what the same frames cost whole
    bus_ms: list[float] = field(default_factory=list)  # 400 kHz wire time per event
    cal: list[float] = field(default_factory=list)  # ms of the calibration loop after each event
    stuck: int = 0


CAL_LOOPS = 2000


def calibration() -> float:
    """The thread's CPU time (ms) for a fixed piece of pure Python: the unit of the ratios."""
    t = time.thread_time()
    x = 0
    for i in range(CAL_LOOPS):
        x += i * i % 7
    return (time.thread_time() - t) * 1000


class Bench:
    """A simulated table with a journal, driven event by event, every event metered."""

    def __init__(self, journal: Path, realtime: float = 0.0, games: list[str] | None = None,
                 registry: TagRegistry | None = None, timed_shows: bool = False) -> None:
        self.clock = FakeClock()
        self.journal = TimedJournal(journal)
        # tags of the games played only (a table's tag file): only those games get imported
        if registry is None:
            registry = sim_registry([p for g in (games or game_ids()) for p in get_game(g).pieces()])
        self.sim = SimTable(registry=registry, clock=self.clock, journal=self.journal)
        self.rt = self.sim.runtime
        self.rt.handle(ReaderStatus("ready"))
        self.bus = self.sim.table.sim_screens
        self.link = self.sim.table.link  # its thread sends the LED frames
        self.bus.realtime = realtime
        self.screens = self.sim.table.screens
        self.rng = random.Random(1)
        self.record: Figures | None = None  # None: warming up
        # the last event metered: its loop CPU (s), its writers' and link's CPU (s), and what its
        # frames would cost whole (bytes); None when it was not metered
        self.last: tuple[float, float, int] | None = None
        self.flush = realtime == 0  # per-event screen figures need each event's sends finished
        # with `timed_shows` (the blocking phase): the loop-side wall time handing one frame to a
        # writer, and the loop's CPU in it (four clock reads a frame: not in the events' own CPU)
        self.show_ms: list[float] = []
        self.show_cpu_ms: list[float] = []
        if timed_shows:
            self._time_shows()

    def _time_shows(self) -> None:
        show = self.screens.show

        def timed_show(*args: object, **kwargs: object) -> bool:
            t, c = time.perf_counter(), time.thread_time()
            try:
                return show(*args, **kwargs)  # type: ignore[arg-type]
            finally:
                self.show_ms.append((time.perf_counter() - t) * 1000)
                self.show_cpu_ms.append((time.thread_time() - c) * 1000)

        self.screens.show = timed_show  # type: ignore[method-assign]

    def close(self) -> None:
        """Stop the table and its journal."""
        self.sim.close()
        self.journal.close()

    def _counters(self) -> tuple[float, int, int, float]:
        # the writers' CPU, less what simulating the bus and the controllers' RAM cost them, and
        # the reader link thread's CPU (LED frames)
        writers = sum(w.cpu_seconds for w in self.screens.writers) - self.bus.model_seconds + self.link.cpu_seconds()
        whole = sum(s.stats.frames_sent * FRAME_BYTES[s.spec.driver] for s in self.screens.screens.values())
        return writers, sum(self.bus.bytes_written.values()), whole, sum(self.bus.bus_seconds.values())

    def idle(self) -> None:
        """The loop's idle work while the players think (Runtime.run), before each event: not metered."""
        while self.rt.prepare():
            pass  # each call does one piece of it, False once none is left

    def event(self, kind: str, fn: Callable[[], object]) -> None:
        """Run one table event, metering it when recording (and keeping it in `last`)."""
        self.last = None
        self.idle()
        before = self._counters()
        cpu = time.thread_time()
        fn()
        cpu = time.thread_time() - cpu
        if self.flush:
            self.screens.flush()
            self.wait_leds()
        if self.record is None:
            return
        after = self._counters()
        ms = (cpu + after[0] - before[0]) * 1000
        self.record.kinds[kind].append(ms)
        if kind == "raw tag":
            return
        self.last = (cpu, after[0] - before[0], after[2] - before[2])
        self.record.cpu.append(ms)
        self.record.cal.append(calibration())  # interleaved: the same moment's machine
        self.record.bytes.append(after[1] - before[1])
        self.record.whole.append(after[2] - before[2])
        self.record.bus_ms.append((after[3] - before[3]) * 1000)

    def wait_leds(self, timeout: float = 5.0) -> bool:
        """Wait until the link's thread has sent the LED wishes and read their ACKs."""
        deadline = time.monotonic() + timeout
        while not self.link.leds_done():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.0002)
        return True

    def press(self, seat: int, button: str) -> None:
        """A press (and for OK its release: OK acts on release)."""
        if button == "ok":
            self.rt.handle(ButtonEvent(seat, "ok", "press", 0.0))
            self.event("press", lambda: self.rt.handle(ButtonEvent(seat, "ok", "release", 0.0)))
        else:
            self.event("press", lambda: self.rt.handle(ButtonEvent(seat, button, "press", 0.0)))

    def choose(self, s: GameSession, seat: int, key: Callable[[Any], bool]) -> None:
        """Move a game seat's cursor to the first entry whose action (or table entry) matches, press OK."""
        menu = [c.entry if isinstance(c, TableChoice) else c.action for c in s.menu(seat)]
        target = next(i for i, a in enumerate(menu) if key(a))
        for _ in range((target - s.ui[seat].cursor) % len(menu)):
            self.press(s.seats[seat], "right")
        self.press(s.seats[seat], "ok")

    def sense(self, changes: list[tuple[str, str, bool]]) -> None:
        """Lay and lift tags (raw events inside the settle window), then let the window pass."""
        for zone, piece, present in changes:
            uid = self.sim.registry.uid(piece) or ""
            self.event("raw tag", lambda z=zone, u=uid, p=present: self.rt.handle(TagChange(z, u, p)))
        self.clock.advance(self.sim.config.reader.settle + 0.01)
        self.event("settled", self.rt.tick)

    def step(self, s: GameSession) -> bool:
        """One move (or one instruction followed); False once the game is over or stuck."""
        if s.over:
            return False
        if s.instruction is not None:
            fix = s.instruction.fix
            self.sense([(s.to_physical(fix.zone) or "", fix.piece, fix.kind == "place")])
            return True
        for seat, q in enumerate(ui.notices for ui in s.ui):
            if q and s.seats[seat] is not None:  # a message covers the menu: any press clears it
                self.press(s.seats[seat], "left")
                return True
        acting = sorted(x for x in s.game.to_act(s.state) if x != CHANCE and s.seats[x] is not None)
        if not acting:
            return False
        seat = self.rng.choice(acting)
        if s.ui[seat].confirming is not None:  # an irrevocable choice asked again: answer yes
            self.choose(s, seat, lambda a: a is Entry.CONFIRM)
            return True
        menu = [c.action for c in s.menu(seat) if not isinstance(c, TableChoice)]
        zones = s.logical_zones()
        now = reconcile.restrict(s.layout(), zones)
        legal = [a for a in s.game.legal_actions(s.state, seat)
                 if a in menu or reconcile.restrict(s.game.footprint(s.state, seat, a), zones) != now]
        if not legal:
            return False
        act = self.rng.choice(legal)
        if act in menu:
            self.choose(s, seat, lambda a: a == act)
            return True
        foot = reconcile.restrict(s.game.footprint(s.state, seat, act), zones)
        self.sense([(s.to_physical(f.zone) or "", f.piece, f.kind == "place") for f in reconcile.fixes(foot, now)])
        return True

    def play(self, game: str, seats: tuple[int, ...], events: int, warmup: int, figures: Figures,
             leave: bool = True) -> None:
        """Play games of `game`: `warmup` moves unmeasured, then until `events` events are measured."""
        steps = 0
        while True:
            self.rt.start(StartRequest(game, seats))
            self.rt.refresh()
            if self.flush:
                self.screens.flush()  # the new game's first frames are not the first event's
            s = self.rt.app
            assert isinstance(s, GameSession)
            while len(figures.cpu) < events:
                self.record = figures if steps >= warmup else None
                if not self.step(s):
                    break
                steps += 1
            if not s.over and len(figures.cpu) < events:
                figures.stuck += 1
            self.record = None
            if len(figures.cpu) >= events and not leave:
                return
            self.clear_table(s)
            if len(figures.cpu) >= events or figures.stuck > 20:
                return

    def clear_table(self, s: GameSession) -> None:
        """Lift every tag, leave the game: the next one starts on an empty table."""
        for zone, uids in list(self.rt.raw.items()):
            for uid in list(uids):
                self.rt.handle(TagChange(zone, uid, False))
        self.clock.advance(1.0)
        self.rt.tick()
        self.rt.pending.append(LeaveGame(s.game.id, len(s.moves)))
        self.rt.tick()
        if self.flush:
            self.screens.flush()


def seats_for(game: str) -> tuple[int, ...]:
    """Up to five seats, within the game's player range (from the registry)."""
    info = game_info(game)
    return tuple(range(1, max(info.min_players, min(info.max_players, 5)) + 1))


def blocking_phase(work: Path, game: str, events: int, stalled: bool = False
                   ) -> tuple[float, float, int, int, float, float]:
    """`events` table events back to back on a bus taking real wire time (the writers sleep it, as
    a real transfer waits in the kernel, so they are still sending when the next frames come).
    With `stalled` the bus is held throughout: the writer never runs, and what is left of the
    hand-over's wall time is this machine's scheduling noise (the baseline). Returns the longest
    and p99 loop-side hand-over of a frame (ms, wall), the frames coalesced, the frames handed
    over and the loop's CPU time in a hand-over, p99 and longest (ms)."""
    bench = Bench(work / f"blocking-{stalled}.sqlite", realtime=1.0, games=[game], timed_shows=True)
    bench.bus.rams.clear()  # no controller RAM model: its Python decoding is not the host's work
    if stalled:
        bench.bus.hold(MUX_PARENT_BUS)
    try:
        bench.play(game, seats_for(game), events, 0, Figures())
        bench.bus.release(MUX_PARENT_BUS)
        coalesced = sum(w.coalesced for w in bench.screens.writers)
        shows = bench.show_ms[10:]  # past the first frames of the table
        cpu = bench.show_cpu_ms[10:]
        return max(shows), pct(shows, 99), coalesced, len(shows), pct(cpu, 99), max(cpu)
    finally:
        bench.close()


def measure(events: int, warmup: int, work: Path, pin: bool = True) -> dict[str, Any]:
    """Play every game; per game its events' figures, plus the journal's fsync waits (JSON-able).
    With `pin` the threads share one core as the service's do (`pin_cpu`, the default)."""
    pin_table(pin)
    bench = Bench(work / "journal.sqlite")
    # no controller RAM model: decoding every byte in Python is the simulator's work, not the
    # host's; subtracted from the writers' CPU, it still competed with the loop for the GIL
    bench.bus.rams.clear()
    out: dict[str, Any] = {"games": {}}
    try:
        for game in game_ids():
            figs = Figures()
            bench.play(game, seats_for(game), events, warmup, figs)
            out["games"][game] = dataclasses.asdict(figs)
        out["waits"] = [w * 1000 for w in bench.journal.waits]
        out["commit_cpu"] = [c * 1000 for c in bench.journal.cpu]
    finally:
        bench.close()
    return out


def repeated(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """`--repeat` runs, each in a fresh process (cold caches, as a table that just started), the
    same events in the same order: the first run's figures, and the same where each event keeps
    its lowest CPU time (other programs on this machine only ever add to an event's CPU time,
    cache and core sharing, never take from it)."""
    runs = []
    for _ in range(args.repeat):
        cmd = [sys.executable, __file__, "--worker", "--events", str(args.events), "--warmup", str(args.warmup)]
        cmd += ["--no-pin"] if args.no_pin else []
        cmd += [] if args.journal_dir is None else ["--journal-dir", str(args.journal_dir)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True,
                              env={**os.environ, "PYTHONHASHSEED": "0"})
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    first = json.loads(json.dumps(runs[0]))  # a copy: `best` is made from the first run in place
    best = runs[0]
    for game, figs in best["games"].items():
        others = [r["games"][game] for r in runs[1:]]
        if any(len(o["cpu"]) != len(figs["cpu"]) or o["bytes"] != figs["bytes"] for o in others):
            print(f"({game}: the runs differ, figures of the first run only)")
            continue
        for key in ("cpu", *(f"kinds.{k}" for k in figs["kinds"])):
            if key == "cpu":
                figs["cpu"] = [min(v) for v in zip(figs["cpu"], *(o["cpu"] for o in others))]
            else:
                kind = key.split(".", 1)[1]
                figs["kinds"][kind] = [min(v) for v in zip(figs["kinds"][kind], *(o["kinds"][kind] for o in others))]
    best["waits"] = [w for r in runs for w in r["waits"]]
    best["commit_cpu"] = [c for r in runs for c in r["commit_cpu"]]
    return first, best


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=1000, help="measured table events per game")
    ap.add_argument("--warmup", type=int, default=100, help="unmeasured events first, per game")
    ap.add_argument("--repeat", type=int, default=3, help="runs in fresh processes; each event's lowest CPU is kept")
    ap.add_argument("--quick", action="store_true", help="CI: 60 events per game in one run, figures only")
    ap.add_argument("--no-pin", action="store_true",
                    help="let the kernel spread the threads over the cores (config pin_cpu = false)")
    ap.add_argument("--journal-dir", type=Path, metavar="DIR",
                    help="the folder of the bench's journal (default: a temporary folder); a tmpfs such as "
                         "/dev/shm leaves the disk out, the table's own SD card shows what it costs there")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.quick:
        args.events, args.warmup, args.repeat = 60, 10, 1
    if args.journal_dir is not None and not args.journal_dir.is_dir():
        ap.error(f"--journal-dir: {args.journal_dir} is not a folder")
    try:
        work = Path(tempfile.mkdtemp(prefix="zt-bench-table-", dir=args.journal_dir))
    except OSError as exc:  # a folder this user cannot write, a full or read-only disk
        ap.error(f"--journal-dir: cannot make a folder in {args.journal_dir}: {exc.strerror or exc}")
    try:
        report(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(args: argparse.Namespace, work: Path) -> None:
    """Measure in `work` (a folder of its own) and print the figures (a worker: its JSON)."""
    if args.worker:
        print(json.dumps(measure(args.events, args.warmup, work, not args.no_pin)))
        return
    if args.repeat > 1:
        results, lowest = repeated(args)
    else:
        results = lowest = measure(args.events, args.warmup, work, not args.no_pin)
    print(f"host CPU per table event (loop + screen writers + reader link sending the LEDs, journal commit included), "
          f"{args.events} events per game after {args.warmup} of warm-up, one run"
          + (f" (min-of-{args.repeat}: each event's lowest of {args.repeat} runs)" if args.repeat > 1 else "")
          + ("; threads spread by the kernel" if args.no_pin else "; threads on one core as the service runs them")
          + f"; p99/cal: the p99 in calibration loops timed after each event; Pi Zero 2 W estimate x{PI_FACTOR}")
    print(f"{'game':17s} {'events':>6s} {'p50 ms':>7s} {'p99 ms':>7s} {'max':>6s} {'target':>7s} "
          f"{'min-of-N':>8s} {'p99/cal':>7s} {'Pi p99 ms':>9s} {'bytes/ev':>8s} {'whole':>6s} {'saved':>6s} "
          f"{'bus ms/ev':>9s}")
    worst, worst_low, worst_cal, raw, total_bytes, total_whole = 0.0, 0.0, 0.0, [], 0, 0
    for game, data in results["games"].items():
        figs = Figures(**data)
        p99 = pct(figs.cpu, 99)
        low99 = pct(lowest["games"][game]["cpu"], 99)
        cal = p99 / max(1e-9, pct(figs.cal, 50))
        worst, worst_low, worst_cal = max(worst, p99), max(worst_low, low99), max(worst_cal, cal)
        sent, whole = sum(figs.bytes), sum(figs.whole)
        total_bytes, total_whole = total_bytes + sent, total_whole + whole
        raw += figs.kinds["raw tag"]
        n = max(1, len(figs.cpu))
        print(f"{game:17s} {len(figs.cpu):6d} {pct(figs.cpu, 50):7.2f} {p99:7.2f} {max(figs.cpu or [0]):6.1f} "
              f"{verdict(p99, CPU_P99_TARGET_MS):>7s} {low99:8.2f} {cal:7.1f} {p99 * PI_FACTOR:9.1f} {sent / n:8.0f} "
              f"{whole / n:6.0f} {1 - sent / max(1, whole):6.0%} "
              f"{pct(figs.bus_ms, 50):4.1f}/{pct(figs.bus_ms, 99):4.1f}"
              + (f"  ({figs.stuck} games stuck)" if figs.stuck else ""))
        for kind in ("settled", "press"):
            v = figs.kinds[kind]
            if v:
                print(f"  {kind:15s} {len(v):6d} {pct(v, 50):7.2f} {pct(v, 99):7.2f}")
    waits = results["waits"]
    print(f"worst p99 {worst:.2f} ms one run (target <= {CPU_P99_TARGET_MS:.2f} ms: "
          f"{verdict(worst, CPU_P99_TARGET_MS)}; {on_pi(worst, FRAME_MS)} ms, against a frame's {FRAME_MS} ms)"
          + (f"; min-of-{args.repeat} {worst_low:.2f} ms" if args.repeat > 1 else "")
          + f"; {worst_cal:.1f} calibration loops ({CAL_LOOPS} turns of pure Python)")
    commits = results["commit_cpu"]
    print(f"journal commit over {len(waits)} commits"
          + ("" if args.journal_dir is None else f" in {args.journal_dir}")
          + f": CPU (inside the event's, the kernel's part of the fsync included) p50 {pct(commits, 50):.2f} ms, "
          f"p99 {pct(commits, 99):.2f} ms; fsync wait (outside CPU) p50 {pct(waits, 50):.2f} ms, "
          f"p99 {pct(waits, 99):.2f} ms")
    print(f"raw tag event inside the settle window: p50 {pct(raw, 50) * 1000:.0f} us, p99 {pct(raw, 99) * 1000:.0f} us "
          f"CPU over {len(raw)} events ({on_pi(pct(raw, 99))} ms)")
    saving = 1 - total_bytes / max(1, total_whole)
    print(f"I2C bytes: {total_bytes} sent vs {total_whole} as whole frames: {saving:.1%} less "
          f"(target >= {SAVING_TARGET:.0%}: {'ok' if saving >= SAVING_TARGET else 'MISSED'}; same on a Pi: bytes)")

    game = "spywhere" if "spywhere" in game_ids() else game_ids()[0]
    n = 40 if args.quick else 300
    longest, p99, coalesced, shows, cpu99, cpu = blocking_phase(work, game, n)
    base_longest, base_p99, _, _, _, _ = blocking_phase(work, game, n, stalled=True)
    print(f"loop blocked by screen I/O ({game}, events back to back, the writer sleeping 400 kHz wire time): "
          f"frame hand-over wall p99 {p99:.3f} ms, longest {longest:.3f} ms over {shows} frames ({coalesced} "
          f"coalesced); the loop's CPU in one p99 {cpu99:.3f} ms, longest {cpu:.3f} ms; the same with the bus "
          f"stalled (the writer never runs: this machine's scheduling noise) p99 {base_p99:.3f} ms, longest "
          f"{base_longest:.3f} ms (target <= {BLOCK_TARGET_MS:g} ms: {verdict(p99, BLOCK_TARGET_MS)} at p99, "
          f"{verdict(longest, BLOCK_TARGET_MS)} at the longest; {on_pi(cpu99, BLOCK_TARGET_MS)} ms CPU at p99)")
    compiling = cold_start(work)  # the first start compiles the bytecode, as pip does at install
    starts = sorted(cold_start(work) for _ in range(1 if args.quick else 3))
    cpu, wall, games = starts[0]
    print(f"cold start to first frames (interpreter, imports, config, journal, 8 screens, reader handshake; "
          f"bytecode compiled as pip does at install, the start compiling it took {compiling[0]:.2f} s CPU): "
          f"{cpu:.2f} s CPU (lowest of {len(starts)} processes, highest {starts[-1][0]:.2f} s), {wall:.2f} s wall, "
          f"{games} game module(s) imported (target <= {COLD_TARGET_S} s CPU: {verdict(cpu, COLD_TARGET_S)}; "
          f"{on_pi(cpu, COLD_TARGET_S)} s CPU)")
    heavy = "mata-hari" if "mata-hari" in game_ids() else game_ids()[0]
    rss, peak = service_rss(heavy, work)
    print(f"service RSS with {heavy} in progress: {rss:.1f} MB, peak {peak:.1f} MB (target <= {RSS_TARGET_MB:g} MB: "
          f"{verdict(peak, RSS_TARGET_MB)}; about the same on a 64-bit Pi OS: it holds if it holds here)")
    idle, threads = idle_cpu(work, 1.0 if args.quick else 10.0)
    print(f"idle (a started table nobody plays, over {1 if args.quick else 10} s; the simulated reader controller "
          f"left out): {idle:.2f} ms CPU a second, {threads} threads (Pi x15: {idle * PI_FACTOR / 10:.1f} % of a core)")


if __name__ == "__main__":
    main()
