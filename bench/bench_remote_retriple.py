"""Sweep of Spywhere across tables with the re-triple rule on, without a broker.

    python bench/bench_remote_retriple.py [--quick] [--games N]

Seeded games (2 to 6 players; one player, all but the first, or every other at the joining table;
every other game run to the pile's end by players who seldom identify) told by the host's shadow
(firmware_host/remote/shadow_spywhere.py) and followed by an engine fed the messages only, as the
joining table's is: a game counts as followed when every message was made and the engine ends on
the host's state and outcome. Prints the games followed, the triples shuffled back (and the
games with one), the rewrites that told a re-triple again, the most changes of stand-ins tried for
one move, the host's CPU per move, and the sealed, signed bytes per message.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.remote import code as codes  # noqa: E402
from firmware_host.remote import crossing  # noqa: E402
from tests.kits.spyfollow import follow  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="4 games")
    parser.add_argument("--games", type=int, default=48, help="games in the sweep (default 48)")
    args = parser.parse_args()
    if not 1 <= args.games <= 10_000:
        sys.exit("bench_remote_retriple: --games must be between 1 and 10000")
    assert crossing.refusal("spywhere", {"retriple": "on"}) is None
    logging.disable(logging.WARNING)
    key = codes.derive("ABCDEFGH").key
    games = 4 if args.quick else args.games
    results = [follow(k, key) for k in range(games)]
    followed = [r for r in results if r["failed"] is None]
    for k, r in enumerate(results):
        if r["failed"] is not None:
            print(f"  game {k} NOT FOLLOWED: {r['failed']}")
    sizes = [s for r in results for s in r["sizes"]]
    cpu = [c for r in results for c in r["cpu"]]
    print(f"followed to the end, on the host's state and outcome: {len(followed)} of {games} games "
          f"({sum(r['moves'] for r in results) / games:.0f} moves each)")
    print(f"triples shuffled back: {sum(r['retriples'] for r in results)} in "
          f"{sum(r['retriples'] > 0 for r in results)} games; rewrites {sum(r['rewrites'] for r in results)}, "
          f"{sum(r['across'] for r in results)} telling a re-triple again; "
          f"at most {max(r['tries'] for r in results)} changes tried for one move")
    print(f"host: shadow {sum(cpu) / len(cpu) * 1000:.2f} ms CPU per move (max {max(cpu) * 1000:.0f} ms)")
    print(f"wire: {sum(sizes) / len(sizes):,.0f} bytes per message sealed, largest {max(sizes):,}")


if __name__ == "__main__":
    main()
