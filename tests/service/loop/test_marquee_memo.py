"""The marquee lays a scrolling seat's frame out once: along random frames, languages, screen
sizes and times, what it gives is what it gives with nothing remembered, and a step that stands
is the frame given before (the one shown: nothing compared, drawn or sent again)."""

from __future__ import annotations

import random

from firmware_host.loop.output import Output
from firmware_host.screens.frames import Frame
from games.core import Screen, Text, tr

LABELS = (tr("Oui", "Yes"), tr("Annuler le coup", "Undo it"), tr("Conseil", "Ask the computer for a hint"), tr("Identifier J2 : nationalité allemande", "Tell P2"),
          tr("Passer", "Skip this turn, and the next one, and the one after that"),
          tr("Échanger la carte du centre avec la vôtre", "Swap the centre card with yours, face down"))
SIZES = {1: (128, 64), 2: (64, 128)}


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def frames(rng: random.Random) -> list[Frame]:
    """Frames with menus whose highlighted entry fits or not, in one language or both."""
    out = []
    for i in range(12):
        menu = tuple(rng.sample(LABELS, rng.randint(1, len(LABELS))))
        out.append(Frame(Screen(Text(f"Tour {i}", f"Turn {i}"), (tr("ligne", "line"),)), menu,
                         rng.randrange(len(menu)), page=rng.choice((0, 0, 0, 1))))
    return out


def test_the_marquee_gives_what_it_gives_with_nothing_remembered():
    rng = random.Random(4)
    pool = frames(rng)
    clock = Clock()
    sizes = dict(SIZES)
    kept = Output(None, (1, 2), clock, sizes.__getitem__)  # type: ignore[arg-type]
    fresh = Output(None, (1, 2), clock, sizes.__getitem__)  # type: ignore[arg-type]
    reused = scrolled = 0
    last: dict[int, Frame] = {}
    given_before: dict[int, Frame] = {}
    for _ in range(3000):
        sid = rng.choice((1, 2))
        frame = pool[rng.randrange(len(pool))] if rng.random() < 0.3 else last.get(sid, pool[0])
        if rng.random() < 0.05:
            frame = Frame(frame.screen, frame.menu, frame.cursor, page=frame.page)  # equal, another object
        if rng.random() < 0.05:
            sizes[sid] = sizes[sid][::-1]  # the screen turned a quarter
        language = "en" if rng.random() < 0.2 else "fr"
        clock.t += rng.choice((0.0, 0.05, 0.3, 1.0))
        fresh.planned.clear()
        fresh.stepped.clear()
        given, expected = kept.marquee(sid, frame, language), fresh.marquee(sid, frame, language)
        assert given == expected
        assert (sid in kept.scrolling) == (sid in fresh.scrolling)
        reused += given.scroll > 0 and given is given_before.get(sid)
        scrolled += given.scroll > 0
        last[sid], given_before[sid] = frame, given
    assert reused > 20 and scrolled > 100
