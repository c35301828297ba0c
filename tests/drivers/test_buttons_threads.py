"""Presses from many threads at once, as gpiozero's callbacks arrive on a Pi (one thread per
pin backend): mock pins on the simulated table driven concurrently, every event through the
real ButtonPanel onto the runtime's one queue. Nothing lost, nothing crosses seats."""

from __future__ import annotations

import threading

from firmware_host.apps.menu import MenuApp
from firmware_host.loop.simulator import SimTable

PRESSES = 40


def test_concurrent_presses_on_every_seat_are_all_handled():
    sim = SimTable()
    try:
        assert sim.wait_ready()
        sim.press(2, "ok")  # seat 2 hosts the menu
        menu = sim.runtime.app
        assert isinstance(menu, MenuApp) and menu.host == 2
        entries = len(menu.entries())
        before = sim.runtime.events
        barrier = threading.Barrier(len(sim.runtime.seat_ids))
        errors: list[BaseException] = []

        def hammer(seat: int) -> None:
            try:
                barrier.wait()
                for _ in range(PRESSES):
                    sim.buttons.click(seat, "right")  # a gpiozero callback in this thread
            except BaseException as exc:  # reported by the test
                errors.append(exc)

        threads = [threading.Thread(target=hammer, args=(seat,)) for seat in sim.runtime.seat_ids]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        sim.pump()
        handled = sim.runtime.events - before
        assert handled == 2 * PRESSES * len(sim.runtime.seat_ids)  # every press and release
        assert sim.runtime.failures == 0 and sim.runtime.errors == 0
        assert menu.cursor == PRESSES % entries  # only the host's presses moved its cursor
        assert sim.frames()[2].cursor == PRESSES % entries
    finally:
        sim.close()
