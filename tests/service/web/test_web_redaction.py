"""What the pages get hides what it must, as a property over the games' hidden fields:
change anything a seat may not know, and that seat's page and the spectators' pages get the very
same data (the games' `hidden_variants` are the changes), readable summaries included."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.screens.frames import Frame
from firmware_host.web import redact
from firmware_host.web.hub import TableSnap
from games.core import GameConfig
from games.registry import get_game
from tests.kits.every_game import has_secrets, ids, sampled_players
from tests.kits.gamekit import states_along


def snap(game: Any, state: Any, players: int) -> TableSnap:
    seats = tuple(range(1, players + 1))
    return TableSnap(seq=1, app="game", reader="ready", seat_ids=tuple(range(1, 9)), frames={}, images={},
                     leds={}, sensed={}, game=game, state=state, seats=seats, moves=7)


def encoded(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("gid", ids())
def test_pages_are_blind_to_what_their_seat_may_not_know(gid: str) -> None:
    game = get_game(gid)
    compared = 0

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), seed=st.integers(0, 10_000))
    def blind(data: Any, seed: int) -> None:
        nonlocal compared
        players = data.draw(st.integers(*sampled_players(gid)), label="players")
        states = states_along(game, GameConfig(players), seed)
        # a state that hides something from some seat, where the game has one: a game whose
        # secrets last a few of its states (a cup hiding a pea) is not missed by chance
        secret = [s for s in states if any(next(iter(game.hidden_variants(s, x)), None) is not None
                                           for x in range(players))]
        state = data.draw(st.sampled_from(secret or states), label="state")
        public = redact.watch_payload(snap(game, state, players), "fr")
        assert public["game"]["summary"]["players"], f"{gid}: the spectator's summary is compared too"
        watch = encoded(public)
        for seat in range(players):
            own = redact.seat_payload(snap(game, state, players), seat + 1, "fr")
            assert own["mine"] is not None and own["game"]["summary"] == public["game"]["summary"]
            mine = encoded(own)
            for variant in game.hidden_variants(state, seat):
                # the spectator knows less than any seat: blind to every seat's hidden fields
                assert encoded(redact.watch_payload(snap(game, variant, players), "fr")) == watch, f"{gid}: spectator"
                assert encoded(redact.seat_payload(snap(game, variant, players), seat + 1, "fr")) == mine, \
                    f"{gid}: seat {seat + 1}'s page"
                compared += 1

    blind()
    # the property must not have been vacuous: a game with secrets had some hidden variant compared
    assert compared > 0 or not has_secrets(gid), f"no hidden variant of {gid} was compared"


def test_a_spectator_payload_holds_no_screen_tag_or_private_view() -> None:
    game = get_game("zop")
    state = states_along(game, GameConfig(2), 1)[9]
    from PIL import Image

    image = Image.new("1", (128, 64), 1)
    s = TableSnap(seq=3, app="game", reader="ready", seat_ids=(1, 2), frames={1: Frame(game.screen(game.view(state, 0), 0))},
                  images={1: image, 2: image}, leds={"seat1.pad": "blue"}, sensed={"seat1.pad": frozenset({"04AA"})},
                  game=game, state=state, seats=(1, 2), moves=9)
    watch = redact.watch_payload(s, "fr")
    assert set(watch) == {"kind", "seq", "app", "reader", "leds", "menu_game", "game", "labels"}
    assert "04AA" not in encoded(watch)
    seat = redact.seat_payload(s, 2, "fr")
    assert seat["screen"] is not None and "screens" not in seat and "zones" not in seat
    assert seat["private"] == json.loads(json.dumps(redact.to_json(game.view(state, 1))))
