"""Optional buzzer (gpiozero TonalBuzzer): short cues played on a worker thread, never blocking.

A new cue cuts the one playing (a countdown's ticks must not queue up behind a long melody).
Without a buzzer pin every call is accepted and silent, and `history` still records the cues so
the simulator and transcripts can show them.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpiozero import Factory

log = logging.getLogger(__name__)

Note = tuple[str | None, float]  # (tone name such as "A5", or None for a rest; seconds)

# Piezo buzzers are loudest around 2-4 kHz: cues sit in octaves 5-7 (880 Hz = A5).
CUES: dict[str, tuple[Note, ...]] = {
    "tick": (("A6", 0.03),),
    "turn": (("E6", 0.08), (None, 0.04), ("A6", 0.12)),
    "ok": (("C6", 0.06), ("G6", 0.08)),
    "error": (("A4", 0.15), (None, 0.05), ("A4", 0.25)),
    "countdown_end": (("A5", 0.1), (None, 0.05), ("A5", 0.1), (None, 0.05), ("E6", 0.3)),
    "win": (("C6", 0.1), ("E6", 0.1), ("G6", 0.1), ("C7", 0.3)),
}
MID_TONE, OCTAVES = "A5", 2  # the buzzer plays A3 (220 Hz) to A7 (3520 Hz)
HISTORY = 32


class BadNotes(ValueError):
    """A tone sequence the buzzer cannot play (unknown tone, out of range, bad duration)."""


class Buzzer:
    """Plays named cues on a TonalBuzzer without blocking; silent when `pin` is None."""

    def __init__(self, pin: int | None, *, pin_factory: Factory | None = None, speed: float = 1.0) -> None:
        if speed <= 0:
            raise BadNotes(f"speed must be > 0, got {speed}")
        self.pin = pin
        self.speed = speed
        self.history: deque[str] = deque(maxlen=HISTORY)
        self.failures = 0  # cues the device failed to play (logged)
        self._device: Any = None
        self._cond = threading.Condition()
        self._interrupt = threading.Event()
        self._pending: tuple[Note, ...] | None = None
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        # cue name -> its checked notes, worked out with the device: a cue's first play is a
        # table event (a press), and checking reads gpiozero's tones (imported then, without a
        # buzzer: a tenth of a second here, more than a second on the Pi)
        self._checked: dict[str, tuple[Note, ...]] = {}
        if pin is not None:
            from gpiozero import TonalBuzzer
            from gpiozero.tones import Tone

            self._device = TonalBuzzer(pin, mid_tone=Tone(MID_TONE), octaves=OCTAVES, pin_factory=pin_factory)
            self._checked = {name: self._check(notes) for name, notes in CUES.items()}

    @property
    def enabled(self) -> bool:
        """True when a buzzer is wired."""
        return self._device is not None

    def play(self, cue: str) -> bool:
        """Start a named cue and return at once; False (logged) for an unknown cue."""
        notes = CUES.get(cue)
        if notes is None:
            log.warning("unknown buzzer cue %r (known: %s)", cue, ", ".join(CUES))
            return False
        self.history.append(cue)
        if self._device is not None:  # silent: nothing to check, nothing plays
            self._start(self._checked[cue])
        return True

    def play_notes(self, notes: Sequence[Note]) -> None:
        """Start a tone sequence (cutting the one playing) and return at once."""
        self._start(self._check(notes))

    def _start(self, checked: tuple[Note, ...]) -> None:
        if self._device is None or self._closed:
            return
        with self._cond:
            self._pending = checked
            self._busy = True
            self._interrupt.set()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def _check(self, notes: Sequence[Note]) -> tuple[Note, ...]:
        from gpiozero.tones import Tone

        low, high = Tone(MID_TONE).frequency / 2**OCTAVES, Tone(MID_TONE).frequency * 2**OCTAVES
        out = []
        for tone, seconds in notes:
            if not isinstance(seconds, (int, float)) or not 0 < seconds <= 5:
                raise BadNotes(f"note duration must be in (0, 5] s, got {seconds!r}")
            if tone is not None:
                try:
                    freq = Tone(tone).frequency
                except ValueError as exc:
                    raise BadNotes(f"unknown tone {tone!r}: {exc}") from exc
                if not low - 0.01 <= freq <= high + 0.01:
                    raise BadNotes(f"tone {tone!r} ({freq:.0f} Hz) is outside {low:.0f}-{high:.0f} Hz")
            out.append((tone, float(seconds)))
        return tuple(out)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                notes, self._pending = self._pending, None
                assert notes is not None  # the wait above ends on a pending cue or on close
                self._interrupt.clear()
            try:
                for tone, seconds in notes:
                    if tone is None:
                        self._device.stop()
                    else:
                        self._device.play(tone)
                    if self._interrupt.wait(seconds / self.speed):
                        break
                self._device.stop()
            except Exception:  # a buzzer fault must never stop the table
                self.failures += 1
                log.exception("buzzer failed")
            with self._cond:
                if self._pending is None:
                    self._busy = False
                    self._cond.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is playing; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy or self._closed, timeout)

    def close(self) -> None:
        """Stop playing and release the pin."""
        with self._cond:
            self._closed = True
            self._busy = False
            self._interrupt.set()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self._device is not None:
            self._device.close()
            self._device = None
