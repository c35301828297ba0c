"""Host side of the reader controller link (docs/protocol.md): a thread that owns the serial port.

States: connecting -> ready -> lost -> reconnecting (back-off, capped) -> ready ... The link
handshakes, takes a full inventory before it says "ready", keeps the sensed state (antenna ->
frozenset of tag UIDs), and resyncs the inventory whenever the event sequence shows a gap, a
stale frame or a device restart. Events go to `on_event`, called from the link's thread.

The link owns the port, its thread and the lock; what it says to the controller and makes of the
answers is its Conversation (drivers/reader/conversation.py), what it tells the table its
LinkReport (drivers/reader/report.py). LED wishes (`set_led`, `leds_off`) come from the table's
loop: they are only written down (drivers/reader/led_wishes.py) and the link's thread is woken to
send them, so a controller that stops reading (the port's write waiting its timeout) never holds
the loop. Between frames the thread sleeps until its next timer is due (a PING to send, an answer
overdue: about twice a second on a quiet table), not at a fixed tick.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import serial

from drivers.reader.conversation import HANDSHAKE, RUN, Conversation, LinkLost, Timing
from drivers.reader.events import (
    DeviceError,
    DeviceInfo,
    InventoryReplaced,
    LinkCommandError,
    LinkEvent,
    LinkState,
    LinkStateChanged,
    LinkStats,
    TagPresent,
    TagRemoved,
)
from drivers.reader.led_wishes import OFF, RGB, LedWishes
from drivers.reader.report import LinkReport

__all__ = [  # the link and its public types (drivers/reader/events.py)
    "OFF", "DeviceError", "DeviceInfo", "InventoryReplaced", "LinkCommandError", "LinkEvent", "LinkState",
    "LinkStateChanged", "LinkStats", "ReaderLink", "TagPresent", "TagRemoved", "Timing",
]

log = logging.getLogger(__name__)

READ_SIZE = 4096  # bytes taken from the port at once: a full inventory answer in one read
TIMER_SLACK = 0.001  # s past a timer's time the thread wakes: its check then finds it due


class WakePipe:
    """A pipe whose one byte wakes the link's thread out of its select (LED wishes, stop)."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        os.set_blocking(self.write_fd, False)
        self._lock = threading.Lock()
        self._open = True

    def wake(self) -> None:
        """Wake the thread (nothing once closed)."""
        with self._lock:  # no wake-up may go to a descriptor number reused by another file
            if not self._open:
                return
            try:
                os.write(self.write_fd, b"!")
            except BlockingIOError:  # full: a wake-up is pending already
                pass

    def drain(self) -> None:
        """Forget the wake-ups so far."""
        try:
            os.read(self.read_fd, 1000)
        except BlockingIOError:
            pass  # another look emptied the pipe already

    def close(self) -> None:
        """Close both ends (once)."""
        with self._lock:
            if not self._open:
                return
            self._open = False
        os.close(self.read_fd)
        os.close(self.write_fd)


class ReaderLink:
    """The serial link to the reader controller, run by its own thread (see module doc)."""

    def __init__(self, port: str, baudrate: int = 115200,
                 on_event: Callable[[LinkEvent], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, *,
                 heartbeat_interval: float = 1.0, heartbeat_timeout: float = 3.5,
                 handshake_timeout: float = 1.0, handshake_attempts: int = 3,
                 inventory_timeout: float = 2.0, inventory_attempts: int = 3,
                 ack_timeout: float = 0.5, command_attempts: int = 3,
                 backoff_initial: float = 0.2, backoff_max: float = 5.0,
                 read_tick: float = 1.0, write_timeout: float = 1.0, burst_pause: float = 0.01) -> None:
        self.port = port
        self.baudrate = baudrate
        self._on_event = on_event
        self._clock = clock
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.read_tick = read_tick  # the longest the thread sleeps without a frame, whatever is due
        # after a read, let a burst gather this long before the next one: an event alone is read
        # at once, a burst in a few frames per wake-up (each wake-up of a thread costs more CPU
        # than parsing several frames); small beside the runtime's settle window (0.25 s)
        self.burst_pause = burst_pause
        self.write_timeout = write_timeout
        self._lock = threading.RLock()  # the conversation and the report; always taken before _wlock
        self._wlock = threading.Lock()  # the port object and writes to it
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.Serial | None = None
        self._io_error: BaseException | None = None
        self._backoff = backoff_initial
        self._waker = WakePipe()
        self._leds = LedWishes()
        self._report = LinkReport()
        timing = Timing(heartbeat_interval, heartbeat_timeout, handshake_timeout, handshake_attempts,
                        inventory_timeout, inventory_attempts, ack_timeout, command_attempts)
        self._talk = Conversation(timing, self._write, self._leds, self._report, clock)

    # ---- public API ---------------------------------------------------------------------

    def start(self) -> ReaderLink:
        """Start the link thread (idempotent); returns self."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="reader-link", daemon=True)
                self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Close the port and join the thread."""
        self._stop.set()
        with self._wlock:
            if self._serial is not None:
                try:
                    self._serial.cancel_read()
                except (serial.SerialException, OSError, AttributeError):
                    pass  # a closed or vanished port has no read to cancel: the join below ends it
        self._waker.wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        elif self._thread is None:
            with self._lock:
                self._report.set_state(LinkState.STOPPED, "stopped", self._talk.device)
            self._dispatch()
        if self._thread is None or not self._thread.is_alive():
            self._waker.close()

    def __enter__(self) -> ReaderLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def timing(self) -> Timing:
        """How long the link waits for the controller, and how often it asks again."""
        return self._talk.timing

    @property
    def state(self) -> LinkState:
        """Current link state."""
        return self._report.state

    @property
    def device(self) -> DeviceInfo | None:
        """The controller's handshake answer (None before the first one)."""
        return self._talk.device

    @property
    def inventory(self) -> dict[int, frozenset[str]]:
        """Sensed state: antenna -> tags on it (last known while the link is down)."""
        with self._lock:
            return dict(self._talk.inventory)

    @property
    def last_seq(self) -> int:
        """Sequence number of the last device event the sensed state includes."""
        return self._talk.last_seq

    @property
    def synced(self) -> bool:
        """True when ready and no inventory resync is in progress."""
        return self._report.state is LinkState.READY and self._talk.phase == RUN

    @property
    def leds(self) -> dict[int, RGB]:
        """LED colours the host wants (lit antennas only); re-sent after every reconnect."""
        return self._leds.lit()

    def leds_done(self) -> bool:
        """True when no LED wish waits to be sent nor for the controller's ACK (benches, tests)."""
        if self._leds.waiting():
            return False
        with self._lock:
            return not self._talk.pending

    def cpu_seconds(self) -> float:
        """CPU time the link's thread has used so far (0.0 before it starts, after it ends, or
        where a thread's CPU clock cannot be read)."""
        thread = self._thread
        if thread is None or thread.ident is None or not thread.is_alive():
            return 0.0
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (AttributeError, OSError):  # no per-thread clocks here, or the thread just ended
            return 0.0

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the counters."""
        with self._lock:
            return self._report.stats(self._talk.parser)

    def set_led(self, antenna: int, rgb: RGB) -> bool:
        """Light `antenna`'s LED in `rgb` ((0, 0, 0) = off), sent by the link's thread; False if
        only stored until a controller answers. Never waits for the port."""
        return self.set_leds({antenna: rgb})

    def set_leds(self, wishes: Mapping[int, RGB]) -> bool:
        """`set_led` for several antennas: all checked first (a bad one changes none), then one
        wake-up of the link's thread, which sends them in one write."""
        device = self._talk.device
        limit = device.antennas if device else 255
        for antenna, rgb in wishes.items():
            if isinstance(antenna, bool) or not isinstance(antenna, int) or not 0 <= antenna < limit:
                raise LinkCommandError(f"LED antenna must be 0..{limit - 1}, got {antenna!r}")
            if (not isinstance(rgb, tuple) or len(rgb) != 3
                    or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in rgb)):
                raise LinkCommandError(f"LED colour must be (r, g, b) with 0..255 each, got {rgb!r}")
        if wishes:
            self._leds.wish(wishes)
            self._waker.wake()  # one syscall for them all: each is tens of microseconds on the loop
        return self._talk.phase != HANDSHAKE

    def leds_off(self) -> bool:
        """Turn every LED off (sent by the link's thread); False if only stored for later."""
        self._leds.all_off()
        self._waker.wake()
        return self._talk.phase != HANDSHAKE

    def request_inventory(self) -> bool:
        """Ask for a full inventory now (InventoryReplaced follows); False if not connected."""
        with self._lock:
            return self._talk.request_inventory(self._clock())

    # ---- writes (any thread) ----------------------------------------------------------------

    def _write(self, frames: bytes) -> bool:
        """Write frames to the port (one write); False if there is no port or it failed."""
        with self._wlock:
            port = self._serial
            if port is None:
                return False
            try:
                taken = _write_now(port, frames)
                if taken < len(frames):
                    port.write(frames[taken:])  # the rest: pyserial waits for the port, up to its timeout
            except (serial.SerialException, OSError) as exc:  # the thread drops the link
                self._io_error = exc
                self._waker.wake()  # a write from another thread: the link's thread sees it now
                return False
        return True

    # ---- the link thread ------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if self._serial is None:
                    self._connect()
                else:
                    self._pump_or_lose()
                self._dispatch()
        finally:
            with self._lock:
                self._close()
                self._set_state(LinkState.STOPPED, "stopped")
            self._dispatch()

    def _pump_or_lose(self) -> None:
        try:
            self._pump()
        except LinkLost as exc:
            self._lose(str(exc))
        except (serial.SerialException, OSError) as exc:
            self._lose(f"I/O error: {exc}")
        except Exception as exc:  # a bug here must not leave the table without reader
            log.exception("reader link: internal error")
            with self._lock:
                self._report.count("internal_errors")
            self._lose(f"internal error: {exc!r}")

    def _set_state(self, state: LinkState, reason: str) -> None:
        self._report.set_state(state, reason, self._talk.device)

    def _connect(self) -> None:
        try:
            port = serial.Serial(self.port, self.baudrate, timeout=self.read_tick,
                                 write_timeout=self.write_timeout)
        except (serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self._report.count("open_failures")
                self._set_state(LinkState.RECONNECTING, f"no reader at {self.port}: {exc}")
            self._dispatch()
            self._wait_backoff()
            return
        with self._lock:
            with self._wlock:
                self._serial = port
                self._io_error = None
            self._talk.begin(self._clock())

    def _wait_backoff(self) -> None:
        self._stop.wait(self._backoff)
        self._backoff = min(self._backoff * 2, self.backoff_max)

    def _close(self) -> None:
        with self._wlock:
            port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass  # the device is gone already: there is nothing left to close
        self._talk.end()

    def _lose(self, reason: str) -> None:
        with self._lock:
            self._close()
            if self._report.state is LinkState.READY:
                self._set_state(LinkState.LOST, reason)
            self._set_state(LinkState.RECONNECTING, reason)
        self._dispatch()
        self._wait_backoff()

    def _pump(self) -> None:
        port = self._serial
        assert port is not None
        if self._io_error is not None:
            raise LinkLost(f"write failed: {self._io_error}")
        data = self._read(port)
        with self._lock:
            now = self._clock()
            if data:
                self._talk.feed(data, now)
            if self._report.state is LinkState.READY:
                self._backoff = self.backoff_initial  # the next loss starts its back-off afresh
            self._talk.send_wished_leds()
            self._talk.timers(now)
        if data and self.burst_pause > 0:
            self._dispatch()  # what was read goes out before the pause
            time.sleep(self.burst_pause)  # one syscall; stop() is seen right after

    def _read(self, port: serial.Serial) -> bytes:
        """What the port holds, waiting for something until the conversation's next timer is due
        (at most read_tick): one select and one read.

        pyserial's read(1) then read(in_waiting) costs two selects, two reads and an ioctl per
        frame, most of the link's CPU at line rate; the port is pyserial's (opened non-blocking,
        configured, written and closed by it), only reading goes to its descriptor directly.
        """
        fd = port.fileno()
        wake = self._waker.read_fd
        abort = getattr(port, "pipe_abort_read_r", None)  # where pyserial's cancel_read (stop) writes
        watched = (fd, wake) if abort is None else (fd, wake, abort)
        with self._lock:
            due = self._talk.next_due() - self._clock()
        ready = select.select(watched, (), (), min(self.read_tick, max(0.0, due) + TIMER_SLACK))[0]
        if not ready:
            return b""  # the timers below still run
        if wake in ready:  # LED wishes: sent right after this read
            self._waker.drain()
        if abort is not None and abort in ready:
            os.read(abort, 1000)
            return b""
        if fd not in ready:
            return b""
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:
            return b""
        if not data:  # readable yet empty: what a vanished USB device looks like on Linux
            raise LinkLost("the reader's port reports data but gives none (device disconnected?)")
        return data

    def _dispatch(self) -> None:
        with self._lock:
            events = self._report.take()
        for event in events:
            if self._on_event is None:
                continue
            try:
                self._on_event(event)
            except Exception:  # a consumer bug must not kill the link
                log.exception("reader: on_event failed for %r", event)
                with self._lock:
                    self._report.count("callback_errors")


def _write_now(port: Any, data: bytes) -> int:
    """The bytes one write(2) on the port's descriptor takes (pyserial opens it non-blocking): all
    of them nearly always. pyserial's own `write` follows every write(2) with a select for room,
    even when everything went: two syscalls per LED change where one does. 0 when the port has no
    descriptor of its own or is full: pyserial's `write` then does it all."""
    fd = getattr(port, "fd", None)
    if not isinstance(fd, int) or isinstance(fd, bool) or fd < 0 or not getattr(port, "is_open", False):
        return 0
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0
