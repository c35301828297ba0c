"""Checks every game's tests reuse: random playouts, legality, replay, hidden information.

Use from a game's test module:

    from tests.kits.gamekit import check_playouts, check_hidden
    def test_playouts(): check_playouts(GAME, [GameConfig(players=2)], seeds=range(200))
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from games.core import CHANCE, Game, GameConfig, IllegalAction, Outcome, replay, to_json
from games.playout import Playout, random_playout


def _json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(to_json(value), ensure_ascii=False, sort_keys=True))


def check_playout(game: Game, config: GameConfig, seed: int, probe_every: int = 7) -> Playout:
    """One seeded random playout to the end, with every contract check on the way.

    - the game ends with an Outcome whose scores have one entry per seat
    - at every `probe_every`-th state, every listed legal action of every seat to act applies
      (and `check` agrees), and applying never mutates the state it was given
    - states, views and screens encode to JSON
    - replaying the recorded moves from the initial state gives an equal state
    """
    result = random_playout(game, config, seed)
    assert isinstance(result.outcome, Outcome), f"{game.id} seed {seed}: no outcome"
    assert len(result.outcome.scores) == config.players
    assert all(0 <= w < config.players for w in result.outcome.winners)

    cfg = game.validate_config(config)
    state = game.initial_state(cfg)
    for i, (seat, act) in enumerate(result.moves):
        if i % probe_every == 0:
            _probe_state(game, state, cfg.players)
        state = game.apply(state, seat, act).state
    _probe_state(game, state, cfg.players)
    assert state == result.state, f"{game.id} seed {seed}: replay differs"
    assert to_json(replay(game, cfg, result.moves)) == to_json(result.state)
    return result


def _probe_state(game: Game, state: Any, players: int) -> None:
    snapshot = json.dumps(to_json(state), sort_keys=True)
    for seat in game.to_act(state):
        if seat == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert outcomes, "CHANCE to act with no outcome"
            total = sum(p for _, p in outcomes)
            assert abs(total - 1.0) < 1e-6, f"chance probabilities sum to {total}"
            continue
        for act in game.legal_actions(state, seat):
            _json_roundtrip(act)
            assert game.check(state, seat, act) is None, f"listed action refused: {act}"
            game.apply(state, seat, act)
    assert json.dumps(to_json(state), sort_keys=True) == snapshot, "apply mutated the state"
    for seat in [None, *range(players)]:
        view = game.view(state, seat)
        _json_roundtrip(view)
        screen = game.screen(view, seat)
        _json_roundtrip(screen)
    _json_roundtrip(game.expected_layout(state))


def check_playouts(game: Game, configs: Iterable[GameConfig], seeds: Iterable[int]) -> list[Playout]:
    """Run `check_playout` for every config × seed; returns the playouts for extra checks."""
    out = []
    seeds = list(seeds)
    for config in configs:
        for seed in seeds:
            out.append(check_playout(game, config, seed))
    return out


def check_illegal_leaves_state(game: Game, state: Any, seat: int, act: dict) -> IllegalAction:
    """Applying an illegal action raises IllegalAction with a code and leaves `state` as it was."""
    snapshot = json.dumps(to_json(state), sort_keys=True)
    try:
        game.apply(state, seat, act)
    except IllegalAction as exc:
        assert exc.code and exc.rejection.message.fr and exc.rejection.message.en
        assert json.dumps(to_json(state), sort_keys=True) == snapshot
        return exc
    raise AssertionError(f"{game.id}: {act} accepted for seat {seat}")


def check_hidden(game: Game, state: Any, players: int) -> int:
    """For every seat, every hidden variant of `state` gives that seat the same view and screen.

    Returns how many variants were compared, so tests can assert the check was not vacuous.
    """
    compared = 0
    for seat in range(players):
        view = _json_roundtrip(game.view(state, seat))
        screen = _json_roundtrip(game.screen(game.view(state, seat), seat))
        for variant in game.hidden_variants(state, seat):
            assert _json_roundtrip(game.view(variant, seat)) == view, f"seat {seat} view leaks"
            assert _json_roundtrip(game.screen(game.view(variant, seat), seat)) == screen
            compared += 1
    return compared


def states_along(game: Game, config: GameConfig, seed: int) -> list[Any]:
    """Every state of one seeded random playout (for property tests over many positions)."""
    result = random_playout(game, config, seed)
    cfg = game.validate_config(config)
    state = game.initial_state(cfg)
    states = [state]
    for seat, act in result.moves:
        state = game.apply(state, seat, act).state
        states.append(state)
    return states


def rng_for(seed: int) -> random.Random:
    """A seeded RNG for tests."""
    return random.Random(seed)
