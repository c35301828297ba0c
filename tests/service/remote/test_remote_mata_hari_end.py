"""Operation: Mata Hari's end across tables never tells the host seats' real hidden moves: in seeded
games where no renaming of the stand-ins gives the hands the end shows, the host searches its whole
told history again for the card each hidden move moved (shadow_mata_hari_history.py); the joining
table's moves then still differ from the host's real ones, and its engine, fed the messages only, ends
on the host's outcome with every view the host's engine shows its seats. A host whose game was the
told one (other cards at every hidden move, the same public outcome) sends the very same end."""

from __future__ import annotations

import json

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


def told(config, joining, moves):
    """The host's shadow stepped along `moves`, the joining table's engine fed its messages, and the messages."""
    shadow = crossing.shadow(GAME, config, joining, [])
    assert isinstance(shadow, MHShadow)
    state = there = GAME.initial_state(config)
    sent = []
    for seat, action in moves:
        after = GAME.apply(state, seat, action).state
        kind, fields = shadow.step(state, seat, action, after)
        sent.append(json.dumps([kind, fields], sort_keys=True))
        if kind == "move":
            there = GAME.apply(there, fields["seat"], fields["action"]).state
        elif fields["moves"]:
            there = GAME.initial_state(config)
            for s, a in shadow.log:
                there = GAME.apply(there, s, a).state
        state = after
    return shadow, there, state, sent


@pytest.mark.parametrize(("players", "joining", "seed"), [(3, {1}, 50), (5, {3}, 12)])
def test_the_end_is_told_without_the_host_seats_real_moves(players, joining, seed):
    play = random_playout(GAME, GameConfig(players, {}, seed), seed)
    shadow, there, state, sent = told(play.config, joining, play.moves)
    assert shadow.searched >= 1  # no renaming fitted: the history was searched again
    real, hidden = hidden_moves(play.moves, joining), hidden_moves(shadow.log, joining)
    assert len(hidden) == len(real)
    assert hidden != real
    assert sum(a != b for a, b in zip(hidden, real)) >= 5
    assert GAME.outcome(there) == GAME.outcome(state)
    for j in joining:
        assert to_json(GAME.view(there, j)) == to_json(GAME.view(state, j))
    # the told game played at the host instead: other hidden cards, the same public outcome, the same end
    again, _, other, resent = told(play.config, joining, list(shadow.log))
    assert GAME.outcome(other) == GAME.outcome(state)
    assert again.log == shadow.log
    assert resent[-1] == sent[-1]
