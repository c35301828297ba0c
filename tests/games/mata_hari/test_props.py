"""Operation: Mata Hari: random playouts, hidden information, and the table's layout contract."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_host.screens.layout import plan
from games.core import CHANCE, GameConfig, normalise_layout, to_json
from games.mata_hari import GAME
from games.mata_hari.pieces import all_pieces
from games.mata_hari.rules import malformed, reject
from games.mata_hari.rules_actions import candidates
from games.mata_hari.state import MHState
from games.mata_hari.table import GESTURES
from tests.kits.gamekit import check_hidden, check_playouts, states_along

PLAYERS = range(3, 8)


def test_random_playouts_reach_an_outcome_for_3_to_7_players() -> None:
    results = check_playouts(GAME, [GameConfig(players=n) for n in PLAYERS], seeds=range(3))
    reasons = {r.state.end.reason for r in results}
    assert reasons >= {"covers", "pile"}
    kinds = {a["type"] for r in results for _, a in r.moves}
    assert kinds >= {"deal", "lay", "confirm", "accuse", "refuse", "take_cover", "draw", "lift", "pred"}


@cache
def _states(players: int, seed: int) -> list[MHState]:
    return states_along(GAME, GameConfig(players=players), seed)


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from(list(PLAYERS)), seed=st.integers(0, 3), where=st.floats(0, 1))
def test_hidden_information_no_seat_sees_others_secrets(players: int, seed: int, where: float) -> None:
    states = _states(players, seed)
    state = states[int(where * (len(states) - 1))]
    compared = check_hidden(GAME, state, players)
    if state.phase not in ("over", "deal"):  # after the deal every seat has secrets
        assert compared > 0


def _visible_cards(state: MHState, seat: int) -> set[str]:
    """Card ids a seat may know: its own, what was shown to it, what is public."""
    me = state.seats[seat]
    out = set(me.hand) | set(me.loose) | set(state.removed)
    if me.objective:
        out.add(me.objective)
    out |= {c for x in state.seen if x.viewer == seat for c in x.cards}
    if me.picks:
        out |= set(state.pile)
    return out


def test_views_hold_no_card_of_another_seat() -> None:
    pieces = set(all_pieces())
    checked = 0
    for players in PLAYERS:
        for state in _states(players, 1)[::5]:
            if state.phase == "over":
                continue
            public = json.dumps(to_json(GAME.view(state, None)))
            assert not any(p in public for p in pieces if "/covers/" not in p and p not in state.removed)
            for seat in range(players):
                text = json.dumps(to_json(GAME.view(state, seat)))
                shown = {p for p in pieces if p in text and "/covers/" not in p}
                assert shown <= _visible_cards(state, seat), (seat, shown - _visible_cards(state, seat))
                checked += 1
    assert checked > 100


def _all_moves(state: MHState) -> Iterator[tuple[int, dict]]:
    for seat in GAME.to_act(state):
        if seat == CHANCE:
            for a, _ in GAME.chance_outcomes(state):
                yield seat, a
        else:
            for a in GAME.legal_actions(state, seat):
                yield seat, a


def test_gestures_change_the_layout_buttons_do_not_and_no_two_gestures_look_alike() -> None:
    checked = 0
    for players in (3, 5, 7):
        for state in _states(players, 2)[::7]:
            before = normalise_layout(GAME.expected_layout(state))
            seen: dict[str, tuple] = {}
            for seat, a in _all_moves(state):
                fp = normalise_layout(GAME.footprint(state, seat, a))
                after = normalise_layout(GAME.expected_layout(GAME.apply(state, seat, a).state))
                if a["type"] in GESTURES:
                    assert fp != before and fp == after, a
                    key = json.dumps(to_json(fp), sort_keys=True)
                    assert key not in seen, (a, seen.get(key))
                    seen[key] = (seat, a)
                else:
                    assert fp == before == after, a
                checked += 1
    assert checked > 300


def test_menus_hold_only_button_actions_with_short_labels_and_screens_fit() -> None:
    for players in (3, 6):
        for state in _states(players, 3)[::3]:
            for seat in range(players):
                # a menu asks for the buttons only: every candidate that is not a gesture, in order
                assert list(candidates(state, seat, gestures=False)) == [
                    a for a in candidates(state, seat) if a["type"] not in GESTURES]
                # well-formed by construction: menus label them without checking them again
                assert all(malformed(a) is None for a in candidates(state, seat))
                for choice in GAME.choices(state, seat):
                    assert choice.action["type"] not in GESTURES
                    assert GAME.check(state, seat, choice.action) is None
                    assert 0 < len(choice.label.fr) <= 21 and 0 < len(choice.label.en) <= 21, choice.label
                screen = GAME.screen(GAME.view(state, seat), seat)
                menu = tuple(c.label for c in GAME.choices(state, seat))
                assert not [e for lang in ("fr", "en") for e in plan(screen, lang, menu).elisions if e.essential]
            assert not [e for e in plan(GAME.screen(GAME.view(state, None), None)).elisions if e.essential]


def test_candidates_leave_out_only_what_is_refused() -> None:
    """A closing move while the active seat may not close, and accusing oneself, are not candidates:
    `reject` refuses every one of them, so menus, `to_act` and `legal_actions` are unchanged."""
    checked = 0
    for players in (3, 5, 7):
        for state in _states(players, 2):
            for seat in range(players):
                listed = list(candidates(state, seat))
                every = [{"type": "accuse", "target": t} for t in range(players)]
                every += [{"type": "mata_hari"}, {"type": "refuse"}]
                every += [{"type": "accept", "seat": j, **extra} for j in range(players) if j != seat
                          for extra in ({}, {"hitman": True})]
                for action in every:
                    if action not in listed:
                        assert reject(state, seat, action) is not None, (action, seat)
                        checked += 1
    assert checked > 1000


_json = st.recursive(st.none() | st.booleans() | st.integers(-2, 9) | st.sampled_from(
    ["red", "all", "least", "colour", "value", "hitman", "x", "mata-hari/resources/gants-2/1"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=4)
_types = st.sampled_from(["lift", "take_cover", "lay", "take_back", "say", "quant", "cat", "pred", "cancel",
                          "clear", "confirm", "pass", "withdraw", "accuse", "accept", "refuse", "mata_hari",
                          "no_demand", "pick", "pick_done", "visionary", "no_offer", "deal", "draw", "zzz"])
_keys = st.sampled_from(["card", "cover", "what", "q", "n", "cat", "value", "target", "partner", "seat",
                         "hitman", "other"])


@settings(max_examples=150, deadline=None)
@example(kind="lift", fields={}, seat=3, where=0.0, players=3)  # a seat beyond the players crashed footprint
@given(kind=_types, fields=st.dictionaries(_keys, _json, max_size=3), seat=st.integers(-1, 7),
       where=st.floats(0, 1), players=st.sampled_from([3, 5]))
def test_bad_input_never_crashes_nor_changes_the_state(kind: str, fields: dict, seat: int, where: float,
                                                        players: int) -> None:
    states = _states(players, 0)
    state = states[int(where * (len(states) - 1))]
    action = {"type": kind, **fields}
    before = json.dumps(to_json(state), sort_keys=True)
    why = GAME.check(state, seat, action)
    GAME.footprint(state, seat, action)
    GAME.describe_action(state, max(seat, 0), action)
    if why is None:
        GAME.apply(state, seat, action)
    assert json.dumps(to_json(state), sort_keys=True) == before
