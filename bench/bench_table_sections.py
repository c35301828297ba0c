"""Where a costly table event's CPU goes: the events that send every seat a new frame, by section.

    python bench/bench_table_sections.py [--game spywhere] [--events 1000] [--warmup 100] [--quick]

The events at a game's p99 (bench_table.py) are those that change every seat's screen at once: a
move announced to all, a turn changing hands. This plays each game as bench_table.py does (the
same moves, the same simulated table, threads on one core, a real SQLite journal) and, for the
events that send every seat of the game a frame, shows the mean CPU of each section
of the loop thread's work (each timed by a wrapper of the table's own function, the wrappers' cost
included), of the screen writers (less the simulated bus's own accounting) and of the reader
link's thread sending the LED frames (what bench_table.py adds to the loop's).
`--quick` (CI): 150 events of one game, figures only.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_table import Bench, Figures, seats_for

from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES
from firmware_host.apps.session import GameSession
from firmware_host.loop import table
from firmware_host.loop.affinity import pin_table
from firmware_host.loop.output import Output
from firmware_host.storage.journal import Journal
from games.registry import game_ids

# (label, owner, attribute): the loop's sections, in the order they come in an event
SECTIONS: tuple[tuple[str, Any, str], ...] = (
    ("the move applied (rules)", GameSession, "apply"),
    ("the journal's commit", Journal, "append_many"),
    ("the seats' frames built", Output, "frames"),
    ("frames laid out", table, "frame_layout"),
    ("pictures drawn", table, "frame_picture"),
    ("packed and handed over", ScreenBank, "show"),
    ("the LEDs asked", table.TableOutputs, "leds"),
)


def timed(spent: defaultdict[str, float], label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, its thread CPU time added to `spent[label]` at each call."""
    clock = time.thread_time

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] += clock() - t

    return wrapper


class SectionBench(Bench):
    """bench_table's player, each counted event's CPU kept by section."""

    def __init__(self, journal: Path, game: str, spent: defaultdict[str, float]) -> None:
        super().__init__(journal, games=[game])
        # an event counted: its frames, sent whole, would be at least one SSD1306 frame a seat
        self.every_seat = len(seats_for(game)) * FRAME_BYTES["ssd1306"]
        self.bus.rams.clear()  # the controllers' RAM model is the simulator's work (as bench_table.py)
        self.spent = spent  # what the sections' wrappers add to
        self.sums: defaultdict[str, float] = defaultdict(float)
        self.counted = 0
        self.link_at = 0.0  # the link thread's CPU clock when the event began

    def idle(self) -> None:
        """bench_table's idle work, then the sections and the link's clock start from nought."""
        super().idle()
        self.spent.clear()
        self.link_at = self.link.cpu_seconds()

    def event(self, kind: str, fn: Callable[[], object]) -> None:
        """One table event (bench_table's); kept by section when it sent every seat a new frame."""
        super().event(kind, fn)
        if self.last is None:  # warming up, or a raw tag inside the settle window
            return
        loop, threads, whole = self.last
        if whole < self.every_seat:
            return
        link = self.link.cpu_seconds() - self.link_at
        self.counted += 1
        for label, spent in self.spent.items():
            self.sums[label] += spent
        self.sums["the loop in all"] += loop
        self.sums["the screen writers"] += threads - link
        self.sums["the LED link's thread"] += link


def measure(game: str, events: int, warmup: int, work: Path) -> tuple[int, int, dict[str, float]]:
    """(events counted, events played, mean ms per counted event by section) for one game."""
    spent: defaultdict[str, float] = defaultdict(float)
    originals = [(owner, name, getattr(owner, name)) for _, owner, name in SECTIONS]
    for (label, owner, name), (_, _, fn) in zip(SECTIONS, originals, strict=True):
        setattr(owner, name, timed(spent, label, fn))
    bench = None
    try:
        # made once the sections are wrapped: Bench keeps the screens' `show` it times as it finds it
        bench = SectionBench(work / f"{game}.sqlite", game, spent)
        figures = Figures()
        bench.play(game, seats_for(game), events, warmup, figures)
    finally:
        for owner, name, fn in originals:
            setattr(owner, name, fn)
        if bench is not None:
            bench.close()
    n = max(1, bench.counted)
    return bench.counted, len(figures.cpu), {k: v * 1000 / n for k, v in bench.sums.items()}


def main() -> None:
    """Print each game's sections."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=game_ids(), help="one game (default: every registered game)")
    ap.add_argument("--events", type=int, default=1000, help="measured table events per game")
    ap.add_argument("--warmup", type=int, default=100, help="unmeasured events first, per game")
    ap.add_argument("--quick", action="store_true", help="CI: 150 events of Spywhere, figures only")
    args = ap.parse_args()
    if args.quick:
        args.game, args.events, args.warmup = args.game or "spywhere", 150, 20
    if args.events < 1 or args.warmup < 0:
        ap.error("--events must be at least 1 and --warmup at least 0")
    pin_table(True)
    work = Path(tempfile.mkdtemp(prefix="zt-bench-sections-"))
    try:
        for game in [args.game] if args.game else game_ids():
            counted, played, ms = measure(game, args.events, args.warmup, work)
            print(f"{game}, {len(seats_for(game))} seats: {counted} of {played} events sent every seat a frame; "
                  f"mean CPU per such event, ms (threads on one core, wrappers included):")
            loop = ms.get("the loop in all", 0.0)
            writers, link = ms.get("the screen writers", 0.0), ms.get("the LED link's thread", 0.0)
            for label in (s[0] for s in SECTIONS):
                print(f"  {label:38s} {ms.get(label, 0.0):6.3f}")
            rest = loop - sum(ms.get(s[0], 0.0) for s in SECTIONS)
            for label, value in (("the rest of the loop's work", rest), ("the loop in all", loop),
                                 ("the screen writers", writers), ("the LED link's thread", link),
                                 ("in all", loop + writers + link)):
                print(f"  {label:38s} {value:6.3f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
