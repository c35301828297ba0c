"""Choice of gpiozero pin factory: mock pins for the simulator and tests, the real one on a Pi.

The pin factory is the only difference between the simulated and the real table for buttons and
buzzer: the same gpiozero devices and the same code of ours run on top of either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # gpiozero is imported lazily: it costs start-up time on a Pi Zero
    from gpiozero import Factory

MOCK = "mock"
AUTO = "auto"


class PinFactoryError(ValueError):
    """A pin factory name that gpiozero does not know, or one that cannot start here."""


def make_pin_factory(kind: str | None = AUTO) -> Factory | None:
    """A gpiozero pin factory: "mock" (PWM-capable mock pins), "auto"/None (gpiozero's default).

    "auto" returns None so gpiozero picks its default factory, honouring the environment
    (GPIOZERO_PIN_FACTORY=lgpio on a Pi 5 is set by the system, not by us). Any other name is
    one of gpiozero's registered factories ("lgpio", "rpigpio", "native", "pigpio").
    """
    if kind is None or kind == AUTO:
        return None
    if kind == MOCK:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        # PWM-capable mock pins serve both buttons (inputs) and the tonal buzzer (PWM output);
        # one factory per table keeps pin reservations consistent across devices.
        return MockFactory(pin_class=MockPWMPin)
    from importlib.metadata import entry_points

    found = {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}
    if kind not in found:
        known = ", ".join(sorted({MOCK, AUTO, *found}))
        raise PinFactoryError(f"unknown pin factory {kind!r} (known: {known})")
    try:
        return found[kind].load()()
    except Exception as exc:  # each backend fails in its own way when its hardware is absent
        raise PinFactoryError(f"pin factory {kind!r} cannot start here: {exc}") from exc


def is_mock(factory: Factory | None) -> bool:
    """True for gpiozero's MockFactory (the simulator may drive its pins)."""
    if factory is None:
        return False
    from gpiozero.pins.mock import MockFactory

    return isinstance(factory, MockFactory)
