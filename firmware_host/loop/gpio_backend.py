"""A table without a GPIO library gpiozero can use: told in one message, with what to install.

gpiozero raises BadPinFactory (an ImportError) when none of its pin factories loads, and a plain
ModuleNotFoundError when GPIOZERO_PIN_FACTORY names one whose module is missing. Restarting the
service cannot fix either: `run` and `check` end with NO_GPIO_BACKEND, which the unit's
RestartPreventExitStatus= lists.
"""

from __future__ import annotations

import importlib.util

NO_GPIO_BACKEND = 5  # exit status: no GPIO library; the unit does not restart the service for it
FACTORY_MODULES = ("lgpio", "RPi", "pigpio")  # the modules of gpiozero's pin factories


def missing_backend(exc: BaseException) -> bool:
    """True if `exc` (or what caused it) says gpiozero found no GPIO library it can use."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if type(cause).__name__ == "BadPinFactory" and type(cause).__module__ == "gpiozero.exc":
            return True
        if isinstance(cause, ModuleNotFoundError) and (cause.name or "").split(".")[0] in FACTORY_MODULES:
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def explain(config_path: str) -> str:
    """One message: what is missing, how to install it, and that a restart will not help."""
    head = f"cannot set up the table from {config_path}: no GPIO library (buttons, buzzer)"
    if importlib.util.find_spec("lgpio") is None:
        what = ("the Python module lgpio is missing: on Raspberry Pi OS `sudo apt install python3-lgpio` "
                "(deploy/install.sh does), on plain Debian (no python3-lgpio in its archive) "
                "`sudo /opt/zebra-table/venv/bin/pip install lgpio` (wheels for arm64 and armhf)")
    else:
        what = ("lgpio is installed but opened no GPIO chip: is this a Raspberry Pi, is there a "
                "/dev/gpiochip0, and is the user in the gpio group?")
    return (f"{head} — {what}. A machine without GPIO runs the simulated table (reader port \"sim\"). "
            f"Exit status {NO_GPIO_BACKEND}: the service is not restarted until this is fixed.")
