"""Fixtures of the remote-play tests."""

from collections.abc import Iterator

import pytest

from firmware_host.loop.simulator import SimTable
from tests.kits.venuekit import broker as broker  # a real mosquitto on a free loopback port
from tests.service.apps.solo_table import open_table


@pytest.fixture(scope="module")
def sims() -> Iterator[tuple[SimTable, SimTable]]:
    """Two simulated tables, the host's and the joining one's, for the tests of a module (a ZOP pair)."""
    a, b = open_table(seed=1), open_table(seed=2)
    try:
        yield a, b
    finally:
        a.close()
        b.close()
