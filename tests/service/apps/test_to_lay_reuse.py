"""The computer seats whose move the table waits to see laid are worked out once per change: over
seeded random games with a computer seat (its moves laid right, wrong or in part, time passing),
the kept answer is, at every event, the one worked out afresh."""

from __future__ import annotations

import random

import pytest

from firmware_host.apps.session import GameSession
from tests.service.apps.test_frame_reuse import event, open_game

EVENTS = 200


def fresh(s: GameSession) -> frozenset[int]:
    """computers_to_lay without what it kept."""
    kept, s.table._to_lay = s.table._to_lay, None
    try:
        return s.table.computers_to_lay()
    finally:
        s.table._to_lay = kept


# seeds whose games leave a computer's move to lay many times (a ZOP computer's move is in its hand)
@pytest.mark.parametrize(("game_id", "seed"), [("droles-de-zebres", 2), ("spywhere", 3)])
def test_the_seats_to_lay_kept_are_the_ones_worked_out_afresh(game_id: str, seed: int) -> None:
    s, clock = open_game(game_id, seed, True)
    rng = random.Random(seed)
    sensed: dict[str, frozenset[str]] = {}
    waited = reused = 0
    for n in range(EVENTS):
        before = s.table._to_lay
        got = s.table.computers_to_lay()
        reused += before is not None and s.table._to_lay is before
        assert got == fresh(s), (game_id, n)
        waited += bool(got)
        if not event(s, clock, rng, sensed):
            break
    assert reused > 0 and waited > 0  # kept answers, some of them naming a seat
