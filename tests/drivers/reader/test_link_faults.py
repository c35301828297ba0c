"""ReaderLink under line faults and a vanishing controller: it resyncs, reconnects, and is right."""

from __future__ import annotations

import os
import random

import pytest

from drivers.reader.link import InventoryReplaced, LinkState, LinkStateChanged, ReaderLink, TagPresent
from drivers.reader.virtual import VirtualReader, wait_until
from tests.drivers.reader.test_link import FAST, UIDS, WAIT, Recorder, wait_sync

OFF = (0, 0, 0)


@pytest.fixture
def sim():
    with VirtualReader(8, heartbeat_interval=0.1, seed=5) as reader:
        yield reader


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def link(sim, rec):
    lk = ReaderLink(sim.path, 115200, rec, **FAST).start()
    wait_sync(lk, sim, rec)
    yield lk
    lk.stop()


def test_dropped_event_is_found_by_the_heartbeat_and_resynced(sim, rec, link):
    sim.drop()
    sim.place(4, UIDS[0])  # lost; no other event follows
    wait_sync(link, sim, rec)
    assert link.stats.gaps >= 1 and link.stats.resyncs == 2
    assert rec.of(InventoryReplaced)[-1].added == ((4, UIDS[0]),)


def test_dropped_event_is_found_by_the_next_event():
    rec = Recorder()
    with VirtualReader(8, heartbeat_interval=30.0) as sim:  # no heartbeat will help
        lk = ReaderLink(sim.path, on_event=rec, **{**FAST, "heartbeat_timeout": 60.0}).start()
        try:
            wait_sync(lk, sim, rec)
            sim.drop(2)
            sim.place(1, UIDS[0])
            sim.place(2, UIDS[1])
            sim.place(3, UIDS[2])
            wait_sync(lk, sim, rec)
            assert lk.stats.gaps == 1
        finally:
            lk.stop()


@pytest.mark.parametrize("fault", ["corrupt", "truncate"])
def test_damaged_frames_are_rejected_and_resynced(sim, rec, link, fault):
    getattr(sim, fault)(2)
    sim.place(1, UIDS[0])
    sim.place(2, UIDS[1])
    sim.place(3, UIDS[2])
    sim.remove(1, UIDS[0])
    wait_sync(link, sim, rec)
    assert sum(link.stats.rejected.values()) >= 1
    assert link.stats.gaps + link.stats.stale >= 1


def test_duplicates_are_ignored_without_resync(sim, rec, link):
    sim.duplicate(3)
    sim.place(1, UIDS[0])
    sim.place(1, UIDS[1])
    sim.remove(1, UIDS[0])
    wait_sync(link, sim, rec)
    assert link.stats.duplicates == 3
    assert link.stats.resyncs == 1 and link.stats.gaps == 0
    assert rec.of(TagPresent) == [TagPresent(1, UIDS[0]), TagPresent(1, UIDS[1])]


def test_reordered_events_trigger_a_resync(sim, rec, link):
    sim.reorder()
    sim.place(1, UIDS[0])
    sim.remove(1, UIDS[0])  # arrives first: applying it out of order would be wrong
    sim.place(5, UIDS[3])
    wait_sync(link, sim, rec)
    assert link.stats.gaps >= 1 and link.stats.resyncs >= 2
    assert link.inventory[1] == frozenset() and link.inventory[5] == {UIDS[3]}


def test_garbage_never_takes_the_link_down(sim, rec, link):
    for i in range(20):
        sim.inject(size=60)
        sim.inject(b"\n")
        if i % 4 == 0:
            sim.place(i % 8, UIDS[i % 5])
    sim.inject(b"\xff" * 500 + b"\n")
    wait_sync(link, sim, rec)
    assert LinkState.LOST not in rec.states()
    assert sum(link.stats.rejected.values()) >= 20


def test_lost_inventory_items_are_asked_again(sim, rec, link):
    for ant, uid in enumerate(UIDS):
        sim.place(ant, uid)
    wait_sync(link, sim, rec)
    resyncs = link.stats.resyncs
    sim.drop(kinds=("INV",), skip=4)  # the last item: END's count will not match
    assert link.request_inventory()
    assert wait_until(lambda: link.stats.resyncs == resyncs + 1, WAIT)
    assert link.stats.extra["inventory_incomplete"] == 1
    sim.duplicate(kinds=("INV",))
    sim.drop(kinds=("END",))  # the answer never ends: asked again after the timeout
    assert link.request_inventory()
    assert wait_until(lambda: link.stats.resyncs == resyncs + 2, WAIT)
    assert link.stats.extra["inventory_timeouts"] == 1
    wait_sync(link, sim, rec)
    sim.duplicate(kinds=("INV",), skip=1)  # item 1 twice, item 3 lost: right count, wrong items
    sim.drop(kinds=("INV",), skip=1)
    assert link.request_inventory()
    assert wait_until(lambda: link.stats.resyncs == resyncs + 3, WAIT)
    assert link.stats.extra["inventory_incomplete"] == 2
    wait_sync(link, sim, rec)


def test_unacknowledged_led_commands_are_retried_with_the_latest_colour(sim, rec, link):
    sim.drop(2, kinds=("ACK",))
    link.set_led(3, (255, 0, 0))
    link.set_led(3, (0, 0, 255))
    assert wait_until(lambda: link.stats.command_retries >= 2, WAIT)
    assert wait_until(lambda: sim.leds[3] == (0, 0, 255), WAIT)
    assert sim.leds[3] == (0, 0, 255)  # a retry never brings back the older red


def test_silent_controller_is_lost_then_recovered(sim, rec, link):
    sim.stop_heartbeats()
    assert wait_until(lambda: LinkState.LOST in rec.states(), WAIT)
    reason = [e.reason for e in rec.of(LinkStateChanged) if e.state is LinkState.LOST][0]
    assert "heartbeat" in reason
    assert link.inventory == sim.inventory  # last known state kept while lost
    sim.resume_heartbeats()
    sim.place(2, UIDS[1])
    wait_sync(link, sim, rec)
    assert link.stats.reconnects >= 1


def test_device_restart_resends_leds_and_resyncs(sim, rec, link):
    link.set_led(6, (10, 20, 30))
    assert wait_until(lambda: sim.leds[6] == (10, 20, 30), WAIT)
    sim.place(6, UIDS[0])
    wait_sync(link, sim, rec)
    sim.reset()  # seq back to 0, LEDs dark, unsolicited HI
    assert wait_until(lambda: sim.leds[6] == (10, 20, 30), WAIT)
    wait_sync(link, sim, rec)
    assert link.stats.device_resets == 1 and link.state is LinkState.READY


@pytest.mark.parametrize("reset", [True, False])
def test_unplug_replug_cycles_keep_the_sensed_state_right(sim, rec, link, reset):
    link.set_led(0, (0, 255, 0))
    for cycle in range(5):
        sim.place(cycle, UIDS[cycle])
        wait_sync(link, sim, rec)
        sim.disappear()
        assert wait_until(lambda: link.state is LinkState.RECONNECTING, WAIT)
        assert not link.synced
        sim.remove(cycle, UIDS[cycle])  # changed while the controller was away
        sim.place((cycle + 1) % 8, UIDS[(cycle + 2) % 5])
        sim.reappear(reset=reset)
        wait_sync(link, sim, rec)
        assert wait_until(lambda: sim.leds[0] == (0, 255, 0), WAIT)
    assert link.stats.reconnects == 5
    expected = [LinkState.READY] + [LinkState.LOST, LinkState.RECONNECTING, LinkState.READY] * 5
    # the tags read may reach the consumer before the link's own "ready" event does
    assert wait_until(lambda: rec.states() == expected, WAIT), rec.states()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_fault_soak_converges(seed):
    rng = random.Random(seed)
    rec = Recorder()
    with VirtualReader(6, heartbeat_interval=0.05, seed=seed) as sim:
        lk = ReaderLink(sim.path, on_event=rec, **FAST).start()
        try:
            wait_sync(lk, sim, rec)
            for step in range(150):
                ant, uid = rng.randrange(6), rng.choice(UIDS)
                op = rng.random()
                if op < 0.35:
                    sim.place(ant, uid)
                elif op < 0.6:
                    sim.remove(ant, uid) or sim.place(ant, uid)
                elif op < 0.9:
                    fault = rng.choice(["drop", "corrupt", "truncate", "duplicate", "reorder"])
                    getattr(sim, fault)()
                elif op < 0.96:
                    sim.inject(size=rng.randrange(1, 80))
                    lk.set_led(ant, (rng.randrange(256), 0, 0))
                else:
                    sim.disappear()
                    sim.place(ant, uid)
                    sim.reappear(reset=rng.random() < 0.5)
                if step % 20 == 19:
                    wait_sync(lk, sim, rec)
            wait_sync(lk, sim, rec)
            assert wait_until(lambda: sim.leds == {a: lk.leds.get(a, OFF) for a in range(6)}, WAIT)
        finally:
            lk.stop()


def test_another_controller_on_the_same_port_replaces_everything(sim, rec, link):
    sim.place(7, UIDS[0])
    link.set_led(6, (1, 2, 3))
    link.set_led(1, (4, 5, 6))
    wait_sync(link, sim, rec)
    with VirtualReader(4, heartbeat_interval=0.1, firmware="zt-other-2") as other:
        other.place(1, UIDS[1])
        sim.disappear()
        assert wait_until(lambda: link.state is LinkState.RECONNECTING, WAIT)
        os.symlink(os.readlink(other.path), sim.path)  # a different board at the same path
        wait_sync(link, other, rec)
        assert link.device.antennas == 4 and link.device.firmware == "zt-other-2"
        assert set(link.inventory) == {0, 1, 2, 3}
        assert rec.of(InventoryReplaced)[-1].removed == ((7, UIDS[0]),)
        assert link.leds == {1: (4, 5, 6)}  # antenna 6 no longer exists
        assert wait_until(lambda: other.leds[1] == (4, 5, 6), WAIT)
        link.stop()
