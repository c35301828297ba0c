"""Property: on every game's screens, sampled from seeded playouts (10,000 seat screens per game,
each laid out in French and in English with the seat's menu), no line the game marks essential is
ever cut, every such line is whole on some page the seat reaches with ◀ ▶, and every menu entry
too wide for its row scrolls when highlighted. A share of the screens is also drawn to pixels
(the I2C path is left out: it sends what this draws)."""

from __future__ import annotations

import pytest

from firmware_host.screens import layout
from firmware_host.screens.render import render
from games.core import Screen, Text, essential, is_essential, tr
from tests.kits.every_game import ids
from tests.kits.screen_sampler import Sample, samples

SCREENS_PER_GAME = 10_000
DRAW_EVERY = 16  # pixels for one sample in 16: layout is what decides elisions
GAMES = ids()  # every registered game


def _bare(text: str) -> str:
    """Text without spaces or hyphens: wrapping moves the first and adds the second."""
    return "".join(text.split()).replace("-", "")


def problems(screen: Screen, menu: tuple[Text, ...], lang: str, draw: bool = False,
             size: tuple[int, int] = layout.SIZE) -> list[str]:
    """What a seat could not read on this screen: cut essential lines, unreachable text."""
    out: list[str] = []
    first = layout.plan(screen, lang, menu, 0, None, size)
    pages = [first] + [layout.plan(screen, lang, menu, 0, None, size, k) for k in range(1, first.pages)]
    seen = _bare("".join(row for p in pages for row in p.lines))
    for p in pages:
        out += [f"cut essential {e.kind}: {e.text!r} shown as {e.shown!r}" for e in p.elisions if e.essential]
    for line in screen.lines:
        if is_essential(line) and _bare(line.get(lang)) not in seen:
            out.append(f"essential line not shown whole on any page: {line.get(lang)!r}")
    cut = {e.text for e in first.elisions if e.kind == "menu"}
    cut_at = [i for i, label in enumerate(menu) if layout.text_of(label, lang) in cut]
    for i in cut_at[:1] + cut_at[-1:]:  # the first and the last: the window scrolls differently
        if not layout.plan(screen, lang, menu, i, None, size).scrolls:
            out.append(f"menu entry cut and not scrolling: {menu[i].get(lang)!r}")
    if draw:
        for k in range(first.pages):
            image = render(screen, lang, menu=menu, page=k, size=size)
            if image.size != size:
                out.append(f"page {k} drawn at {image.size}")
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_no_essential_line_is_ever_cut(game_id: str) -> None:
    found: list[tuple[Sample, str, str]] = []
    count = 0
    for i, sample in enumerate(samples(game_id, SCREENS_PER_GAME)):
        for lang in ("fr", "en"):
            for problem in problems(sample.screen, sample.menu, lang, draw=i % DRAW_EVERY == 0):
                found.append((sample, lang, problem))
            count += 1
    assert count == 2 * SCREENS_PER_GAME
    assert not found, "\n".join(f"{s.game} seed {s.seed} move {s.move} seat {s.seat} {lang}: {p}"
                                for s, lang, p in found[:10])


def test_the_check_catches_a_cut_essential_line(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Screen(tr("T", "T"), (essential(tr("Lisez : 1 3 4 5 6 7 8 9 10 11", "Read: 1 3 4 5 6 7 8 9 10 11")),))
    assert problems(screen, (), "fr") == []
    layout.clear_caches()  # the layouts made with the real wrap
    monkeypatch.setattr(layout, "wrap", lambda face, text, width, rows: (layout.fit(face, text, width),))
    assert any("not shown whole" in p for p in problems(screen, (), "fr"))
    monkeypatch.undo()
    layout.clear_caches()  # no later test may find a layout made with the fake wrap


def test_the_check_catches_a_menu_entry_that_would_not_scroll(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Screen(tr("T", "T"))
    menu = (tr("Non", "No"), tr("Bonne réponse de l'équipe adverse", "Right answer from the other team"))
    assert problems(screen, menu, "fr") == []
    real = layout.plan

    def no_scroll(*args, **kw):  # a renderer that would cut the highlighted entry
        from dataclasses import replace
        return replace(real(*args, **kw), scrolls=False)

    monkeypatch.setattr(layout, "plan", no_scroll)
    assert any("not scrolling" in p for p in problems(screen, menu, "fr"))
