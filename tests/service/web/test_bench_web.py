"""bench/bench_web.py runs in its quick mode and prints its figures (no timing is asserted)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def printed() -> str:
    """What one quick run of the benchmark printed (every section: the tests read their own)."""
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_web.py"), "--quick", "--events", "60"],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.slow
def test_bench_web_quick_prints_cpu_per_event_and_delivery(printed: str) -> None:
    out = printed
    for label in ("no web server", "server, no page", "1 table page", "8 table pages"):
        assert label in out, out
    assert re.search(r"8 table pages\s*: \+\s*-?\d+ µs CPU per event burst .* snapshots/s", out), out
    assert "event→page p50" in out


@pytest.mark.slow
def test_bench_web_quick_prints_spectators_phone_and_page_weight(printed: str) -> None:
    out = printed
    assert re.search(r"50 spectators\s*: RSS [\d.]+ MB → [\d.]+ MB .*the table's process alone.*server saw 50 pages\); "
                     r"press → screen p50 [\d.]+ ms, p95 [\d.]+ ms", out), out
    assert re.search(r"phone button\s*: seat page message → seat screen p50 [\d.]+ ms, p95 [\d.]+ ms "
                     r"\(20/20 presses\)", out), out
    for page in ("/ ", "/watch", "seat page", "/replay"):
        assert re.search(rf"page weight {re.escape(page)}\s*: [\d.]+ kB \(HTML [\d.]+ kB \+ \d+ files; "
                         r"0 references off the table\)", out), out
