"""Benchmark (not a test): seat screen rendering and sending, against one SSD1306 frame on I2C.

    .venv/bin/python bench/bench_render.py [--n 500]

Prints p50/p99 of: rendering a typical changed screen, rendering an unchanged one (cache), the
first render with fonts loading, sending a frame to luma's dummy device through our screen
layer, and packing it with the real ssd1306 driver (luma's pure-Python pixel loop, on a simulated
smbus). Each is compared with 23.3 ms: 1030 bytes on I2C at 400 kHz, the floor of a real send.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drivers.screens import FRAME_BYTES, ScreenBank, ScreenSpec, SimI2C  # noqa: E402
from firmware_host import fonts  # noqa: E402
from firmware_host.render import render  # noqa: E402
from games.core import Screen, tr  # noqa: E402

I2C_FRAME_MS = 23.3  # 1030 bytes x 9 clocks (8 bits + ACK) at 400 kHz, plus addressing
MENU = (tr("Passer", "Pass"), tr("Échanger deux cartes", "Swap two cards"), tr("Abandonner", "Give up"))


def typical(i: int) -> Screen:
    """A screen in the middle of a game: title, two lines (one of 8 variants), icon, countdown."""
    return Screen(
        tr("Drôles de zèbres", "Funny zebras"),
        (tr(f"À vous, siège {i % 8 + 1} !", f"Your turn, seat {i % 8 + 1}!"), tr("Posez un zèbre", "Place a zebra")),
        bar=(i % 100) / 100,
        icon="turn",
    )


def timed(fn: Callable[[int], object], n: int) -> list[float]:
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:<38} p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  p50/frame {p50 / I2C_FRAME_MS:6.3f}")


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500, help="samples per measure")
    args = parser.parse_args()
    warnings.simplefilter("ignore", DeprecationWarning)  # luma 3.16 on Pillow 13 (getdata)

    print(f"one SSD1306 frame on I2C at 400 kHz: {I2C_FRAME_MS:.1f} ms ({FRAME_BYTES['ssd1306']} bytes)")
    print(f"text font: {fonts.pixel_face().source}; big number: {fonts.face(30, True).source}")
    cold = []
    for i in range(min(args.n, 20)):
        fonts.configure()
        t0 = time.perf_counter()
        render(typical(i), menu=MENU, cursor=1)
        cold.append((time.perf_counter() - t0) * 1000)
    report("first render (fonts load)", cold)
    report("render, changed screen", timed(lambda i: render(typical(i), menu=MENU, cursor=i % 3), args.n))
    fresh = lambda i: render(typical(i), menu=(tr(f"Carte {i}", f"Card {i}"), *MENU[1:]), cursor=0)  # noqa: E731
    report("render, changed screen, new text", timed(fresh, args.n))
    same = typical(0)
    report("render, unchanged screen (cached)", timed(lambda i: render(same, menu=MENU, cursor=1), args.n))

    images = [render(typical(i), menu=MENU, cursor=i % 3) for i in range(args.n)]
    sim = SimI2C()
    bank = ScreenBank({1: ScreenSpec()}, sim.open_dummy)
    report("send to dummy device (changed)", timed(lambda i: bank.show(1, images[i]), args.n))
    report("send, unchanged (skipped)", timed(lambda i: bank.show(1, images[-1]), args.n))
    real = ScreenBank({1: ScreenSpec(bus=2)}, sim.open_driver)
    report("real ssd1306 driver packing (no I2C)", timed(lambda i: real.show(1, images[i]), args.n))
    stats = bank.stats
    print(f"dummy screen: {stats.frames_sent} frames sent, {stats.frames_skipped} skipped, {stats.bytes_sent} bytes")


if __name__ == "__main__":
    main()
