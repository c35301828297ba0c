"""Whole games of Operation: Mata Hari between two simulated tables through a real mosquitto, the
broker stopped in the middle: the host deals and draws for both tables (the joining table's players
lay the cards its screens name on their own pads); the joining table never holds the host seats'
hands, objectives or offers before the rules show them (its engine holds stand-ins); nothing is lost,
and both tables end on the same outcome, every seat's hand and objective shown alike."""

from __future__ import annotations

import pytest

from games.core import to_json
from tests.kits.remotekit import TwoTables, assert_sealed, messages_by_kind, seat_names
from tests.service.remote.test_remote_faults import Sniffer


def secrets(state, joining):
    """The host seats' hands, objectives and offers."""
    return [(s.hand, s.objective, s.offer) for i, s in enumerate(state.seats) if i not in joining]


def assert_same_outcome(t: TwoTables, joining) -> None:
    """Both tables ended with the same outcome, every joining seat seeing what the host's engine shows it."""
    a, b = t.host_session, t.join_session
    assert a.over and b.over
    assert a.game.outcome(a.state) == b.game.outcome(b.state)
    for j in joining:
        assert to_json(a.game.view(a.state, j)) == to_json(b.game.view(b.state, j))
    assert t.joined is not None and t.joined.seats.mismatches == 0


@pytest.mark.parametrize(("seed", "seats", "there"), [
    (3, (1, None, 5), (3,)),  # 3 players, two at the host
    (6, (1, None, 5, None), (3, 4)),  # 4 players, two at each table
])
def test_whole_games_of_mata_hari_between_two_tables_with_the_broker_stopped(broker, seed, seats, there):
    joining, here, away = seat_names(seats)
    t = TwoTables(broker, "mata-hari", {}, seed=seed, seats=seats)
    t.fair = True
    sniffer = Sniffer(broker.port)  # a third party on the broker
    try:
        t.join(t.code, there)
        assert t.wait(t.in_step)
        a, b = t.host_session, t.join_session
        assert b.config.seed == 0  # the host's seed never crosses
        cut_done, acts, stand_ins = False, 0, 0
        kinds = messages_by_kind(t)
        while not (a.over and b.over):
            assert t.wait(t.in_step), t.describe()
            a, b = t.host_session, t.join_session
            if a.over:
                break
            stand_ins += secrets(a.state, joining) != secrets(b.state, joining)
            assert all(a.state.seats[j].hand == b.state.seats[j].hand for j in joining)
            if not cut_done and a.state.turn >= 2:
                t.cut_broker(broker, away, here)
                cut_done = True
                continue
            assert t.act(), t.describe()
            acts += 1
            assert acts < 4000
        assert t.wait(lambda: t.host_session.over and t.join_session.over)
        assert_same_outcome(t, joining)
        assert cut_done and stand_ins > 10, (cut_done, stand_ins)
        assert kinds.count("rewrite") >= 2, kinds
        with sniffer.lock:
            seen = list(sniffer.seen)
        assert_sealed(seen, t.code, (b"mata-hari/resources/", b"mata-hari/partners/"), b"mata-hari/objectives/",
                      "host", 51)
    finally:
        sniffer.close()
        t.close()


@pytest.mark.parametrize("which", ["b"])  # the host's restart is Spywhere's path (its shadow replayed): "a" works too
def test_a_table_cut_off_in_a_game_of_mata_hari_takes_it_up_from_its_journal(broker, tmp_path, which):
    """The joining table goes dark while it holds stand-ins for the host seats' cards, starts again from
    its journal, and both play on to the same outcome."""
    joining = (1,)
    t = TwoTables(broker, "mata-hari", {}, seed=5, journals=(tmp_path / "a.sqlite", tmp_path / "b.sqlite"),
                  seats=(1, None, 5))
    t.fair = True
    try:
        t.join(t.code)
        while t.host_session.state.turn < 2:
            assert t.wait(t.in_step), t.describe()
            assert t.act(), t.describe()
        assert t.wait(t.in_step), t.describe()
        assert secrets(t.host_session.state, joining) != secrets(t.join_session.state, joining)  # stand-ins there
        t.power_cut(which)
        t.restart(which)
        assert "à distance" in t.resume_entry
        t.play_to_end()
        assert_same_outcome(t, joining)
    finally:
        t.close()
