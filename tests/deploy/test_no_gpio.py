"""Without a GPIO library gpiozero can use, `check` and the service say what is missing and end
with the exit status the unit does not restart (instead of a BadPinFactory traceback every 5 s)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.loop.gpio_backend import NO_GPIO_BACKEND, missing_backend
from tests.deploy.test_unit import unit_entries

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "table.example.toml"

has_gpio = importlib.util.find_spec("lgpio") is not None and Path("/dev/gpiochip0").exists()


@pytest.fixture
def real_table_config(tmp_path: Path) -> Path:
    """The example table (buzzer on GPIO18: opened first) with its data in tmp_path."""
    text = EXAMPLE.read_text().replace('data_dir = "/var/lib/zebra-table"', f'data_dir = "{tmp_path / "data"}"')
    assert str(tmp_path) in text
    config = tmp_path / "table.toml"
    config.write_text(text)
    return config


@pytest.mark.skipif(has_gpio, reason="this machine has GPIO (lgpio and /dev/gpiochip0): nothing is missing")
@pytest.mark.parametrize("command", [["check", "--no-buttons"], ["run"]])
@pytest.mark.parametrize("factory", [None, "lgpio"])  # gpiozero's own choice; the Pi 5's environment
def test_no_gpio_library_is_one_message_and_no_restart(real_table_config: Path, command: list[str],
                                                       factory: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    if factory:
        env["GPIOZERO_PIN_FACTORY"] = factory
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", *command,
                           "--config", str(real_table_config)], capture_output=True, text=True, timeout=60,
                          env=env, cwd=ROOT)
    assert proc.returncode == NO_GPIO_BACKEND, proc.stderr
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "no GPIO library" in last and "python3-lgpio" in last and "pip install lgpio" in last
    assert str(real_table_config) in last


def test_the_unit_does_not_restart_a_service_without_gpio() -> None:
    prevent = unit_entries()["Service"]["RestartPreventExitStatus"]
    assert prevent == ["2 5"] and str(NO_GPIO_BACKEND) in prevent[0].split()


def test_missing_backend_reads_the_cause_chain() -> None:
    from gpiozero.exc import BadPinFactory

    try:
        try:
            raise BadPinFactory("Unable to load any default pin factory!")
        except ImportError as inner:
            raise RuntimeError("seat 1: cannot set up buttons") from inner
    except RuntimeError as outer:
        assert missing_backend(outer)
    assert missing_backend(ModuleNotFoundError("No module named 'lgpio'", name="lgpio"))
    assert not missing_backend(ModuleNotFoundError("No module named 'serial'", name="serial"))
    assert not missing_backend(OSError("/dev/ttyACM0: no such device"))
