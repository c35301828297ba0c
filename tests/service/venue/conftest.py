"""Fixtures of the venue tests."""

from tests.kits.venuekit import broker as broker  # the broker fixture, shared by the venue tests
