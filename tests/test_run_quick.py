"""bench/run_quick.py, CI's run of every benchmark's quick mode, fails a benchmark whose quick run
does not print every section it reports (the sections, never a figure's value, are checked)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def run_quick() -> ModuleType:
    """bench/run_quick.py as a module."""
    spec = importlib.util.spec_from_file_location("run_quick", BENCH / "run_quick.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("run_quick", module)
    spec.loader.exec_module(module)
    return module


def test_every_checked_benchmark_exists_and_an_empty_run_misses_its_sections() -> None:
    quick = run_quick()
    assert len(quick.EXPECTED) >= 7
    for name, expected in quick.EXPECTED.items():
        assert (BENCH / name).is_file(), name
        lacking = quick.missing(name, "")
        assert lacking and len(lacking) == sum(times != 0 for _, times in expected), (name, lacking)


def test_a_section_printed_the_wrong_number_of_times_is_missing() -> None:
    quick = run_quick()
    journal = "games list: 3\njournal open after a clean stop: 2 ms\nintegrity check ran: True\n"
    assert quick.missing("bench_journal.py", journal) == []
    assert quick.missing("bench_journal.py", journal.replace("True", "False")) != []
    assert any("'met'" in p for p in quick.missing("bench_ai.py", "target met"))  # quick figures carry no verdict


def test_a_run_without_its_sections_fails(tmp_path: Path) -> None:
    quick = run_quick()
    script = tmp_path / "bench_journal.py"
    script.write_text("print('games list: 3')\n")
    ok, text = quick.run(script, 60.0)
    assert not ok and "sections missing" in text and "journal open after a clean stop" in text, text
    script.write_text("print('games list: 3')\nprint('journal open after a clean stop')\n"
                      "print('integrity check ran: True')\n")
    assert quick.run(script, 60.0)[0]
