"""Opération Zèbre on the table: pieces, layout, footprints, menus, screens, hidden information,
random playouts in both modes."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.screens.layout import plan
from games.core import CHANCE, GameConfig, normalise_layout, to_json
from games.operation_zebre import GAME
from games.playout import random_playout
from tests.kits.gamekit import check_hidden, check_playouts
from tests.kits.operation_zebre_kit import FRANCE, Table, sensible_policy, unknown_deck_game

COOP = [GameConfig(n, {"mode": "coop"}) for n in range(2, 9)]
COMPET = [GameConfig(n, {"mode": "competitive"}) for n in range(6, 13)]
ALL_LINES = [ln.text for doc in GAME.data.library.documents.values() for ln in doc.lines]


def test_pieces_and_neutral_labels():
    pieces = GAME.pieces()
    assert pieces == [f"operation-zebre/documents/sample/{n}" for n in range(1, 7)]
    titles = [d.title for d in GAME.data.library.documents.values()]
    for piece in pieces:
        label = GAME.piece_label(piece)
        assert "n°" in label.fr and not any(t in label.fr or t in label.en for t in titles)
    assert len(unknown_deck_game(5).pieces()) == 11
    assert GAME.piece_label("operation-zebre/documents/box/12").fr == "le dossier n°12"


def test_cards_lie_on_pads_while_preparing_then_are_taken_in_hand():
    t = Table(2)
    t.do(0, "lay", card=FRANCE)
    assert GAME.expected_layout(t.state) == {"pad.0": frozenset({"operation-zebre/documents/" + FRANCE})}
    t.do(0, "side", side="recto")
    t.do(0, "confirm")
    assert "pad.0" in GAME.expected_layout(t.state)
    t.by_sum(1, 0)
    assert GAME.expected_layout(t.state) == {}


def test_footprints_laying_swapping_lifting():
    t = Table(2)
    foot = GAME.footprint(t.state, 1, {"type": "lay", "card": "sample/2"})
    assert normalise_layout(foot) == {"pad.1": frozenset({"operation-zebre/documents/sample/2"})}
    t.do(1, "lay", card="sample/2")
    swap = GAME.footprint(t.state, 1, {"type": "lay", "card": "sample/3"})
    assert normalise_layout(swap) == {"pad.1": frozenset({"operation-zebre/documents/sample/3"})}
    assert normalise_layout(GAME.footprint(t.state, 1, {"type": "withdraw"})) == {}
    assert GAME.footprint(t.state, 1, {"type": "side", "side": "recto"}) == GAME.expected_layout(t.state)


def _menu_contract(state, players: int) -> None:
    """Choices are exactly the legal actions whose footprint leaves the layout as expected."""
    before = normalise_layout(GAME.expected_layout(state))
    for seat in range(players):
        legal = GAME.legal_actions(state, seat)
        buttons = [a for a in legal if normalise_layout(GAME.footprint(state, seat, a)) == before]
        choices = GAME.choices(state, seat)
        assert sorted(map(json.dumps, (c.action for c in choices))) == sorted(map(json.dumps, buttons))
        for c in choices:  # a label wider than a row scrolls when highlighted (tests/service/screens/test_elision.py)
            assert len(c.label.fr) > 0 and len(c.label.en) > 0, c.label


def _screen_fits(state, players: int) -> None:
    for seat in [None, *range(players)]:
        screen = GAME.screen(GAME.view(state, seat), seat)
        for lang in ("fr", "en"):  # whole or paged: nothing essential is ever cut
            assert not [e for e in plan(screen, lang).elisions if e.essential]
        assert len(screen.title.fr) <= 21 and len(screen.title.en) <= 21, screen.title


def test_menus_and_screens_along_playouts():
    for config in (COOP[0], COOP[3], COMPET[0]):
        for seed in range(3):
            result = random_playout(GAME, config, seed, policy=sensible_policy)
            state = GAME.initial_state(GAME.validate_config(config))
            for i, (seat, act) in enumerate(result.moves):
                if i % 3 == 0:
                    _menu_contract(state, config.players)
                    _screen_fits(state, config.players)
                state = GAME.apply(state, seat, act).state
            _screen_fits(state, config.players)


def test_explain_and_highlights():
    t = Table(6, mode="competitive")
    assert GAME.highlights(t.state) == {f"pad.{s}": "green" for s in range(6)}
    t.by_sum(0, 0)
    t.by_sum(2, 0)
    assert GAME.explain(t.state, 4, "pad.4", "operation-zebre/documents/sample/1").code == "team_full"
    assert "pad.4" not in GAME.highlights(t.state)
    t.by_sum(1, 0)
    t.by_sum(3, 0)
    assert GAME.highlights(t.state) == {f"pad.{t.state.reader}": "blue"}
    assert GAME.explain(t.state, 1, "pad.1", "operation-zebre/documents/sample/1").code == "wrong_phase"
    assert GAME.explain(t.state, 1, "A1", "operation-zebre/documents/sample/1") is None


def test_reader_screen_shows_lines_to_read_others_only_the_theme():
    t = Table(2)
    t.known(0, FRANCE, hide=(1, 5, 7))
    t.by_sum(1, 0)
    mine = GAME.screen(GAME.view(t.state, 0), 0)
    texts = [ln.fr for ln in mine.lines]
    assert "Lisez : 1 3 4 5 7" in texts and "Sautez : 2 6 8" in texts
    other = json.dumps(to_json(GAME.screen(GAME.view(t.state, 1), 1)), ensure_ascii=False)
    assert "Lieu" in other and "France" not in other and "Lisez" not in other


def _leaks(data: object, seat: int | None, state) -> list[str]:
    """Document lines and unrevealed titles found in `data` that `seat` must not see."""
    text = json.dumps(to_json(data), ensure_ascii=False)
    found = []
    for r in state.readings:
        if r.seat == seat or r.document is None:
            continue
        doc = GAME.data.library.documents[r.document]
        found += [ln.text for ln in doc.lines if ln.text in text]
        if r.title is None and f'"{doc.title}"' in text:
            found.append(doc.title)
    return found


def _sampled_states(config: GameConfig, seed: int, every: int) -> list:
    result = random_playout(GAME, config, seed, policy=sensible_policy)
    state = GAME.initial_state(GAME.validate_config(config))
    states = [state]
    for i, (seat, act) in enumerate(result.moves):
        state = GAME.apply(state, seat, act).state
        if i % every == 0:
            states.append(state)
    return states


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), config=st.sampled_from([COOP[0], COOP[2], COOP[6], COMPET[0], COMPET[3]]))
def test_hidden_information_documents_never_reach_another_seat(seed: int, config: GameConfig):
    compared = 0
    for state in _sampled_states(config, seed, every=9):
        compared += check_hidden(GAME, state, config.players)
        for seat in [None, *range(config.players)]:
            view = GAME.view(state, seat)
            assert not _leaks(view, seat, state)
            assert not _leaks(GAME.screen(view, seat), seat, state)
            if seat is not None:
                assert not _leaks([c.label for c in GAME.choices(state, seat)], seat, state)
    assert compared > 0


def test_effects_never_carry_lines_and_secrets_have_an_audience():
    for config in (COOP[1], COMPET[0]):
        for seed in range(4):
            result = random_playout(GAME, config, seed, policy=sensible_policy)
            state = GAME.initial_state(GAME.validate_config(config))
            for seat, act in result.moves:
                step = GAME.apply(state, seat, act)
                for effect in step.effects:
                    blob = json.dumps(to_json(effect), ensure_ascii=False)
                    assert not any(line in blob for line in ALL_LINES)
                    if effect.kind == "secret":
                        assert effect.audience is not None and seat in effect.audience
                state = step.state


def test_random_playouts_cooperative_every_player_count():
    check_playouts(GAME, COOP, seeds=range(3))


def test_random_playouts_competitive_every_player_count():
    check_playouts(GAME, COMPET, seeds=range(2))


def test_random_playouts_with_unknown_cards_and_variants():
    game = unknown_deck_game(4)
    configs = [GameConfig(3, {"protocol": "random", "missions": "random"}),
               GameConfig(4, {"hints": "off", "echecs": 2, "difficulty": "advanced"}),
               GameConfig(7, {"mode": "competitive", "difficulty": "advanced"})]
    check_playouts(game, configs, seeds=range(3))


def test_sensible_playouts_reach_wins_interceptions_and_missions():
    outcomes, interceptions, missions = [], 0, 0
    for seed in range(12):
        coop = random_playout(GAME, GameConfig(3), seed, policy=sensible_policy)
        outcomes.append(bool(coop.outcome.winners))
        variant = random_playout(GAME, GameConfig(3, {"missions": "m1"}), seed, policy=sensible_policy)
        missions += sum(variant.state.missions_done)
        compet = random_playout(GAME, GameConfig(6, {"mode": "competitive"}), seed, policy=sensible_policy)
        interceptions += sum(len(b) for b in compet.state.interceptions)
    assert any(outcomes) and not all(outcomes)
    assert interceptions > 0 and missions > 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_check_accepts_exactly_the_legal_actions(seed: int, data: st.DataObject):
    config = data.draw(st.sampled_from([COOP[1], COMPET[0]]))
    result = random_playout(GAME, config, seed, policy=sensible_policy)
    state = GAME.initial_state(GAME.validate_config(config))
    cut = data.draw(st.integers(0, max(0, len(result.moves) - 1)))
    for seat, act in result.moves[:cut]:
        state = GAME.apply(state, seat, act).state
    rng = random.Random(seed)
    pool = [{"type": t} for t in ("lay", "no_card", "withdraw", "side", "censor", "confirm", "enter_sum",
                                  "mission", "read", "intercept", "no_intercept", "intercept_check", "hint",
                                  "guess", "echec", "nope")]
    values = [0, 1, 2, 7, 31, -1, True, None, "recto", "initial", "erase", FRANCE, "sample/9"]
    for _ in range(60):
        act = dict(rng.choice(pool))
        for key in rng.sample(["card", "side", "line", "value", "mission", "correct", "hint"], rng.randint(0, 2)):
            act[key] = rng.choice(values)
        for seat in range(config.players):
            # compared as JSON: in Python True == 1, on the wire they differ
            legal = {json.dumps(a, sort_keys=True) for a in GAME.legal_actions(state, seat)}
            assert (GAME.check(state, seat, act) is None) == (json.dumps(act, sort_keys=True) in legal), (seat, act)
    if CHANCE in GAME.to_act(state):
        assert GAME.check(state, CHANCE, {"type": "echec", "card": 99}) is not None
