"""A seat whose screen is mounted a quarter-turn (`rotation = 1` or 3) is laid out as the portrait
screen it is, 64 pixels wide: its game's texts wrap to that width, on the table's own path."""

from __future__ import annotations

from firmware_host.apps.session import GameSession
from firmware_host.commands.script import ScriptRunner
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.storage.config import parse_config, sim_config_text

SEAT_2 = 'screen = { driver = "ssd1306", bus = 4, address = 0x3C }'


def test_a_quarter_turned_screen_is_laid_out_portrait():
    text = sim_config_text()
    assert SEAT_2 in text
    config = parse_config(text.replace(SEAT_2, SEAT_2[:-2] + ", rotation = 1 }"))
    clock = FakeClock()
    sim = SimTable(config, clock=clock, seed=3)
    try:
        assert sim.wait_ready()
        sim.settle()
        assert sim.runtime.screen_size(2) == (64, 128) and sim.runtime.screen_size(1) == (128, 64)
        ScriptRunner(sim, clock).apply({"start": {"game": "zop", "seats": [1, 2], "options": {}, "extra": 0}})
        app = sim.runtime.app
        assert isinstance(app, GameSession)
        assert app.size(1) == (64, 128) and app.size(0) == (128, 64)
        sim.settle()
        portrait, upright = sim.table.screens.image(2), sim.table.screens.image(1)
        assert portrait is not None and upright is not None
        assert portrait.size == (64, 128) and upright.size == (128, 64)
    finally:
        sim.close()
