"""Reader link figures: parser throughput vs the 115200-baud line, host latency over a pty, and the
CPU the link plus the runtime take at 100 % of the line rate.

Run: python bench/bench_reader.py [--frames N] [--events N] [--seconds S] [--quick]
Not a test: it prints figures to quote (docs/protocol.md, section 7; README, performance).
`--quick` (CI) runs each part for a moment and checks only that the figures come out.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from benchkit import PI_FACTOR

from drivers.reader import protocol as proto
from drivers.reader.link import LinkEvent, ReaderLink, TagPresent, TagRemoved
from drivers.reader.virtual import VirtualReader, wait_until

BAUD = 115200
BITS_PER_BYTE = 10  # 8N1: start + 8 data + stop
UIDS = [f"04{i:04X}A1B2C3D4" for i in range(16)]  # 7-byte UIDs, the common NTAG size


def typical_frame(seq: int) -> bytes:
    """An event frame as the controller sends it during play."""
    return proto.encode({"type": "ADD", "seq": seq % 65536, "ant": seq % 43,
                         "uid": UIDS[seq % len(UIDS)]})


def parser_throughput(frames: int) -> None:
    """Frames/s through FrameParser.feed in 64-byte USB packets, vs what the line can carry."""
    stream = b"".join(typical_frame(1000 + i) for i in range(frames))
    packets = [stream[i:i + 64] for i in range(0, len(stream), 64)]
    parser = proto.FrameParser()
    start = time.perf_counter()
    got = 0
    for packet in packets:
        got += len(parser.feed(packet))
    elapsed = time.perf_counter() - start
    assert got == frames and not parser.rejected, (got, parser.rejected)
    size = len(typical_frame(1000))
    line_rate = BAUD / BITS_PER_BYTE / size
    rate = frames / elapsed
    print(f"typical event frame: {size} bytes, e.g. {typical_frame(1234)!r}")
    print(f"line capacity at {BAUD} baud 8N1: {line_rate:,.0f} frames/s")
    print(f"parser throughput: {rate:,.0f} frames/s ({elapsed / frames * 1e6:.1f} us/frame, "
          f"{frames} frames in 64-byte packets)")
    print(f"ratio parser / line: {rate / line_rate:,.1f}x")


def link_latency(events: int) -> None:
    """Time from the controller writing a frame to ReaderLink's on_event callback."""
    arrived = threading.Event()
    stamps: list[float] = []

    def on_event(event: LinkEvent) -> None:
        if isinstance(event, (TagPresent, TagRemoved)):
            stamps.append(time.perf_counter())
            arrived.set()

    with VirtualReader(43, heartbeat_interval=1.0) as sim:
        link = ReaderLink(sim.path, on_event=on_event).start()
        try:
            if not wait_until(lambda: link.synced, 10.0):
                raise SystemExit(f"link not ready: {link.state}")
            latencies = []
            for i in range(events):
                arrived.clear()
                ant, uid = i % 43, UIDS[(i // 43) % len(UIDS)]
                if not sim.place(ant, uid):
                    sim.remove(ant, uid)
                written = sim.last_write_at
                if not arrived.wait(5.0):
                    raise SystemExit(f"event {i} never arrived: {link.stats}")
                latencies.append(stamps[-1] - written)
                # events alone: one closer than the link's burst pause after a read waits for the
                # pause to end (up to 10 ms) and is read with the burst (see line_rate)
                time.sleep(link.burst_pause + 0.002)
            stats = link.stats
        finally:
            link.stop()
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, round(0.99 * len(latencies)))]
    print(f"host latency, frame written by the virtual controller -> on_event ({events} events alone "
          f"over a pty): p50 {p50 * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, max {latencies[-1] * 1e3:.3f} ms "
          f"(an event within {link.burst_pause * 1e3:.0f} ms of a read waits up to that long, read with its burst)")
    print(f"link stats: {stats.frames_ok} frames ok, rejected {stats.rejected or 'none'}, "
          f"resyncs {stats.resyncs}, gaps {stats.gaps}")


def thread_cpu(thread: threading.Thread | None) -> float:
    """CPU seconds a running thread has used."""
    if thread is None or thread.ident is None or not thread.is_alive():
        return 0.0
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))


def line_rate(seconds: float, game: str = "spywhere", seats: tuple[int, ...] = (1, 2, 3, 4, 5)) -> None:
    """The simulated table's reader link and runtime (its own loop thread, a game in progress) fed
    tag events at 100 % of the 115200-baud line: CPU of the host threads (link, loop, screen
    writers), frames lost."""
    from firmware_host.apps.app import StartRequest
    from firmware_host.loop.runtime import Stop
    from firmware_host.loop.simulator import SimTable

    sim = SimTable(threaded=True)
    loop = threading.Thread(target=sim.runtime.run, kwargs={"on_idle": sim.table.poll}, name="loop", daemon=True)
    try:
        if not sim.wait_ready():
            raise SystemExit("the simulated table's reader did not come up")
        sim.runtime.start(StartRequest(game, seats))  # before the loop runs: no other thread touches it
        loop.start()
        if not wait_until(lambda: sim.runtime.reader_state == "ready", 10):
            raise SystemExit("the runtime never saw the reader ready")
        antennas = sorted(sim.config.antennas)
        uids = [uid for uid, _ in list(sim.registry)[:64]]
        size = len(typical_frame(1000))
        rate = BAUD / BITS_PER_BYTE / size
        rng = random.Random(7)
        threads = {"link": sim.table.link._thread, "loop": loop,
                   **{f"writer {w.bus}": w._thread for w in sim.table.screens.writers}}
        before = {name: thread_cpu(t) for name, t in threads.items()}
        sent0, ok0, events0 = sim.reader.frames_sent, sim.table.link.stats.frames_ok, sim.runtime.events
        start = time.perf_counter()
        n = 0
        while (now := time.perf_counter()) - start < seconds:
            due = start + n / rate
            if due > now:
                time.sleep(due - now)
            ant, uid = rng.choice(antennas), rng.choice(uids)
            if not sim.reader.place(ant, uid):
                sim.reader.remove(ant, uid)
            n += 1
        elapsed = time.perf_counter() - start
        wait_until(lambda: sim.runtime.events - events0 >= n and sim.runtime.queue.empty(), 10)
        cpu = {name: thread_cpu(t) - before[name] for name, t in threads.items()}
        sent = sim.reader.frames_sent - sent0
        ok, events = sim.table.link.stats.frames_ok - ok0, sim.runtime.events - events0
        sensed = {z: frozenset(u) for z, u in sim.runtime.raw.items() if u}
        zone_of = sim.table.zone_of
        truth = {zone_of[a]: u for a, u in sim.reader.inventory.items() if u and a in zone_of}
    finally:
        sim.runtime.post(Stop())
        if loop.is_alive():
            loop.join(5)
        sim.close()
    total = sum(cpu.values())
    share = total / elapsed
    print(f"line rate: {n} tag frames in {elapsed:.1f} s ({n / elapsed:.0f}/s, 100 % of {rate:.0f} frames/s at "
          f"{BAUD} baud), link + runtime consuming them, {game} in progress on {len(seats)} seats")
    print(f"  frames: {sent} sent by the controller, {ok} parsed by the link, {events} events handled by the "
          f"runtime; lost: {n - events}; sensed table equals the controller's: {sensed == truth}")
    print("  CPU: " + ", ".join(f"{name} {v / elapsed:.1%}" for name, v in cpu.items() if v)
          + f"; total {share:.1%} of one core (target <= 5 %: {'ok' if share <= 0.05 else 'MISSED'}; "
          f"Pi x{PI_FACTOR}: {share * PI_FACTOR:.0%} of one of its 4 cores, "
          + ("holds: it keeps up with the line)" if share * PI_FACTOR <= 1 else
             "does NOT hold: a long burst would fall behind the line)"))


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=50_000, help="frames for the parser figure")
    ap.add_argument("--events", type=int, default=1_000, help="events for the latency figure")
    ap.add_argument("--seconds", type=float, default=60.0, help="duration of the line-rate figure")
    ap.add_argument("--quick", action="store_true", help="CI: a moment of each, figures only")
    args = ap.parse_args()
    if args.quick:
        args.frames, args.events, args.seconds = 5_000, 100, 3.0
    parser_throughput(args.frames)
    link_latency(args.events)
    line_rate(args.seconds)


if __name__ == "__main__":
    main()
