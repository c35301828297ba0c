"""bench/bench_web.py runs in its quick mode and prints its figures (no timing is asserted)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_bench_web_quick_prints_cpu_per_event_and_delivery() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_web.py"), "--quick", "--events", "60"],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for label in ("no web server", "server, no page", "1 table page", "8 table pages"):
        assert label in out, out
    assert re.search(r"8 table pages\s*: \+\s*-?\d+ µs CPU per event burst .* snapshots/s", out), out
    assert "event→page p50" in out
