"""Operation: Mata Hari across tables tells the joining table nothing of the host seats' secrets:
each message the host's shadow makes along whole seeded games (shadow_mata_hari.py) is made again
for hidden variants of the state after the move, and for moves its author could have made instead
that the joining seats could not tell apart, and must be identical; a game whose host seat held
another objective sends the very same messages until the end shows it; the joining table's engine,
fed the messages only, sees at every move what the host's shows its seats, and ends on its outcome."""

from __future__ import annotations

import itertools
import json

import pytest

from firmware_host.remote import crossing
from firmware_host.remote.shadow import hides
from firmware_host.remote.shadow_mata_hari import MHShadow
from games.core import CHANCE, GameConfig, IllegalAction, to_json
from games.playout import random_playout
from games.registry import get_game

GAME = get_game("mata-hari")
VARIANTS = 2  # hidden variants tried per state
ALTERNATIVES = 2  # moves tried per variant that the joining seats could not tell apart


def encoded(message: tuple[str, dict]) -> str:
    return json.dumps(message, sort_keys=True)


def seen(state, joining) -> tuple:
    return tuple(GAME.view(state, j) for j in sorted(joining))


def indistinguishable(variant, seat, action, joining, seen_after, after):
    """(action, state after) of the moves `seat` could make in `variant` that the joining seats see as
    `seen_after`, and that differ from the move made (`action`, leading to `after`) in the game's
    secrets only (which cover a player takes is none: it crosses as it is)."""
    others = [a for a, _ in GAME.chance_outcomes(variant)] if seat == CHANCE else GAME.legal_actions(variant, seat)
    for other in others:
        if other["type"] == "take_cover" and other != action:
            continue
        try:
            other_after = GAME.apply(variant, seat, other).state
        except IllegalAction:
            continue
        if seen(other_after, joining) == seen_after and GAME.waiting_for(other_after) == GAME.waiting_for(after) \
                and (other_after == after or hides(GAME, other_after, joining)):
            yield other, other_after


def messages(config, joining, moves) -> list[str]:
    """Every message the host sends along `moves`, encoded."""
    shadow = crossing.shadow(GAME, config, joining, [])
    state = GAME.initial_state(config)
    out = []
    for seat, action in moves:
        after = GAME.apply(state, seat, action).state
        out.append(encoded(shadow.step(state, seat, action, after)))
        state = after
    return out


@pytest.mark.parametrize(("players", "joining", "seed"), [(3, {1}, 9), (4, {1, 2}, 2)])
def test_a_message_is_the_same_under_every_hidden_variant(players, joining, seed):
    play = random_playout(GAME, GameConfig(players, {}, seed), seed)
    shadow = crossing.shadow(GAME, play.config, joining, [])
    assert isinstance(shadow, MHShadow)
    there = GAME.initial_state(play.config)  # the joining table's engine, fed the messages only
    state = GAME.initial_state(play.config)
    compared = hidden = rewrites = silent = 0
    for number, (seat, action) in enumerate(play.moves):
        after = GAME.apply(state, seat, action).state
        sent = encoded(shadow.clone().step(state, seat, action, after))
        for variant in itertools.islice(GAME.hidden_variants(after, min(joining)), VARIANTS):
            if seen(variant, joining) == seen(after, joining):  # a variant for every joining seat at once
                assert encoded(shadow.clone().step(state, seat, action, variant)) == sent, (seed, number)
                compared += 1
        if seat not in joining:
            now = seen(after, joining)
            for variant in [state, *itertools.islice(GAME.hidden_variants(state, min(joining)), VARIANTS)]:
                if seen(variant, joining) != seen(state, joining):
                    continue
                for other, other_after in itertools.islice(
                        indistinguishable(variant, seat, action, joining, now, after), ALTERNATIVES):
                    again = shadow.clone().step(variant, seat, other, other_after)
                    assert encoded(again) == sent, (seed, number, seat, action, other)
                    compared += 1
        kind, fields = shadow.step(state, seat, action, after)
        if kind == "move":
            hidden += bool(fields.get("hidden"))
            there = GAME.apply(there, fields["seat"], fields["action"]).state
        elif not fields["moves"]:
            silent += 1
        else:
            rewrites += 1
            there = GAME.initial_state(play.config)
            for s, a in shadow.log:
                there = GAME.apply(there, s, a).state
        assert [to_json(v) for v in seen(there, joining)] == [to_json(v) for v in seen(after, joining)], (seed, number)
        assert GAME.waiting_for(there) == GAME.waiting_for(after), (seed, number)
        state = after
    assert GAME.outcome(there) == GAME.outcome(state)
    assert compared > 300 and hidden > 30 and rewrites > 5 and silent > 5, (compared, hidden, rewrites, silent)


def with_other_objective(config, moves, joining):
    """`moves` with a host seat's objective dealt from those left in the box (objectives count at the end only)."""
    dealt = {a["card"] for s, a in moves if s == CHANCE and a["card"].startswith("mata-hari/objectives/")}
    spare = sorted(set(GAME.initial_state(config).objectives) - dealt)
    for seat, action in moves:
        if seat == CHANCE and action["card"] in dealt and action["seat"] not in joining:
            for other in spare:  # dealt, then lifted off the pad: the same card
                yield [(s, {**a, "card": other} if a.get("card") == action["card"] else a) for s, a in moves]


def test_a_game_whose_host_seat_held_another_objective_sends_the_same_messages_to_its_end():
    joining = {1}
    tried = 0
    play = random_playout(GAME, GameConfig(3, {}, 2), 2)
    sent = messages(play.config, joining, play.moves)
    for trial in with_other_objective(play.config, play.moves, joining):
        again = messages(play.config, joining, trial)
        assert again[:-1] == sent[:-1]
        assert again[-1] != sent[-1]  # the end shows the objective
        tried += 1
    assert tried >= 2, tried


def test_mata_hari_is_played_across_tables():
    assert crossing.refusal("mata-hari", {}) is None
    assert crossing.secret("mata-hari")
    config = GAME.validate_config(GameConfig(4, {}, 5))
    told = crossing.shadow(GAME, config, {1, 3}, [])
    assert crossing.game_fields(GAME, config, told, GAME.initial_state(config))["seed"] == 0
