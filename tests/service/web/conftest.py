"""Fixtures of the web tests: headless Chromium (one per test file), a live simulated table, and a
simulated table with its web server in this process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.web.service import start_web
from tests.kits.webkit import LiveTable, chromium, fast_config


@pytest.fixture(scope="module")
def playwright() -> Iterator[tuple[Any, Any]]:
    """A started Playwright and its headless Chromium, shared by a file's tests; skipped where Chromium cannot start."""
    pw, browser = chromium()
    yield pw, browser
    browser.close()
    pw.stop()


@pytest.fixture(scope="module")
def browser(playwright: tuple[Any, Any]) -> Any:
    """The file's headless Chromium (each test opens its own pages)."""
    return playwright[1]


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveTable]:
    """A simulated table with its web pages on a free port, closed after the test."""
    table = LiveTable(tmp_path)
    yield table
    table.close()


@pytest.fixture
def table() -> Iterator[tuple[SimTable, Any]]:
    """A simulated table on a fake clock, its web server started on a free port."""
    sim = SimTable(fast_config(), clock=FakeClock(), seed=1)
    assert sim.wait_ready()
    web = start_web(sim.table, sim.registry, port=0)
    yield sim, web
    web.stop()
    sim.close()
