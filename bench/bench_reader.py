"""Reader link figures: parser throughput vs the 115200-baud line, and host latency over a pty.

Run: python bench/bench_reader.py [--frames N] [--events N]
Not a test: it prints figures to quote (docs/protocol.md, section 7).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from drivers.reader.virtual import VirtualReader, wait_until  # noqa: E402
from drivers.reader import protocol as proto  # noqa: E402
from drivers.reader.link import LinkEvent, ReaderLink, TagPresent, TagRemoved  # noqa: E402

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
                time.sleep(0.001)  # let the link thread go back to its read
            stats = link.stats
        finally:
            link.stop()
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, round(0.99 * len(latencies)))]
    print(f"host latency, frame written by the virtual controller -> on_event ({events} events "
          f"over a pty): p50 {p50 * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, max {latencies[-1] * 1e3:.3f} ms")
    print(f"link stats: {stats.frames_ok} frames ok, rejected {stats.rejected or 'none'}, "
          f"resyncs {stats.resyncs}, gaps {stats.gaps}")


def main() -> None:
    """Print both figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=50_000, help="frames for the parser figure")
    ap.add_argument("--events", type=int, default=1_000, help="events for the latency figure")
    args = ap.parse_args()
    parser_throughput(args.frames)
    link_latency(args.events)


if __name__ == "__main__":
    main()
