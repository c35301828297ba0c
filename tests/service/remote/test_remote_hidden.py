"""What crosses to the joining table is the same under every hidden variant of what its seats may
not know: along whole games, each move message (the joining seats' views, the action when public)
is built again for every variant of the state after the move, and for every variant of the state
before it with every move its author could have made there that the joining seats could not tell
apart; all must be identical. Drôles de
Zèbres has no secret (its property holds trivially: the message is still rebuilt the same); ZOP,
Spywhere and Mata Hari have hands and hidden roles, so what hides them must not cross (their
joining table is not built yet: this holds its messages to the rule first)."""

from __future__ import annotations

import itertools
import json

import pytest

from firmware_host.remote import crossing
from games.core import CHANCE, GameConfig, IllegalAction, to_json
from games.playout import random_playout
from games.registry import get_game

VARIANTS = 6  # hidden variants tried per state
JOINING = 1  # the game seat played at the joining table


def encoded(fields: dict) -> str:
    return json.dumps(fields, sort_keys=True)


def indistinguishable(game, variant, seat, seen_after):
    """(action, state after) of the moves `seat` could make in `variant` that the joining seat sees as `seen_after`."""
    others = [a for a, _ in game.chance_outcomes(variant)] if seat == CHANCE else game.legal_actions(variant, seat)
    for other in others:
        try:
            after = game.apply(variant, seat, other).state
        except IllegalAction:
            continue
        if to_json(game.view(after, JOINING)) == seen_after:
            yield other, after


@pytest.mark.parametrize(("gid", "players", "seeds", "moves"), [
    ("droles-de-zebres", 2, (1,), None), ("zop", 2, (1, 2), None), ("spywhere", 4, (1,), 25),
    ("mata-hari", 4, (1,), 25)])
def test_a_move_message_is_the_same_under_every_hidden_variant(gid, players, seeds, moves):
    game = get_game(gid)
    compared = hidden_moves = 0
    for seed in seeds:
        play = random_playout(game, GameConfig(players, {}, seed), seed)
        state = game.initial_state(play.config)
        for number, (seat, action) in enumerate(play.moves[:moves]):
            after = game.apply(state, seat, action).state
            sent = encoded(crossing.move_fields(game, state, seat, action, after, number, {JOINING}))
            if json.loads(sent)["action"] is None:
                hidden_moves += 1
            # the views part: the same under every variant of the state it was built from
            for variant in itertools.islice(game.hidden_variants(after, JOINING), VARIANTS):
                again = crossing.move_fields(game, state, seat, action, variant, number, {JOINING})
                assert again["views"] == json.loads(sent)["views"], (gid, seed, number)
                compared += 1
            # the action part: the same for every move its author could have made in a variant of
            # the state before it that the joining seat could not tell from this one
            if seat != JOINING:
                seen = to_json(game.view(after, JOINING))
                for variant in itertools.islice(game.hidden_variants(state, JOINING), VARIANTS):
                    for other, other_after in indistinguishable(game, variant, seat, seen):
                        again = crossing.move_fields(game, variant, seat, other, other_after, number, {JOINING})
                        assert encoded(again) == sent, (gid, seed, number, seat, action, other)
                        compared += 1
            state = after
    if gid != "droles-de-zebres":  # the games with secrets: many variants compared, moves kept home
        assert compared > 100 and hidden_moves > 0, (compared, hidden_moves)


def test_the_start_of_a_game_with_secrets_never_crosses():
    """The game message carries the seed (every draw to come) and the moves: a game with secrets is
    refused there, whatever the list of games hosted says."""
    zop = get_game("zop")
    config = zop.validate_config(GameConfig(2, {}, 5))
    with pytest.raises(ValueError, match="secrets"):
        crossing.game_fields(zop, config, [], zop.initial_state(config), {JOINING})
    ddz = get_game("droles-de-zebres")
    config = ddz.validate_config(GameConfig(2, {}, 5))
    assert crossing.game_fields(ddz, config, [], ddz.initial_state(config), {JOINING})["seed"] == 5
