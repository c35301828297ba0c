"""hw_tests/ (the real-table suite) away from a table: every test skips with its reason, and
`zebra-table check --hw-tests` runs it. On a real table the same suite drives the hardware."""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.commands import check as cli_check
from firmware_host.storage.config import sim_config_text

pytestmark = pytest.mark.slow  # the real-table suite run in child processes: tens of seconds in all

ROOT = Path(__file__).resolve().parents[2]
HW_TESTS = 9  # the tests in hw_tests/test_table.py (the buzzer's skips on the simulated table: it has none)
# the table's venv has pytest and no plugin of the dev environment's (hypothesis, xdist, mock):
# the suite runs here as there, and starts in half the time
ALONE = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def check_hw_tests(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "check", "--hw-tests", *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, **ALONE, **(env or {})})


def skipped_for(proc: subprocess.CompletedProcess[str], reason: str) -> None:
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out  # all skipped is a clean run
    assert f"{HW_TESTS} skipped" in out and "passed" not in out and "failed" not in out, out
    assert reason in out, out


def test_no_config_at_the_default_path_skips_everything(tmp_path: Path):
    missing = tmp_path / "etc" / "table.toml"
    skipped_for(check_hw_tests(env={"ZEBRA_TABLE_CONFIG": str(missing)}), f"no table config at {missing}")


def test_a_simulated_config_is_not_a_table(tmp_path: Path):
    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text())
    skipped_for(check_hw_tests("--config", str(cfg)), "uses the simulated reader")


def test_a_real_config_without_gpio_skips_everything():
    if glob.glob("/dev/gpiochip*"):
        pytest.skip("this machine has GPIO chips: here the suite would test them for real")
    skipped_for(check_hw_tests("--config", "deploy/table.example.toml", "--no-buttons"),  # relative to cwd
                "no GPIO (/dev/gpiochip*): not a Raspberry Pi")


def test_hw_tests_are_not_part_of_the_ci_suite():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'testpaths = ["tests"]' in text


def test_check_hw_tests_without_the_suite_or_pytest(monkeypatch, capsys):
    args = argparse.Namespace(hw_tests=True, timeout=5.0, config=None, no_buttons=False)
    monkeypatch.setattr(cli_check, "hw_tests_dir", lambda: None)
    assert cli_check.run(args) == 2
    assert "no hw_tests/ here" in capsys.readouterr().err
    monkeypatch.setattr(cli_check, "hw_tests_dir", lambda: ROOT / "hw_tests")
    monkeypatch.setattr(cli_check.importlib.util, "find_spec", lambda name: None)
    assert cli_check.run(args) == 2
    assert "pip install pytest" in capsys.readouterr().err


def test_the_installed_copy_is_found_next_to_the_venv(tmp_path: Path, monkeypatch):
    (tmp_path / "hw_tests").mkdir()
    (tmp_path / "hw_tests" / "conftest.py").write_text("")
    site = tmp_path / "venv/lib/python3/site-packages"
    monkeypatch.setattr(cli_check, "__file__", str(site / "firmware_host/commands/check.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    assert cli_check.hw_tests_dir() == tmp_path / "hw_tests"


def run_suite(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", str(ROOT / "hw_tests"), "--hw-simulated",
                           "--hw-timeout", "5", "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, **ALONE, **(env or {})})


def test_the_suite_passes_on_the_simulated_table():
    proc = run_suite()
    assert proc.returncode == 0 and f"{HW_TESTS - 1} passed, 1 skipped" in proc.stdout, proc.stdout[-3000:] + proc.stderr
    assert ">>> seat 2: press ▶" in proc.stdout and ">>> lay the tag on F5" in proc.stdout


def test_the_suite_fails_when_the_person_sees_nothing(tmp_path: Path):
    (tmp_path / "naysayer.py").write_text(
        "import pytest\n\n\n"
        "@pytest.fixture(autouse=True)\n"
        "def say_no(monkeypatch):\n"
        "    import conftest\n"
        "    monkeypatch.setattr(conftest.SimPerson, 'ask', lambda self, seat, question: 'left')\n")
    proc = run_suite("-p", "naysayer", env={"PYTHONPATH": str(tmp_path)})
    out = proc.stdout
    assert proc.returncode == 1 and "3 failed, 5 passed, 1 skipped" in out, out[-3000:] + proc.stderr
    assert "not seen at the seat" in out and "some LEDs stayed dark" in out
