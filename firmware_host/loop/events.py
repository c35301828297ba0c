"""The events the table's loop handles (posted by the hardware's threads) and where its output goes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from firmware_host.screens.frames import Frame


@dataclass(frozen=True)
class TagChange:
    """A tag appeared on or left a physical zone."""

    zone: str
    uid: str
    present: bool


@dataclass(frozen=True)
class Snapshot:
    """The whole sensed table after a resync: physical zone -> UIDs."""

    zones: Mapping[str, frozenset[str]]


@dataclass(frozen=True)
class ReaderStatus:
    """The reader link's state ("ready", "lost", "connecting"...) and why."""

    state: str
    reason: str = ""


@dataclass(frozen=True)
class Thought:
    """A computer player's job finished (posted from the worker's thread): collect it."""


@dataclass(frozen=True)
class RemoteNews:
    """The other table of a remote game said something (posted from the MQTT thread): take it."""


class Stop:
    """Ends `Runtime.run`."""


class Outputs(Protocol):
    """Where the runtime's output goes: screens, LEDs, buzzer."""

    def show(self, seat: int, frame: Frame) -> None: ...
    def leds(self, zones: Mapping[str, str]) -> None: ...
    def cue(self, name: str) -> None: ...
