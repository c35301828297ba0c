"""What the reader link tells the table: its state, the events waiting for `on_event`, its counters."""

from __future__ import annotations

import logging

from drivers.reader.events import DeviceInfo, LinkEvent, LinkState, LinkStateChanged, LinkStats
from drivers.reader.protocol import FrameParser

log = logging.getLogger("drivers.reader.link")  # the link's one logger

STAT_NAMES = ("resyncs", "reconnects", "gaps", "duplicates", "stale", "device_resets", "device_errors",
              "command_retries", "command_failures", "open_failures", "callback_errors")


class LinkReport:
    """The link's state, outbox and counters; used with the link's lock held."""

    def __init__(self) -> None:
        self.state = LinkState.CONNECTING
        self._outbox: list[LinkEvent] = []
        self._counts: dict[str, int] = {}
        self._rejects: dict[str, int] = {}  # frames valid on the wire the link refused, by reason

    def set_state(self, state: LinkState, reason: str, device: DeviceInfo | None) -> None:
        """Enter `state` (logged and reported once, not again while it holds)."""
        if state is not self.state:
            self.state = state
            log.info("reader link %s: %s", state.value, reason)
            self._outbox.append(LinkStateChanged(state, reason, device))

    def emit(self, event: LinkEvent) -> None:
        """Queue an event for `on_event`."""
        self._outbox.append(event)

    def take(self) -> list[LinkEvent]:
        """The events queued so far, in order; none are left."""
        events, self._outbox = self._outbox, []
        return events

    def count(self, name: str) -> None:
        """One more of `name` (a LinkStats field, or an extra counter)."""
        self._counts[name] = self._counts.get(name, 0) + 1

    def reject(self, reason: str) -> None:
        """One more well-formed frame refused for `reason` (a wrong direction, an unknown antenna)."""
        self._rejects[reason] = self._rejects.get(reason, 0) + 1

    def stats(self, parser: FrameParser) -> LinkStats:
        """A snapshot of the counters, the parser's included."""
        counts = dict(self._counts)
        rejected = dict(parser.rejected)
        for reason, n in self._rejects.items():
            rejected[reason] = rejected.get(reason, 0) + n
        known = {name: counts.pop(name, 0) for name in STAT_NAMES}
        return LinkStats(frames_ok=parser.accepted, rejected=rejected, extra=counts, **known)
