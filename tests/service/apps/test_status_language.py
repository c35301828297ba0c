"""A seat's notice is laid out in the seat's language only (and in the web pages' when they speak
another): the part it shows is, in that language, the one a layout of both languages gives, pixel
for pixel; a seat switching language mid-notice reads the same part of its new language's layout."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.apps.seat_ui import READ_SECONDS, SeatUI, shown_status
from firmware_host.apps.session import GameSession
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame
from firmware_host.screens.render import render_frame
from firmware_host.storage.tags import sim_registry
from games.core import GameConfig, Screen, Text, essential, tr
from tests.kits.toyboard import GAME, token

LANGS = ("fr", "en")
MENU = (tr("Jouer", "Play"), tr("Passer", "Pass"), tr("Annuler le dernier coup", "Undo last move"))
# screens whose essential lines leave 3, 2, 1 or no row to a message above a menu of 0 to 3 entries
SCREENS = [Screen(tr("Partie", "Game"), tuple(essential(tr(f"À faire {k}", f"To do {k}")) for k in range(n)))
           for n in range(5)]
ZONES = {"A1", "B1", "C1", "D1", "seat1.pad", "seat2.pad"}
LONG = tr(" ".join(f"mot{i}" for i in range(40)), " ".join(f"word{i}" for i in range(40)))


def both(ui: SeatUI, screen: Screen, menu: tuple[Text, ...], size: tuple[int, int], lang: str,
         now: float) -> tuple[Text, bool]:
    """The part shown laid out in both languages, the seat's deciding the cover and the reading time."""
    notice = ui.notices[0]
    parts = {x: layout.status_windows(screen, x, menu, size, notice.text) for x in LANGS}
    cover = not menu or not parts[lang]
    if menu and cover:
        parts = {x: layout.status_windows(screen, x, (), size, notice.text) for x in LANGS}
    i = ui.on_screen(now, max(1, len(parts[lang])))
    fr, en = (parts[x][i % len(parts[x])] if parts[x] else notice.text.get(x) for x in LANGS)
    return Text(fr, en), cover


def picture(screen: Screen, menu: tuple[Text, ...], part: Text, cover: bool, lang: str) -> bytes:
    frame = Frame(screen, () if cover else menu, 0, part if cover else None, status=None if cover else part)
    return render_frame(frame, lang).tobytes()


words = st.lists(st.sampled_from(["mot", "message", "anticonstitutionnellement", "J4", "·", "été"]),
                 min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SCREENS), st.integers(0, 3), words, words, st.sampled_from(LANGS), st.booleans(),
       st.sampled_from([0.0, 1.0, READ_SECONDS, 3 * READ_SECONDS, 5.5 * READ_SECONDS]))
def test_the_seats_language_shows_the_part_a_layout_of_both_gives(screen: Screen, entries: int, fr: list[str],
                                                                  en: list[str], lang: str, web: bool,
                                                                  later: float) -> None:
    text, menu = Text(" ".join(fr), " ".join(en)), MENU[:entries]
    other = "en" if lang == "fr" else "fr"
    ui, ref = SeatUI(), SeatUI()
    for u in (ui, ref):
        u.notify(text, 10.0)
    for now in (10.0, 10.0 + later):
        part, cover = shown_status(ui, screen, menu, layout.SIZE, lang, now, other if web else None)
        expected, expected_cover = both(ref, screen, menu, layout.SIZE, lang, now)
        assert (part.get(lang), cover, ui.notices[0].windows) == (expected.get(lang), expected_cover,
                                                                  ref.notices[0].windows)
        # the web pages' language, when asked, is laid out as well; else the whole message's or,
        # of a message shown in turn, the seat's part
        whole = part.get(lang) == text.get(lang)
        assert part.get(other) == (expected.get(other) if web else text.get(other) if whole else part.get(lang))
    assert picture(screen, menu, part, cover, lang) == picture(screen, menu, expected, expected_cover, lang)


def test_a_seat_switching_language_mid_notice_reads_the_same_part_in_its_new_language() -> None:
    clock = [100.0]
    registry = sim_registry([token(seat, n) for seat in (0, 1) for n in (1, 2)])
    s = GameSession(GAME, GameConfig(players=2), (1, 2), registry, ZONES, lambda: clock[0], auto_chance=True)
    s.sense({})
    s.ui[0].notify(LONG, clock[0])
    assert s.seat_frame(0).status is not None  # above the menu, its first part
    clock[0] += READ_SECONDS  # its second part
    fr = s.seat_frame(0)
    parts = {x: layout.status_windows(fr.screen, x, fr.menu, s.size(0), LONG) for x in LANGS}
    assert min(map(len, parts.values())) > 2 and s.ui[0].notices[0].window(clock[0]) == 1
    assert fr.status == Text(parts["fr"][1], parts["fr"][1])  # laid out in French only
    s.lang = "en"
    en = s.seat_frame(0)
    assert en.status == Text(parts["en"][1], parts["en"][1])
    s.also_lang = "fr"  # the web pages read it in French
    assert s.seat_frame(0).status == Text(parts["fr"][1], parts["en"][1])
