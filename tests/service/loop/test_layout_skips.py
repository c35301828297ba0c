"""An event lays out only the seats whose screens change: a cursor moved on one seat lays out and
draws that seat alone, and a frame whose layout is the one shown is neither drawn nor sent."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from drivers.buttons import ButtonEvent
from firmware_host.apps.app import StartRequest
from firmware_host.apps.session import GameSession
from firmware_host.loop import output as output_mod
from firmware_host.loop import table as table_mod
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.storage.tags import sim_registry
from games.registry import get_game

SEATS = (1, 2, 3, 4)


@pytest.fixture
def sim():
    clock = FakeClock()
    sim = SimTable(registry=sim_registry(get_game("spywhere").pieces()), clock=clock)
    assert sim.wait_ready()
    sim.runtime.start(StartRequest("spywhere", SEATS))
    sim.runtime.refresh()
    sim.table.screens.flush()
    yield sim
    sim.close()


def pictures(sim: SimTable) -> dict[int, bytes]:
    """Every seat's picture as the screens were last asked to show it."""
    screens = sim.table.screens
    return {seat: screens.image(seat).tobytes() for seat in screens.seats if screens.image(seat) is not None}


def spy(monkeypatch, sim: SimTable) -> tuple[list[int], list[int]]:
    """The seats laid out by the loop's output (the marquee's look at the highlighted entry) and
    the seats drawn (rendered), in call order."""
    laid: list[int] = []
    drawn: list[int] = []
    marquee = output_mod.Output.marquee

    def spy_marquee(self, sid, frame, language):
        laid.append(sid)
        return marquee(self, sid, frame, language)

    render = table_mod.frame_picture
    sizes = {id(frame): seat for seat, frame in sim.table.outputs.frames.items()}

    def spy_render(frame, lang, size, k):
        drawn.append(sizes.get(id(frame), -1))
        return render(frame, lang, size, k)

    show = sim.table.outputs.show

    def spy_show(seat, frame):
        sizes[id(frame)] = seat
        return show(seat, frame)

    monkeypatch.setattr(output_mod.Output, "marquee", spy_marquee)
    monkeypatch.setattr(table_mod, "frame_picture", spy_render)
    monkeypatch.setattr(sim.table.outputs, "show", spy_show)
    return laid, drawn


def test_a_cursor_moved_on_one_seat_lays_out_and_draws_that_seat_alone(sim, monkeypatch):
    rt = sim.runtime
    session = rt.app
    assert isinstance(session, GameSession)
    seat = next(s for s in SEATS if len(session.menu(session.seats.index(s))) > 1)
    before = pictures(sim)
    laid, drawn = spy(monkeypatch, sim)
    rt.handle(ButtonEvent(seat, "right", "press", 0.0))
    sim.table.screens.flush()
    assert laid == [seat]
    assert drawn == [seat]
    after = pictures(sim)
    assert after[seat] != before[seat]  # the cursor moved on it
    assert {s: p for s, p in after.items() if s != seat} == {s: p for s, p in before.items() if s != seat}


def test_a_frame_laid_out_as_the_one_shown_is_neither_drawn_nor_sent(sim, monkeypatch):
    outputs = sim.table.outputs
    seat = SEATS[0]
    frame = sim.runtime.shown[seat]
    sent = sim.table.screens[seat].stats.frames_sent + sim.table.screens[seat].stats.frames_skipped
    laid, drawn = spy(monkeypatch, sim)
    outputs.show(seat, dataclasses.replace(frame, tags=(*frame.tags, "marker")))  # another frame, the same layout
    sim.table.screens.flush()
    assert drawn == []
    assert sim.table.screens[seat].stats.frames_sent + sim.table.screens[seat].stats.frames_skipped == sent


def test_a_picture_shown_in_between_is_replaced_by_the_frame_again(sim, monkeypatch):
    outputs = sim.table.outputs
    seat = SEATS[0]
    frame = sim.runtime.shown[seat]
    picture = pictures(sim)[seat]
    sim.table.screens.show(seat, Image.new("1", sim.table.screens.size(seat), 1))  # a test pattern, say
    sim.table.screens.flush()
    assert pictures(sim)[seat] != picture
    outputs.show(seat, frame)
    sim.table.screens.flush()
    assert pictures(sim)[seat] == picture
