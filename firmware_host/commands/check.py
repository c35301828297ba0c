"""`zebra-table check`: diagnostics of a built table, printed as a pass/fail table."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any, TextIO

from firmware_host.commands.common import default_config_path, load_registry
from firmware_host.loop import diagnostics
from firmware_host.loop.gpio_backend import NO_GPIO_BACKEND, explain, missing_backend
from firmware_host.screens.frames import Frame
from firmware_host.storage.config import ConfigError, load_config
from firmware_host.storage.tags import TagError
from games.core import Screen, Text, tr

STAND_IN_UID = "04A1B2C3D4E5F6"  # the tag the check lays itself on a simulated table


def add_parser(sub: Any) -> None:
    """Register the `check` sub-command."""
    p = sub.add_parser("check", help="check the table's reader, screens, buttons, LEDs and antennas")
    p.add_argument("--config", help="table config (default: $ZEBRA_TABLE_CONFIG or /etc/zebra-table/table.toml)")
    p.add_argument("--no-buttons", action="store_true", help="skip the button presses")
    p.add_argument("--antennas", action="store_true", help="also lay a tag on every zone in turn")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for each press or tag")
    p.add_argument("--hardware", action="store_true",
                   help="check real hardware only: fail (exit 2) when the config is the simulated table")
    p.add_argument("--hw-tests", action="store_true",
                   help="run the real-table test suite (hw_tests/) with pytest instead")
    p.set_defaults(func=run)


def hw_tests_dir() -> Path | None:
    """hw_tests/ of the source tree this package runs from, or the copy deploy/install.sh made."""
    for candidate in (Path(__file__).resolve().parents[2] / "hw_tests", Path(sys.prefix).parent / "hw_tests"):
        if (candidate / "conftest.py").is_file():
            return candidate
    return None


def run_hw_tests(args: argparse.Namespace) -> int:
    """`zebra-table check --hw-tests`: pytest on hw_tests/; its exit status."""
    where = hw_tests_dir()
    if where is None:
        print("no hw_tests/ here: run from a source tree, or install with deploy/install.sh", file=sys.stderr)
        return 2
    if importlib.util.find_spec("pytest") is None:
        print(f"the hardware tests need pytest: {sys.executable} -m pip install pytest", file=sys.stderr)
        return 2
    cmd = [sys.executable, "-m", "pytest", str(where), "-rs", "-p", "no:cacheprovider",
           "--hw-timeout", str(args.timeout)]
    if args.config:
        cmd += ["--hw-config", str(Path(args.config).resolve())]  # pytest runs in hw_tests/
    if args.no_buttons:
        cmd.append("--unattended")
    return subprocess.call(cmd, cwd=where)


def run(args: argparse.Namespace, out: TextIO | None = None, table: Any = None) -> int:
    """Run the checks; exit 1 if any failed. `table` lets tests pass a simulated one."""
    out = out or sys.stdout
    if getattr(args, "hw_tests", False):
        return run_hw_tests(args)
    from firmware_host.loop.table import TableSetupError, open_table

    own = table is None
    if own:
        try:
            config = load_config(args.config or default_config_path())
            registry = load_registry(config)
        except (ConfigError, TagError) as exc:
            print(exc, file=sys.stderr)
            return 2
        if getattr(args, "hardware", False) and config.simulated:
            print(f"no real table to check: {config.path} is the simulated table (reader port \"sim\"); "
                  "give --config, set $ZEBRA_TABLE_CONFIG or install /etc/zebra-table/table.toml",
                  file=sys.stderr)
            return 2
        try:
            table = open_table(config, registry)
        except (TableSetupError, ImportError) as exc:  # gpiozero's BadPinFactory is an ImportError
            if missing_backend(exc):
                print(explain(config.path), file=sys.stderr)
                return NO_GPIO_BACKEND
            if not isinstance(exc, TableSetupError):
                raise
            print(exc, file=sys.stderr)
            return 3
        table.start()
    # The simulated table opened here has nobody at it: the check presses each button on the mock
    # pins and lays a tag on each antenna of the virtual controller itself (the same code path as
    # real presses and tags), instead of waiting for hands that never come.
    stand_in = own and bool(getattr(table, "simulated", False))
    if stand_in:
        print("simulated table: the check presses the buttons and lays the tags itself", file=out)
    try:
        results = [diagnostics.check_reader(table)]
        results += diagnostics.check_screens(table)
        results += diagnostics.check_partial_updates(table)
        if not args.no_buttons:
            def prompt(seat: int, button: str) -> None:
                label = diagnostics.ARROWS.get(button, button)
                print(f"seat {seat}: press {label}", file=out, flush=True)
                if seat in table.screens.seats:
                    table.outputs.show(seat, Frame(Screen(tr("Test des boutons", "Button test"),
                                                          (Text(f"Appuyez sur {label}", f"Press {label}"),))))
                if stand_in and table.sim_buttons is not None:
                    table.sim_buttons.click(seat, button)
            results += diagnostics.check_buttons(table, args.timeout, prompt)

            def hold(seat: int, button: str) -> None:
                print(diagnostics.hold_instruction(table, seat, button), file=out, flush=True)
                if stand_in and table.sim_buttons is not None:
                    table.sim_buttons.long_press(seat, button)
            held = diagnostics.check_long_press(table, args.timeout, hold)
            if held is not None:
                results.append(held)
        buzzer = diagnostics.check_buzzer(table)
        if buzzer is not None:
            results.append(buzzer)
        if results[0].ok:
            results.append(diagnostics.led_chase(table))
            if args.antennas:
                def lay(zone: str) -> None:
                    print(f"lay a tag on {zone} (LED lit)", file=out, flush=True)
                    if stand_in and table.sim_reader is not None:
                        antenna = table.config.zones[zone]
                        table.sim_reader.place(antenna, STAND_IN_UID)
                        table.sim_reader.remove(antenna, STAND_IN_UID)
                results += diagnostics.check_antennas(table, args.timeout, lay)
        if getattr(table, "simulated", False):  # a pass on the simulator proves nothing about hardware
            print(f"simulated table ({table.config.path}): no real reader, screen or button was checked",
                  file=out)
            results = [diagnostics.Result(r.name, r.ok, f"simulated: {r.detail}" if r.detail else "simulated")
                       for r in results]
            text = diagnostics.report(results)
            print("\n".join(row if "simulated" in row else f"{row} (simulated)" for row in text.splitlines()),
                  file=out)
            return 0 if all(r.ok for r in results) else 1
        print(diagnostics.report(results), file=out)
        return 0 if all(r.ok for r in results) else 1
    finally:
        if own:
            table.close()
