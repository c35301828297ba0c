"""Fixtures of the remote-play tests."""

from tests.kits.venuekit import broker as broker  # a real mosquitto on a free loopback port
