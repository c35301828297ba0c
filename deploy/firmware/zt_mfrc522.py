"""MFRC522 reader chip on a shared SPI bus: the UIDs of the ISO 14443A tags on its antenna.

The bus, the chip select and the delay are passed in, so the same code runs on the Pico and,
in the tests, against an emulated chip. Each scan powers the antenna, waits for the tags to
wake, then reads every tag in turn (REQA, anticollision and SELECT cascade, HLTA) and switches
the antenna off again: neighbouring antennas never radiate at the same time, and every tag
starts each scan fresh. Written for MicroPython (builtin types only in hints, no f-strings).
"""

# Registers (MFRC522 datasheet, section 9).
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Chip commands and tag (PICC) commands.
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
REQA = 0x26
CASCADE_TAG = 0x88
SELECT = (0x93, 0x95, 0x97)  # cascade levels 1-3: 4-, 7- and 10-byte UIDs
HLTA = b"\x50\x00"

# VersionReg of MFRC522 v0.0/v1.0/v2.0 and of the common FM17522 and unbranded clones.
VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)
POWER_DOWN = 0x10  # CommandReg bit, set while the chip is still starting


class ChipError(OSError):
    """The reader chip does not answer, or answers like no MFRC522."""


def crc_a(data: bytes) -> bytes:
    """ISO 14443A CRC of `data` (2 bytes, low byte first)."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def hex_uid(uid: bytes) -> str:
    """A UID's bytes as uppercase hex, the protocol's form."""
    return "".join("%02X" % b for b in uid)


class MFRC522:
    """One reader chip: `selector.address(index)` routes its chip select, `selector.strobe(on)`
    frames each SPI transfer; `sleep_ms` waits. `scan()` returns the UIDs on the antenna."""

    def __init__(self, spi: object, selector: object, index: int, sleep_ms: object, settle_ms: int = 5,
                 max_tags: int = 4, gain: int = 0x05, polls: int = 200) -> None:
        self.spi = spi
        self.selector = selector
        self.index = index
        self.sleep_ms = sleep_ms
        self.settle_ms = settle_ms  # ISO 14443-3: wait 5 ms after the field comes on
        self.max_tags = max_tags
        self.gain = gain  # RFCfgReg RxGain: 0x04 = 33 dB (chip default) ... 0x07 = 48 dB
        self.polls = polls
        self.ready = False
        self._tx = bytearray(2)
        self._rx = bytearray(2)

    # ---- registers -----------------------------------------------------------------------

    def _write(self, reg: int, value: int) -> None:
        self._tx[0] = (reg << 1) & 0x7E
        self._tx[1] = value
        self.selector.strobe(True)
        try:
            self.spi.write(self._tx)
        finally:
            self.selector.strobe(False)

    def _read(self, reg: int) -> int:
        self._tx[0] = ((reg << 1) & 0x7E) | 0x80
        self._tx[1] = 0
        self.selector.strobe(True)
        try:
            self.spi.write_readinto(self._tx, self._rx)
        finally:
            self.selector.strobe(False)
        return self._rx[1]

    def _set(self, reg: int, mask: int) -> None:
        self._write(reg, self._read(reg) | mask)

    def _clear(self, reg: int, mask: int) -> None:
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    # ---- chip ----------------------------------------------------------------------------

    def init(self) -> None:
        """Reset and configure the chip; raises ChipError if it is absent or unknown."""
        self.ready = False
        self.selector.address(self.index)
        self._write(COMMAND, SOFT_RESET)
        for _ in range(self.polls):
            self.sleep_ms(1)
            if not self._read(COMMAND) & POWER_DOWN:
                break
        version = self._read(VERSION)
        if version not in VERSIONS:
            if version in (0x00, 0xFF):
                raise ChipError("no answer from reader chip")
            raise ChipError("unknown reader chip version 0x%02X" % version)
        self._write(T_MODE, 0x80)  # the timer starts when a transmission ends
        self._write(T_PRESCALER, 0xA9)  # 13.56 MHz / 339 = 40 kHz: 25 us ticks
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, 40)  # 1 ms answer timeout: tags answer within 0.1 ms
        self._write(TX_ASK, 0x40)  # 100 % ASK modulation (ISO 14443A)
        self._write(MODE, 0x3D)  # CRC preset 0x6363 (ISO 14443A)
        self._write(RF_CFG, (self.gain & 0x07) << 4)
        self._clear(TX_CONTROL, 0x03)
        self.ready = True

    def _transceive(self, data: bytes, tx_bits: int = 0, rx_align: int = 0) -> tuple:
        """Send a frame; returns (answer bytes, collision position or 0), or None: no answer."""
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)  # clear every interrupt flag
        self._write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, (rx_align << 4) | tx_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._set(BIT_FRAMING, 0x80)  # StartSend
        for _ in range(self.polls):
            irq = self._read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                break
            if irq & 0x01:  # TimerIRq: no answer in time
                return None
        else:
            raise ChipError("reader chip never finishes a command")
        error = self._read(ERROR)
        if error & 0x40:
            raise ChipError("reader chip overheated")
        collision = 0
        if error & 0x08:  # CollErr: several tags answered different bits
            coll = self._read(COLL)
            if coll & 0x20:  # CollPosNotValid
                return None
            collision = (coll & 0x1F) or 32
        elif error & 0x13:  # BufferOvfl, ParityErr, ProtocolErr: a garbled answer
            return None
        count = self._read(FIFO_LEVEL)
        answer = bytearray(count)
        for i in range(count):
            answer[i] = self._read(FIFO_DATA)
        return answer, collision

    # ---- tags ----------------------------------------------------------------------------

    def _select_level(self, sel: int) -> tuple:
        """Anticollision then SELECT at one cascade level: (4 UID CLn bytes, SAK) or None."""
        uid = bytearray(5)  # UID CLn bytes 0-3 and their BCC
        known = 0  # leading bits of `uid` already certain
        for _ in range(33):
            nbytes, nbits = known // 8, known % 8
            frame = bytes((sel, 0x20 + (nbytes << 4) + nbits)) + bytes(uid[:nbytes + (1 if nbits else 0)])
            self._clear(COLL, 0x80)  # ValuesAfterColl off: bits after a collision read as 0
            got = self._transceive(frame, nbits, nbits)
            if got is None:
                return None
            answer, collision = got
            for i in range(len(answer)):
                j = nbytes + i
                if j > 4:
                    break
                if i == 0 and nbits:  # the first answer byte completes the partial byte
                    low = (1 << nbits) - 1
                    uid[j] = (uid[j] & low) | (answer[0] & ~low & 0xFF)
                else:
                    uid[j] = answer[i]
            if not collision:
                break
            # CollPos counts the bits received in this frame (datasheet 9.3.1.15). Keep the
            # bits before the collision, take the 1 branch at it, ask again.
            pos = known + collision
            if pos > 40:
                return None
            byte, bit = (pos - 1) // 8, (pos - 1) % 8
            uid[byte] = (uid[byte] & ((1 << bit) - 1)) | (1 << bit)
            for k in range(byte + 1, 5):
                uid[k] = 0
            known = pos
        else:
            return None
        if uid[0] ^ uid[1] ^ uid[2] ^ uid[3] != uid[4]:
            return None  # BCC mismatch: a garbled answer
        frame = bytes((sel, 0x70)) + bytes(uid)
        got = self._transceive(frame + crc_a(frame))
        if got is None or len(got[0]) != 3 or got[1] or crc_a(got[0][:1]) != bytes(got[0][1:]):
            return None
        return bytes(uid[:4]), got[0][0]

    def _read_uid(self) -> bytes:
        """The whole UID of the one tag answering now (cascade levels 1 to 3), or None."""
        uid = b""
        for sel in SELECT:
            got = self._select_level(sel)
            if got is None:
                return None
            part, sak = got
            if not sak & 0x04:  # cascade bit clear: UID complete
                return uid + part
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:]
        return None

    def scan(self) -> list:
        """UIDs (uppercase hex) on the antenna now; raises ChipError when the chip fails."""
        if not self.ready:
            self.init()
        self.selector.address(self.index)
        found = []
        try:
            self._set(TX_CONTROL, 0x03)  # antenna on
            self.sleep_ms(self.settle_ms)
            for _ in range(self.max_tags):
                if self._transceive(bytes((REQA,)), 7) is None:  # short frame: 7 bits
                    break
                uid = self._read_uid()
                if uid is None:
                    break
                found.append(hex_uid(uid))
                self._transceive(HLTA + crc_a(HLTA))  # halted: the next REQA wakes the others
        except ChipError:
            self.ready = False
            raise
        finally:
            if self.ready:
                self._clear(TX_CONTROL, 0x03)  # antenna off until the next scan
        return found
