"""Raw sensed changes inside the settle window cost no frame and no rendering; due work still runs."""

from __future__ import annotations

import pytest

import games.registry as registry
from drivers.buttons import ButtonEvent
from firmware_host.apps.session import GameSession
from firmware_host.loop.runtime import ReaderStatus, Runtime, Snapshot, TagChange
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry, sim_uid
from tests.kits.toyboard import GAME, token


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Outputs:
    """The runtime's outputs, counting what it asks for."""

    def __init__(self) -> None:
        self.frames: dict = {}
        self.shows = 0

    def show(self, seat, frame):
        self.frames[seat] = frame
        self.shows += 1

    def leds(self, zones):
        pass

    def cue(self, name):
        pass


@pytest.fixture
def game(monkeypatch, mocker):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    out, clock = Outputs(), Clock()
    runtime = Runtime(load_config(None), sim_registry(GAME.pieces()), out, clock, auto_chance=True, seed=1)
    runtime.handle(ReaderStatus("ready"))
    for seat in (2, 2, 5, 2):
        runtime.handle(ButtonEvent(seat, "ok", "press", 0.0))
        runtime.handle(ButtonEvent(seat, "ok", "release", 0.0))
    assert isinstance(runtime.app, GameSession)
    yield runtime, out, clock, mocker.spy(runtime, "frames")
    registry.get_game.cache_clear()


def test_raw_tag_events_compute_no_frame(game):
    runtime, out, clock, frames = game
    shows, computed = out.shows, frames.call_count
    uid = sim_uid(token(0, 1))
    for i in range(20):  # a flickering tag, then a placement, all inside the window
        runtime.handle(TagChange("B1", uid, i % 2 == 0))
        clock.t += 0.01
    runtime.handle(TagChange("A1", uid, True))
    runtime.handle(Snapshot({"A1": frozenset({uid})}))
    assert (out.shows, frames.call_count) == (shows, computed)
    assert runtime.app.moves == []
    clock.t += 0.3  # the window ends: one settled change, frames computed once
    runtime.tick()
    assert frames.call_count == computed + 1 and out.shows > shows
    assert runtime.app.moves[0][1]["square"] == "A1"


def test_a_raw_event_still_runs_work_that_is_due(game):
    runtime, out, clock, frames = game
    session = runtime.app
    session.notify(None, GAME.name)  # a message on every player's screen for 3 s (above its menu)
    runtime.refresh()
    assert GAME.name in (out.frames[2].banner, out.frames[2].status)
    clock.t += 3.5  # the banner is over; a tag event is the first thing the loop sees
    computed = frames.call_count
    runtime.handle(TagChange("B1", sim_uid(token(0, 1)), True))
    assert frames.call_count == computed + 1
    assert out.frames[2].banner is None and out.frames[2].status is None


def test_idle_time_prepares_the_next_move_once_per_state(game, mocker):
    from firmware_host.apps import reconcile

    runtime, out, clock, frames = game
    session = runtime.app
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 0.3
    runtime.tick()  # a move: a new state, the table synced with it
    assert session.synced and len(session.moves) == 1
    spy = mocker.spy(reconcile, "footprints")
    assert runtime.prepare() is True and spy.call_count == 1  # worked out while the players think
    while runtime.prepare():  # the rest of the idle work (a garbage collection may be due)
        pass
    assert spy.call_count == 1
    runtime.handle(TagChange("C1", sim_uid(token(1, 1)), True))
    clock.t += 0.3
    runtime.tick()  # the next move is matched against what was prepared
    assert len(session.moves) == 2 and spy.call_count == 1
    assert runtime.prepare() is True and spy.call_count == 2


def test_the_loop_prepares_while_idle(game, mocker):
    import threading

    from firmware_host.loop.runtime import Stop

    runtime, out, clock, frames = game
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 0.3
    runtime.tick()
    prepare = mocker.spy(runtime.app, "prepare")
    loop = threading.Thread(target=runtime.run, kwargs={"max_wait": 0.05})
    loop.start()
    try:
        from drivers.reader.virtual import wait_until
        assert wait_until(lambda: True in prepare.spy_return_list, 5)
    finally:
        runtime.post(Stop())
        loop.join(5)
    assert not loop.is_alive()


def test_the_idle_work_waits_for_the_screens_sends(game, mocker):
    """While the screens' writers still send frames, the loop leaves the game's idle work (it would
    hold the interpreter their sends need) and looks again shortly; once they are done it does it."""
    import threading
    import time

    from drivers.reader.virtual import wait_until
    from firmware_host.loop.runtime import Stop

    runtime, out, clock, frames = game
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 0.3
    runtime.tick()
    sending = threading.Event()
    sending.set()
    out.sending = sending.is_set  # the writers busy
    prepare, tick = mocker.spy(runtime.app, "prepare"), mocker.spy(runtime, "tick")
    loop = threading.Thread(target=runtime.run, kwargs={"max_wait": 0.05})
    loop.start()
    try:
        time.sleep(0.2)
        assert prepare.call_count == 0  # the frames first
        assert tick.call_count <= 6  # the looks at the sends are no ticks: those come with max_wait
        sending.clear()  # sent
        assert wait_until(lambda: True in prepare.spy_return_list, 5)
    finally:
        runtime.post(Stop())
        loop.join(5)
    assert not loop.is_alive()


def test_the_move_the_settling_pieces_show_is_worked_out_in_the_window(game, mocker):
    runtime, out, clock, frames = game
    session = runtime.app
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 0.3
    runtime.tick()  # a move: the table synced with it, the next piece laid is a move again
    while runtime.prepare():
        pass
    runtime.handle(TagChange("C1", sim_uid(token(1, 1)), True))  # the window runs: the loop is idle
    while runtime.prepare():
        pass
    apply = mocker.spy(session.game, "apply")
    clock.t += 0.3
    runtime.tick()  # the window ends: the move worked out in it is taken, the rules not asked again
    assert session.moves[-1] == (1, {"type": "place", "piece": token(1, 1), "square": "C1"})
    assert apply.call_count == 0
    assert out.frames[2].screen == session.game.screen(session.game.view(session.state, 0), 0, pad_sensed=True)


def test_a_layout_changed_again_in_the_window_is_read_as_it_settles(game, mocker):
    runtime, out, clock, frames = game
    session = runtime.app
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 0.3
    runtime.tick()
    runtime.handle(TagChange("C1", sim_uid(token(1, 1)), True))
    while runtime.prepare():  # the move this layout shows, worked out
        pass
    runtime.handle(TagChange("C1", sim_uid(token(1, 1)), False))  # lifted, laid elsewhere at once
    runtime.handle(TagChange("B1", sim_uid(token(1, 1)), True))
    apply = mocker.spy(session.game, "apply")
    clock.t += 0.3
    runtime.tick()  # not the move worked out: the rules read the layout that settled
    assert session.moves[-1] == (1, {"type": "place", "piece": token(1, 1), "square": "B1"})
    assert apply.call_count == 1
    assert not session.table.reason and session.instruction is not None  # B1 scares A1's token back
