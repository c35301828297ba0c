"""A seat's messages never form a backlog that ◀ ▶ would step through: a newer message replaces the
one showing, and two of one moment show together, the player's own ahead."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.apps.seat_ui import NOTICE_SECONDS, SeatUI
from games.core import tr

WORDS = [tr(f"message {i}", f"message {i}") for i in range(6)]


@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from([0.0, 0.5, 1.0, 7.0]), st.booleans()), max_size=30))
def test_messages_never_queue(events: list[tuple[int, float, bool]]) -> None:
    ui, now = SeatUI(), 100.0
    for i, step, first in events:
        now += step
        ui.notify(WORDS[i], now, first)
        assert len(ui.notices) == 1
        assert len(ui.notices[0].parts) <= 2
        assert WORDS[i] in ui.notices[0].parts  # the newest is always shown
        assert ui.notices[0].until == now + NOTICE_SECONDS or ui.notices[0].since == now
    ui.expire(now + NOTICE_SECONDS, covered=False)
    assert not ui.notices  # nothing left to read after its time


def test_a_newer_message_replaces_the_one_showing() -> None:
    ui = SeatUI()
    ui.notify(tr("J4 censure : 10 suspicion(s)", "P4 censors: 10"), 1.0)
    ui.notify(tr("Notez votre réponse en 10 secondes !", "Write your answer in 10 seconds!"), 2.0)
    assert [n.text.fr for n in ui.notices] == ["Notez votre réponse en 10 secondes !"]


def test_two_messages_of_one_moment_show_together_the_players_own_first() -> None:
    ui = SeatUI()
    ui.notify(tr("Révélé : Att 5", "Revealed: Atk 5"), 3.0)
    ui.notify(tr("Coup refusé", "Move refused"), 3.0, first=True)
    assert ui.notices[0].text.fr == "Coup refusé · Révélé : Att 5"
    ui.notify(tr("Piochez une carte chez l'adversaire", "Draw a card from the opponent"), 3.0)
    assert ui.notices[0].text.fr == "Révélé : Att 5 · Piochez une carte chez l'adversaire"
