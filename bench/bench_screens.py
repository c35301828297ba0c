"""Benchmark (not a test): laying out and drawing the games' real screens.

    .venv/bin/python bench/bench_screens.py [--quick]

For each game, seat screens are sampled from seeded playouts (tests/kits/screen_sampler.py, the same
sample the elision property test uses) and laid out in French and English with their menus, every
page; a share is drawn to pixels. Prints the time per screen and what the property test's 10,000
screens per game cost, against its budget of 60 s for the five games.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.kits.screen_sampler import samples  # noqa: E402
from tests.service.screens.test_elision import DRAW_EVERY, GAMES, SCREENS_PER_GAME, problems  # noqa: E402

BUDGET_S = 60.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="1,000 screens per game instead of 10,000")
    n = 1000 if parser.parse_args().quick else SCREENS_PER_GAME
    total = 0.0
    for game in GAMES:
        t0 = time.perf_counter()
        sampled = list(samples(game, n))
        t1 = time.perf_counter()
        found = sum(len(problems(s.screen, s.menu, lang, draw=i % DRAW_EVERY == 0))
                    for i, s in enumerate(sampled) for lang in ("fr", "en"))
        t2 = time.perf_counter()
        per = (t2 - t0) / n
        total += per * SCREENS_PER_GAME
        print(f"{game:17s} {n} screens: sampling {1000 * (t1 - t0) / n:6.3f} ms, layout+check "
              f"{1000 * (t2 - t1) / n:6.3f} ms per screen (fr+en); problems {found}")
    print(f"property test, projected for {SCREENS_PER_GAME} screens per game: {total:.1f} s "
          f"(budget {BUDGET_S:.0f} s, ratio {total / BUDGET_S:.2f})")


if __name__ == "__main__":
    main()
