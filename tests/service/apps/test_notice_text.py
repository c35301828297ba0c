"""A seat's notice reads as its parts joined, the same text object while its parts stand, and
follows them when they change."""

from __future__ import annotations

from firmware_host.apps.seat_ui import Notice, SeatUI
from games.core import tr


def test_a_notice_reads_as_its_parts_joined_and_follows_them() -> None:
    a, b, c = tr("Un", "One"), tr("Deux", "Two"), tr("Trois", "Three")
    ui = SeatUI()
    ui.notify(a, 0.0)
    notice = ui.notices[0]
    assert notice.text is a
    ui.notify(b, 0.5)
    notice = ui.notices[0]
    first = notice.text
    assert first == tr("Un · Deux", "One · Two")
    assert notice.text is first  # one object while the parts stand: the screens' caches key on it
    notice.parts = (*notice.parts, c)
    assert notice.text == tr("Un · Deux · Trois", "One · Two · Three")
    notice.parts = (c, a)
    assert notice.text == tr("Trois · Un", "Three · One")
    read = Notice((a, b), 1.0)
    assert read.text == first
    assert read == Notice((a, b), 1.0)  # the text it joined is no part of its value
