"""Benchmark (not a test): seat screen rendering, packing and sending, against one SSD1306 frame on I2C.

    .venv/bin/python bench/bench_render.py [--n 1000] [--quick]

CPU time (p50/p99 over `--n` samples after a warm-up) of: the first render with fonts loading;
rendering a changed screen whose strings were never drawn (FreeType at work), one that only moves
its cursor and bar over strings already drawn (cached strips), and an unchanged one (cached
picture bytes); drawing the games' real screens (sampled from seeded playouts, laid out
beforehand, strips warm) by the bit-row renderer and by Pillow's drawing calls (the renderer it
replaced, kept as a test reference), with their ratio; packing a frame into the controller's
pages by luma's pixel loop and by our Pillow packing; sending a changed frame through luma's real
ssd1306 driver on a simulated bus, whole and as changed windows (the simulated bus's own CPU left
out). Each is compared with 23.3 ms, one whole frame at 400 kHz, and scaled to a Pi Zero 2 W.
`--quick` (CI) takes 100 samples and checks only that the figures come out.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable

from benchkit import FRAME_MS, PI_FACTOR, pct

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))  # tests.kits

from drivers.i2c_sim import SimI2C
from drivers.oled_updates import pack
from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES, ScreenSpec
from firmware_host.screens import fonts
from firmware_host.screens import render as render_module
from firmware_host.screens.layout import plan
from firmware_host.screens.render import render
from games.core import Screen, tr

MENU = (tr("Passer", "Pass"), tr("Échanger deux cartes", "Swap two cards"), tr("Abandonner", "Give up"))


def typical(i: int, fresh: bool = False) -> Screen:
    """A screen in the middle of a game: title, two lines, icon, countdown; `fresh`: never seen text."""
    tag = f" {i}" if fresh else ""
    return Screen(
        tr("Drôles de zèbres", "Funny zebras"),
        (tr(f"À vous, siège {i % 8 + 1} !{tag}", f"Your turn, seat {i % 8 + 1}!{tag}"),
         tr(f"Posez un zèbre{tag}", f"Place a zebra{tag}")),
        bar=(i % 100) / 100,
        icon="turn",
    )


def timed(fn: Callable[[int], object], n: int, warmup: int = 10,
          simulated: Callable[[], float] = lambda: 0.0) -> list[float]:
    """CPU milliseconds of each call (after `warmup` unmeasured calls), less the CPU the simulated
    hardware reports it spent (`simulated`: its running total in seconds)."""
    for i in range(warmup):
        fn(-1 - i)
    out = []
    for i in range(n):
        t0, s0 = time.thread_time(), simulated()
        fn(i)
        out.append((time.thread_time() - t0 - (simulated() - s0)) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    """One line: p50, p99, share of a frame's bus time, and the Pi estimate of the p99."""
    p50, p99 = pct(ms, 50), pct(ms, 99)
    print(f"{name:<44} p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  p99/frame {p99 / FRAME_MS:6.3f}  "
          f"Pi x{PI_FACTOR} p99 {p99 * PI_FACTOR:6.2f} ms")


def draw_games(n: int) -> None:
    """Draw laid-out game screens both ways (pixels only: layout and caches left out)."""
    from PIL import Image

    from tests.kits.pillow_screen import draw as pillow_draw
    from tests.kits.screen_sampler import samples

    games = ("droles-de-zebres", "zop", "operation-zebre", "mata-hari", "spywhere")
    per = max(1, n // len(games))
    plans = [plan(s.screen, lang, s.menu, i, None, (128, 64), 0, i % 9)
             for game in games for i, s in enumerate(samples(game, per)) for lang in ("fr", "en")]

    def bits(i: int) -> object:
        return Image.frombytes("1", (128, 64), render_module._draw(plans[i % len(plans)], (128, 64)))

    fast = timed(bits, n, warmup=len(plans))
    slow = timed(lambda i: pillow_draw(plans[i % len(plans)], (128, 64)), n, warmup=len(plans))
    report("draw a game screen: bit rows (+ frombytes)", fast)
    report("draw a game screen: Pillow drawing calls", slow)
    print(f"{'':44} bit rows / Pillow: p50 {pct(fast, 50) / pct(slow, 50):.2f}, "
          f"p99 {pct(fast, 99) / pct(slow, 99):.2f} ({len(plans)} screens)")


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="samples per measure")
    parser.add_argument("--quick", action="store_true", help="CI: 100 samples, figures only")
    args = parser.parse_args()
    if args.quick:
        args.n = 100
    warnings.simplefilter("ignore", DeprecationWarning)  # luma 3.16 on Pillow 13 (getdata)

    print(f"one SSD1306 frame on I2C at 400 kHz: {FRAME_MS:.1f} ms ({FRAME_BYTES['ssd1306']} bytes); CPU times")
    print(f"text font: {fonts.pixel_face().source}; big number: {fonts.face(30, True).source}")
    cold = []
    for i in range(min(args.n, 20)):
        fonts.configure()
        t0 = time.thread_time()
        render(typical(i), menu=MENU, cursor=1)
        cold.append((time.thread_time() - t0) * 1000)
    report("first render (fonts load)", cold)
    report("render, changed screen, new strings", timed(lambda i: render(typical(i, fresh=True), menu=MENU,
                                                                         cursor=i % 3), args.n))
    report("render, cursor and bar moved (cached strips)", timed(lambda i: render(typical(i), menu=MENU,
                                                                                  cursor=(i // 100) % 3), args.n))
    same = typical(0)
    report("render, unchanged screen (cached bytes)", timed(lambda i: render(same, menu=MENU, cursor=1), args.n))

    draw_games(args.n)

    images = [render(typical(i, fresh=True), menu=MENU, cursor=i % 3) for i in range(args.n + 10)]
    sim = SimI2C()
    luma = ScreenBank({1: ScreenSpec(bus=2)}, sim.open_driver)
    device = luma[1].device
    report("pack a frame: luma's pixel loop", timed(lambda i: device.display(images[i % len(images)]), args.n))
    report("pack a frame: Pillow (transpose, tobytes)", timed(lambda i: pack(images[i % len(images)]), args.n))
    for label, step in (("send a changed frame (windows)", 1), ("send every frame whole (no window)", 0)):
        bank = ScreenBank({1: ScreenSpec(bus=3)}, sim.open_driver)

        def send(i: int, bank: ScreenBank = bank, step: int = step) -> None:
            if not step:
                bank[1]._panel.sent = None  # forget the controller's RAM: the next send is whole
            bank.show(1, images[i % len(images)])

        before = sim.bytes_written[(3, 0x3C)]
        report(label + " (ssd1306 driver)", timed(send, args.n, simulated=lambda: sim.model_seconds))
        sent = (sim.bytes_written[(3, 0x3C)] - before) / (args.n + 10)
        print(f"{'':44} {sent:.0f} bytes a frame on I2C ({sent / FRAME_BYTES['ssd1306']:.0%} of a whole frame)")


if __name__ == "__main__":
    main()
