"""Virtual reader controller: the device side of docs/protocol.md on a pseudo-terminal.

The host opens `VirtualReader.path` by path exactly like /dev/ttyACM0. That path is a symlink
(in a private temp dir) to the current pts slave, so `disappear()` / `reappear()` behave like an
unplugged and re-plugged USB device: the host's read fails, then a new port appears at the same
path. Frames are built with the host's own codec (drivers.reader.protocol), and faults can be
injected on the way out: drop, corrupt, truncate, duplicate, reorder, garbage, silence.
"""

from __future__ import annotations

import os
import queue
import random
import select
import shutil
import tempfile
import threading
import time
import tty
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drivers.reader import protocol as proto

if TYPE_CHECKING:
    from drivers.reader.protocol import Message

EVENT_KINDS: tuple[str, ...] = ("ADD", "DEL")
OFF = (0, 0, 0)


@dataclass(slots=True, eq=False)
class _Fault:
    """A planned fault: what it does to the next frame whose type is in `kinds`, once `skip` more
    of them went through untouched."""

    action: str
    kinds: tuple[str, ...]
    skip: int


class SimInputError(ValueError):
    """A test asked the virtual controller for something impossible (bad antenna or UID)."""


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0, interval: float = 0.005) -> bool:
    """Poll `predicate` until it is true (True) or `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


class VirtualReader:
    """A reader controller with `antennas` antennas on a pty, in a thread, speaking protocol
    versions 1 to `version` (1: a controller whose firmware predates LEDS)."""

    def __init__(self, antennas: int = 43, *, firmware: str = "zt-sim-1",
                 heartbeat_interval: float = 1.0, seed: int = 0, name: str = "ttyZT0",
                 version: int = proto.PROTOCOL_VERSION, announce: int | None = None) -> None:
        if not 1 <= antennas <= 255:
            raise SimInputError(f"antenna count must be 1..255, got {antennas}")
        if not proto.OLDEST_VERSION <= version <= proto.PROTOCOL_VERSION:
            raise SimInputError(f"protocol version must be {proto.OLDEST_VERSION}..{proto.PROTOCOL_VERSION}, "
                                f"got {version}")
        self.antennas = antennas
        self.firmware = firmware
        self.heartbeat_interval = heartbeat_interval
        self.version = version  # the highest version spoken
        self.announce = announce  # what every HI says instead (tests of a mismatched firmware)
        self.spoken = version  # agreed with the last HELLO: the lower of the host's and ours
        self._dir = tempfile.mkdtemp(prefix="zt-reader-")
        # the folder goes with `close`, or at the interpreter's exit for a reader never closed
        self._remove_folder = weakref.finalize(self, shutil.rmtree, self._dir, ignore_errors=True)
        self.path = os.path.join(self._dir, name)
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._tags: dict[int, set[str]] = {a: set() for a in range(antennas)}
        self._leds: dict[int, tuple[int, int, int]] = {}
        self._seq = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._heartbeats = True
        self._reading = True  # False: the host's bytes pile up in the pty (a controller that hangs)
        self._faults: list[_Fault] = []
        self._held: tuple[bytes, tuple[str, ...]] | None = None  # frame kept back by reorder()
        self._parser = proto.FrameParser()
        self._calls: queue.Queue[tuple[Callable[[], None], threading.Event, list[Exception]]] = queue.Queue()
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames_sent = 0
        self.faults_applied: dict[str, int] = {}
        self.host_frames = 0
        self.host_seen: float | None = None  # time.monotonic() of the last valid host frame
        self.last_write_at = 0.0  # time.perf_counter() just before the last frame was written
        self._open_pty()

    # ---- lifecycle ----------------------------------------------------------------------

    def start(self) -> VirtualReader:
        """Start the controller thread (idempotent); returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="virtual-reader", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread, close the pty and remove the temp dir (idempotent)."""
        if self._stop.is_set():
            return
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(5.0)
        with self._lock:
            self._close_pty()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        self._remove_folder()

    def __enter__(self) -> VirtualReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- the table side: tags under antennas ----------------------------------------------

    def _check(self, antenna: int, uid: str) -> str:
        if isinstance(antenna, bool) or not isinstance(antenna, int) or not 0 <= antenna < self.antennas:
            raise SimInputError(f"antenna {antenna!r} is not in 0..{self.antennas - 1}")
        norm = uid.upper() if isinstance(uid, str) else ""
        try:
            proto.parse_field("uid", norm)
        except proto.FrameError as exc:
            raise SimInputError(f"bad tag UID {uid!r}: {exc}") from None
        return norm

    def place(self, antenna: int, uid: str) -> bool:
        """Put tag `uid` on `antenna`; sends ADD. False if it was already there."""
        uid = self._check(antenna, uid)
        with self._lock:
            if uid in self._tags[antenna]:
                return False
            self._tags[antenna].add(uid)
            self._event("ADD", antenna, uid)
            return True

    def remove(self, antenna: int, uid: str) -> bool:
        """Take tag `uid` off `antenna`; sends DEL. False if it was not there."""
        uid = self._check(antenna, uid)
        with self._lock:
            if uid not in self._tags[antenna]:
                return False
            self._tags[antenna].discard(uid)
            self._event("DEL", antenna, uid)
            return True

    def _event(self, kind: str, antenna: int, uid: str) -> None:
        self._seq = (self._seq + 1) % proto.SEQ_MOD
        self._send({"type": kind, "seq": self._seq, "ant": antenna, "uid": uid})

    @property
    def inventory(self) -> dict[int, frozenset[str]]:
        """Antenna -> tags on it, for every antenna."""
        with self._lock:
            return {a: frozenset(t) for a, t in self._tags.items()}

    @property
    def leds(self) -> dict[int, tuple[int, int, int]]:
        """Antenna -> LED colour as the controller drives it, for every antenna."""
        with self._lock:
            return {a: self._leds.get(a, OFF) for a in range(self.antennas)}

    @property
    def seq(self) -> int:
        """Sequence number of the last event the controller produced."""
        with self._lock:
            return self._seq

    @property
    def present(self) -> bool:
        """True while the device is plugged in (its pty exists)."""
        with self._lock:
            return self._master is not None

    @property
    def host_rejected(self) -> dict[str, int]:
        """Host frames this controller rejected, by reason."""
        with self._lock:
            return dict(self._parser.rejected)

    # ---- fault injection ------------------------------------------------------------------

    # Each fault takes the next frames whose type is in `kinds` (events by default), after
    # letting `skip` of them through untouched.

    def _plan(self, action: str, n: int, kinds: Iterable[str], skip: int) -> None:
        with self._lock:
            self._faults.append(_Fault(action, tuple(kinds), skip))
            self._faults.extend(_Fault(action, tuple(kinds), 0) for _ in range(n - 1))

    def drop(self, n: int = 1, kinds: Iterable[str] = EVENT_KINDS, skip: int = 0) -> None:
        """Lose the next `n` frames."""
        self._plan("drop", n, kinds, skip)

    def corrupt(self, n: int = 1, kinds: Iterable[str] = EVENT_KINDS, skip: int = 0) -> None:
        """Flip one random bit (not in the terminator) of each of the next `n` frames."""
        self._plan("corrupt", n, kinds, skip)

    def truncate(self, n: int = 1, kinds: Iterable[str] = EVENT_KINDS, skip: int = 0) -> None:
        """Send only a prefix (no terminator) of each of the next `n` frames."""
        self._plan("truncate", n, kinds, skip)

    def duplicate(self, n: int = 1, kinds: Iterable[str] = EVENT_KINDS, skip: int = 0) -> None:
        """Send each of the next `n` frames twice."""
        self._plan("duplicate", n, kinds, skip)

    def reorder(self, kinds: Iterable[str] = EVENT_KINDS, skip: int = 0) -> None:
        """Swap the next two frames."""
        self._plan("reorder", 1, kinds, skip)

    def inject(self, data: bytes | None = None, size: int = 32) -> None:
        """Write raw bytes now (random ones when `data` is None) between frames."""
        if data is None:
            data = bytes(self._rng.randrange(256) for _ in range(size))
        with self._lock:
            self._count("garbage")
            self._write(data)

    def stop_heartbeats(self) -> None:
        """Stop sending HB frames (the controller still answers commands)."""
        with self._lock:
            self._heartbeats = False

    def resume_heartbeats(self) -> None:
        """Send HB frames again."""
        with self._lock:
            self._heartbeats = True

    def stall_reading(self) -> None:
        """Stop reading what the host sends (heartbeats go on): its writes fill the port and wait."""
        with self._lock:
            self._reading = False
        os.write(self._wake_w, b"x")

    def resume_reading(self) -> None:
        """Read the host's frames again."""
        with self._lock:
            self._reading = True
        os.write(self._wake_w, b"x")

    def disappear(self) -> None:
        """Unplug: close the pty (the host's I/O fails) and remove the path."""
        self._in_thread(self._unplug)

    def reappear(self, reset: bool = True) -> None:
        """Plug back in at the same path; `reset` = it rebooted (seq 0, LEDs off)."""
        self._in_thread(lambda: self._plug(reset))

    def reset(self) -> None:
        """Reboot without losing the port (USB-serial bridge): seq 0, LEDs off, unsolicited HI."""
        with self._lock:
            self._reboot()
            self._send(self._hi(0))

    def _reboot(self) -> None:
        self._seq = 0
        self.spoken = self.version  # the host's HELLO is forgotten: a restart announces our highest
        self._leds.clear()
        self._faults.clear()
        self._held = None
        self._parser.reset()
        self._count("reboot")

    # ---- internals: pty ------------------------------------------------------------------

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no CR/LF translation: a byte pipe like a USB CDC port
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        link = self.path + ".new"
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.path)

    def _close_pty(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self._held = None

    def _unplug(self) -> None:
        with self._lock:
            if self._master is not None:
                self._close_pty()
                self._parser.reset()
                self._count("disappear")

    def _plug(self, reset: bool) -> None:
        with self._lock:
            if self._master is None:
                if reset:
                    self._reboot()
                self._open_pty()

    def _in_thread(self, fn: Callable[[], None]) -> None:
        # fds are closed and opened only by the controller thread, never under its select()
        if self._thread is None or threading.current_thread() is self._thread:
            fn()
            return
        done = threading.Event()
        errors: list[Exception] = []
        self._calls.put((fn, done, errors))
        os.write(self._wake_w, b"x")
        if not done.wait(5.0):
            raise TimeoutError("virtual reader thread did not answer")
        if errors:
            raise errors[0]

    # ---- internals: output with faults ----------------------------------------------------

    def _count(self, what: str) -> None:
        self.faults_applied[what] = self.faults_applied.get(what, 0) + 1

    def _write(self, data: bytes) -> None:
        if self._master is None or not data:
            return  # unplugged: the bytes go nowhere
        self.last_write_at = time.perf_counter()
        try:
            while data:
                data = data[os.write(self._master, data):]
        except BlockingIOError:
            self._count("overflow")  # nobody reads the port: a real CDC device drops too
        except OSError:
            self._count("write_error")

    def _send(self, msg: Message) -> None:
        frame = proto.encode(msg)
        kind = msg["type"]
        self.frames_sent += 1
        fault = next((f for f in self._faults if kind in f.kinds), None)
        if fault is not None and fault.skip > 0:
            fault.skip -= 1
            fault = None
        if fault is not None:
            self._faults.remove(fault)
            self._count(fault.action)
            if fault.action == "reorder":
                held, self._held = self._held, (frame, fault.kinds)
                if held is not None:
                    self._write(held[0])
                return
            frame = self._mangle(fault.action, frame)
        self._write(frame)
        if self._held is not None and kind in self._held[1]:
            held, self._held = self._held, None
            self._write(held[0])

    def _mangle(self, action: str, frame: bytes) -> bytes:
        if action == "drop":
            return b""
        if action == "corrupt":
            bit = self._rng.randrange((len(frame) - 1) * 8)
            mangled = bytearray(frame)
            mangled[bit // 8] ^= 1 << (bit % 8)
            return bytes(mangled)
        if action == "truncate":
            return frame[: self._rng.randrange(1, len(frame) - 1)]
        return frame + frame  # duplicate

    # ---- internals: the controller loop ---------------------------------------------------

    def _hi(self, cmd_id: int) -> Message:
        ver = self.announce if self.announce is not None else self.spoken
        return {"type": "HI", "id": cmd_id, "ver": ver, "fw": self.firmware, "ants": self.antennas, "seq": self._seq}

    def _handle(self, msg: Message) -> None:
        kind = msg["type"]
        self.host_frames += 1
        self.host_seen = time.monotonic()
        if kind == "LEDS" and self.version < proto.LEDS_VERSION:
            # what a controller predating LEDS makes of it: an unknown type, a line dropped
            self._send({"type": "ERR", "code": "FRAME", "detail": "type"})
            return
        if kind == "HELLO":
            if msg["ver"] < proto.OLDEST_VERSION:
                self._send({"type": "ERR", "code": "VERSION", "detail": f"host speaks {msg['ver']}"})
            else:
                self.spoken = min(msg["ver"], self.version)
                self._send(self._hi(msg["id"]))
        elif kind == "INVQ":
            items = [(a, u) for a in sorted(self._tags) for u in sorted(self._tags[a])]
            for idx, (ant, uid) in enumerate(items):
                self._send({"type": "INV", "idx": idx, "ant": ant, "uid": uid})
            self._send({"type": "END", "id": msg["id"], "count": len(items), "seq": self._seq})
        elif kind == "LED":
            if msg["ant"] >= self.antennas:
                self._send({"type": "ERR", "code": "ARG",
                            "detail": f"LED {msg['id']} antenna {msg['ant']} >= {self.antennas}"})
                return
            rgb = bytes.fromhex(msg["rgb"])
            self._leds[msg["ant"]] = (rgb[0], rgb[1], rgb[2])
            self._send({"type": "ACK", "id": msg["id"]})
        elif kind == "LEDS":
            items = proto.led_items(msg["leds"])
            bad = [ant for ant, _ in items if ant >= self.antennas]
            if bad:  # none is set: the host checks its antennas against our count
                self._send({"type": "ERR", "code": "ARG",
                            "detail": f"LEDS {msg['id']} antenna {bad[0]} >= {self.antennas}"})
                return
            for ant, colour in items:
                value = bytes.fromhex(colour)
                self._leds[ant] = (value[0], value[1], value[2])
            self._send({"type": "ACK", "id": msg["id"]})
        elif kind == "LEDOFF":
            self._leds.clear()
            self._send({"type": "ACK", "id": msg["id"]})
        elif kind != "PING":
            self._send({"type": "ERR", "code": "CMD", "detail": f"{kind} is not a host command"})

    def _receive(self, data: bytes) -> None:
        with self._lock:
            for item in self._parser.feed(data, errors=True):
                if isinstance(item, proto.FrameError):
                    self._send({"type": "ERR", "code": "FRAME", "detail": item.reason})
                else:
                    self._handle(item)

    def _run(self) -> None:
        next_hb = time.monotonic() + self.heartbeat_interval
        while not self._stop.is_set():
            with self._lock:
                fd = self._master if self._reading else None
            wait = max(0.0, next_hb - time.monotonic())
            ready, _, _ = select.select([self._wake_r] + ([fd] if fd is not None else []), [], [], wait)
            if self._wake_r in ready:
                os.read(self._wake_r, 512)
                while not self._calls.empty():
                    fn, done, errors = self._calls.get()
                    try:
                        fn()
                    except Exception as exc:  # handed to the caller, the thread goes on
                        errors.append(exc)
                    done.set()
            if fd is not None and fd in ready and fd == self._master:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, InterruptedError):
                    data = b""
                except OSError:  # EIO while the host side is being torn down
                    data = b""
                    time.sleep(0.01)
                if data:
                    self._receive(data)
            now = time.monotonic()
            if now >= next_hb:
                next_hb = now + self.heartbeat_interval
                with self._lock:
                    if self._heartbeats and self._master is not None:
                        self._send({"type": "HB", "seq": self._seq})
