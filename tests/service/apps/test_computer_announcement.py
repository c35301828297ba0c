"""What the table announces of a computer's move tells no human a secret: along seeded games of
ZOP with the computer's cards only in the table (`deck = "tracked"`), each announcement is built
again for every hidden variant of the state before the move (what a human seat cannot tell from it)
with every move the computer could have made there that leaves that seat the same view; all must
read the same, for every human seat."""

from __future__ import annotations

import itertools

import pytest

from firmware_host.apps.app import StartRequest
from games.core import IllegalAction, to_json
from games.playout import random_playout
from tests.service.apps.solo_table import open_table, start

pytestmark = pytest.mark.slow  # every hidden variant of many hands: tens of seconds

VARIANTS = 6  # hidden variants tried per state
COMPUTER = 1  # the computer's game seat; seat 0 is the human's


@pytest.mark.parametrize("seeds", [range(1, 7)])
def test_a_computers_announcement_is_the_same_under_every_hidden_variant_of_its_hand(seeds):
    sim = open_table()
    try:
        app = start(sim, StartRequest("zop", (1, 2), {"deck": "tracked"}, computers={COMPUTER: "greedy"}))
        game, announce = app.game, app.computers.announcement
        humans = sorted(app.humans())
        assert humans == [0]
        compared = told = 0
        for seed in seeds:
            play = random_playout(game, app.config.__class__(2, {"deck": "tracked"}, seed), seed)
            state = game.initial_state(play.config)
            for seat, action in play.moves:
                after = game.apply(state, seat, action).state
                if seat == COMPUTER:
                    shown = announce(state, seat, action)
                    told += "a joué" not in shown.fr
                    for h in humans:
                        seen = to_json(game.view(after, h))
                        for variant in itertools.islice(game.hidden_variants(state, h), VARIANTS):
                            for other in game.legal_actions(variant, seat):
                                try:
                                    other_after = game.apply(variant, seat, other).state
                                except IllegalAction:
                                    continue
                                if to_json(game.view(other_after, h)) != seen:
                                    continue  # the human tells these apart anyway
                                again = announce(variant, seat, other)
                                assert again == shown, (seed, seat, action, other, shown, again)
                                compared += 1
                state = after
        assert compared > 100 and told > 0, (compared, told)
    finally:
        sim.close()
