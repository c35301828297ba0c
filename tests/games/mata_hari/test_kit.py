"""The Operation: Mata Hari test kit (tests/kits/mata_hari_kit.py) builds the states it promises."""

from __future__ import annotations

from tests.kits.mata_hari_kit import dealt, obj, par, res


def test_dealt_builds_the_requested_hands() -> None:
    state = dealt(4, {0: [res("documents", 5), par("hitman")]}, {1: obj("gants")})
    assert state.phase == "offer" and state.active == 0
    assert res("documents", 5) in state.seats[0].hand and par("hitman") in state.seats[0].hand
    assert all(len(s.hand) == 11 and not s.loose for s in state.seats)
    assert state.seats[1].objective == obj("gants")
