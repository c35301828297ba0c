"""A seat's messages never form a backlog that ◀ ▶ would step through, and none is lost unseen: the
messages not read yet show together as one notice (a newer one joins them, never replaces them),
a notice too long for the rows its screen spares shows in turn, each part for READ_SECONDS of the
loop's clock (with no row spare, as a banner for its reading time only), and it goes only once
every part of it has been on screen (or pressed through)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.apps.seat_ui import NOTICE_SECONDS, READ_SECONDS, SeatUI, shown_status
from firmware_host.screens import layout
from games.core import Screen, Text, essential, tr

WORDS = [tr(f"message {i} " + "mot " * (i * 4), f"message {i} " + "word " * (i * 4)) for i in range(6)]
MENU = (tr("Jouer", "Play"), tr("Passer", "Pass"), tr("Annuler le dernier coup", "Undo last move"))
# screens whose essential lines leave 3, 2, 1 or no row to a message above a menu of 1 to 3 entries
SCREENS = [Screen(tr("Partie", "Game"), tuple(essential(tr(f"À faire {k}", f"To do {k}")) for k in range(n)))
           for n in range(5)]

Step = tuple[str, int, float]  # ("notify" | "press" | "cover" | "wait", which, seconds)


def run(steps: list[Step], screen: Screen, menu: tuple[Text, ...]) -> None:
    """Play the steps on one seat, drawing its screen after each and whenever the notice asks the
    loop to (`next_change`), and check that every message shows whole, part by part, before it
    goes, and that one notice at most waits."""
    ui, now, covered = SeatUI(), 100.0, False
    pending: dict[str, set[str]] = {}  # message -> words not shown yet

    def draw() -> None:
        ui.expire(now, covered)
        assert len(ui.notices) <= 1  # never a backlog
        if ui.notices and not covered:
            part, cover = shown_status(ui, screen, menu, layout.SIZE, "fr", now)
            plan = layout.plan(screen, "fr", () if cover else menu, 0, part if cover else None, layout.SIZE, 0, 0,
                               None if cover else part)
            rows = plan.banner_rows if cover else plan.status_rows
            assert " ".join(rows).split() == part.fr.split()  # the part shows whole
            for words in pending.values():
                words -= set(part.fr.split())
        elif ui.notices:
            ui.hidden()
        waiting = set(ui.notices[0].text.fr.split(" · ")) if ui.notices else set()
        for message in [m for m in pending if m not in waiting]:  # gone: it must have been seen whole
            assert not pending.pop(message), f"{message!r} went unseen"

    for kind, which, seconds in steps:
        if kind == "notify":
            ui.notify(WORDS[which], now, first=which % 2 == 0)
            pending.setdefault(WORDS[which].fr, set(WORDS[which].fr.split()))
        elif kind == "cover":
            covered = not covered
        elif kind == "press" and not covered:
            ui.dismiss(now)
        else:
            end = now + seconds
            while ui.notices and (change := ui.notices[0].next_change(now)) is not None and change <= end:
                now = change  # the loop wakes when the notice's part or its end is due
                draw()
            now = end
        draw()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("notify"), st.integers(0, 5), st.just(0.0)),
                          st.tuples(st.sampled_from(["press", "cover"]), st.just(0), st.just(0.0)),
                          st.tuples(st.just("wait"), st.just(0), st.sampled_from([0.0, 0.5, 1.0, 2.0, 7.0]))),
                max_size=40),
       st.sampled_from(SCREENS), st.integers(1, 3))
def test_no_message_is_lost_unseen_and_none_forms_a_backlog(steps: list[Step], screen: Screen, entries: int) -> None:
    run(steps, screen, MENU[:entries])


def test_an_unread_message_is_not_replaced_by_a_newer_one() -> None:
    ui = SeatUI()
    ui.notify(tr("J4 censure : 10 suspicion(s)", "P4 censors: 10"), 1.0)
    ui.notify(tr("Notez votre réponse en 10 secondes !", "Write your answer in 10 seconds!"), 1.5)
    assert [n.text.fr for n in ui.notices] == ["J4 censure : 10 suspicion(s) · Notez votre réponse en 10 secondes !"]


def test_a_read_message_gives_way_to_the_next() -> None:
    ui = SeatUI()
    ui.notify(tr("Révélé : Att 5", "Revealed: Atk 5"), 3.0)
    assert shown_status(ui, SCREENS[0], MENU, layout.SIZE, "fr", 3.0) == (tr("Révélé : Att 5", "Revealed: Atk 5"), False)
    ui.notify(tr("Piochez une carte chez l'adversaire", "Draw a card from the opponent"), 3.0 + NOTICE_SECONDS)
    assert ui.notices[0].text.fr == "Piochez une carte chez l'adversaire"


def test_the_players_own_message_goes_first() -> None:
    ui = SeatUI()
    ui.notify(tr("Révélé : Att 5", "Revealed: Atk 5"), 3.0)
    ui.notify(tr("Coup refusé", "Move refused"), 3.0, first=True)
    assert ui.notices[0].text.fr == "Coup refusé · Révélé : Att 5"


def test_with_no_row_spare_a_message_covers_the_screen_for_its_reading_time_only() -> None:
    full = Screen(tr("Partie", "Game"), tuple(essential(tr(f"À faire {k}", f"To do {k}")) for k in range(4)))
    ui = SeatUI()
    ui.notify(tr("Un message", "A message"), 1.0)
    assert shown_status(ui, full, MENU[:1], layout.SIZE, "fr", 1.0) == (tr("Un message", "A message"), True)
    ui.expire(1.0 + NOTICE_SECONDS, covered=False)
    assert not ui.notices  # read: the screen is whole again, its essential lines on the first page


def test_a_long_message_shows_in_turn_and_a_press_shows_its_next_part() -> None:
    ui = SeatUI()
    long = tr(" ".join(f"mot{i}" for i in range(30)), " ".join(f"word{i}" for i in range(30)))
    ui.notify(long, 0.0)
    first = shown_status(ui, SCREENS[3], MENU, layout.SIZE, "fr", 0.0)
    assert not first[1] and ui.notices[0].windows > 2
    assert shown_status(ui, SCREENS[3], MENU, layout.SIZE, "fr", READ_SECONDS) != first  # the next part, in time
    ui.dismiss(READ_SECONDS)  # a press: the part after
    assert ui.notices and ui.notices[0].window(READ_SECONDS) == 2
