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


def test_bench_powercut_quick(capsys):
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_powercut

    assert bench_powercut.main(["--quick"]) == 0
    text = capsys.readouterr().out
    assert "0 acknowledged moves lost, 0 problems" in text and text.count(": caught") == 3
