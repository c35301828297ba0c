"""The hidden-information check must catch a leak of any secret card, not only of the first few:
for a view made to leak one more secret (the last secret card of another seat's hand or pile, a
reading's card), at every position of a seeded game and for every seat, some hidden variant
must change what leaks: otherwise `check_hidden` would let that leak through.

Every registered game with secrets is checked. A game named in LEAKS leaks the secret card said
there; any other leaks what another seat's own view shows beyond the public view (`private`)."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import GameConfig, to_json
from games.registry import get_game
from tests.kits.every_game import all_configs, has_secrets, ids
from tests.kits.gamekit import states_along

POSITION = {"value": -1}  # which secret card leaks: the last one, or the middle one


def _last(items: Any, hidden: Any = lambda c: True) -> Any:
    secret = [c for c in items if hidden(c)]
    if not secret:
        return None
    return secret[-1] if POSITION["value"] == -1 else secret[len(secret) // 2]


def _mata_hari(st: Any, seat: int) -> Any:
    known = {c for x in st.seen if x.viewer == seat for c in x.cards} | {c for s in st.seats for c in s.loose}
    return _last(st.seats[(seat + 1) % st.players].hand, lambda c: c not in known)


LEAKS = {
    "spywhere": (GameConfig(3, {}, 4), lambda st, seat: _last(st.hands[(seat + 1) % st.players])),
    "mata-hari": (GameConfig(4, {}, 4), _mata_hari),
    "zop": (GameConfig(2, {"deck": "tracked"}, 4),
            lambda st, seat: _last(st.sides[1 - seat].pile, lambda c: c not in st.exposed)),
    "operation-zebre": (GameConfig(3, {}, 4),
                        lambda st, seat: _last([r.card for r in st.readings if r.seat != seat])),
}


def private(game_id: str) -> tuple[GameConfig, Any]:
    """The leak of a game with no entry in LEAKS: another seat's view where it differs from the
    public view (the last such seat, or the middle one), as seen by that seat."""
    game = get_game(game_id)

    def leak(st: Any, seat: int) -> Any:
        public = to_json(game.view(st, None))
        others = [s for s in range(game.validate_config(config).players) if s != seat]
        shown = [{k: v for k, v in to_json(game.view(st, s)).items() if k != "seat" and public.get(k) != v}
                 for s in others]
        return _last([x for x in shown if x])

    config = GameConfig(all_configs(game)[0].players, {}, 4)
    return config, leak


@pytest.mark.parametrize("position", ["last", "middle"])
@pytest.mark.parametrize("game_id", [g for g in ids() if has_secrets(g)])
def test_every_secret_card_is_varied_so_its_leak_would_be_caught(game_id, position, monkeypatch):
    monkeypatch.setitem(POSITION, "value", -1 if position == "last" else 0)
    game = get_game(game_id)
    config, leak = LEAKS[game_id] if game_id in LEAKS else private(game_id)
    checked, missed = 0, []
    stride = 3 if game_id in LEAKS else 1  # a short game: every state
    for seed in range(4, 14):  # more games until 20 leaks were tried
        if checked >= 20:
            break
        for i, state in enumerate(states_along(game, config, seed)[::stride]):
            if game.outcome(state) is not None:
                break
            for seat in range(config.players):
                secret = leak(state, seat)
                if secret is None:
                    continue
                checked += 1
                if all(to_json(leak(v, seat)) == to_json(secret) for v in game.hidden_variants(state, seat)):
                    missed.append((seed, i * stride, seat, secret))
    how = "" if game_id in LEAKS else " (the generic leak: when it does not fit the game, name its secret in LEAKS)"
    assert checked >= 20 and missed == [], f"{game_id}: {len(missed)} of {checked} leaks unnoticed{how}: {missed[:3]}"
