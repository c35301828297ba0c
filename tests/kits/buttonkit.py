"""Seat buttons in tests: a seat's pins and the events its queue holds."""

from __future__ import annotations

from queue import Empty, Queue

from drivers.buttons import ButtonEvent

PINS = {"left": 5, "right": 6, "ok": 13}


def drain(q: Queue[ButtonEvent]) -> list[tuple[int, str, str]]:
    """Every event the queue holds, as (seat, button, kind), emptying it."""
    out = []
    while True:
        try:
            e = q.get_nowait()
        except Empty:
            return out
        out.append((e.seat, e.button, e.kind))
