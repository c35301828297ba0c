"""The table's hardware wiring: the reader link's thread only queues events, never touches the
outputs; the LEDs stay right across a controller that vanishes and comes back rebooted."""

from __future__ import annotations

from drivers.reader.virtual import wait_until
from firmware_host.apps import testapp
from firmware_host.apps.app import TEST_APP, StartRequest
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.loop.table import COLOURS

WAIT = 10.0


def device_leds(sim: SimTable) -> dict[str, tuple[int, int, int]]:
    """The LEDs lit on the (virtual) controller, by zone."""
    zone_of = {ant: zone for zone, ant in sim.zones.items()}
    return {zone_of[ant]: rgb for ant, rgb in sim.reader.leds.items() if rgb != (0, 0, 0)}


def test_a_reconnect_leaves_the_outputs_to_the_loop_and_the_leds_right() -> None:
    sim = SimTable(clock=FakeClock())
    try:
        assert sim.wait_ready()
        sim.runtime.start(StartRequest(TEST_APP))
        assert isinstance(sim.runtime.app, testapp.TestApp)  # lights white every zone holding a tag
        sim.place("A1", "droles-de-zebres/white/lion/1")
        sim.settle()
        assert sim.table.outputs.lit == {"A1": "white"}
        assert wait_until(lambda: device_leds(sim) == {"A1": COLOURS["white"]}, WAIT)

        sim.reader.disappear()
        assert wait_until(lambda: sim.table.link.state.value != "ready", WAIT)
        sim.reader.reappear(reset=True)  # rebooted: its LEDs are all off
        assert wait_until(lambda: sim.table.link.state.value == "ready", WAIT)
        # the loop has not run since: whatever the link thread did, it did not touch the outputs
        assert sim.table.outputs.lit == {"A1": "white"}
        # the link states its wanted LEDs again after the handshake
        assert wait_until(lambda: device_leds(sim) == {"A1": COLOURS["white"]}, WAIT)

        assert sim.wait_ready()  # the loop handles the queued reader events
        sim.remove("A1", "droles-de-zebres/white/lion/1")
        sim.place("B2", "droles-de-zebres/white/lion/1")
        sim.settle()
        assert sim.table.outputs.lit == {"B2": "white"}
        # A1's LED goes off: the outputs still knew it was lit
        assert wait_until(lambda: device_leds(sim) == {"B2": COLOURS["white"]}, WAIT), device_leds(sim)
    finally:
        sim.close()
