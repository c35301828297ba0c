"""The pages' readable summaries: every game, along whole games, in both languages, says its state in
words (J1…, table seats, no view keys, no 0-based seats, no `col:B`), and a view of any other
shape gives the minimum instead of an error."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.web import redact, summary
from firmware_host.web.hub import TableSnap
from games.core import GameConfig, to_json
from games.registry import get_game
from tests.kits.gamekit import states_along

GAMES = [("droles-de-zebres", 2), ("zop", 2), ("operation-zebre", 4), ("mata-hari", 4), ("spywhere", 3)]
RAW = re.compile(r"\b(col|row):[A-F1-5]\b|\bJ0\b|\bP0\b|\bNone\b|\bnull\b|\btrue\b|\bfalse\b|_")


def _texts(value: Any) -> list[str]:
    return [s for s in redact.strings(value) if s]


def _snap(game: Any, state: Any, seats: tuple[int, ...]) -> TableSnap:
    return TableSnap(seq=1, app="game", reader="ready", seat_ids=tuple(range(1, 9)), frames={}, images={},
                     leds={}, sensed={}, game=game, state=state, seats=seats, moves=3)


@pytest.mark.parametrize("gid,players", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_state_of_a_game_is_said_in_words(gid: str, players: int, lang: str) -> None:
    game = get_game(gid)
    states = states_along(game, GameConfig(players), 11)
    seats = tuple(range(3, 3 + players))  # table seats 3, 4…: never confused with game seats
    view_keys: set[str] = set()
    for state in states[:: max(1, len(states) // 25)] + states[-1:]:
        view_keys |= set(to_json(game.view(state, None)))
        snap = _snap(game, state, seats)
        public = redact.watch_payload(snap, lang)["game"]["summary"]
        assert [p["who"] for p in public["players"]] == [f"{'P' if lang == 'en' else 'J'}{i + 1}"
                                                        for i in range(players)]
        assert [p["seat"] for p in public["players"]] == list(seats)
        assert public["facts"], f"{gid}: no fact said"
        mine = redact.seat_payload(snap, seats[0], lang)["mine"]
        for part in (public, mine):
            for text in _texts({k: v for k, v in part.items() if k != "cards"}):
                assert not RAW.search(text), f"{gid} ({lang}): raw value in {text!r}"
                # a raw dump read "key: value"; a key may be a word ("crocodile"), never a label
                assert not any(re.search(rf"(?<!\w){re.escape(k)} ?:", text) for k in view_keys), \
                    f"{gid} ({lang}): a view key in {text!r}"
            for row in part["cards"]:
                for card in row.get("cards", []):
                    assert card["label"] != card["piece"], f"{gid}: {card['piece']} has no name"
    assert view_keys, gid


def test_a_seat_sees_its_own_cards_and_score_the_spectator_none() -> None:
    game = get_game("mata-hari")
    state = next(s for s in states_along(game, GameConfig(4), 2) if (to_json(game.view(s, 1))["me"] or {}).get("hand"))
    snap = _snap(game, state, (1, 2, 3, 4))
    mine = redact.seat_payload(snap, 2, "fr")["mine"]
    me = to_json(game.view(state, 1))["me"]
    hand = next(row for row in mine["cards"] if row["title"] == "Ma main")
    assert [c["piece"] for c in hand["cards"]] == me["hand"]
    assert mine["score"] == f"{me['score']} pts pour l'instant"
    public = redact.watch_payload(snap, "fr")["game"]["summary"]
    assert public["cards"] == [] and public["score"] is None
    assert not set(me["hand"]) & set(redact.strings(public))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=12), kids, max_size=6),
                    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(gid=st.sampled_from([g for g, _ in GAMES] + ["nope"]), view=JSON,
       seats=st.lists(st.none() | st.integers(1, 8), max_size=8))
def test_a_view_of_any_shape_gives_a_summary_never_an_error(gid: str, view: Any, seats: list[int | None]) -> None:
    out = summary.summarize(gid, view, seats, {}, "fr", mine=True)
    assert set(out) == {"facts", "players", "cards", "score"}
    json.dumps(out)  # sendable as it is
    assert all(isinstance(f, str) and f for f in out["facts"])


@pytest.mark.parametrize("gid,players", GAMES, ids=[g for g, _ in GAMES])
def test_a_keyed_view_of_the_wrong_types_still_gives_a_summary(gid: str, players: int) -> None:
    game = get_game(gid)
    view = to_json(game.view(states_along(game, GameConfig(players), 4)[5], 0))
    for key in view:
        for wrong in ("x", -1, 10**9, [None], {"a": 1}, True, 1.5):
            out = summary.summarize(gid, {**view, key: wrong}, [1, 2, 3, 4], {}, "en", mine=True)
            assert set(out) == {"facts", "players", "cards", "score"}
