"""A simulated table whose computer player is thinking, in a process of its own (for kill -9 tests).

    python -m tests.kits.thinking_table

Starts a Drôles de Zèbres game against a strong computer that thinks in the table's worker
process (the production `ProcessThinker`, with a budget far longer than any test), prints
"thinking" once the worker has the job, then waits to be killed.
"""

from __future__ import annotations

import time


def main() -> None:
    """Start the table and its thinking computer; wait forever."""
    from firmware_host.apps.app import StartRequest
    from firmware_host.apps.computer import ProcessThinker
    from firmware_host.apps.session import GameSession
    from firmware_host.loop.simulator import FakeClock, SimTable

    sim = SimTable(clock=FakeClock(), seed=0)
    assert sim.wait_ready()
    sim.settle()
    sim.runtime.thinker = ProcessThinker(seconds=600.0, iterations=10**9)
    sim.runtime.start(StartRequest("droles-de-zebres", (1, 2), {"first_player": "seat1"}, computers={1: "strong"}))
    sim.runtime.refresh()
    app = sim.runtime.app
    assert isinstance(app, GameSession) and app.computers.thinking is not None
    print("thinking", flush=True)
    while True:
        time.sleep(60)


if __name__ == "__main__":  # the forkserver imports this module again in the worker: not there
    main()
