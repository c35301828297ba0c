"""ZOP random playouts in both table modes, and the hidden-information properties of the commit."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import CHANCE, GameConfig, to_json
from games.playout import random_playout
from games.zop import GAME
from games.zop.rules_transition import next_label
from games.zop.state import COMMIT, MANCHE
from tests.kits.gamekit import check_hidden, check_playouts, states_along

CONFIGS = [GameConfig(2, {"deck": "tracked"}), GameConfig(2, {"deck": "sensed"})]


def test_random_playouts_in_both_modes_play_every_card_and_end_best_of_three():
    for playout in check_playouts(GAME, CONFIGS, seeds=range(5)):
        rounds = playout.outcome.details["rounds"]
        assert all(r["played"] == [20, 20] for r in rounds)
        assert rounds[0]["label"] == MANCHE
        winner = playout.outcome.winners[0]
        assert rounds[-1]["winner"] == winner
        assert playout.state.results[-1].winner == winner and next_label(playout.state.results) is None
        assert all(next_label(playout.state.results[:i]) == playout.state.results[i].label
                   for i in range(1, len(rounds)))


def test_random_playouts_reach_both_winners_and_every_round_name():
    labels, winners = set(), set()
    for mode in ("tracked", "sensed"):
        for seed in range(12):
            outcome = random_playout(GAME, GameConfig(2, {"deck": mode}), seed).outcome
            winners |= set(outcome.winners)
            labels |= {r["label"] for r in outcome.details["rounds"]}
    assert winners == {0, 1} and labels == {"manche", "revanche", "belle"}


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 100_000), mode=st.sampled_from(["tracked", "sensed"]))
def test_hidden_information_over_random_playouts(seed, mode):
    states = states_along(GAME, GameConfig(2, {"deck": mode}), seed)
    compared = sum(check_hidden(GAME, s, 2) for s in states[::4])
    assert compared > 0


def secret_commit_states(mode: str, seeds: range):
    """States where a seat has laid card(s) the other seat has not seen yet."""
    for seed in seeds:
        for state in states_along(GAME, GameConfig(2, {"deck": mode}), seed):
            if state.phase == COMMIT:
                for seat in (0, 1):
                    if state.sides[seat].laid:
                        yield state, seat


def test_a_laid_card_never_reaches_the_opponents_view_or_screen():
    checked = variants = 0
    for mode in ("tracked", "sensed"):
        for state, seat in list(secret_commit_states(mode, range(1)))[::2]:
            opp = 1 - seat
            for card in state.sides[seat].laid:
                if card in state.exposed:
                    continue  # both players saw it change hands in a blind exchange
                for who in (opp, None):
                    assert card not in json.dumps(to_json(GAME.view(state, who)), ensure_ascii=False)
                checked += 1
            # the screens are compared by check_hidden: the same whichever card lies on the pad
            # (on the very last turn the one card left is known by elimination: nothing to vary)
            variants += check_hidden(GAME, state, 2)
    assert checked > 20 and variants > checked


def test_commit_effects_tell_the_opponent_that_a_card_was_laid_never_which():
    for mode in ("tracked", "sensed"):
        states = states_along(GAME, GameConfig(2, {"deck": mode}), 7)
        for state in states:
            if state.phase != COMMIT:
                continue
            for seat in GAME.to_act(state) - {CHANCE}:
                for action in GAME.legal_actions(state, seat):
                    if action["type"] not in ("commit", "withdraw"):
                        continue
                    effects = GAME.apply(state, seat, action).effects
                    before_reveal = [e for e in effects if e.kind in
                                     ("laid", "opponent_laid", "withdrawn", "opponent_withdrew")]
                    assert len(before_reveal) == 2
                    assert len(effects) == 2 or any(e.kind == "reveal" for e in effects)
                    for effect in before_reveal:
                        if effect.audience is None or (1 - seat) in effect.audience:
                            blob = json.dumps(to_json(effect), ensure_ascii=False)
                            assert action["card"] not in blob
                            assert GAME.deck.card(action["card"]).short.fr not in effect.text.fr


def test_hidden_variants_really_change_the_laid_card():
    state, seat = next(secret_commit_states("tracked", range(3)))
    variants = list(GAME.hidden_variants(state, 1 - seat))
    assert any(v.sides[seat].laid != state.sides[seat].laid for v in variants)
    assert all(v.sides[1 - seat] == state.sides[1 - seat] for v in variants)


def test_public_view_and_screen_hide_every_secret():
    compared = 0
    for mode in ("tracked", "sensed"):
        for state in states_along(GAME, GameConfig(2, {"deck": mode}), 11)[::5]:
            public = to_json(GAME.view(state, None))
            screen = to_json(GAME.screen(GAME.view(state, None), None))
            for seat in (0, 1):
                for variant in GAME.hidden_variants(state, seat):
                    assert to_json(GAME.view(variant, None)) == public
                    assert to_json(GAME.screen(GAME.view(variant, None), None)) == screen
                    compared += 1
    assert compared > 0
