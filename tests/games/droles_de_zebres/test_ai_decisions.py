"""Drôles de Zèbres' strong level: its decisions over seeded positions, pinned.

The strength figures of docs/games/droles-de-zebres.md hold for the search as it decides today: a
faster search must choose the same action for the same view, level, seed and budget. This pins,
for every position, the chosen action and a digest of the whole ranking (every root move and its
visits, and the generator's next number: the same random numbers drawn), and the games of the
model's random playouts. Print new pins after a deliberate change of the search with

    .venv/bin/python -m tests.games.droles_de_zebres.test_ai_decisions
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable

from games.ai import Budget
from games.core import Action, GameConfig
from games.droles_de_zebres import GAME, ai, ai_model, ai_playout
from games.droles_de_zebres.ai_model import P_OVER, Model
from tests.kits.ddz_positions import decisions, endings

POSITIONS = decisions(range(10), 10)  # 66 positions: guardian, placements, moves, crocodiles
SMALL = Budget(300)
# positions played at the default budget (1750 iterations): the first placement, a guardian's
# move, a placement in the middle of the game (none is proven won: the search decides)
AT_DEFAULT = (6, 1, 9)

PINNED_SMALL = [
    "guardian 5 ad10fa99ad",
    "move 2 ad8fdf621a",
    "move 3 30522520b8",
    "move 3 e4d729e783",
    "move 3 62254c2caf",
    "move 2 03fe51393a",
    "place green/elephant/1 E4 c427ccd150",
    "place white/zebra/2 B2 0281c51462",
    "place green/zebra/4 F2 7fb24a9f09",
    "place white/lion/1 F3 d701401a3f",
    "place green/gazelle/3 F2 e524cb4b13",
    "place white/gazelle/6 D3 386e72026f",
    "swap D4 2db4221b9d",
    "move 3 a44dd291ae",
    "move 2 30bd4d189d",
    "move 2 cebdd33f5d",
    "stop 10d462afb3",
    "swap A1 a6ef921d75",
    "swap C2 405ee3bd7c",
    "place white/gazelle/1 A4 d563024ea9",
    "move 2 66ea3294d1",
    "place white/lion/1 F1 bc31560a13",
    "place green/zebra/3 A2 9effa1ea81",
    "place white/crocodile/1 D2 6a4edc0312",
    "place green/gazelle/2 D2 39e48b9031",
    "place white/gazelle/2 B5 a593673383",
    "move 2 90199fe074",
    "move 1 454bf41534",
    "swap A3 77b2ed9bde",
    "place green/elephant/1 B4 0158b664ef",
    "place white/zebra/4 E2 3f64dcd8ca",
    "place white/gazelle/1 A5 43d15eb6fe",
    "place white/zebra/2 A5 faa7c927c3",
    "place green/zebra/3 C4 4a3724a072",
    "place white/crocodile/1 F1 ff6213b913",
    "place green/lion/1 C1 cf1a7c07bc",
    "swap E4 4bcea49bb8",
    "move 3 37d4cfaabd",
    "place green/gazelle/5 B5 37118f68d2",
    "move 2 8076474973",
    "move 3 bdcf8936dc",
    "move 1 97befc546b",
    "move 2 e046073db2",
    "move 3 d44dfc6760",
    "place green/elephant/1 D4 fd12b9d60a",
    "place white/zebra/5 E5 9217bd7196",
    "place green/zebra/4 C1 e2823252d5",
    "place white/crocodile/1 A3 a6f29750ef",
    "place white/gazelle/6 E3 9baf266677",
    "swap C5 2acb0fa966",
    "swap B5 7195c32f8d",
    "stop 418e813f4d",
    "move 2 89598a3c8e",
    "move 3 219458a602",
    "move 2 b154a79570",
    "move 1 ccf21306a9",
    "swap E2 68772dfc18",
    "place white/gazelle/2 E4 849ad2b8e9",
    "place green/gazelle/1 F1 52b272b207",
    "place white/gazelle/1 D3 a531f40857",
    "place green/crocodile/1 D3 fa4b48d7e7",
    "place white/gazelle/1 D1 b81982ca50",
    "place green/gazelle/3 F5 c399edd278",
    "swap C2 e1168cb286",
    "swap C1 1f54120288",
    "place green/gazelle/4 B5 f0c57d543a",
]
PINNED_DEFAULT = ['place green/zebra/1 E4 83288c2926', 'move 2 1ccf9ded12', 'place white/elephant/1 B3 bda77e0cfa']
PINNED_PLAYOUTS = "7c5d0b9aad336996"


def _say(action: Action) -> str:
    return " ".join(str(v) for v in action.values()).replace("droles-de-zebres/", "")


def decide(index: int, budget: Budget | None) -> str:
    """The strong level's action at a position and a digest of its ranking (seed: the index)."""
    state, seat = POSITIONS[index]
    rng = random.Random(index)
    ranked = ai.rank(GAME.view(state, seat), seat, "strong", rng, budget)
    digest = hashlib.sha256(json.dumps([[r.action, r.playouts] for r in ranked], sort_keys=True).encode())
    digest.update(str(rng.random()).encode())
    return f"{_say(ranked[0].action)} {digest.hexdigest()[:10]}"


def model_playouts(playout: Callable[[Model, random.Random], Model], games: int = 300) -> str:
    """A digest of seeded random games of the search's model from the start (every guardian position)."""
    start = ai_model.from_state(GAME.initial_state(GAME.validate_config(GameConfig(players=2))))
    rng = random.Random(11)
    digest = hashlib.sha256()
    for i in range(games):
        model = start.copy()
        model.play(i % 2, ("g", i % 22))
        playout(model, rng)
        digest.update(repr((model.cells, model.totals(), model.inauguration)).encode())
    digest.update(str(rng.random()).encode())
    return digest.hexdigest()[:16]


def test_strong_decisions_are_pinned() -> None:
    """300 iterations: the same action, the same visits per root move, the same random numbers."""
    assert len(POSITIONS) == len(PINNED_SMALL) == 66
    assert [decide(i, SMALL) for i in range(len(POSITIONS))] == PINNED_SMALL


def test_strong_decisions_at_the_default_budget_are_pinned() -> None:
    assert [decide(i, None) for i in AT_DEFAULT] == PINNED_DEFAULT
    assert ai.DEFAULT_BUDGETS["strong"] == Budget(1750)


def test_model_random_playouts_are_pinned() -> None:
    """The reference (move by move) and the search's playouts (one loop) play the pinned games."""
    assert model_playouts(ai_model.random_playout) == PINNED_PLAYOUTS
    assert model_playouts(ai_playout.random_playout) == PINNED_PLAYOUTS


def test_the_search_playouts_are_the_reference_games() -> None:
    """From every position of the pins (a guardian to place, placements, moves, crocodiles' swaps
    under way) and the endings: the same final position, the same random numbers drawn."""
    starts = POSITIONS + [(state, model.turn) for state, model in endings(20, range(30))]
    assert len(starts) == 96
    for i, (state, seat) in enumerate(starts):
        start = ai_model.from_state(state)
        start.turn = seat  # in the guardian's phase both seats may act: this one does
        for k in range(4):
            mine, reference = start.copy(), start.copy()
            rng, reference_rng = random.Random(100 * i + k), random.Random(100 * i + k)
            ai_playout.random_playout(mine, rng)
            ai_model.random_playout(reference, reference_rng)
            assert mine.phase == P_OVER
            assert ai_model.signature(mine) == ai_model.signature(reference), (i, k)
            assert mine.totals() == reference.totals()
            assert rng.random() == reference_rng.random()


if __name__ == "__main__":
    print("PINNED_SMALL = [")
    for i in range(len(POSITIONS)):
        print(f'    "{decide(i, SMALL)}",')
    print("]")
    print(f"PINNED_DEFAULT = {[decide(i, None) for i in AT_DEFAULT]!r}")
    print(f'PINNED_PLAYOUTS = "{model_playouts(ai_model.random_playout)}"')
