"""CI runs the remote-play benchmark's quick mode: it must run to the end and print its figures
(the figures themselves are read by people, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.kits.venuekit import need_mosquitto

ROOT = Path(__file__).resolve().parents[3]


def test_bench_remote_quick_runs_and_prints_its_figures():
    need_mosquitto()
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_remote.py"), "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    print(proc.stdout)
    for words in ("-> instruction at the other", "bytes per move", "remote games at once on one broker"):
        assert words in proc.stdout, proc.stdout
