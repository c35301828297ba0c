"""The reader controller's logic: docs/protocol.md, device side, with no hardware in it.

Readers, LEDs, the serial line and the clock are passed in, so the same code runs on the Pico
(zt_board.py builds the real ones) and on CPython in the tests (fake readers). Written for
MicroPython: builtin types only in hints, no dataclasses, no f-strings. Frames come from
`protocol`, the host's own codec (drivers/reader/protocol.py, flashed as protocol.py).
"""

import protocol as proto

FIRMWARE = "zt-pico-1.1"
MISSES = 3  # consecutive missed scans before a tag counts as gone (MFRC522 readers flicker)
HEARTBEAT_MS = 1000
HOST_TIMEOUT_MS = 3000  # no valid host frame for this long: "no host" on the status LED
RETRY_MS = 5000  # a failed reader chip is tried again this often


def _diff(a: int, b: int) -> int:
    return a - b


def _add(a: int, b: int) -> int:
    return a + b


class Controller:
    """Scans the antennas one at a time, keeps the tags present, answers the host.

    readers[i].scan() -> list of UIDs (uppercase hex) on antenna i, raising OSError when the
    reader chip fails; leds.set(i, (r, g, b)), leds.off(), leds.show(); write(bytes) sends to
    the host; ticks_ms(), ticks_diff(a, b) and ticks_add(a, b) are the clock (time.ticks_ms,
    time.ticks_diff and time.ticks_add on MicroPython, whose ticks wrap).
    """

    def __init__(self, readers: list, leds: object, write: object, ticks_ms: object,
                 ticks_diff: object = _diff, ticks_add: object = _add, misses: int = MISSES, firmware: str = FIRMWARE,
                 heartbeat_ms: int = HEARTBEAT_MS, retry_ms: int = RETRY_MS) -> None:
        if not 1 <= len(readers) <= 255:
            raise ValueError("1 to 255 readers, got " + str(len(readers)))
        if misses < 1:
            raise ValueError("misses must be at least 1")
        self.readers = readers
        self.leds = leds
        self.write = write
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.ticks_add = ticks_add
        self.misses = misses
        self.firmware = firmware
        self.heartbeat_ms = heartbeat_ms
        self.retry_ms = retry_ms
        self.seq = 0
        self.present = [{} for _ in readers]  # antenna -> {uid: consecutive misses}
        self.failed = [None] * len(readers)  # antenna -> ticks of the last failed try, or None
        self.colours = ["000000"] * len(readers)
        self.parser = proto.FrameParser()
        self.next_antenna = 0
        now = ticks_ms()
        self.next_heartbeat = now
        self.host_seen = None  # ticks of the last valid host frame
        # the protocol version spoken: the lower of the host's HELLO and ours (ours until a HELLO)
        self.version = proto.PROTOCOL_VERSION

    @property
    def antennas(self) -> int:
        """How many antennas (readers) this controller has."""
        return len(self.readers)

    def start(self) -> None:
        """Announce a (re)start to a host that kept the port open: unsolicited HI."""
        self.leds.off()
        self.leds.show()
        self.version = proto.PROTOCOL_VERSION  # a host's HELLO, if any, was before the restart
        self.send(self._hi(0))

    def send(self, msg: dict) -> None:
        """Write one frame to the host."""
        self.write(proto.encode(msg))

    def _hi(self, cmd_id: int) -> dict:
        return {"type": "HI", "id": cmd_id, "ver": self.version, "fw": self.firmware,
                "ants": len(self.readers), "seq": self.seq}

    # ---- host -> device ------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """Handle the bytes that came from the host (any split; bad lines get ERR FRAME)."""
        for item in self.parser.feed(data, True):
            if isinstance(item, proto.FrameError):
                self.send({"type": "ERR", "code": "FRAME", "detail": item.reason})
            else:
                self.host_seen = self.ticks_ms()
                self.handle(item)
        self.leds.show()

    def handle(self, msg: dict) -> None:
        """Answer one valid message from the host."""
        kind = msg["type"]
        if kind == "HELLO":
            if msg["ver"] < proto.OLDEST_VERSION:
                self.send({"type": "ERR", "code": "VERSION", "detail": "host speaks " + str(msg["ver"])})
            else:  # HELLO changes nothing else: no reset of seq or LEDs
                self.version = min(msg["ver"], proto.PROTOCOL_VERSION)
                self.send(self._hi(msg["id"]))
        elif kind == "INVQ":
            self.inventory(msg["id"])
        elif kind == "LED":
            ant = msg["ant"]
            if ant >= len(self.readers):
                self.send({"type": "ERR", "code": "ARG", "detail": "LED " + str(msg["id"]) + " antenna "
                           + str(ant) + " >= " + str(len(self.readers))})
                return
            rgb = msg["rgb"]
            self.colours[ant] = rgb
            self.leds.set(ant, (int(rgb[0:2], 16), int(rgb[2:4], 16), int(rgb[4:6], 16)))
            self.send({"type": "ACK", "id": msg["id"]})
        elif kind == "LEDS":
            items = proto.led_items(msg["leds"])
            for ant, _ in items:  # every antenna checked first: a bad one sets none
                if ant >= len(self.readers):
                    self.send({"type": "ERR", "code": "ARG", "detail": "LEDS " + str(msg["id"]) + " antenna "
                               + str(ant) + " >= " + str(len(self.readers))})
                    return
            for ant, rgb in items:
                self.colours[ant] = rgb
                self.leds.set(ant, (int(rgb[0:2], 16), int(rgb[2:4], 16), int(rgb[4:6], 16)))
            self.send({"type": "ACK", "id": msg["id"]})
        elif kind == "LEDOFF":
            self.colours = ["000000"] * len(self.readers)
            self.leds.off()
            self.send({"type": "ACK", "id": msg["id"]})
        elif kind != "PING":  # a device message sent to the device
            self.send({"type": "ERR", "code": "CMD", "detail": kind + " is not a host command"})

    def inventory(self, cmd_id: int) -> None:
        """Every present tag as INV lines, then END: written in one go, nothing in between."""
        frames = []
        for ant in range(len(self.readers)):
            for uid in sorted(self.present[ant]):
                frames.append(proto.encode({"type": "INV", "idx": len(frames), "ant": ant, "uid": uid}))
        frames.append(proto.encode({"type": "END", "id": cmd_id, "count": len(frames), "seq": self.seq}))
        self.write(b"".join(frames))

    @property
    def host_present(self) -> bool:
        """True while the host sent a valid frame (it PINGs every second) in the last 3 s."""
        return self.host_seen is not None and self.ticks_diff(self.ticks_ms(), self.host_seen) < HOST_TIMEOUT_MS

    # ---- antennas -------------------------------------------------------------------------

    def _event(self, kind: str, ant: int, uid: str) -> None:
        self.seq = (self.seq + 1) % proto.SEQ_MOD
        self.send({"type": kind, "seq": self.seq, "ant": ant, "uid": uid})

    def scan(self, ant: int) -> None:
        """Scan one antenna and send ADD/DEL for the changes (DEL only after `misses` misses)."""
        now = self.ticks_ms()
        last_failure = self.failed[ant]
        if last_failure is not None and self.ticks_diff(now, last_failure) < self.retry_ms:
            return
        try:
            seen = self.readers[ant].scan()
        except OSError as exc:
            if last_failure is None:  # report the failure once; the tags stay as last seen
                self.send({"type": "ERR", "code": "ANT", "detail": _ant_detail(ant, exc)})
            self.failed[ant] = now
            return
        self.failed[ant] = None
        present = self.present[ant]
        for uid in seen:
            if not _valid_uid(uid):
                continue  # a garbled read: never sent, never counted as a sighting
            if uid not in present:
                self._event("ADD", ant, uid)
            present[uid] = 0
        for uid in sorted(present):
            if uid not in seen:
                present[uid] += 1
                if present[uid] >= self.misses:
                    del present[uid]
                    self._event("DEL", ant, uid)

    def tick(self) -> None:
        """Send the heartbeat when it is due (every second, whatever else happens)."""
        now = self.ticks_ms()
        if self.ticks_diff(now, self.next_heartbeat) >= 0:
            self.send({"type": "HB", "seq": self.seq})
            self.next_heartbeat = self.ticks_add(self.next_heartbeat, self.heartbeat_ms)
            if self.ticks_diff(now, self.next_heartbeat) >= 0:  # far behind: no burst of HBs
                self.next_heartbeat = self.ticks_add(now, self.heartbeat_ms)

    def step(self) -> None:
        """One turn of the main loop: scan the next antenna, then the heartbeat."""
        self.scan(self.next_antenna)
        self.next_antenna = (self.next_antenna + 1) % len(self.readers)
        self.tick()


def _valid_uid(uid: object) -> bool:
    try:
        proto.parse_field("uid", uid)
    except (proto.FrameError, TypeError):
        return False
    return True


def _ant_detail(ant: int, exc: Exception) -> str:
    clean = "".join(ch if " " <= ch <= "~" and ch not in "$*" else " " for ch in str(exc))
    return (str(ant) + " " + (" ".join(clean.split()) or "reader chip failed"))[:60]
