"""Operation: Mata Hari's end across tables never tells the host seats' real hidden moves: in seeded
games where no renaming of the stand-ins gives the hands the end shows, the host searches its whole
told history again for the card each hidden move moved (shadow_mata_hari_history.py); the joining
table's moves then still differ from the host's real ones, and its engine, fed the messages only, ends
on the host's outcome with every view the host's engine shows its seats."""

from __future__ import annotations

import pytest

from firmware_host.remote import crossing
from firmware_host.remote.shadow_mata_hari import MHShadow
from games.core import CHANCE, GameConfig, to_json
from games.playout import random_playout
from games.registry import get_game

GAME = get_game("mata-hari")
SECRET_CARDS = ("lay", "take_back", "lift", "pick")


def hidden_moves(moves, joining) -> list:
    """The moves that move a card the joining seats may not know: dealt or drawn to a host seat, or a host
    seat's card laid, taken back, lifted or picked."""
    return [(s, a) for s, a in moves
            if (s == CHANCE and a.get("seat") not in joining)
            or (s != CHANCE and s not in joining and a.get("type") in SECRET_CARDS and "card" in a)]


@pytest.mark.parametrize(("players", "joining", "seed"), [(3, {1}, 50), (5, {3}, 12)])
def test_the_end_is_told_without_the_host_seats_real_moves(players, joining, seed):
    play = random_playout(GAME, GameConfig(players, {}, seed), seed)
    shadow = crossing.shadow(GAME, play.config, joining, [])
    assert isinstance(shadow, MHShadow)
    state = there = GAME.initial_state(play.config)
    for seat, action in play.moves:
        after = GAME.apply(state, seat, action).state
        kind, fields = shadow.step(state, seat, action, after)
        if kind == "move":
            there = GAME.apply(there, fields["seat"], fields["action"]).state
        elif fields["moves"]:
            there = GAME.initial_state(play.config)
            for s, a in shadow.log:
                there = GAME.apply(there, s, a).state
        state = after
    assert shadow.searched >= 1  # no renaming fitted: the history was searched again
    real, told = hidden_moves(play.moves, joining), hidden_moves(shadow.log, joining)
    assert len(told) == len(real)
    assert told != real
    assert sum(a != b for a, b in zip(told, real)) >= 5
    assert GAME.outcome(there) == GAME.outcome(state)
    for j in joining:
        assert to_json(GAME.view(there, j)) == to_json(GAME.view(state, j))
