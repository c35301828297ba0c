"""Benchmark of the web pages: what the live channel sustains, and what it costs the table.

    python bench/bench_web.py [--quick] [--events N]

A table event here is a button press that changes a seat's screen during a game of Drôles de
Zèbres (the menu cursor moves), handled by the runtime exactly as a gpiozero press is. The pages
are WebSocket clients in a separate process (their CPU is not the table's), on the virtual table's
channel (every screen, the sensed zones, the trays) or the spectators' (public view only).

Figures:
- host CPU per table event (this process: the table's loop and the web server's thread), with no
  web server, with the server and no page, with 1 and with 8 pages; burst (events back to back:
  the pages get the latest snapshot, intermediate ones are skipped) and paced (every event shown);
- the live channel: events per second the table handles with a page connected, snapshots the page
  receives per second, and the delay from an event to its page message (paced).
- on a running simulated table (`web_crowd.py`): the table's RSS before and with 1,000 spectators
  connected (50 in quick mode; the clients run in a child process, so it is the server's alone) and a
  seat's press → screen delay
  meanwhile; a phone's button message → the seat's screen; each page's weight (HTML and every file
  it loads, fetched from the table itself).
Figures from this machine, not from a Pi.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drivers.buttons import ButtonEvent
from firmware_host.apps.app import StartRequest
from firmware_host.loop.simulator import FakeClock, SimTable

CLIENT = r"""
import asyncio, json, sys, time
import aiohttp

async def page(session, url, out):
    async with session.ws_connect(url, max_msg_size=0) as ws:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            out.append((data.get("seq", 0), time.time(), len(msg.data)))

async def main(url, n):
    out = [[] for _ in range(n)]
    async with aiohttp.ClientSession() as session:
        tasks = [asyncio.create_task(page(session, url, out[i])) for i in range(n)]
        while not all(o for o in out):
            await asyncio.sleep(0.01)
        print("READY", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)
        for t in tasks:
            t.cancel()
    print(json.dumps([[list(m) for m in o] for o in out]), flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


class Pages:
    """N WebSocket pages in a child process."""

    def __init__(self, url: str, n: int):
        self.proc = subprocess.Popen([sys.executable, "-c", CLIENT, url, str(n)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        assert line.strip() == "READY", line

    def stop(self) -> list[list[list[float]]]:
        """Close the pages; each page's messages as (seq, arrival time, bytes)."""
        out, _ = self.proc.communicate("STOP\n", timeout=60)
        return json.loads(out.strip().splitlines()[-1])


def table() -> SimTable:
    """A simulated table (fake clock) in a game of Drôles de Zèbres; the web pages not yet on."""
    clock = FakeClock()
    sim = SimTable(clock=clock, seed=1)
    assert sim.wait_ready()
    sim.settle()
    sim.runtime.start(StartRequest("droles-de-zebres", (1, 2)))
    sim.runtime.refresh()
    return sim


def events(sim: SimTable, n: int, pace: float = 0.0, stamps: dict[int, float] | None = None,
           hub: Any = None) -> None:
    """Handle n presses that each change seat 1's screen (its menu cursor moves)."""
    rt = sim.runtime
    for i in range(n):
        rt.handle(ButtonEvent(1, "right" if i % 40 < 20 else "left", "press", 0.0))
        if stamps is not None and hub is not None and hub.latest is not None:
            stamps.setdefault(hub.latest.seq, time.time())
        if pace:
            time.sleep(pace)


def wait_delivered(service: Any, settle: float = 0.1) -> None:
    """Let the web thread finish sending the last snapshot."""
    deadline = time.monotonic() + 10
    last = service.server.sent
    while time.monotonic() < deadline:
        time.sleep(settle)
        if service.server.sent == last:
            return
        last = service.server.sent


def run(sim: SimTable, service: Any, n: int, pace: float, url: str | None, pages: int,
        repeat: int) -> dict[str, Any]:
    """CPU per event (µs, median of `repeat` runs) and what the first page received."""
    cpus, out = [], {}
    for _ in range(repeat):
        clients = Pages(url, pages) if url and pages else None
        events(sim, 10)  # warm caches
        if service is not None:
            wait_delivered(service)
        stamps: dict[int, float] = {}
        wall = time.perf_counter()
        cpu0 = time.process_time()
        events(sim, n, pace, stamps, service.hub if service else None)
        if service is not None and clients is not None:
            wait_delivered(service)
        cpus.append((time.process_time() - cpu0) / n * 1e6)
        wall = time.perf_counter() - wall
        out["events_per_s"] = n / wall
        if clients is not None:
            first = clients.stop()[0]
            seqs = [m for m in first if m[0] in stamps]
            out["bytes"] = statistics.mean(m[2] for m in seqs) if seqs else 0
            delays = sorted((m[1] - stamps[m[0]]) * 1000 for m in seqs)
            if delays:
                out["p50"] = statistics.median(delays)
                out["p95"] = delays[int(0.95 * (len(delays) - 1))]
            out["delivered_per_s"] = len(seqs) / wall
    out["cpu_us"] = statistics.median(cpus)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred events, one run each (CI)")
    parser.add_argument("--events", type=int, default=None)
    args = parser.parse_args()
    n = args.events or (200 if args.quick else 1500)
    repeat = 1 if args.quick else 3
    pace = 0.02  # 50 events/s: every event reaches the pages
    paced_n = max(25, n // 8)
    print(f"bench_web: {n} burst events, {paced_n} paced events at {1 / pace:.0f}/s "
          f"(presses changing a screen in a game of Drôles de Zèbres), median of {repeat} run(s)")
    sim = table()
    service = None
    try:
        base = run(sim, None, n, 0, None, 0, repeat)
        base_paced = run(sim, None, paced_n, pace, None, 0, repeat)
        print(f"  no web server      : {base['cpu_us']:7.0f} µs CPU per event "
              f"({base['events_per_s']:.0f} events/s; paced {base_paced['cpu_us']:.0f} µs)")
        from firmware_host.web.service import start_web

        service = start_web(sim.table, sim.registry, port=0)
        alone = run(sim, service, n, 0, None, 0, repeat)
        added = alone['cpu_us'] - base['cpu_us']
        print(f"  server, no page    : {alone['cpu_us']:7.0f} µs CPU per event (+{added:.0f})")
        roles = ("table",) if args.quick else ("table", "watch")
        for role in roles:
            url = f"ws://127.0.0.1:{service.server.port}/ws?role={role}&k={service.server.access.table}"
            for pages in (1, 8):
                burst = run(sim, service, n, 0, url, pages, repeat)
                paced = run(sim, service, paced_n, pace, url, pages, repeat)
                added, added_paced = burst["cpu_us"] - base["cpu_us"], paced["cpu_us"] - base_paced["cpu_us"]
                name = f"{pages} {role} page{'s' if pages > 1 else ''}"
                if role == "watch":  # a cursor move changes no public state: nothing is sent, only checked
                    print(f"  {name:19s}: +{added:6.0f} µs CPU per event burst, +{added_paced:.0f} paced "
                          "(cursor moves: nothing public changes, nothing sent)")
                    continue
                print(f"  {name:19s}: +{added:6.0f} µs CPU per event burst ({burst['events_per_s']:.0f} events/s, "
                      f"the page got {burst['delivered_per_s']:.0f} snapshots/s of {burst['bytes']:.0f} B); "
                      f"paced +{added_paced:.0f} µs ({paced['cpu_us'] / base_paced['cpu_us']:.1f}x the table alone), "
                      f"event→page p50 {paced.get('p50', float('nan')):.1f} ms, "
                      f"p95 {paced.get('p95', float('nan')):.1f} ms")
    finally:
        if service is not None:
            service.stop()
        sim.close()
    from bench.web_crowd import crowd_sections

    crowd_sections(args.quick)


if __name__ == "__main__":
    main()
