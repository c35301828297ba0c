"""Figures of the largest messages a remote game sends: the whole game (sent again when a table
restarts) at the game's end, and the largest rewrite, in sealed bytes, over seeded random games.

    nice -n 10 python bench/bench_remote_whole.py [--seeds N] [--quick]

`--quick` (CI): one game per case, the figures meaningless, the script checked to run.

Spywhere's games are played by players who seldom identify (they run to the pile's end: the longest).

Each game is told by the host's side as a table plays it (firmware_host/remote/teller.py, its
shadow), every message sealed and signed as the link sends it (wire.encode); a message over
link.PART_BYTES crosses in parts (link.py), each one within it.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.remote import crossing, parts, wire  # noqa: E402
from firmware_host.remote.teller import Teller  # noqa: E402
from firmware_host.venue.inbound import MAX_PAYLOAD  # noqa: E402
from games.core import GameConfig  # noqa: E402
from games.playout import Playout, random_playout  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.kits.spyplay import quiet_playout  # noqa: E402

KEY = b"k" * 32
WHERE = wire.topic("r" * 32, "host")
STAMP = {"seq": 1, "ack": 0, "run": 1, "seen": 0, "base": 0}
CASES = [("droles-de-zebres", 2, (1,)), ("zop", 2, (1,)), ("spywhere", 4, (1, 3)), ("spywhere", 6, (1, 3)),
         ("mata-hari", 3, (1,)), ("mata-hari", 4, (1, 3))]


def sealed(kind: str, fields: dict[str, Any]) -> int:
    """Bytes of the message as one sealed, signed payload."""
    return len(wire.encode(KEY, WHERE, {"kind": kind, **STAMP, **fields}))


def measure(game_id: str, players: int, seats: tuple[int, ...], seed: int) -> tuple[int, int, int]:
    """(moves, the whole game's bytes at the end, the largest rewrite's bytes) of one seeded game."""
    game = get_game(game_id)
    config = game.validate_config(GameConfig(players, dict(crossing.REMOTE_OPTIONS.get(game_id, {})), seed))
    if game_id == "spywhere":  # players who seldom identify: the game runs to the pile's end
        play = Playout(config, quiet_playout(game, config, seed))
    else:
        play = random_playout(game, config, seed)
    sent: list[tuple[str, dict[str, Any]]] = []
    teller = Teller(lambda kind, fields: sent.append((kind, fields)))
    teller.start(lambda: crossing.shadow(game, play.config, seats, []), False)
    if hasattr(teller.shadow, "costly"):
        teller.shadow.costly = lambda *_: False  # every message made on this thread
    state = game.initial_state(play.config)
    for seat, action in play.moves:
        after = game.apply(state, seat, action).state
        teller.tell(state, seat, action, after)
        state = after
        if not teller.finish(600.0):
            sys.exit("bench_remote_whole: the teller's worker did not finish")
    whole = sealed("game", crossing.game_fields(game, play.config, teller.shadow, state))
    rewrite = max((sealed(k, f) for k, f in sent if k == "rewrite"), default=0)
    return len(play.moves), whole, rewrite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=8, help="games per case (seeds 1 to N)")
    parser.add_argument("--quick", action="store_true", help="one game per case (CI: the script runs)")
    args = parser.parse_args()
    if args.quick:
        args.seeds = 1
    if not 1 <= args.seeds <= 1000:
        parser.error(f"--seeds must be 1 to 1000, got {args.seeds}")
    logging.disable(logging.WARNING)
    for game_id, players, seats in CASES:
        rows = [measure(game_id, players, seats, seed) for seed in range(1, args.seeds + 1)]
        print(f"{game_id}, {players} players ({len(seats)} at the joining table), {len(rows)} games: "
              f"moves max {max(r[0] for r in rows)}; whole game max {max(r[1] for r in rows)} B "
              f"(mean {sum(r[1] for r in rows) // len(rows)}); rewrite max {max(r[2] for r in rows)} B; "
              f"one message at most {MAX_PAYLOAD} B, parts over {parts.PART_BYTES} B of JSON")


if __name__ == "__main__":
    main()
