"""A kill -9 of the table while its computer player thinks leaves no process behind: the worker,
the forkserver that forked it and multiprocessing's resource tracker all end within seconds."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_host.apps.orphan import end_with

ROOT = Path(__file__).resolve().parents[3]
ENDS_WITHIN = 5.0  # seconds


def stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, start time) of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[19])


def descendants(pid: int) -> dict[int, int]:
    """Every process below `pid`: pid -> start time (a pid used again later is another process)."""
    parents: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (s := stat(int(entry.name))) is not None:
            parents[int(entry.name)] = (s[1], s[2])
    found: dict[int, int] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, start) in parents.items():
            if ppid == parent and child not in found:
                found[child] = start
                todo.append(child)
    return found


def running(pid: int, start: int) -> bool:
    """True while that process exists and is not a zombie waiting to be reaped."""
    s = stat(pid)
    return s is not None and s[2] == start and s[0] != "Z"


def command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_a_kill_9_of_the_table_while_the_computer_thinks_leaves_no_process(tmp_path: Path) -> None:
    # what a kill -9 leaves in the temporary folder (the reader's pty, the forkserver's socket): in the test's
    table = subprocess.Popen([sys.executable, "-m", "tests.kits.thinking_table"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "TMPDIR": str(tmp_path)})
    kids: dict[int, int] = {}
    try:
        assert table.stdout is not None
        ready, _, _ = select.select([table.stdout], [], [], 120)
        assert ready and table.stdout.readline() == "thinking\n", table.stderr.read() if table.stderr else ""
        until = time.monotonic() + 60
        while True:  # the forkserver forks the worker a moment after the job is sent
            kids = descendants(table.pid)
            forked = [p for p in kids if stat(p) and stat(p)[1] != table.pid]  # type: ignore[index]
            if forked:
                break
            assert time.monotonic() < until, f"no worker: {[command(p) for p in kids]}"
            time.sleep(0.05)
        kinds = " ".join(command(p) for p in kids)
        assert "resource_tracker" in kinds and "forkserver" in kinds and len(kids) >= 3, kinds
        time.sleep(0.5)  # thinking
        os.kill(table.pid, signal.SIGKILL)
        table.wait(timeout=10)
        until = time.monotonic() + ENDS_WITHIN
        while any(running(p, t) for p, t in kids.items()) and time.monotonic() < until:
            time.sleep(0.05)
        left = [command(p)[:120] for p, t in kids.items() if running(p, t)]
        assert not left, f"still running {ENDS_WITHIN:g} s after the table's kill -9: {left}"
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
        for pid, start in kids.items():  # what this test started, by id, if it survived
            if running(pid, start):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "polling"])
def test_the_watch_answers_when_the_watched_process_ends(monkeypatch: pytest.MonkeyPatch, pidfd: bool) -> None:
    if not pidfd:  # a kernel without pidfds: the kernel is asked every POLL_SECONDS
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    watched = subprocess.Popen(["sleep", "0.3"])
    ended = threading.Event()
    assert end_with(watched.pid, ended.set) is not None
    assert not ended.wait(0.1)
    watched.wait()
    assert ended.wait(3)
    gone = threading.Event()
    assert end_with(watched.pid, gone.set) is None and gone.is_set()  # ended already: at once
