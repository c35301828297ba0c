"""Game folders of another tree found by the registry as if they lay in games/: the registry
searches `games.__path__`, so a tree added to it is searched too (the template game's test).

In a child pytest, `-p tests.kits.extra_games` with EXTRA_GAMES=<dir> does the same before the
test modules are collected, so the suites that run every game run that tree's games too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import games
import games.registry as registry

ENV = "EXTRA_GAMES"


def extend(path: Path) -> None:
    """Search `path` for game folders too."""
    games.__path__.append(str(path))
    registry.rediscover()


@contextmanager
def games_found_in(path: Path) -> Iterator[None]:
    """The registry finds the game folders under `path` while inside; forgets them after."""
    before = list(games.__path__)
    extend(path)
    try:
        yield
    finally:
        games.__path__[:] = before
        for name in [m for m in sys.modules if any(m == f"games.{p.name}" or m.startswith(f"games.{p.name}.")
                                                     for p in path.iterdir())]:
            del sys.modules[name]
        registry.rediscover()


def from_env() -> None:
    """Search the tree named by $EXTRA_GAMES too, if set."""
    extra = os.environ.get(ENV)
    if extra:
        extend(Path(extra))


def pytest_configure(config: object) -> None:
    """Plugin hook: $EXTRA_GAMES is searched before any test module is collected."""
    from_env()
