"""Computer players at the table: their thinking, run off the event loop.

A `Job` carries a seat's VIEW only (`game.view(state, seat)`), never the game state: what the
computer may know is what it is given. `think(job)` runs `games.ai.choose` (a move) or
`games.ai.rank` (a hint) on it. A `Thinker` runs jobs:

- `ProcessThinker` (the table): one worker process, started on the first job and kept for the
  next ones. The search is pure Python: in a thread it would hold the GIL and stall the loop
  (screens, buttons, tags) for its whole budget; a process runs on another core of the Pi Zero 2
  W. Cancelling sets a shared event that the worker's budget clock reads: the search stops at its
  next iteration (bench/bench_thinking.py measures the loop's latency while it thinks). The worker
  watches the table's process and ends with it, even after a kill -9 (orphan.py): then nothing
  holds the forkserver's and the resource tracker's pipes, and they end too.
- `InlineThinker` (`zebra-table script`, tests): thinks at once on the caller's thread with an
  iteration budget and no clock, so a transcript is the same on every run and the script waits
  for the decision.
"""

from __future__ import annotations

import logging
import math
import os
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from firmware_host.loop import affinity

log = logging.getLogger(__name__)

CHOOSE = "choose"
RANK = "rank"
HINT_LEVEL = "strong"  # hints are the strong level's suggestion
HINTS_SHOWN = 3  # best moves named on a hint screen


@dataclass(frozen=True)
class Job:
    """One decision to think about: a seat's view (never the state), its level and its budget."""

    game_id: str
    view: Any
    seat: int
    level: str
    seed: str  # seeds a random.Random: same job, same decision (with an iteration budget)
    kind: str = CHOOSE  # CHOOSE: the move to play; RANK: a hint (best moves first)
    iterations: int | None = None  # None: the level's default budget
    seconds: float | None = None  # a wall-clock cap (the table); None: iterations only (reproducible)


def budget_of(job: Job, clock: Callable[[], float] | None) -> Any:
    """The job's games.ai.Budget: its iterations (or the level's), capped by `seconds` on `clock`."""
    from games.ai import Budget, default_budget

    base = default_budget(job.game_id, job.level)
    iterations = job.iterations if job.iterations is not None else base.iterations
    if job.seconds is None or clock is None:
        return Budget(iterations)
    return Budget(iterations, seconds=job.seconds, clock=clock)


def think(job: Job, clock: Callable[[], float] | None = None) -> Any:
    """The job's answer: an action (CHOOSE) or the best actions, best first (RANK)."""
    from games import ai

    rng = random.Random(job.seed)
    budget = budget_of(job, clock)
    if job.kind == RANK:
        return [r.action for r in ai.rank(job.game_id, job.view, job.seat, job.level, rng, budget)[:HINTS_SHOWN]]
    return ai.choose(job.game_id, job.view, job.seat, job.level, rng, budget)


class Thinker(ABC):
    """Runs jobs; `submit` returns a Future, `cancel` stops the one running, `close` ends it all."""

    inline = False  # True: the Future is done when `submit` returns

    @abstractmethod
    def submit(self, job: Job) -> Future[Any]:
        """Start thinking about `job`."""

    def cancel(self) -> None:
        """Stop the job running, if any (its Future may still complete: callers drop it)."""
        return  # by default a job cannot be stopped: it was already done (InlineThinker)

    def close(self) -> None:
        """Stop for good (the worker process ends)."""
        return  # by default nothing runs between jobs


class InlineThinker(Thinker):
    """Thinks at once, on the caller's thread, with iterations only: reproducible decisions.

    `iterations` overrides every level's default budget (tests use a small one)."""

    inline = True

    def __init__(self, iterations: int | None = None):
        self.iterations = iterations
        self.jobs: list[Job] = []  # every job given, in order (tests read what the computer was told)

    def submit(self, job: Job) -> Future[Any]:
        """Think now; the returned Future holds the answer or the exception."""
        job = Job(job.game_id, job.view, job.seat, job.level, job.seed, job.kind,
                  self.iterations if self.iterations is not None else job.iterations, None)
        self.jobs.append(job)
        fut: Future[Any] = Future()
        try:
            fut.set_result(think(job))
        except Exception as exc:  # handed to the session, which says so
            fut.set_exception(exc)
        return fut


# -- the worker process ---------------------------------------------------------------------------
_CANCEL: Any = None  # in the worker: the shared "stop thinking" event


def _worker_init(cancel: Any, cpus: frozenset[int] | None = None, table: int | None = None) -> None:
    global _CANCEL
    _CANCEL = cancel
    affinity.unpin(cpus)  # started from the table's core: think on the others
    if table is not None:  # a kill -9 of the table ends the worker, its forkserver and resource tracker
        from firmware_host.apps.orphan import end_with

        end_with(table)


def _worker_clock() -> float:
    """The budget's clock in the worker: infinitely late once the table cancelled."""
    return math.inf if _CANCEL is not None and _CANCEL.is_set() else time.monotonic()


def _worker_think(job: Job) -> Any:
    return think(job, _worker_clock)


class ProcessThinker(Thinker):
    """One worker process (forkserver: never a fork of the loop's threads), kept between jobs."""

    def __init__(self, seconds: float | None, iterations: int | None = None):
        self.seconds = seconds
        self.iterations = iterations
        self._pool: Any = None
        self._cancel: Any = None

    def _start(self) -> Any:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._cancel = ctx.Event()
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_worker_init,
                                             initargs=(self._cancel, affinity.thinking_cpus(), os.getpid()))
        return self._pool

    def submit(self, job: Job) -> Future[Any]:
        """Send the job to the worker (started now if needed)."""
        pool = self._start()
        self._cancel.clear()
        job = Job(job.game_id, job.view, job.seat, job.level, job.seed, job.kind,
                  self.iterations if self.iterations is not None else job.iterations,
                  self.seconds if job.seconds is None else job.seconds)
        fut: Future[Any] = pool.submit(_worker_think, job)
        return fut

    def cancel(self) -> None:
        """The running search stops at its next iteration."""
        if self._cancel is not None:
            self._cancel.set()

    def close(self) -> None:
        """Stop the worker."""
        if self._pool is not None:
            self.cancel()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
