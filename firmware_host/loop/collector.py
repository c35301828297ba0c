"""Python's cyclic garbage collector, run in the loop's idle time instead of inside an event.

CPython collects its youngest generation when the count of container objects allocated (less
those freed) passes a threshold (700), wherever that happens: on the table, in the middle of a
button press, where it adds 0.2-0.4 ms (a full collection: 10-15 ms) to that event.

Here the loop collects while it waits for players, once the count reaches CPython's threshold,
and the automatic threshold is raised to ROOM: an event allocates a few hundred (the most in
1,000 events of each game: 351 in ZOP, 557-566 in Spywhere, Mata Hari, Opération Zèbre, 885 in
Drôles de Zèbres, its next move's matching worked out in the idle time before included), so no
collection happens inside an event unless no idle moment comes for several events (a storm), and
then CPython's own collections still run.

The generation collected in idle is the one CPython would collect next (the same cadence). The
first idle moment also freezes what the start-up built (`gc.freeze`: the table's modules, drivers,
fonts and tag registry live as long as the process), so that a full collection only walks what
was made since, and an event arriving during one waits for less.
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["ROOM", "idle_collect"]

ROOM: Final = 2000  # the automatic threshold once the loop collects in its idle time

_idle_at = 0  # the threshold the loop collects at (CPython's own); 0: not set up yet


def idle_collect() -> bool:
    """Run the collection that is due, now (the loop is idle); True if one ran."""
    global _idle_at
    if not gc.isenabled():
        return False  # someone turned collections off: not ours to run
    t0, t1, t2 = gc.get_threshold()
    if t0 <= 0:
        return False
    if not _idle_at:  # process-wide, once: gc.freeze moves every object alive out of reach for good
        _idle_at = min(t0, ROOM)
        gc.collect()  # the start-up's garbage first: frozen garbage would never be freed
        gc.freeze()
        gc.set_threshold(max(t0, ROOM), t1, t2)
        return True
    c0, c1, c2 = gc.get_count()
    if c0 < _idle_at:
        return False
    # CPython's choice when the youngest passes its threshold: the oldest generation whose own
    # count (collections of the one below since its last) passed its threshold
    gc.collect(2 if c2 > t2 else 1 if c1 > t1 else 0)
    return True
