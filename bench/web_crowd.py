"""Sections of bench_web.py on a running simulated table: many spectators, a phone's button, page weight."""

from __future__ import annotations

import asyncio
import re
import resource
import statistics
import threading
import time
import urllib.request
from html.parser import HTMLParser
from typing import Any

from firmware_host.loop.events import Stop
from firmware_host.loop.simulator import SimTable
from firmware_host.web.service import WebService, start_web


def rss_mb() -> float:
    """This process's resident memory (the table and its web server; the spectators run in another), MB."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Timed:
    """The runtime's outputs, noting when seat 1's screen is given a frame."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.shown: list[float] = []

    def show(self, seat: int, frame: Any) -> None:
        """Show, and note the time for seat 1."""
        self.inner.show(seat, frame)
        if seat == 1:
            self.shown.append(time.perf_counter())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Live:
    """A simulated table on its own thread (real clock) with its web pages."""

    def __init__(self) -> None:
        import dataclasses

        from firmware_host.storage.config import parse_config, sim_config_text

        config = parse_config(sim_config_text(), "<bench table>")
        config = dataclasses.replace(config, web=dataclasses.replace(config.web, port=0, token=""))
        self.sim = SimTable(config, seed=1, threaded=True, hold_time=0.3)
        self.web: WebService = start_web(self.sim.table, self.sim.registry, port=0)
        self.timed = Timed(self.sim.runtime.outputs)
        self.sim.runtime.outputs = self.timed
        self.loop = threading.Thread(target=self.sim.runtime.run, kwargs={"on_idle": self.sim.table.poll},
                                     daemon=True)
        self.loop.start()
        assert self.sim.wait_ready()
        self.base = f"http://127.0.0.1:{self.web.server.port}"

    def press(self) -> float:
        """A press of seat 1's right button on its pin; ms until its screen got a frame."""
        n = len(self.timed.shown)
        t0 = time.perf_counter()
        panel = self.sim.buttons
        assert panel is not None, "the simulated table has buttons"
        panel.press(1, "right")
        deadline = time.monotonic() + 5
        while len(self.timed.shown) == n and time.monotonic() < deadline:
            time.sleep(0.0005)
        panel.release(1, "right")
        time.sleep(0.02)
        return (self.timed.shown[n] - t0) * 1000 if len(self.timed.shown) > n else float("nan")

    def close(self) -> None:
        """Stop the loop, the pages and the table."""
        self.sim.runtime.post(Stop())
        self.loop.join(5)
        self.web.stop()
        self.sim.close()


def pct(values: list[float]) -> str:
    """p50 and p95 of delays in ms."""
    values = sorted(v for v in values if v == v)
    if not values:
        return "no frame shown"
    return f"p50 {statistics.median(values):.1f} ms, p95 {values[int(0.95 * (len(values) - 1))]:.1f} ms"


async def _spectators(url: str, n: int, hold: Any) -> None:
    import aiohttp

    connected = 0
    gate = asyncio.Semaphore(50)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        sockets = []

        async def one() -> None:
            nonlocal connected
            async with gate:
                ws = await session.ws_connect(url)
                await ws.receive(timeout=30)  # the hello
                sockets.append(ws)
                connected += 1
        await asyncio.gather(*(one() for _ in range(n)))
        await asyncio.get_running_loop().run_in_executor(None, hold, connected)
        for ws in sockets:
            await ws.close()


def _more_files(n: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2 * n + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2 * n + 256), hard))


def _crowd(url: str, n: int, conn: Any) -> None:
    """The spectators' own process: n pages connected, held until the table's side has measured."""
    _more_files(n)

    def hold(connected: int) -> None:
        conn.send(connected)
        conn.recv()  # the table's side measured: let go

    asyncio.run(_spectators(url, n, hold))


def spectators(live: Live, n: int, presses: int) -> None:
    """The table's RSS before and with n spectators connected (the spectators in a child process, so
    the figure is the server's alone), and its press → screen delay meanwhile."""
    import multiprocessing

    _more_files(n)
    before = rss_mb()
    alone = [live.press() for _ in range(presses)]
    url = f"ws://127.0.0.1:{live.web.server.port}/ws?role=watch"
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: none of the table's memory
    ours, theirs = ctx.Pipe()
    child = ctx.Process(target=_crowd, args=(url, n, theirs), daemon=True)
    child.start()
    try:
        if not ours.poll(300):
            raise RuntimeError(f"the {n} spectators did not connect within 300 s")
        got = ours.recv()
        pages, rss = live.web.server.pages, rss_mb()
        delays = [live.press() for _ in range(presses)]
        ours.send("done")
    finally:
        child.join(60)
        if child.is_alive():
            child.kill()
    print(f"  {got} spectators      : RSS {before:.1f} MB → {rss:.1f} MB "
          f"(+{(rss - before) * 1024 / max(got, 1):.0f} kB each, the table's process alone: the clients run in "
          f"another; server saw {pages} pages); press → screen {pct(delays)} (none connected: {pct(alone)})")


async def _phone(live: Live, presses: int) -> list[float]:
    import aiohttp

    seat, token = 1, live.web.server.access.seats[1]
    url = f"ws://127.0.0.1:{live.web.server.port}/ws?role=seat&seat={seat}&t={token}"
    delays = []
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive(timeout=10)
        for _ in range(presses):
            n = len(live.timed.shown)
            t0 = time.perf_counter()
            await ws.send_json({"do": "button", "seat": seat, "button": "right", "down": True})
            deadline = time.monotonic() + 5
            while len(live.timed.shown) == n and time.monotonic() < deadline:
                await asyncio.sleep(0.0005)
            await ws.send_json({"do": "button", "seat": seat, "button": "right", "down": False})
            if len(live.timed.shown) > n:
                delays.append((live.timed.shown[n] - t0) * 1000)
            await asyncio.sleep(0.02)
    return delays


def phone(live: Live, presses: int) -> None:
    """A seat page's button message → the seat's table screen given the new frame."""
    delays = asyncio.run(_phone(live, presses))
    print(f"  phone button       : seat page message → seat screen {pct(delays)} ({len(delays)}/{presses} presses)")


class Refs(HTMLParser):
    """The files a page loads: scripts, stylesheets, icons, images."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note src= of any tag and href= of <link>."""
        for key, value in attrs:
            if value and (key == "src" or (key == "href" and tag == "link")):
                self.refs.append(value)


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:  # always 127.0.0.1: nothing leaves the machine
        body: bytes = r.read()
        return body


def weight(live: Live) -> None:
    """Bytes of each page's HTML and every file it references (CSS url() included)."""
    token = live.web.server.access.seats[1]
    for name, path in (("/", "/"), ("/watch", "/watch"), ("seat page", f"/S/1/{token}"), ("/replay", "/replay")):
        html = _get(live.base + path)
        parser = Refs()
        parser.feed(html.decode("utf-8"))
        total, external, files = len(html), 0, 0
        seen: set[str] = set()
        queue = list(parser.refs)
        while queue:
            ref = queue.pop()
            if ref in seen:
                continue
            seen.add(ref)
            if not ref.startswith("/") or ref.startswith("//"):
                external += 1
                continue
            body = _get(live.base + ref)
            total, files = total + len(body), files + 1
            if ref.endswith(".css"):
                queue += re.findall(r"url\(['\"]?(/[^'\")]+)", body.decode("utf-8"))
        print(f"  page weight {name:8s}: {total / 1024:.1f} kB (HTML {len(html) / 1024:.1f} kB + {files} files; "
              f"{external} references off the table)")


def crowd_sections(quick: bool) -> None:
    """The three sections on one running simulated table."""
    live = Live()
    try:
        spectators(live, 50 if quick else 1000, 20 if quick else 100)
        phone(live, 20 if quick else 100)
        weight(live)
    finally:
        live.close()
