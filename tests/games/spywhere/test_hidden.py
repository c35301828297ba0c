"""Spywhere's secrets: passports, hands and identifications never reach another seat before the end;
and `check` agrees with `legal_actions` on arbitrary input."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import CHANCE, GameConfig, to_json
from games.playout import random_playout
from games.spywhere import GAME
from games.spywhere.state import OVER
from tests.kits.gamekit import check_hidden
from tests.kits.spywhere_kit import patient_policy

pytestmark = pytest.mark.slow  # every hidden variant of many states: tens of seconds in all

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _states(players: int, seed: int, patient: bool) -> list:
    config = GameConfig(players=players, options={"retriple": "on" if seed % 2 else "off"})
    result = random_playout(GAME, config, seed, policy=patient_policy) if patient else random_playout(GAME, config, seed)
    state = GAME.initial_state(GAME.validate_config(config))
    states = [state]
    for seat, act in result.moves:
        state = GAME.apply(state, seat, act).state
        states.append(state)
    return states


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(_strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


@SETTINGS
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), patient=st.booleans())
def test_hidden_variants_never_change_another_seats_view_or_screen(players, seed, patient):
    states = _states(players, seed, patient)
    compared = 0
    for state in states[:: max(1, len(states) // 8)] + [states[-2]]:
        compared += check_hidden(GAME, state, players)
        public = to_json(GAME.view(state, None))
        for seat in range(players):
            for variant in GAME.hidden_variants(state, seat):
                assert to_json(GAME.view(variant, None)) == public
    assert compared > 0


@SETTINGS
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_passports_hands_and_identifications_stay_with_their_owner_until_the_end(players, seed):
    states = _states(players, seed, patient=True)
    for state in states[:: max(1, len(states) // 15)]:
        if state.phase == OVER:
            continue
        for seat in range(players):
            seen = _strings(to_json(GAME.view(state, seat)))
            for other in range(players):
                if other == seat:
                    continue
                assert not set(state.passports[other]) & seen
                # a hand card is public only when it was just lifted, face up, from the centre
                lifted = {state.last_swap[3]} if state.last_swap else set()
                assert not (set(state.hands[other]) - lifted) & seen
                # others' guesses appear only as the target (the card lies face down)
                view = GAME.view(state, seat)
                assert all(isinstance(t, int) for t in view.seats[other].identified)
        public = _strings(to_json(GAME.view(state, None)))
        assert not any("/passport/" in s for s in public)
    last = states[-1]
    assert last.phase == OVER
    revealed = _strings(to_json(GAME.view(last, None)))
    assert {n for s in range(players) for p in last.passports[s] for n in [p.split("/")[2]]} <= revealed


def _action_strategy(state, seat):
    hand = list(state.hands[seat]) if seat >= 0 else []
    cards = hand + [c for c in state.centre if c] + list(state.pile[:3]) + ["spywhere/nationality/suisse/1", ""]
    nats = list(state.nationalities) + ["suisse", "belgique", 3]
    ints = st.one_of(st.integers(-1, 7), st.booleans(), st.text(max_size=2))
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("swap"), "slot": ints, "card": st.sampled_from(cards)}),
        st.fixed_dictionaries({"type": st.just("take"), "slots": st.one_of(
            st.lists(st.integers(0, 6), min_size=0, max_size=4), st.just("1,2,3"))}),
        st.fixed_dictionaries({"type": st.just("identify"), "target": ints, "nationality": st.sampled_from(nats)}),
        st.sampled_from([{"type": t} for t in ("leave", "end_turn", "done", "draw", "pass", "")]),
        st.fixed_dictionaries({"type": st.just("end_turn"), "extra": st.integers()}),
        st.fixed_dictionaries({"type": st.just("draw"), "card": st.sampled_from(cards)}),
        st.fixed_dictionaries({"type": st.just("centre"), "slot": ints, "card": st.sampled_from(cards)}),
        st.fixed_dictionaries({"type": st.just("remove"), "nationality": st.sampled_from(nats)}),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 500))
def test_check_accepts_exactly_the_listed_actions(data, players, seed):
    states = _states(players, seed, patient=True)
    state = data.draw(st.sampled_from(states[:3] + states[:-1]))  # the set-up more often
    for seat in sorted(GAME.to_act(state)):
        act = data.draw(_action_strategy(state, seat))
        rejection = GAME.check(state, seat, act)
        if seat == CHANCE:
            listed = [a for a, _ in GAME.chance_outcomes(state)]
        else:
            listed = GAME.legal_actions(state, seat)
        normal = dict(act, slots=sorted(act["slots"])) if isinstance(act.get("slots"), list) else act
        # compared as JSON text: True == 1 in Python, but a slot `true` is not slot 1
        listed_json = {json.dumps(a, sort_keys=True) for a in listed}
        assert (rejection is None) == (json.dumps(normal, sort_keys=True) in listed_json), (act, rejection)
        if rejection is not None:
            assert rejection.code and rejection.message.fr and rejection.message.en
    for seat in range(players):
        if seat not in GAME.to_act(state):
            assert GAME.check(state, seat, {"type": "end_turn"}).code == "not_your_turn"


@SETTINGS
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_effects_with_secrets_go_to_one_seat_only(players, seed):
    config = GameConfig(players=players)
    result = random_playout(GAME, config, seed, policy=patient_policy)
    state = GAME.initial_state(GAME.validate_config(config))
    secrets = 0
    for seat, act in result.moves:
        step = GAME.apply(state, seat, act)
        for effect in step.effects:
            if effect.kind == "reveal":
                assert step.state.phase == OVER and effect.audience is None
                continue
            data = _strings(to_json(effect.data))
            if effect.kind == "secret":
                secrets += 1
                assert effect.audience is not None and len(effect.audience) == 1
            else:
                assert not any("/passport/" in s for s in data)
                if "target" in effect.data:  # "J1 a identifié J3": never the nationality
                    assert not data & set(state.nationalities)
        state = step.state
    assert secrets >= players * 4  # passports and hand cards at least
