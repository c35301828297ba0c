"""The drivers' tests: gpiozero's mock pins, reset after each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from drivers.pins import make_pin_factory


@pytest.fixture
def factory() -> Iterator[Any]:
    """gpiozero's MockFactory, its pins freed after the test."""
    f = make_pin_factory("mock")
    yield f
    f.reset()
