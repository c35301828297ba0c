"""One CPU core for the table's threads, the other cores for the computer players' thinking.

The loop, the screen writers and the reader link are Python threads under one GIL: they never run
Python in parallel, and on two cores or more each hand-over between them (a frame to a writer, a
tag from the link) moves the GIL and its data from one core's cache to another's. Measured on the
table's own benchmark (bench/bench_table.py): the same events cost about a quarter more CPU when
the kernel spreads the threads than when they share one core. So the service puts all its threads
on one core, the highest one (the kernel handles most interrupts on core 0), and the computer
players' worker process, which must never compete with the loop, thinks on the others.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

_THINKING: frozenset[int] | None = None  # the cores left to the worker, once the table is pinned


@dataclass(frozen=True)
class Pinning:
    """Where the table's threads run and where its computer players think."""

    table: int
    thinking: frozenset[int]


def pin_table(enabled: bool = True, tasks: Path = Path("/proc/self/task")) -> Pinning | None:
    """Put every thread of this process (and the ones it starts later) on one core; None if not
    done (off, one core only, or a system without CPU affinity)."""
    global _THINKING
    if not enabled or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpus = frozenset(os.sched_getaffinity(0))
    except OSError:
        return None
    if len(cpus) < 2:
        return None
    core = max(cpus)
    try:
        threads = [int(t) for t in os.listdir(tasks)]
    except OSError:
        threads = [0]
    for tid in threads:
        try:
            os.sched_setaffinity(tid, {core})  # Linux: a thread id sets that thread alone
        except OSError:  # a thread that just ended
            continue
    _THINKING = cpus - {core}
    log.info("table threads on CPU %d; computer players think on CPU %s", core, ",".join(map(str, sorted(_THINKING))))
    return Pinning(core, _THINKING)


def thinking_cpus() -> frozenset[int] | None:
    """The cores a computer player's worker should think on (None: wherever the kernel likes)."""
    return _THINKING


def unpin(cpus: frozenset[int] | None) -> None:
    """In a worker process started by a pinned table: think on `cpus` instead of the table's core."""
    if cpus and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, cpus)
        except OSError as exc:  # a core gone offline: the kernel's choice is still correct
            log.info("computer player: could not move to CPUs %s: %s", sorted(cpus), exc)
