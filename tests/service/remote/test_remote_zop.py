"""Whole games of ZOP between two simulated tables through a real mosquitto, the broker restarted in
the middle: each player lays its own cards on its own table's pad; the joining table never holds a
card the host's player laid face down before the rules reveal it (its engine holds a stand-in, then
the card revealed); nothing is lost, and both tables end on the same game."""

from __future__ import annotations

import pytest

from tests.kits.remotekit import TwoTables, assert_sealed
from tests.service.remote.test_remote_faults import Sniffer


def laid_here_unrevealed(t: TwoTables) -> set[str]:
    """The cards the host's player has face down on its pad now."""
    return set(t.host_session.state.sides[0].laid)


@pytest.mark.parametrize("seed", [3, 8])
def test_whole_games_of_zop_between_two_tables_with_the_broker_restarted(broker, seed):
    t = TwoTables(broker, "zop", {}, seed=seed)
    t.fair = True
    sniffer = Sniffer(broker.port)  # a third party on the broker
    try:
        t.join(t.code)
        assert t.wait(t.in_step)
        a, b = t.host_session, t.join_session
        assert a.config.option("deck") == b.config.option("deck") == "sensed"
        assert b.config.seed == 0  # the host's seed never crosses
        cut_done, acts, stand_ins = False, 0, 0
        while not (a.over and b.over):
            assert t.wait(t.in_step), t.describe()
            a, b = t.host_session, t.join_session
            if a.over:
                break
            secret = laid_here_unrevealed(t)
            there = set(b.state.sides[0].laid)
            stand_ins += bool(there) and there != secret  # the joining table holds other cards: stand-ins
            if not cut_done and len(a.state.turns) >= 6:
                # both tables say who is away (the standing line under any instruction to put a card away)
                t.cut_broker(broker, "J2", "J1")
                cut_done = True
                continue
            assert t.act(), t.describe()
            acts += 1
            assert acts < 4000
        assert cut_done and stand_ins > 0
        t.assert_same_end()
        # the third party read no card: every message sealed (the joining table's cards cross to the host)
        with sniffer.lock:
            seen = list(sniffer.seen)
        assert_sealed(seen, t.code, (b"zop/", b"commit"), b"zop/", "join", 101)
    finally:
        sniffer.close()
        t.close()


def joined_to_a_host_card_face_down(t: TwoTables) -> None:
    """Join, then play past three turns until a card of the host's lies face down (a stand-in at the
    joining table), both tables in step."""
    t.join(t.code)
    while len(t.host_session.state.turns) < 3 or not t.host_session.state.sides[0].laid:
        assert t.wait(t.in_step), t.describe()
        assert t.act(), t.describe()
    assert t.wait(t.in_step), t.describe()


@pytest.mark.parametrize("which", ["b", "a"])
def test_a_table_cut_off_in_a_game_of_zop_takes_it_up_from_its_journal(broker, tmp_path, which):
    t = TwoTables(broker, "zop", {}, seed=5, journals=(tmp_path / "a.sqlite", tmp_path / "b.sqlite"))
    t.fair = True
    try:
        joined_to_a_host_card_face_down(t)
        t.power_cut(which)
        t.restart(which)
        assert t.wait(t.in_step), t.describe()
        acts = 0
        while not (t.host_session.over and t.join_session.over):
            assert t.wait(t.in_step), t.describe()
            if t.host_session.over:
                break
            assert t.act(), t.describe()
            acts += 1
            assert acts < 4000
        assert t.host_session.state == t.join_session.state
        assert t.joined is not None and t.joined.seats.mismatches == 0
    finally:
        t.close()
