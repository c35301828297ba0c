"""Spywhere random playouts: every player count and option, to the end, with the contract checks."""

import json
from collections import Counter

import pytest

from games.core import CHANCE, GameConfig, replay, to_json
from games.playout import random_playout
from games.spywhere import GAME
from games.spywhere.pieces import deck
from games.spywhere.state import OVER, SETUP
from tests.kits.gamekit import check_playouts
from tests.kits.spywhere_kit import patient_policy

CONFIGS = [GameConfig(players=n, options={"retriple": r}) for n in range(2, 7) for r in ("off", "on")]


def test_uniform_playouts_for_two_to_six_players_and_both_rule_variants():
    results = check_playouts(GAME, CONFIGS, seeds=range(6))
    assert all(r.state.phase == OVER for r in results)
    # uniform play identifies a lot: most games end by identifications, with the ender's bonus
    assert sum(r.state.ender is not None for r in results) > len(results) // 2


def test_removed_nationality_options_playouts():
    configs = [GameConfig(players=n, options={"removed_nationality": nat})
               for n, nat in ((2, "france"), (3, "espagne"), (4, "italie"))]
    for result in check_playouts(GAME, configs, seeds=range(3)):
        removed = result.config.option("removed_nationality")
        assert removed not in result.state.nationalities
        assert not any(f"/{removed}/" in c for h in result.state.hands for c in h)


def _conserved(state) -> bool:
    """Every card of the nationalities in play is in exactly one place."""
    if state.phase == SETUP:
        return True
    places = [*state.pile, *(c for c in state.centre if c), *(c for h in state.hands for c in h),
              *(c for clue in state.clues for c in clue)]
    return Counter(places) == Counter(deck(state.nationalities))


def _probe(state, players: int) -> None:
    """Every listed action is accepted and applies; chance sums to 1; views and screens encode."""
    for seat in GAME.to_act(state):
        if seat == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            for act, _ in outcomes[:: max(1, len(outcomes) // 10)]:
                assert GAME.check(state, CHANCE, act) is None
                GAME.apply(state, CHANCE, act)
            continue
        for act in GAME.legal_actions(state, seat):
            assert GAME.check(state, seat, act) is None, act
            GAME.apply(state, seat, act)
    for seat in (None, *range(players)):
        json.dumps(to_json(GAME.screen(GAME.view(state, seat), seat)))
        json.dumps(to_json(GAME.view(state, seat)))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_patient_playouts_run_the_pile_out_and_conserve_cards(players):
    exhausted = 0
    for seed in range(3):
        config = GameConfig(players=players, options={"retriple": "on" if seed % 2 else "off"})
        result = random_playout(GAME, config, seed, policy=patient_policy)
        state = GAME.initial_state(GAME.validate_config(config))
        for i, (seat, act) in enumerate(result.moves):
            if i % 25 == 0:
                _probe(state, players)
            state = GAME.apply(state, seat, act).state
            assert _conserved(state)
        assert state == result.state and to_json(replay(GAME, config, result.moves)) == to_json(state)
        exhausted += state.pile == () and state.ender is None
        assert GAME.outcome(state) is not None
        assert max(len(h) for h in state.hands) > 6  # hands grow by one card per turn
    assert exhausted >= 2


def test_re_triples_happen_in_long_games_with_the_optional_rule():
    returned = 0
    for seed in range(12):
        config = GameConfig(players=3, options={"retriple": "on"})
        result = random_playout(GAME, config, seed, policy=patient_policy)
        state = GAME.initial_state(GAME.validate_config(config))
        for seat, act in result.moves:
            step = GAME.apply(state, seat, act)
            returned += sum(e.kind == "return_to_pile" for e in step.effects)
            state = step.state
    assert returned > 0


def test_chance_sampling_is_reproducible_from_the_seed():
    a = random_playout(GAME, GameConfig(players=4), 11)
    b = random_playout(GAME, GameConfig(players=4), 11)
    c = random_playout(GAME, GameConfig(players=4), 12)
    assert a.moves == b.moves and a.moves != c.moves
    assert sum(seat == CHANCE for seat, _ in a.moves) >= 4 + 12 + 5  # passports, hands, centre, then draws
    assert a.moves[0] == (0, a.moves[0][1]) and a.moves[0][1]["type"] == "remove"  # chosen by seat 0
