"""Host side of the reader controller link (docs/protocol.md): a thread that owns the serial port.

States: connecting -> ready -> lost -> reconnecting (back-off, capped) -> ready ... The link
handshakes, takes a full inventory before it says "ready", keeps the sensed state (antenna ->
frozenset of tag UIDs), and resyncs the inventory whenever the event sequence shows a gap, a
stale frame or a device restart. Events go to `on_event`, called from the link's thread.

LED wishes (`set_led`, `leds_off`) come from the table's loop: they are only written down and the
link's thread is woken to send them, so a controller that stops reading (the port's write waiting
its timeout) never holds the loop. Several wishes for one LED before it is sent become one frame.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import serial

from drivers.reader import protocol as proto
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
from drivers.reader.link_messages import _HANDSHAKE, _RUN, _SYNC, ControllerMessages, _Lost

if TYPE_CHECKING:
    from drivers.reader.protocol import Message

__all__ = [  # the link and its public types (drivers/reader/events.py)
    "DeviceError", "DeviceInfo", "InventoryReplaced", "LinkCommandError", "LinkEvent", "LinkState",
    "LinkStateChanged", "LinkStats", "ReaderLink", "TagPresent", "TagRemoved",
]

log = logging.getLogger(__name__)

OFF = (0, 0, 0)
READ_SIZE = 4096  # bytes taken from the port at once: a full inventory answer in one read
class ReaderLink(ControllerMessages):
    """The serial link to the reader controller, run by its own thread (see module doc)."""

    def __init__(self, port: str, baudrate: int = 115200,
                 on_event: Callable[[LinkEvent], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, *,
                 heartbeat_interval: float = 1.0, heartbeat_timeout: float = 3.5,
                 handshake_timeout: float = 1.0, handshake_attempts: int = 3,
                 inventory_timeout: float = 2.0, inventory_attempts: int = 3,
                 ack_timeout: float = 0.5, command_attempts: int = 3,
                 backoff_initial: float = 0.2, backoff_max: float = 5.0,
                 read_tick: float = 0.05, write_timeout: float = 1.0, burst_pause: float = 0.01) -> None:
        self.port = port
        self.baudrate = baudrate
        self._on_event = on_event
        self._clock = clock
        self.heartbeat_interval = heartbeat_interval
        self.heartbeat_timeout = heartbeat_timeout
        self.handshake_timeout = handshake_timeout
        self.handshake_attempts = handshake_attempts
        self.inventory_timeout = inventory_timeout
        self.inventory_attempts = inventory_attempts
        self.ack_timeout = ack_timeout
        self.command_attempts = command_attempts
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.read_tick = read_tick
        # after a read, let a burst gather this long before the next one: an event alone is read
        # at once, a burst in a few frames per wake-up (each wake-up of a thread costs more CPU
        # than parsing several frames); small beside the runtime's settle window (0.25 s)
        self.burst_pause = burst_pause
        self.write_timeout = write_timeout
        self._lock = threading.RLock()  # state; always taken before _wlock
        self._wlock = threading.Lock()  # the port object and writes to it
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.Serial | None = None
        self._io_error: BaseException | None = None
        self._parser = proto.FrameParser()
        self._state = LinkState.CONNECTING
        self._phase = _HANDSHAKE
        self._device: DeviceInfo | None = None
        self._inv: dict[int, frozenset[str]] = {}
        self._last_seq = 0
        self._items: list[tuple[int, str]] | None = None
        # the wanted LEDs and the ones still to send (None: all off, then every lit one), under a
        # lock of their own that is never held while writing to the port
        self._ledlock = threading.Lock()
        self._leds: dict[int, tuple[int, int, int]] = {}
        self._led_todo: dict[int | None, None] = {}  # an ordered set
        self._wake_r, self._wake_w = os.pipe()  # set_led wakes the link's thread out of its select
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._wake_fds: tuple[int, ...] = (self._wake_r, self._wake_w)  # () once closed
        self._pending: dict[int, tuple[int | None, float, int]] = {}  # id -> (antenna, due, tries)
        self._next_id = 0
        self._hello_id = 0
        self._tries = 0
        self._due = 0.0  # deadline of the handshake or inventory answer
        self._last_rx = 0.0
        self._next_ping = 0.0
        self._backoff = backoff_initial
        self._was_ready = False
        self._outbox: list[LinkEvent] = []
        self._counts: dict[str, int] = {}
        self._link_rejects: dict[str, int] = {}

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
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        elif self._thread is None:
            self._set_state(LinkState.STOPPED, "stopped")
            self._dispatch()
        if self._thread is None or not self._thread.is_alive():
            with self._ledlock:  # no wake-up may go to a descriptor number reused by another file
                fds, self._wake_fds = self._wake_fds, ()
            for fd in fds:
                os.close(fd)

    def __enter__(self) -> ReaderLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def state(self) -> LinkState:
        """Current link state."""
        return self._state

    @property
    def device(self) -> DeviceInfo | None:
        """The controller's handshake answer (None before the first one)."""
        return self._device

    @property
    def inventory(self) -> dict[int, frozenset[str]]:
        """Sensed state: antenna -> tags on it (last known while the link is down)."""
        with self._lock:
            return dict(self._inv)

    @property
    def last_seq(self) -> int:
        """Sequence number of the last device event the sensed state includes."""
        return self._last_seq

    @property
    def synced(self) -> bool:
        """True when ready and no inventory resync is in progress."""
        return self._state is LinkState.READY and self._phase == _RUN

    @property
    def leds(self) -> dict[int, tuple[int, int, int]]:
        """LED colours the host wants (lit antennas only); re-sent after every reconnect."""
        with self._ledlock:
            return dict(self._leds)

    def leds_done(self) -> bool:
        """True when no LED wish waits to be sent nor for the controller's ACK (benches, tests)."""
        with self._ledlock:
            if self._led_todo:
                return False
        with self._lock:
            return not self._pending

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
            c = dict(self._counts)
            rejected = dict(self._parser.rejected)
            for reason, n in self._link_rejects.items():
                rejected[reason] = rejected.get(reason, 0) + n
            names = ("resyncs", "reconnects", "gaps", "duplicates", "stale", "device_resets",
                     "device_errors", "command_retries", "command_failures", "open_failures",
                     "callback_errors")
            known = {k: c.pop(k, 0) for k in names}
            return LinkStats(frames_ok=self._parser.accepted, rejected=rejected, extra=c, **known)

    def set_led(self, antenna: int, rgb: tuple[int, int, int]) -> bool:
        """Light `antenna`'s LED in `rgb` ((0, 0, 0) = off), sent by the link's thread; False if
        only stored until a controller answers. Never waits for the port."""
        return self.set_leds({antenna: rgb})

    def set_leds(self, wishes: Mapping[int, tuple[int, int, int]]) -> bool:
        """`set_led` for several antennas: all checked first (a bad one changes none), then one
        wake-up of the link's thread, which sends them in one write."""
        limit = self._device.antennas if self._device else 255
        for antenna, rgb in wishes.items():
            if isinstance(antenna, bool) or not isinstance(antenna, int) or not 0 <= antenna < limit:
                raise LinkCommandError(f"LED antenna must be 0..{limit - 1}, got {antenna!r}")
            if (not isinstance(rgb, tuple) or len(rgb) != 3
                    or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in rgb)):
                raise LinkCommandError(f"LED colour must be (r, g, b) with 0..255 each, got {rgb!r}")
        if wishes:
            with self._ledlock:
                for antenna, rgb in wishes.items():
                    if rgb == OFF:
                        self._leds.pop(antenna, None)
                    else:
                        self._leds[antenna] = rgb
                    self._led_todo[antenna] = None
            self._wake()  # one syscall for them all: each is tens of microseconds on the loop
        return self._phase != _HANDSHAKE

    def leds_off(self) -> bool:
        """Turn every LED off (sent by the link's thread); False if only stored for later."""
        with self._ledlock:
            self._leds.clear()
            self._led_todo.clear()
            self._led_todo[None] = None
        self._wake()
        return self._phase != _HANDSHAKE

    def _wake(self) -> None:
        with self._ledlock:
            if not self._wake_fds:
                return  # stopped
            try:
                os.write(self._wake_w, b"!")
            except BlockingIOError:  # full: a wake-up is pending already
                pass

    def request_inventory(self) -> bool:
        """Ask for a full inventory now (InventoryReplaced follows); False if not connected."""
        with self._lock:
            if self._phase == _RUN:
                self._resync("requested", self._clock())
            return self._phase == _SYNC

    # ---- writes (any thread) ----------------------------------------------------------------

    def _send(self, msg: Message, prefix: bytes = b"") -> bool:
        return self._write(prefix + proto.encode(msg))

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
                return False
        return True

    def _new_id(self) -> int:
        self._next_id = self._next_id % 65535 + 1  # 0 is reserved for unsolicited frames
        return self._next_id

    def _send_led(self, antenna: int | None, tries: int) -> bool:
        """Send the wanted state of one LED (None = all off then every lit one), tracked for ACK."""
        return self._write(b"".join(self._led_frames(antenna, tries)))

    def _led_frames(self, antenna: int | None, tries: int) -> list[bytes]:
        """The frames stating one LED (None = all off then every lit one), each tracked for its ACK.

        Their bodies are built canonical (set_led checked antenna and colour; ids are 1-65535), so
        they are framed as they are: proto.encode's checks would only find them valid again."""
        cid = self._new_id()
        self._pending[cid] = (antenna, self._clock() + self.ack_timeout, tries)
        if antenna is not None:
            with self._ledlock:
                r, g, b = self._leds.get(antenna, OFF)
            return [proto.frame_body(f"LED {cid} {antenna} {r:02X}{g:02X}{b:02X}")]
        frames = [proto.frame_body(f"LEDOFF {cid}")]
        with self._ledlock:
            lit = sorted(self._leds)
        for ant in lit:
            frames += self._led_frames(ant, tries)
        return frames

    def _send_wished_leds(self) -> None:
        """Send the LED wishes made since the last look (the link's thread, connected), in one write."""
        if self._phase == _HANDSHAKE:
            return  # kept: the handshake states every LED
        with self._ledlock:
            if not self._led_todo:
                return
            todo, self._led_todo = list(self._led_todo), {}
        frames: list[bytes] = []
        for antenna in todo:
            frames += self._led_frames(antenna, 1)
        self._write(b"".join(frames))

    # ---- the link thread ------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if self._serial is None:
                    self._connect()
                else:
                    try:
                        self._pump()
                    except _Lost as exc:
                        self._lose(str(exc))
                    except (serial.SerialException, OSError) as exc:
                        self._lose(f"I/O error: {exc}")
                    except Exception as exc:  # a bug here must not leave the table without reader
                        log.exception("reader link: internal error")
                        with self._lock:
                            self._count("internal_errors")
                        self._lose(f"internal error: {exc!r}")
                self._dispatch()
        finally:
            with self._lock:
                self._close()
                self._set_state(LinkState.STOPPED, "stopped")
            self._dispatch()

    def _connect(self) -> None:
        try:
            port = serial.Serial(self.port, self.baudrate, timeout=self.read_tick,
                                 write_timeout=self.write_timeout)
        except (serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self._count("open_failures")
                self._set_state(LinkState.RECONNECTING, f"no reader at {self.port}: {exc}")
            self._dispatch()
            self._wait_backoff()
            return
        with self._lock:
            with self._wlock:
                self._serial = port
                self._io_error = None
            self._parser.reset()
            now = self._clock()
            self._last_rx = now
            self._next_ping = now + self.heartbeat_interval
            self._hello_id = self._new_id()
            self._phase = _HANDSHAKE
            self._tries = 0
            self._send_hello(now)

    def _send_hello(self, now: float) -> None:
        self._tries += 1
        self._due = now + self.handshake_timeout
        # a blank line first flushes whatever partial line the controller holds
        self._send({"type": "HELLO", "id": self._hello_id, "ver": proto.PROTOCOL_VERSION}, b"\n")

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
        self._phase = _HANDSHAKE
        self._pending.clear()
        self._items = None

    def _lose(self, reason: str) -> None:
        with self._lock:
            self._close()
            if self._state is LinkState.READY:
                self._set_state(LinkState.LOST, reason)
            self._set_state(LinkState.RECONNECTING, reason)
        self._dispatch()
        self._wait_backoff()

    def _pump(self) -> None:
        port = self._serial
        assert port is not None
        if self._io_error is not None:
            raise _Lost(f"write failed: {self._io_error}")
        data = self._read(port)
        with self._lock:
            now = self._clock()
            if data:
                for msg in self._parser.feed(data):
                    if isinstance(msg, dict):  # always: errors are only counted (`errors` not asked)
                        self._on_message(msg, now)
            self._send_wished_leds()
            self._timers(now)
        if data and self.burst_pause > 0:
            self._dispatch()  # what was read goes out before the pause
            time.sleep(self.burst_pause)  # one syscall; stop() is seen right after

    def _read(self, port: serial.Serial) -> bytes:
        """What the port holds, waiting at most read_tick for something: one select and one read.

        pyserial's read(1) then read(in_waiting) costs two selects, two reads and an ioctl per
        frame, most of the link's CPU at line rate; the port is pyserial's (opened non-blocking,
        configured, written and closed by it), only reading goes to its descriptor directly.
        """
        fd = port.fileno()
        abort = getattr(port, "pipe_abort_read_r", None)  # where pyserial's cancel_read (stop) writes
        watched = (fd, self._wake_r) if abort is None else (fd, self._wake_r, abort)
        ready = select.select(watched, (), (), self.read_tick)[0]
        if not ready:
            return b""  # the timers below still run
        if self._wake_r in ready:  # LED wishes: sent right after this read
            try:
                os.read(self._wake_r, 1000)
            except BlockingIOError:
                pass  # another look emptied the pipe already: the wishes are sent below anyway
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
            raise _Lost("the reader's port reports data but gives none (device disconnected?)")
        return data

    def _timers(self, now: float) -> None:
        if self._phase != _RUN and now >= self._due:
            if self._phase == _HANDSHAKE:
                if self._tries >= self.handshake_attempts:
                    raise _Lost("no answer to HELLO")
                self._send_hello(now)
            elif self._tries >= self.inventory_attempts:
                raise _Lost("no complete inventory answer")
            else:
                self._count("inventory_timeouts")
                self._send_invq(now)
        if self._phase != _HANDSHAKE and now - self._last_rx > self.heartbeat_timeout:
            raise _Lost(f"heartbeat timeout: nothing heard for {now - self._last_rx:.1f} s")
        if now >= self._next_ping:
            self._next_ping = now + self.heartbeat_interval
            self._send({"type": "PING"})
        for cid, (antenna, due, tries) in list(self._pending.items()):
            if now >= due and cid in self._pending:
                del self._pending[cid]
                if tries >= self.command_attempts:
                    self._count("command_failures")
                    log.warning("reader: LED command unanswered after %d tries", tries)
                else:
                    self._count("command_retries")
                    self._send_led(antenna, tries + 1)

    def _dispatch(self) -> None:
        with self._lock:
            events, self._outbox = self._outbox, []
        for event in events:
            if self._on_event is None:
                continue
            try:
                self._on_event(event)
            except Exception:  # a consumer bug must not kill the link
                log.exception("reader: on_event failed for %r", event)
                with self._lock:
                    self._count("callback_errors")


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
