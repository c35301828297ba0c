"""How long a computer player may think: a count of playouts, optionally capped by a clock.

The count makes a decision reproducible (same view, level, seed and count: same action). The
clock cap is for the table, which must answer in time whatever the machine: it is injected
(`clock`, e.g. time.monotonic), never read by the games package itself.

Sizing: a Raspberry Pi Zero 2 W is assumed 10x slower than the development machine (PI_SLOWDOWN;
CPython there measures 8-15x slower, README's Performance section). Each game's default "strong"
budget is a count of playouts taking about 100-120 ms of CPU per move at the median on the
development machine (bench/bench_ai.py), so about 1-1.2 s on the Pi, within TABLE_SECONDS (2 s);
the slowest moves (p99, 2-3x the median) would pass 2 s there, which is why the table also caps
the search with `seconds` and a clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from games.core import evolve

# The table's target: a Raspberry Pi Zero 2 W answers within about 2 s. Default budgets are sized
# so that a move takes <= 200 ms on the development machine, assumed 10x faster than the Pi.
PI_SLOWDOWN: Final = 10.0
TABLE_SECONDS: Final = 2.0


@dataclass(frozen=True)
class Budget:
    """Thinking allowed for one decision.

    iterations: playouts (or search iterations) to run; the decision depends only on it and the seed.
    seconds: optional wall-clock cap, checked between iterations with `clock` (required with it).
    """

    iterations: int
    seconds: float | None = None
    clock: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.iterations, int) or isinstance(self.iterations, bool) or self.iterations < 1:
            raise ValueError(f"budget iterations must be a positive integer, got {self.iterations!r}")
        if self.seconds is not None:
            if (not isinstance(self.seconds, (int, float)) or isinstance(self.seconds, bool)
                    or not math.isfinite(self.seconds) or self.seconds <= 0):
                raise ValueError(f"budget seconds must be a finite positive number, got {self.seconds!r}")
            if self.clock is None:
                raise ValueError("a budget in seconds needs a clock (e.g. time.monotonic)")

    def scaled(self, factor: float) -> Budget:
        """The same budget with `factor` times the iterations (at least one)."""
        return evolve(self, iterations=max(1, int(self.iterations * factor)))

    def start(self) -> Deadline:
        """A tracker for one decision."""
        return Deadline(self)


class Deadline:
    """Counts iterations of one decision and says when the budget is spent."""

    def __init__(self, budget: Budget):
        self.budget = budget
        self.done = 0
        self._clock = budget.clock
        self._limit = None if budget.seconds is None or budget.clock is None else budget.clock() + budget.seconds

    def spend(self, n: int = 1) -> None:
        """Record `n` iterations done."""
        self.done += n

    @property
    def left(self) -> int:
        """Iterations left by count (the clock may stop the search earlier)."""
        return max(0, self.budget.iterations - self.done)

    def over(self) -> bool:
        """True once the count is reached or the clock cap has passed."""
        if self.done >= self.budget.iterations:
            return True
        return self._limit is not None and self._clock is not None and self._clock() >= self._limit
