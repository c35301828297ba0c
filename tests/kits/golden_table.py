"""Replays recorded table events on a Runtime (fake clock, no hardware) and writes down everything
the table showed: each frame sent to a screen, each LED change, each sound, and what the loop
waits for next. Two runs of the same events give the same record; the digest pins it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from drivers.buttons import ButtonEvent
from firmware_host.apps.computer import InlineThinker
from firmware_host.loop.events import ReaderStatus, TagChange
from firmware_host.loop.runtime import Runtime
from firmware_host.loop.simulator import FakeClock
from firmware_host.screens.frames import Frame
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import all_game_pieces, sim_registry

SEED = 7
ITERATIONS = 12  # the computer players' budget: real searches, only short
STEP = 0.25  # an "advance" moves the clock by steps this long, ticking at each


class Recorder:
    """The runtime's outputs, written down in order."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def show(self, seat: int, frame: Frame) -> None:
        """A seat's screen changed."""
        self.lines.append(f"show {seat} {frame!r}")

    def leds(self, zones: Mapping[str, str]) -> None:
        """The LEDs changed."""
        self.lines.append(f"leds {sorted(zones.items())!r}")

    def cue(self, name: str) -> None:
        """A sound."""
        self.lines.append(f"cue {name}")


class GoldenTable:
    """A Runtime on the default table driven by event lists (see `apply`)."""

    def __init__(self, clock: FakeClock, recorder: Recorder, journal: Path | None = None):
        self.config = load_config(None)
        self.registry = sim_registry(all_game_pieces())
        self.clock = clock
        self.recorder = recorder
        self.rt = Runtime(self.config, self.registry, recorder, clock=clock, auto_chance=True, seed=SEED,
                          journal=Journal(journal) if journal is not None else None)
        self.rt.thinker = InlineThinker(ITERATIONS)
        self.rt.refresh()

    def close(self) -> None:
        """Close the journal, if any."""
        self.rt.keeper.close()

    def apply(self, ev: list[Any]) -> None:
        """One event: ["press", seat, button], ["long", seat], ["place"|"remove", zone, uid],
        ["advance", seconds], ["reader", state]."""
        rt, kind = self.rt, ev[0]
        if kind == "press":
            rt.handle(ButtonEvent(ev[1], ev[2], "press", self.clock()))
            rt.handle(ButtonEvent(ev[1], ev[2], "release", self.clock()))
        elif kind == "long":
            rt.handle(ButtonEvent(ev[1], "ok", "press", self.clock()))
            rt.handle(ButtonEvent(ev[1], "ok", "long", self.clock()))
            rt.handle(ButtonEvent(ev[1], "ok", "release", self.clock()))
        elif kind in ("place", "remove"):
            rt.handle(TagChange(ev[1], ev[2], kind == "place"))
            self.clock.advance(self.config.reader.settle + 0.01)
            rt.tick()
        elif kind == "reader":
            rt.handle(ReaderStatus(ev[1], "golden"))
        elif kind == "advance":
            left = float(ev[1])
            while left > 1e-9:
                self.clock.advance(min(STEP, left))
                left -= STEP
                rt.tick()
        else:
            raise ValueError(f"unknown golden event {ev!r}")
        while rt.prepare():  # what Runtime.run does while no event is queued
            rt.drain()  # a computer's move said in words asks for the screens to be refreshed
        self.recorder.lines.append(f"after {ev!r}: {type(rt.app).__name__} next={rt.next_deadline()!r}")


def replay(scenario: Iterable[Any], journal: Path) -> list[str]:
    """Every output line of a scenario: a list of phases, each a list of events on a fresh
    runtime (a later phase starts on the journal the earlier ones left, like a restart)."""
    clock, recorder = FakeClock(), Recorder()
    for phase in scenario:
        table = GoldenTable(clock, recorder, journal)
        try:
            for ev in phase:
                table.apply(ev)
        finally:
            table.close()
        recorder.lines.append("restart")
    return recorder.lines


def digest(lines: list[str]) -> str:
    """The record's SHA-256."""
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def load(path: Path) -> dict[str, Any]:
    """The recorded scenarios: name -> phases."""
    return dict(json.loads(path.read_text(encoding="utf-8")))
