"""A worker process that ends with the table that started it, even after a kill -9 of the table.

The computer's worker is forked by multiprocessing's forkserver, not by the table, and holds the
write ends of the forkserver's and the resource tracker's "table alive" pipes: while it lives,
neither of them sees the table go. So the worker watches the table itself: a thread waits on a
pidfd of the table's process (readable once it has ended; Linux 5.3 and later), or asks the
kernel every POLL_SECONDS where pidfds are missing, and ends the worker at once. Its pipes then
close, and the forkserver and the resource tracker end too.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's (not the table's case)
        return True
    return True


def _quit() -> None:
    os._exit(0)  # nobody is left to read a result: no clean-up to wait for


def end_with(pid: int, on_end: Callable[[], None] = _quit) -> threading.Thread | None:
    """Call `on_end` (default: end this process) as soon as process `pid` has ended; None if it
    had ended already (then `on_end` ran at once)."""
    fd: int | None = None
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        on_end()
        return None
    except (AttributeError, OSError):  # no pidfd here (an old kernel, not Linux): ask every POLL_SECONDS
        if not _alive(pid):
            on_end()
            return None

    def watch() -> None:
        if fd is not None:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            while not poller.poll():  # readable once the process has ended
                pass
        else:
            while _alive(pid):
                time.sleep(POLL_SECONDS)
        log.warning("the table (process %d) has ended: this worker ends too", pid)
        on_end()

    watcher = threading.Thread(target=watch, name="table-watch", daemon=True)
    watcher.start()
    return watcher
