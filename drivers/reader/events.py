"""What the reader link reports: its states, the device, tag events, counters, command errors."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


class LinkState(enum.Enum):
    """What the service shows: anything but READY means "no reader"."""

    CONNECTING = "connecting"
    READY = "ready"
    LOST = "lost"
    RECONNECTING = "reconnecting"
    STOPPED = "stopped"


@dataclass(frozen=True)
class DeviceInfo:
    """What the controller said in its handshake."""

    protocol: int
    firmware: str
    antennas: int


@dataclass(frozen=True)
class TagPresent:
    """A tag appeared on an antenna."""

    antenna: int
    uid: str


@dataclass(frozen=True)
class TagRemoved:
    """A tag left an antenna."""

    antenna: int
    uid: str


@dataclass(frozen=True)
class InventoryReplaced:
    """A full inventory replaced the sensed state; `added`/`removed` is the diff it caused."""

    inventory: Mapping[int, frozenset[str]]
    added: tuple[tuple[int, str], ...]
    removed: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class LinkStateChanged:
    """The link entered `state`, for `reason`."""

    state: LinkState
    reason: str
    device: DeviceInfo | None = None


@dataclass(frozen=True)
class DeviceError:
    """An ERR frame from the controller."""

    code: str
    detail: str


LinkEvent = TagPresent | TagRemoved | InventoryReplaced | LinkStateChanged | DeviceError


@dataclass(frozen=True)
class LinkStats:
    """Counters since the link was created."""

    frames_ok: int
    rejected: dict[str, int]
    resyncs: int
    reconnects: int
    gaps: int = 0
    duplicates: int = 0
    stale: int = 0
    device_resets: int = 0
    device_errors: int = 0
    command_retries: int = 0
    command_failures: int = 0
    open_failures: int = 0
    callback_errors: int = 0
    extra: dict[str, int] = field(default_factory=dict)


class LinkCommandError(ValueError):
    """A host command with a bad antenna or colour."""
