"""Buzzer cues: mock PWM pin ← gpiozero TonalBuzzer ← our worker thread; never blocking."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from drivers.buttons import ButtonEvent, ButtonPanel, SimButtonPanel
from drivers.buzzer import CUES, BadNotes, Buzzer
from drivers.pins import make_pin_factory

PIN = 12


class RecordingPin(MockPWMPin):
    """A mock PWM pin that also logs frequency changes (TonalBuzzer plays by setting them)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.log: list[tuple[float, float | None]] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.log.append((time.monotonic(), value))


@pytest.fixture
def factory():
    f = MockFactory(pin_class=RecordingPin)
    yield f
    f.reset()


def hz(name: str) -> float:
    return Tone(name).frequency


def test_cue_plays_its_tones_in_order(factory):
    buzzer = Buzzer(PIN, pin_factory=factory, speed=4)
    pin = factory.pin(PIN)
    pin.log.clear()
    pin.clear_states()
    assert buzzer.play("error")
    assert buzzer.wait_idle(2)
    assert [f for _, f in pin.log] == [pytest.approx(hz("A4")), None, pytest.approx(hz("A4")), None]
    assert [s.state for s in pin.states] == [0.0, 0.5, 0.0, 0.5, 0.0]  # on, rest, on, off
    buzzer.close()


def test_note_lengths_follow_the_cue(factory):
    buzzer = Buzzer(PIN, pin_factory=factory)
    pin = factory.pin(PIN)
    pin.log.clear()
    buzzer.play("countdown_end")
    assert buzzer.wait_idle(3)
    times = [t for t, _ in pin.log]
    lengths = [b - a for a, b in zip(times, times[1:])]
    expected = [s for _, s in CUES["countdown_end"]]
    for got, want in zip(lengths, expected):
        assert want * 0.9 <= got <= want + 0.15
    buzzer.close()


def test_play_never_blocks_and_a_new_cue_cuts_the_old_one(factory):
    buzzer = Buzzer(PIN, pin_factory=factory)
    pin = factory.pin(PIN)
    pin.log.clear()
    start = time.monotonic()
    buzzer.play("win")  # 0.6 s long
    buzzer.play("tick")
    assert time.monotonic() - start < 0.05
    assert buzzer.wait_idle(2)
    assert time.monotonic() - start < 0.4  # the win melody was cut
    played = [f for _, f in pin.log if f is not None]
    assert played[-1] == pytest.approx(hz("A6"))  # the tick
    assert list(buzzer.history) == ["win", "tick"]
    buzzer.close()


def test_without_a_buzzer_cues_are_silent_but_recorded():
    before = threading.active_count()
    buzzer = Buzzer(None)
    assert not buzzer.enabled
    assert buzzer.play("turn") and buzzer.play("tick")
    assert list(buzzer.history) == ["turn", "tick"]
    assert buzzer.wait_idle(0.1)
    assert threading.active_count() == before  # no worker thread for nothing
    buzzer.close()


def test_unknown_cue_and_bad_notes(factory, caplog):
    buzzer = Buzzer(PIN, pin_factory=factory)
    assert buzzer.play("fanfare") is False
    assert "unknown buzzer cue 'fanfare'" in caplog.text
    with pytest.raises(BadNotes, match="outside"):
        buzzer.play_notes([("C2", 0.1)])
    with pytest.raises(BadNotes, match="unknown tone"):
        buzzer.play_notes([("H9", 0.1)])
    with pytest.raises(BadNotes, match="duration"):
        buzzer.play_notes([("A5", 0)])
    with pytest.raises(BadNotes, match="speed"):
        Buzzer(None, speed=0)
    buzzer.close()


def test_a_cue_played_without_a_buzzer_reads_no_tones():
    """A silent table's first press does not import gpiozero's tones to check a cue's notes."""
    code = ("import sys\nfrom drivers.buzzer import CUES, Buzzer\nb = Buzzer(None)\n"
            "assert all(b.play(c) for c in CUES)\nprint('gpiozero' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_buzzers_cues_are_checked_when_it_is_made(factory, monkeypatch):
    """Every cue's notes are checked with the device, as a fresh check gives them; playing one
    later checks nothing (a table event)."""
    buzzer = Buzzer(PIN, pin_factory=factory, speed=50)
    assert buzzer._checked == {name: buzzer._check(notes) for name, notes in CUES.items()}

    def no_check(notes):
        raise AssertionError("checked during play")

    monkeypatch.setattr(buzzer, "_check", no_check)
    assert all(buzzer.play(name) for name in CUES)
    assert buzzer.wait_idle(5)
    buzzer.close()


def test_every_cue_is_playable():
    buzzer = Buzzer(None)
    for name, notes in CUES.items():
        buzzer.play_notes(notes)  # validated even when silent
        assert sum(s for _, s in notes) < 1.0, f"{name} is too long for a cue"


def test_close_stops_the_sound_and_frees_the_pin(factory):
    buzzer = Buzzer(PIN, pin_factory=factory)
    buzzer.play("win")
    time.sleep(0.05)
    buzzer.close()
    pin = factory.pin(PIN)
    assert pin.frequency is None and pin.state == 0
    buzzer.play("tick")  # ignored after close
    assert pin.frequency is None
    Buzzer(PIN, pin_factory=factory).close()  # the pin is free again


@dataclass
class Seat:
    id: int
    buttons: dict[str, int]
    encoder: None = None


def test_shares_the_simulator_factory_with_the_buttons():
    factory = make_pin_factory("mock")
    events: Queue[ButtonEvent] = Queue()
    panel = ButtonPanel([Seat(1, {"ok": 5})], events, pin_factory=factory)
    buzzer = Buzzer(PIN, pin_factory=factory, speed=10)
    SimButtonPanel(panel).click(1, "ok")
    assert events.get_nowait().button == "ok"
    buzzer.play("ok")
    assert buzzer.wait_idle(2)
    assert [s.state for s in factory.pin(PIN).states][-2:] == [0.5, 0.0]
    buzzer.close()
    panel.close()
