"""The reader controller's hardware on a Raspberry Pi Pico: chip selects, LEDs, USB serial, loop.

The classes take pin-like objects (value(v)) and a NeoPixel-like strip, so they run on CPython
with fakes; only `main()` imports the MicroPython modules (machine, neopixel).
"""

import zt_config as config
from zt_device import Controller
from zt_mfrc522 import MFRC522


class PinSelect:
    """One GPIO per reader chip select (active low)."""

    def __init__(self, pins: list) -> None:
        self.pins = pins
        for pin in pins:
            pin.value(1)
        self.current = pins[0]

    def address(self, index: int) -> None:
        """Route the next transfers to reader `index`."""
        self.current = self.pins[index]

    def strobe(self, on: bool) -> None:
        """Select (True) or release (False) the routed reader."""
        self.current.value(0 if on else 1)


class ShiftSelect:
    """74HC595 chain: output i drives reader i's chip select; OE frames each transfer.

    `address(i)` shifts in a pattern where only output i is low; while OE is high the outputs
    float and the pull-ups keep every chip select high, so `strobe` is one pin write.
    """

    def __init__(self, data: object, clock: object, latch: object, enable: object, outputs: int) -> None:
        self.data, self.clock, self.latch, self.enable = data, clock, latch, enable
        self.outputs = outputs
        self.current = None
        enable.value(1)
        clock.value(0)
        latch.value(0)

    def address(self, index: int) -> None:
        """Route the next transfers to reader `index` (shifts only when it changes)."""
        if index == self.current:
            return
        self.enable.value(1)
        for k in range(self.outputs - 1, -1, -1):  # the last bit shifted lands on output 0
            self.data.value(0 if k == index else 1)
            self.clock.value(1)
            self.clock.value(0)
        self.latch.value(1)
        self.latch.value(0)
        self.current = index

    def strobe(self, on: bool) -> None:
        """Select (True) or release (False) the routed reader."""
        self.enable.value(0 if on else 1)


class Strip:
    """WS2812 LEDs under the antennas: colours scaled by `brightness`, mapped by `order`."""

    def __init__(self, pixels: object, count: int, order: tuple = (), brightness: float = 1.0) -> None:
        self.pixels = pixels
        self.count = count
        self.order = order
        self.brightness = brightness
        self.dirty = True

    def set(self, antenna: int, rgb: tuple) -> None:
        """Colour the LED under `antenna` (shown at the next `show`)."""
        if self.order:
            index = self.order[antenna] if 0 <= antenna < len(self.order) else -1
        else:
            index = antenna
        if 0 <= index < self.count:  # an antenna without an LED is no error
            b = self.brightness
            self.pixels[index] = (int(rgb[0] * b), int(rgb[1] * b), int(rgb[2] * b))
            self.dirty = True

    def off(self) -> None:
        """Every LED off (shown at the next `show`)."""
        for i in range(self.count):
            self.pixels[i] = (0, 0, 0)
        self.dirty = True

    def show(self) -> None:
        """Send the colours to the LEDs if they changed."""
        if self.dirty:
            self.pixels.write()
            self.dirty = False


class UsbSerial:
    """The host link: MicroPython's stdin/stdout are the USB CDC port."""

    def __init__(self, sys_module: object, select_module: object) -> None:
        self.stdin = sys_module.stdin.buffer
        self.stdout = sys_module.stdout.buffer
        self.poller = select_module.poll()
        self.poller.register(sys_module.stdin, select_module.POLLIN)

    def read(self, limit: int = 128) -> bytes:
        """The bytes waiting from the host (at most `limit`), without blocking."""
        data = b""
        while len(data) < limit and self.poller.poll(0):
            data += self.stdin.read(1)
        return data

    def write(self, data: bytes) -> None:
        """Send bytes to the host."""
        self.stdout.write(data)


def build_selector(machine: object) -> object:
    """The chip-select scheme of zt_config."""
    pin = machine.Pin
    if config.CS_MODE == "pins":
        return PinSelect([pin(n, pin.OUT, value=1) for n in config.CS_PINS])
    return ShiftSelect(pin(config.SHIFT_DATA, pin.OUT), pin(config.SHIFT_CLOCK, pin.OUT),
                       pin(config.SHIFT_LATCH, pin.OUT), pin(config.SHIFT_ENABLE, pin.OUT, value=1),
                       config.ANTENNAS)


def build(machine: object, neopixel: object, sys_module: object, select_module: object,
          time_module: object) -> tuple:
    """The controller on the Pico's hardware: (controller, host link, status LED)."""
    pin = machine.Pin
    reset = pin(config.RESET, pin.OUT, value=0)
    time_module.sleep_ms(2)
    reset.value(1)  # every reader out of power-down
    time_module.sleep_ms(50)
    spi = machine.SPI(config.SPI_ID, baudrate=config.SPI_BAUD, polarity=0, phase=0,
                      sck=pin(config.SCK), mosi=pin(config.MOSI), miso=pin(config.MISO))
    selector = build_selector(machine)
    readers = [MFRC522(spi, selector, i, time_module.sleep_ms, config.SETTLE_MS, config.MAX_TAGS, config.GAIN)
               for i in range(config.ANTENNAS)]
    leds = Strip(neopixel.NeoPixel(pin(config.LED_PIN), config.LED_COUNT), config.LED_COUNT,
                 config.LED_ORDER, config.BRIGHTNESS)
    status = pin(config.STATUS_LED, pin.OUT)
    link = UsbSerial(sys_module, select_module)
    controller = Controller(readers, leds, link.write, time_module.ticks_ms, time_module.ticks_diff,
                            time_module.ticks_add, misses=config.MISSES)
    return controller, link, status


def run(machine: object, controller: Controller, link: UsbSerial, status: object, ticks_ms: object,
        turns: int = -1) -> None:
    """The main loop (`turns` < 0: forever).

    The hardware watchdog (a hung loop resets the Pico) is armed by the first host frame: it
    cannot be stopped once armed, and mpremote needs the REPL while the table service is off.
    """
    watchdog = None
    controller.start()
    while turns != 0:
        turns -= 1
        data = link.read()
        if data:
            controller.receive(data)
        controller.step()
        status.value(1 if controller.host_present else (ticks_ms() // 500) % 2)
        if watchdog is not None:
            watchdog.feed()
        elif controller.host_seen is not None:
            watchdog = machine.WDT(timeout=8000)


USB_PRODUCT = "zebra-table reader"  # the Pi's udev rule matches this string, not any Pico
USB_PRODUCT_INDEX = 2  # iProduct in MicroPython's built-in device descriptor


def usb_identity(machine: object) -> bool:
    """Announce the board on USB as "zebra-table reader" (its CDC serial port unchanged).

    machine.USBDevice (MicroPython >= 1.23 on the rp2 port) overrides a built-in string when
    `desc_strs` holds it; the device re-enumerates once, at power-on. False on an older
    MicroPython: then only `install.sh --reader-serial` tells the reader from another Pico.
    """
    make = getattr(machine, "USBDevice", None)
    if make is None:
        return False
    usbd = make()
    builtin = usbd.BUILTIN_DEFAULT
    usbd.active(False)
    usbd.builtin_driver = builtin
    usbd.config(builtin.desc_dev, builtin.desc_cfg, desc_strs={USB_PRODUCT_INDEX: USB_PRODUCT})
    usbd.active(True)
    return True


def main() -> None:
    """Run the reader controller on the Pico until power-off."""
    import select
    import sys
    import time

    import machine
    import neopixel

    usb_identity(machine)
    controller, link, status = build(machine, neopixel, sys, select, time)
    run(machine, controller, link, status, time.ticks_ms)
