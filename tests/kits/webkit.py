"""Helpers of the web tests: a live simulated table with its web pages, a recording WebSocket client,
and headless Chromium through Playwright (skipped, saying why, where Chromium cannot be had)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.loop.runtime import Stop
from firmware_host.loop.simulator import SimTable
from firmware_host.storage.config import parse_config, sim_config_text
from firmware_host.storage.journal import Journal
from firmware_host.web.service import start_web

CHROMIUM = os.environ.get("ZEBRA_TABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"


def fast_config(token: str = "", settle: float = 0.05, seats: int = 8) -> Any:
    """The simulated table (its first `seats` seats of 8) with a short settle window, web on any free port."""
    text = sim_config_text().replace("settle = 0.25", f"settle = {settle}")
    config = parse_config(text, "<test table>")
    kept = config.seats[:seats]
    gone = {f"seat{s.id}.pad" for s in config.seats[seats:]}
    return dataclasses.replace(config, seats=kept, antennas={a: z for a, z in config.antennas.items() if z not in gone},
                               web=dataclasses.replace(config.web, port=0, token=token))


# how long a live table may take to do what a test asked: a guard against a hang, not a figure (the
# whole suite runs on every core beside browsers and brokers, so one move may wait seconds for a core)
WAIT_SECONDS = 30.0


class LiveTable:
    """A simulated table running on its own thread (real clock), with its web pages."""

    def __init__(self, tmp: Path, token: str = "", hold_time: float = 0.6, seed: int = 3,
                 journal: str | None = None, seats: int = 8, settle: float = 0.05):
        self.config = fast_config(token, settle, seats)
        self.journal_path = journal or str(tmp / "journal.sqlite")
        self.journal = Journal(self.journal_path)
        self.sim = SimTable(self.config, seed=seed, journal=self.journal, hold_time=hold_time, threaded=True)
        self.web = start_web(self.sim.table, self.sim.registry, journal_path=self.journal_path, port=0)
        self.loop = threading.Thread(target=self.sim.runtime.run, kwargs={"on_idle": self.sim.table.poll},
                                     daemon=True)
        self.loop.start()
        assert self.sim.wait_ready()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web.server.port}"

    @property
    def runtime(self) -> Any:
        return self.sim.runtime

    def wait(self, predicate: Any, timeout: float = WAIT_SECONDS, what: str = "") -> None:
        """Until `predicate()` holds; an AssertionError naming `what` after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or predicate}")
            time.sleep(0.01)

    def close(self) -> None:
        self.sim.runtime.post(Stop())
        self.loop.join(5)
        self.web.stop()
        self.sim.close()
        self.journal.close()


class Recorder:
    """A WebSocket client on its own thread recording every message a page would get."""

    def __init__(self, url: str):
        self.url = url
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.status: int | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the recorder did not connect"

    async def _run(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as session:
            try:
                ws = await session.ws_connect(self.url)
            except aiohttp.WSServerHandshakeError as exc:
                self.status = exc.status
                self._ready.set()
                return
            self.status = 101
            self._ready.set()
            while not self._stop.is_set():
                try:
                    msg = await ws.receive(timeout=0.1)
                except TimeoutError:
                    continue
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                self.raw.append(msg.data)
                self.messages.append(json.loads(msg.data))
            await ws.close()

    def wait_for(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The first message satisfying `predicate` (waits for it)."""
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            upto = len(self.messages)  # taken first: a message the thread appends meanwhile is read next time
            for msg in self.messages[seen:upto]:
                if predicate(msg):
                    return msg
            seen = upto
            time.sleep(0.01)
        raise AssertionError("no such message")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


def chromium() -> Any:
    """A started Playwright and a headless Chromium; pytest.skip (with the reason) if unavailable."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run and ./dev install it as root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as exc:  # a Chromium that cannot start here (no display libraries...)
        pw.stop()
        pytest.skip(f"Chromium at {CHROMIUM} cannot start: {str(exc).splitlines()[0]}")
    return pw, browser


def shot(page: Any, name: str) -> Path:
    """Save a screenshot under artifacts/screenshots/ (ignored by git)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
