"""What every seat's frame reads of the table is read once per pass over the seats: over seeded
random games of every game, each seat's frame asked in a pass is, at every event, the one a full
build gives, and the table-wide part is read once per pass."""

from __future__ import annotations

import random

import pytest

from games.registry import game_ids
from tests.service.apps.test_frame_reuse import event, open_game

EVENTS = 200


@pytest.mark.parametrize("game_id", game_ids())
def test_every_frame_of_a_pass_is_the_one_a_full_build_gives(game_id: str) -> None:
    s, clock = open_game(game_id, 3, False)
    rng = random.Random(3)
    sensed: dict[str, frozenset[str]] = {}
    seats = [x for x, t in enumerate(s.seats) if t is not None]
    for n in range(EVENTS):
        s.frames.begin_pass()
        try:
            common = s.frames.common()
            for x in seats:
                kept = s.frames.seat_frame(x)
                assert kept == s.frames.build(x), (game_id, n, x)
                assert s.frames.common() is common  # read once
        finally:
            s.frames.end_pass()
        if not event(s, clock, rng, sensed):
            break
