"""The storage tests' fixtures: a real small filesystem (tests/kits/smalldisk.py)."""

from tests.kits.smalldisk import small_disk  # noqa: F401 - a fixture, found by pytest here
