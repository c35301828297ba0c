"""Hidden information in what a table publishes: a property over seeded playouts of every game.

For states along each playout, every state that differs only in what some seat may not know (the
game's `hidden_variants`) gives the very same bytes for the public part every message carries
(`firmware_host.venue.public.public_part`, the one redaction). And the messages the outbox really
builds from the journal carry that public part and nothing of the actions they come from: no
string of an action that the public part does not already show.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from firmware_host.storage.journal import Journal
from firmware_host.venue import messages
from firmware_host.venue.outbox import Outbox
from firmware_host.venue.public import public_part
from games.core import BadConfig, GameConfig
from games.playout import random_playout
from games.registry import get_game
from tests.kits.every_game import has_secrets, ids, sampled_players

SAMPLES = 10  # states checked per playout, the last one included


def _encode(game: Any, state: Any) -> bytes:
    return messages.encode(public_part(game, state))


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


@st.composite
def setups(draw: Any, game_id: str) -> tuple[str, GameConfig, int]:
    game = get_game(game_id)
    low, high = sampled_players(game_id)
    players = draw(st.integers(low, high))
    options = {o.key: draw(st.sampled_from(o.choices)) for o in game.options}
    seed = draw(st.integers(0, 100_000))
    return game_id, GameConfig(players, options, seed), seed


def check(game_id: str, config: GameConfig, seed: int) -> int:
    """The property for one seeded playout; returns how many hidden variants were compared."""
    game = get_game(game_id)
    config = game.validate_config(config)
    playout = random_playout(game, config, seed)
    states = [game.initial_state(config)]
    for seat, act in playout.moves:
        states.append(game.apply(states[-1], seat, act).state)
    compared = 0
    step = max(1, len(states) // SAMPLES)
    for state in states[::step] + [states[-1]]:
        public = _encode(game, state)
        for seat in range(config.players):
            for variant in game.hidden_variants(state, seat):
                assert _encode(game, variant) == public, f"{game_id}: seat {seat}'s secret changes a message"
                compared += 1

    # the real path: the journal, the outbox, the bytes it hands to the MQTT client
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "j.sqlite")
        journal.db.execute("PRAGMA synchronous=OFF")  # a test journal: no fsync per move
        box = Outbox(journal.path, "t1")
        gid = journal.start_game(game_id, config, tuple(range(1, config.players + 1)))
        for i, (seat, act) in enumerate(playout.moves):
            journal.append(gid, i, seat, act)
        journal.finish(gid, playout.outcome.to_json() if playout.outcome else None)
        sent = box.take(1_000_000)
        journal.close()
    assert len(sent) == len(playout.moves) + 2
    for i, m in enumerate(sent):
        payload = json.loads(m.payload)
        state = states[min(i, len(states) - 1)]  # started: the initial state; move n: after it
        assert json.loads(_encode(game, state)) == payload["public"]
        assert "seed" not in payload and "action" not in payload
        if 1 <= i <= len(playout.moves):
            _, act = playout.moves[i - 1]
            secret = _strings(dict(act)) - _strings(payload["public"]) - {act.get("type")}
            # values only: a JSON key of the public view may share a word with an action's value;
            # and outside the public view, whose every string the hidden variants above proved
            # secret-free (a removed card "mata-hari/partners/double-agent/2" is public)
            values = _strings(payload) - _strings(payload["public"])
            leaked = [s for s in secret if len(s) > 3
                      and any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", v) for v in values)]
            assert not leaked, f"{game_id}: move {i} carries its action's {leaked}"
    return compared


@pytest.mark.parametrize("game_id", ids())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_published_messages_ignore_every_hidden_change(game_id, data):
    _, config, seed = data.draw(setups(game_id))
    game = get_game(game_id)
    try:
        game.initial_state(game.validate_config(config))
    except BadConfig:
        assume(False)
    check(game_id, config, seed)


def test_a_public_removed_card_naming_a_statement_value_is_no_leak():
    check("mata-hari", GameConfig(4, {}, 26118), 26118)


@pytest.mark.parametrize("game_id", [g for g in ids() if has_secrets(g)])
def test_the_property_is_not_vacuous(game_id):
    """Each game with secrets really offers hidden variants to compare along a playout."""
    low, high = sampled_players(game_id)
    assert check(game_id, GameConfig(min(max(low, 4), high), {}, 7), 7) > 0
