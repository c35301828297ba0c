"""Spywhere across tables with the re-triple rule: long seeded games in which triples go back into
the pile are told by the host's shadow and followed to their end by an engine fed the messages only
(as the joining table's), on the host's state and outcome. Each game is one the shadow could not
follow when only the first change of stand-ins was tried, when the end gave the cards to the draws
in the order of their names, when a card shown from the pile could not pass through another
stand-in, or when no stand-in could change for the shadow's pile to give the host's re-triple (game
111: the host's refill made a triple that its pile shuffled back, or kept, and the shadow's would
not have)."""

from __future__ import annotations

import pytest

from firmware_host.remote import code as codes
from tests.kits.spyfollow import case, follow

KEY = codes.derive("ABCDEFGH").key


@pytest.mark.parametrize("k", [3, 21, 36, 67, 111])
def test_a_game_with_triples_shuffled_back_is_followed_to_its_end(k):
    config, seats, moves = case(k)
    result = follow(k, KEY)
    assert result["failed"] is None, (config.players, sorted(seats), result["failed"])
    assert result["retriples"] >= 1 and result["rewrites"] >= 1, result
