"""A whole game of Drôles de Zèbres between two simulated tables through a real mosquitto, the
broker restarted in the middle: each table lays the other's moves where its screens say, nothing
is lost, both say who is away, and the two engines end on the same game."""

from __future__ import annotations

from firmware_host.loop.simulator import SimTable
from firmware_host.remote.code import shown
from tests.kits.remotekit import TwoTables, screen_words
from tests.service.apps.solo_table import session


def told(sim: SimTable, table_seat: int, words: str) -> bool:
    """The seat's screen shows `words`, or has them waiting among its messages."""
    app = session(sim)
    gseat = app.game_seat(table_seat)
    assert gseat is not None
    return words in screen_words(sim, table_seat) or any(words in n.text.fr for n in app.ui[gseat].notices)


def test_a_whole_game_between_two_tables_with_the_broker_restarted(broker):
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "random"}, seed=3)
    try:
        # the host's screens show the code until the other table comes
        assert t.wait(lambda: f"code {shown(t.code)}" in screen_words(t.a, 1))
        t.join(shown(t.code).lower())  # typed in lower case, with its dash
        assert t.wait(t.in_step)
        assert t.join_session.seats == (None, 3) and t.host_session.seats == (1, None)
        cut_at, cut_done, acts = 12, False, 0
        while not (t.host_session.over and t.join_session.over):
            assert t.wait(t.in_step), t.describe()
            if t.host_session.over:
                break
            if not cut_done and len(t.host_session.moves) >= cut_at:
                broker.stop()
                # both tables say who is away: the host's player 2, the joining table's player 1
                assert t.wait(lambda: "J2 absent" in screen_words(t.a, 1)), screen_words(t.a, 1)
                assert t.wait(lambda: "J1 absent" in screen_words(t.b, 3)), screen_words(t.b, 3)
                moves = len(t.host_session.moves) + len(t.join_session.moves)
                while len(t.host_session.moves) + len(t.join_session.moves) == moves:
                    assert t.act(), "nobody could play while the broker was away"
                assert not t.in_step()  # a move waits in an outbox
                broker.start()
                # back: the queued move crossed, and each table was told (the message waits under
                # the instruction to lay that move, if any)
                assert t.wait(lambda: told(t.a, 1, "J2 (à distance) est de retour")
                              and told(t.b, 3, "J1 (à distance) est de retour"))
                assert t.wait(t.in_step)
                assert "absent" not in screen_words(t.a, 1) and "absent" not in screen_words(t.b, 3)
                cut_done = True
                continue
            assert t.act(), t.describe()
            acts += 1
            assert acts < 3000
        assert cut_done
        a, b = t.host_session, t.join_session
        assert a.moves == b.moves and a.state == b.state and a.over
        assert t.joined is not None and t.joined.seats.mismatches == 0 and t.joined.seats.refused == 0
        assert t.joined.seats.checked >= len(a.moves) // 2  # the host's views matched the joining engine's
        # each table laid the other's moves where its screens and LEDs said (follow_instruction checks both)
        assert t.followed["host"] >= 10 and t.followed["join"] >= 10, t.followed
        assert b.over and a.game.outcome(a.state) == b.game.outcome(b.state)
        stats_a, stats_b = t.hosted.link.stats, t.joined.link.stats
        assert stats_a.bad == stats_b.bad == 0
        assert stats_a.connects >= 2 and stats_b.connects >= 2  # the broker came back: both reconnected
    finally:
        t.close()
