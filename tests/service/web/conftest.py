"""Fixtures of the web tests: headless Chromium (one per test file) and a live simulated table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kits.webkit import LiveTable, chromium


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
