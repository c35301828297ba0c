"""Shared pytest hooks: the fault suites' figures, written to JSON and printed at the end of a run.

With pytest-xdist (`./dev test` runs the suite on every core) each worker counts its own figures;
they travel to the controlling process in the worker's `workeroutput` and are added up there."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WORKER_KEY = "fault_summary"


def pytest_configure(config: pytest.Config) -> None:
    """Where the environment asks for no bytecode beside the sources (PYTHONDONTWRITEBYTECODE), the
    run's processes share a bytecode cache of their own, outside the tree and removed at the end:
    the xdist workers and the hundreds of Python children the tests start (services killed and
    restarted, commands, child test runs) compile each module once instead of at every start."""
    if hasattr(config, "workerinput") or "PYTHONPYCACHEPREFIX" in os.environ \
            or not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return  # a worker inherits its controller's choice; a cache chosen by the user, or none asked away
    prefix = tempfile.mkdtemp(prefix="zebra-table-pycache-")
    config.add_cleanup(lambda: shutil.rmtree(prefix, ignore_errors=True))
    os.environ["PYTHONPYCACHEPREFIX"] = prefix  # read by every process started from now on
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False  # this process's own imports from now on


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker: the files holding a test marked `slow` first, then the others by their
    number of tests, most first (each file's tests in their order).

    `./dev test` hands the files out in this order (--dist loadfile --no-loadscope-reorder), one at a
    time to the first worker free: a long file handed out last would keep one worker busy while the
    other has nothing left to do."""
    if not hasattr(config, "workerinput"):
        return  # a run in one process: the files in their usual order
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    order = sorted(files.values(), key=lambda tests: (not any(t.get_closest_marker("slow") for t in tests),
                                                      -len(tests)))
    items[:] = [item for tests in order for item in tests]


@pytest.fixture(scope="session", autouse=True)
def private_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """$XDG_DATA_HOME of this run (of this xdist worker): a command started without --journal
    keeps its journal there, never in the user's home, where another run would find it locked."""
    home = tmp_path_factory.mktemp("xdg-data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(home))
        yield home


@pytest.fixture(scope="session")
def fault_summary(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The fault suites' summary collector (tests/kits/faultkit.py), writing under the run's tmp dir."""
    from tests.kits import faultkit

    faultkit.SUMMARY_FILE = tmp_path_factory.getbasetemp() / "fault-summary.json"
    return faultkit


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On an xdist worker: hand the figures it counted to the controlling process."""
    kit = sys.modules.get("tests.kits.faultkit")
    output = getattr(session.config, "workeroutput", None)
    if kit is not None and kit.SUMMARY and output is not None:
        output[WORKER_KEY] = json.dumps({"figures": kit.summary_json(), "file": str(kit.SUMMARY_FILE)})


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """On the xdist controller: add a finished worker's figures to this process's summary."""
    sent = getattr(node, "workeroutput", {}).get(WORKER_KEY)
    if sent is None:
        return
    from tests.kits import faultkit

    data = json.loads(sent)
    for suite, figures in data["figures"].items():
        faultkit.SUMMARY.setdefault(suite, Counter()).update(figures)
    if data["file"] != "None":  # a worker's tmp dir lies in the run's: the sum is written beside them
        worker_file = Path(data["file"])
        faultkit.SUMMARY_FILE = worker_file.parent.parent / worker_file.name
        faultkit.SUMMARY_FILE.write_text(json.dumps(faultkit.summary_json(), indent=1, sort_keys=True) + "\n")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the fault suites' figures (kills survived, frames injected, reconnects, mismatches)."""
    kit = sys.modules.get("tests.kits.faultkit")
    if kit is None or not kit.SUMMARY:
        return
    terminalreporter.write_sep("=", "fault suites")
    for line in kit.summary_lines():
        terminalreporter.write_line(line)
