"""Shared pytest hooks: the fault suites' figures, written to JSON and printed at the end of a run."""

from __future__ import annotations

import sys
from typing import Any

import pytest


@pytest.fixture(scope="session")
def fault_summary(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The fault suites' summary collector (tests/kits/faultkit.py), writing under the run's tmp dir."""
    from tests.kits import faultkit

    faultkit.SUMMARY_FILE = tmp_path_factory.getbasetemp() / "fault-summary.json"
    return faultkit


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the fault suites' figures (kills survived, frames injected, reconnects, mismatches)."""
    kit = sys.modules.get("tests.kits.faultkit")
    if kit is None or not kit.SUMMARY:
        return
    terminalreporter.write_sep("=", "fault suites")
    for line in kit.summary_lines():
        terminalreporter.write_line(line)
