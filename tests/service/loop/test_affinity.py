"""The table's threads on one core, the computer players' worker on the others (config pin_cpu)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from firmware_host.loop.affinity import pin_table

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                                reason="CPU affinity needs Linux and two cores")

# in a process of its own: pinning the test process would slow every later test
SCRIPT = textwrap.dedent("""
    import os, threading, json
    from firmware_host.loop import affinity
    from firmware_host.apps.computer import _worker_init

    before = sorted(os.sched_getaffinity(0))
    started = threading.Event(); done = threading.Event()
    def wait():
        started.set(); done.wait()
    early = threading.Thread(target=wait); early.start(); started.wait()
    pinning = affinity.pin_table(True)
    late = []
    t = threading.Thread(target=lambda: late.append(sorted(os.sched_getaffinity(0)))); t.start(); t.join()
    tasks = {}
    try:
        for x in os.listdir("/proc/self/task"):
            try:
                tasks[int(x)] = sorted(os.sched_getaffinity(int(x)))
            except ProcessLookupError:  # a joined thread the kernel has not yet reaped
                pass
    finally:  # else the waiting thread keeps the interpreter from ever exiting
        done.set(); early.join()
    worker = os.fork()
    if worker == 0:  # what the worker process's initializer does
        _worker_init(None, affinity.thinking_cpus())
        os._exit(0 if sorted(os.sched_getaffinity(0)) == sorted(pinning.thinking) else 1)
    _, status = os.waitpid(worker, 0)
    print(json.dumps({"before": before, "core": pinning.table, "thinking": sorted(pinning.thinking),
                      "tasks": sorted(set(map(tuple, tasks.values()))), "late": late[0],
                      "worker": os.waitstatus_to_exitcode(status)}))
""")


def test_every_thread_shares_one_core_and_the_worker_thinks_on_the_others():
    import json

    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=120)
    got = json.loads(out.stdout)
    assert got["core"] == max(got["before"])
    assert got["thinking"] == [c for c in got["before"] if c != got["core"]]
    assert got["tasks"] == [[got["core"]]]  # the thread started before pinning too
    assert got["late"] == [got["core"]]  # a thread started after inherits it
    assert got["worker"] == 0


def test_off_leaves_the_kernel_free():
    assert pin_table(False) is None
    assert len(os.sched_getaffinity(0)) >= 2
