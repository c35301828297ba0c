"""A seat's screen failing mid-game (its I2C device stops answering) and coming back.

On the simulated table (tests/tabledriver.py: virtual reader on a pty, mock pins, luma's ssd1306/
sh1106 drivers on a simulated I2C bus modelling each controller's RAM), each game of faultkit.CASES is played to the end while two
screens fail and return. While one is down the game goes on and every other screen shows its
current frame; once it answers again (after its retry back-off) it shows the current frame, not
the one it had when it failed; the game ends exactly as the fault-free run.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from firmware_host.commands.script import state_digest
from firmware_host.screens.render import render_frame
from games.core import CHANCE
from tests.kits import faultkit
from tests.kits.faultkit import CASES, GameCase, play_step, reference_run
from tests.kits.tabledriver import Driver

pytestmark = pytest.mark.usefixtures("fault_summary")


def shows_current_frame(driver: Driver, seat: int) -> bool:
    """True if the seat's panel (its modelled controller RAM) shows the seat's current frame."""
    sim = driver.sim
    sim.table.screens.flush()
    screen = sim.table.screens[seat]
    device = sim.table.sim_screens.devices[(screen.spec.bus, screen.spec.address)]
    want = render_frame(sim.runtime.frames()[seat], sim.config.language, screen.spec.size)
    shown = sim.table.sim_screens.pixels(screen.spec.bus, screen.spec.address)
    return shown is not None and shown.tobytes() == device.preprocess(want).tobytes()


def outage(driver: Driver, seat: int, steps: int, problems: list[str]) -> Counter[str]:
    """Fail a seat's screen, play on, plug it back, let its retry come; returns the figures."""
    sim = driver.sim
    bank, i2c = sim.table.screens, sim.table.sim_screens
    screen = bank[seat]
    where = (screen.spec.bus, screen.spec.address)
    old_device = i2c.devices[where]
    sent = {s: bank[s].stats.frames_sent for s in bank.seats}
    moves = len(driver.session.moves)
    driver.send({"screen": seat, "fail": True})
    played = 0
    # on until the screen met its failure (a frame for it changed) and a move was made
    while (played < steps or screen.state == "ok" or len(driver.session.moves) == moves
           or shows_current_frame(driver, seat)) and played < 300 and play_step(driver):
        played += 1
    figures: Counter[str] = Counter(screen_outages=1)
    figures["frames_to_other_screens"] = sum(bank[s].stats.frames_sent - sent[s] for s in bank.seats if s != seat)
    if screen.state != "failed":
        problems.append(f"seat {seat}: the screen is {screen.state} while unplugged")
    if len(driver.session.moves) == moves and not driver.session.over:
        problems.append(f"seat {seat}: the game did not go on while its screen was down")
    stale = [s for s in bank.seats if s != seat and not shows_current_frame(driver, s)]
    if stale or figures["frames_to_other_screens"] == 0:
        problems.append(f"seat {seat} down: screens {stale} do not show their current frame")
    if shows_current_frame(driver, seat):
        problems.append(f"seat {seat}: nothing changed on it during the outage, the test proves nothing")
    driver.send({"screen": seat, "fail": False})
    retry_at = screen.status().retry_at
    if retry_at is not None and retry_at > driver.clock():
        driver.send({"advance": round(retry_at - driver.clock() + 0.05, 2)})
    if screen.state != "ok" or i2c.devices[where] is old_device:
        problems.append(f"seat {seat}: the screen did not come back ({screen.status().describe()})")
    elif not shows_current_frame(driver, seat):
        problems.append(f"seat {seat}: back, but not showing the current frame")
    else:
        figures["screen_recoveries"] += 1
    return figures


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
def test_a_screen_failing_mid_game_comes_back_with_the_current_frame(case: GameCase):
    rng = random.Random(case.seed)
    starts = sorted(rng.sample(range(2, 16), 2))
    driver = Driver(seed=case.seed)
    problems: list[str] = []
    figures: Counter[str] = Counter()
    try:
        driver.send(case.start)
        step = 0
        while play_step(driver):
            step += 1
            if starts and step >= starts[0]:
                s = driver.session
                acting = sorted(x for x in s.game.to_act(s.state) if x != CHANCE)
                # the first outage hits a seat that must act, the second any other player
                seat = s.seats[acting[0]] if len(starts) == 2 and acting else \
                    s.seats[rng.randrange(len(s.seats))]
                figures += outage(driver, seat, rng.randint(3, 8), problems)
                starts.pop(0)
        final: Any = driver.session
        ref = reference_run(case)
        if (state_digest(final.state), len(final.moves)) != (ref.state, ref.moves):
            problems.append("the game did not end as the fault-free run")
    finally:
        driver.close()
    faultkit.record("screen faults", mismatches=len(problems), **figures)
    assert problems == []
    assert figures["screen_outages"] == 2 == figures["screen_recoveries"]
