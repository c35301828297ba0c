"""Shared by the bench/ scripts: percentiles, the Pi Zero 2 W estimate, the figures table."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# CPython on the Pi Zero 2 W's Cortex-A53 (1 GHz) runs this code roughly 8-15x slower than on the
# development machine; the estimates use the pessimistic end.
PI_FACTOR = 15
FRAME_MS = 23.3  # one whole SSD1306 frame (1030 bytes) on I2C at 400 kHz


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def on_pi(value: float, budget: float | None = None, factor: float = PI_FACTOR) -> str:
    """A CPU figure scaled to the Pi Zero 2 W, and whether it stays within `budget` there."""
    scaled = value * factor
    text = f"Pi x{factor:g}: {scaled:.3g}"
    if budget is not None:
        text += " (holds)" if scaled <= budget else " (does NOT hold)"
    return text


def verdict(value: float, target: float) -> str:
    """"ok" or "MISSED" against a target on this machine (lower is better)."""
    return "ok" if value <= target else "MISSED"
