"""The reliability benchmarks' quick modes, as CI runs them: they print their figures and pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_journal_quick():
    out = subprocess.run([sys.executable, "bench/bench_journal.py", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "games list:" in out.stdout and "journal open after a clean stop" in out.stdout
    assert "integrity check ran: True" in out.stdout


# bench_powercut.py --quick is not run here: CI runs it (bench/run_quick.py), and it exits 1 on any
# acknowledged move lost or a journal broken on purpose that it does not catch; the same power cuts
# are the suite's own test (tests/service/storage/test_powercut.py). Running it here too cost 30 s.
