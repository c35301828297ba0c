"""A seat's menu names each identification with a label made once: over the states of seeded
playouts, every menu is the one made by describing each action afresh."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import Choice, GameConfig
from games.playout import random_playout
from games.registry import get_game
from games.spywhere import table
from games.spywhere.rules import legal_actions
from games.spywhere.texts import LABELS

GAME = get_game("spywhere")


def afresh(state: object, seat: int) -> list[Choice]:
    """The menu with every label described again."""
    out = []
    for a in legal_actions(state, seat):  # type: ignore[arg-type]
        if a["type"] == "swap":
            continue
        label = table.describe_action(state, seat, a)  # type: ignore[arg-type]
        ask = LABELS("confirm_identify", label=label) if a["type"] == "identify" else None
        out.append(Choice(label, a, ask))
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(GAME.min_players, GAME.max_players),
       forget=st.booleans())
def test_every_menu_is_the_one_described_afresh(seed: int, players: int, forget: bool) -> None:
    config = GAME.validate_config(GameConfig(players))
    state = GAME.initial_state(config)
    identified = 0
    for seat_moved, act in random_playout(GAME, config, seed).moves:
        for seat in range(players):
            if forget:
                table._IDENTIFY.clear()
            menu = table.choices(state, seat)
            assert menu == afresh(state, seat)
            identified += sum(c.action["type"] == "identify" for c in menu)
        state = GAME.apply(state, seat_moved, act).state
    assert identified > 0
