"""Property: on every game's screens, sampled from seeded playouts (10,000 seat screens per game,
each laid out in French and in English with the seat's menu), no line the game marks essential is
ever cut, every such line is whole on some page the seat reaches with ◀ ▶, every essential line
the first page holds stays on it whatever message shows above the menu (a long message shows in
parts, in turn: each part shows whole, and the parts hold every word of it), a title's essential tail
is never cut, and every menu entry too wide for its row scrolls when highlighted. A share of the screens is also drawn to pixels
(the I2C path is left out: it sends what this draws)."""

from __future__ import annotations

import pytest

from firmware_host.screens import layout, metrics
from firmware_host.screens.render import render
from firmware_host.screens.textfit import title_parts
from games.core import Screen, Text, essential, is_essential, tr
from tests.kits.every_game import ids
from tests.kits.screen_sampler import Sample, samples

SCREENS_PER_GAME = 10_000
DRAW_EVERY = 16  # pixels for one sample in 16: layout is what decides elisions
GAMES = ids()  # every registered game
# messages a seat may have pending above its menu: one row, and one that wraps over three
STATUSES = (tr("J4 censure : 10 suspicion(s)", "P4 censors: 10 suspicion(s)"),
            tr("Dernier coup de J2 annulé : la carte revient dans sa main, piochez-en une autre.",
               "P2's last move taken back: the card goes back to their hand, draw another one."))


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
    on_first = [line.get(lang) for line in screen.lines
                if is_essential(line) and _bare(line.get(lang)) in _bare("".join(first.lines))]
    for status in STATUSES if menu else ():
        parts = layout.status_windows(screen, lang, menu, size, status)
        if parts and " ".join(parts).split() != status.get(lang).split():
            out.append(f"message not shown whole in its parts: {status.get(lang)!r} as {parts!r}")
        for part in parts or (status.get(lang),):  # each part in turn (none: the message waits)
            p = layout.plan(screen, lang, menu, 0, None, size, 0, 0, part if parts else status)
            with_status = _bare("".join(p.lines))
            out += [f"essential line pushed off the first page by a message: {t!r}" for t in on_first
                    if _bare(t) not in with_status]
            if parts and " ".join(p.status_rows).split() != part.split():
                out.append(f"part of a message cut: {part!r} shown as {p.status_rows!r}")
    title = layout.text_of(screen.title, lang)
    _, _, tail = title_parts(title)
    if layout.width_of(layout.body_face().ellipsis + tail) <= size[0] // 2 and not first.title_shown.endswith(tail):
        out.append(f"title's essential part cut: {title!r} shown as {first.title_shown!r}")
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
    def cut(face: object, text: str, width: int, rows: int) -> tuple[str, ...]:  # a wrap that drops the rest
        return (layout.fit(face, text, width),)  # type: ignore[arg-type]

    for module in (layout, metrics):  # the lines are fitted in metrics, the messages in layout
        monkeypatch.setattr(module, "wrap", cut)
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


def test_the_check_catches_a_message_that_pushes_an_essential_line(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Screen(tr("T", "T"), (tr("a", "a"), tr("b", "b"), essential(tr("Notez votre réponse !", "Write it!"))))
    menu = (tr("Oui", "Yes"), tr("Non", "No"))
    assert problems(screen, menu, "fr") == []
    layout.clear_caches()
    monkeypatch.setattr(layout, "essential_need", lambda lines, room, generation: 0)  # a message first
    assert any("pushed off the first page" in p for p in problems(screen, menu, "fr"))
    monkeypatch.undo()
    layout.clear_caches()


def test_the_check_catches_a_title_cut_at_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Screen(tr("Mata Hari · la grande partie · tour 12", "Mata Hari · the big game · turn 12"), icon="turn")
    assert problems(screen, (), "fr") == []
    layout.clear_caches()
    monkeypatch.setattr(layout, "fit_title", layout.fit)  # a title ellipsised at its end
    assert any("title's essential part cut" in p for p in problems(screen, (), "fr"))
    monkeypatch.undo()
    layout.clear_caches()
