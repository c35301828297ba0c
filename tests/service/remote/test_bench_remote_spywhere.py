"""CI runs the quick mode of Spywhere's remote-play benchmark: it must run to the end and print its
figures (the figures themselves are read by people, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_bench_remote_spywhere_quick_runs_and_prints_its_figures():
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_remote_spywhere.py"), "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    print(proc.stdout)
    for words in ("host: shadow", "host's loop", "bytes per message sealed", "ms per message followed"):
        assert words in proc.stdout, proc.stdout
