"""The link's thread on a quiet table: it sleeps until its next timer (a PING to send, an answer
overdue), not at a fixed tick, and its timers still come on time."""

from __future__ import annotations

import threading
import time

from drivers.reader.link import LinkState, ReaderLink
from drivers.reader.virtual import VirtualReader, wait_until

WAIT = 10.0  # generous: a loaded 2-core CI machine must not fail on time


def wakeups(thread: threading.Thread) -> int:
    """The thread's voluntary context switches so far: each sleep it woke from (Linux)."""
    with open(f"/proc/self/task/{thread.native_id}/status") as status:
        for line in status:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split(":")[1])
    raise AssertionError("no voluntary_ctxt_switches line")


def test_a_quiet_link_wakes_for_its_heartbeats_only():
    # the table's timings: a PING each second, the controller's heartbeat each second
    with VirtualReader(8, heartbeat_interval=1.0, seed=3) as sim:
        link = ReaderLink(sim.path).start()
        try:
            assert wait_until(lambda: link.state is LinkState.READY and link.synced, WAIT)
            thread = next(t for t in threading.enumerate() if t.name == "reader-link")
            time.sleep(0.5)
            before, start = wakeups(thread), time.monotonic()
            time.sleep(3.0)
            rate = (wakeups(thread) - before) / (time.monotonic() - start)
            # each heartbeat read, each PING sent, a few slept off in a lock: a fixed 50 ms tick
            # woke it more than twenty times a second
            assert rate < 8, rate
            assert link.state is LinkState.READY  # the heartbeats kept it alive
        finally:
            link.stop()


def test_an_unanswered_led_command_is_sent_again_on_time():
    # nothing else wakes the thread for 5 s: no heartbeat either way, no tick shorter
    with VirtualReader(8, heartbeat_interval=5.0, seed=5) as sim:
        link = ReaderLink(sim.path, ack_timeout=0.3, heartbeat_interval=5.0, heartbeat_timeout=20.0,
                          read_tick=5.0).start()
        try:
            assert wait_until(lambda: link.state is LinkState.READY and link.synced, WAIT)
            sim.stall_reading()  # the controller reads nothing: no ACK comes
            asked = time.monotonic()
            link.set_led(3, (255, 0, 0))
            assert wait_until(lambda: link.stats.command_retries >= 1, WAIT), link.stats
            assert time.monotonic() - asked < 3.0  # woken by the ACK's deadline (0.3 s), not 5 s later
            sim.resume_reading()
            assert wait_until(link.leds_done, WAIT)
        finally:
            link.stop()
