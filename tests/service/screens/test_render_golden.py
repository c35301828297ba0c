"""Golden pictures: every seat-screen element and a sample of the games' real screens must be drawn
pixel for pixel as recorded in render_golden.json (sha256 of the image's size and bytes).

The record was made by the Pillow-drawn renderer; a faster renderer must keep every picture.
Regenerate it (only after a deliberate change of the pictures, and look at them first):

    .venv/bin/python -m tests.service.screens.test_render_golden --write

Cases whose pixels come from a TrueType font (the big number in DejaVu Sans Bold, the fallback
font) depend on the font files and FreeType: they are compared only where those match the record
(`fingerprint`); the bundled bitmap font's cases are compared everywhere.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.screens import fonts
from firmware_host.screens.layout import ICONS, plan
from firmware_host.screens.render import render
from games.core import Screen, Text, essential, tr
from tests.kits.every_game import ids

GOLDEN = Path(__file__).with_name("render_golden.json")
GAMES = ids()  # every registered game: a new one has no record until regenerated
SAMPLED_PER_GAME = 600  # screens walked per game; one in EVERY is recorded, in fr and en
EVERY = 15

Case = tuple[str, bool, dict[str, Any]]  # name, fallback font forced, render() arguments


def fingerprint() -> dict[str, str]:
    """What TrueType-drawn pixels depend on: Pillow, FreeType and the font files."""
    import PIL
    from PIL import features

    def digest(path: Path | None) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path else "none"

    return {"pillow": PIL.__version__, "freetype": str(features.version("freetype2")),
            "regular": digest(fonts.find_font(False)), "bold": digest(fonts.find_font(True))}


def _menu(*pairs: tuple[str, str]) -> tuple[Text, ...]:
    return tuple(tr(fr, en) for fr, en in pairs)


LONG = _menu(("Oui", "Yes"), ("Bonne réponse de l'équipe adverse, très longue", "Right answer from the other team, long"),
             ("Non", "No"))
MANY = tuple(tr(f"Choix {k} é", f"Choice {k}") for k in range(9))
ACCENTS = tr("àâçéèêëîïôûùüÿ ÀÉÈÇ œ « » … ◀ ▶ ’", "é è à ç É œ « … ◀ ▶ — × •")


def crafted() -> Iterator[Case]:
    """Every element of the picture, alone and together."""
    line = tr("Posez un zèbre", "Place a zebra")
    for name in ICONS:
        yield f"icon-{name}", False, {"screen": Screen(tr("Tour", "Turn"), (line,), icon=name)}
    for bar in (None, 0.0, 0.5, 1.0, 0.33, 0.999):
        yield f"bar-{bar}", False, {"screen": Screen(tr("Compte", "Count"), (line, line), bar=bar, icon="wait")}
        yield f"banner-bar-{bar}", False, {"screen": Screen(tr("T", "T"), (line,), bar=bar),
                                           "banner": tr("Reposez la carte sur votre plateau, s'il vous plaît",
                                                        "Put the card back on your pad, please")}
    for big in ("7", "12", "123", "99999", "1234567890123"):
        yield f"big-alone-{big}", False, {"screen": Screen(tr("Score", "Score"), big=big)}
        yield f"big-beside-{big}", False, {"screen": Screen(tr("Score", "Score"), (tr("a", "a"), tr("bb", "bb")),
                                                            big=big, bar=0.5)}
        yield f"big-chip-{big}", False, {"screen": Screen(tr("Score", "Score"),
                                                          (tr("Une ligne bien trop longue", "A line far too long"),),
                                                          big=big, icon="turn")}
    yield "big-beside-menu", False, {"screen": Screen(tr("Mise", "Bet"), big="42"), "menu": _menu(("+1", "+1"),
                                                                                                 ("-1", "-1"))}
    many_lines = tuple(tr(f"Ligne {k} : du texte", f"Line {k}: some text") for k in range(13))
    for page in (0, 1, 2, 5):
        yield f"pages-{page}", False, {"screen": Screen(tr("Règles", "Rules"), many_lines, icon="eye"),
                                       "page": page}
        yield f"pages-menu-{page}", False, {"screen": Screen(tr("Règles", "Rules"), many_lines, big="3"),
                                            "menu": LONG, "page": page}
        yield f"pages-big-chip-{page}", False, {"screen": Screen(tr("Règles et scores", "Rules"), many_lines,
                                                                 big="17", icon="trophy"), "page": page}
    yield "status", False, {"screen": Screen(tr("Vote", "Vote"), (line,)), "menu": LONG, "cursor": 2,
                            "status": tr("Attendez les autres joueurs, ils votent encore pour le moment",
                                         "Wait for the other players, they are still voting")}
    yield "status-short", False, {"screen": Screen(tr("Vote", "Vote")), "menu": LONG, "status": tr("Ok", "Ok")}
    yield "status-alone", False, {"screen": Screen(tr("Vote", "Vote")), "status": tr("Message", "Message")}
    for cursor in (0, 1, 4, 8):
        yield f"menu-arrows-{cursor}", False, {"screen": Screen(tr("Choix", "Pick")), "menu": MANY, "cursor": cursor}
        yield f"menu-arrows-bar-{cursor}", False, {"screen": Screen(tr("Choix", "Pick"), (line,), bar=0.25),
                                                   "menu": MANY, "cursor": cursor}
    for scroll in range(0, 14):
        yield f"marquee-{scroll}", False, {"screen": Screen(tr("Choix", "Pick")), "menu": LONG, "cursor": 1,
                                           "scroll": scroll}
    yield "marquee-arrows", False, {"screen": Screen(tr("Choix", "Pick")),
                                    "menu": MANY[:3] + LONG + MANY[3:], "cursor": 4, "scroll": 5}
    yield "menu-cut", False, {"screen": Screen(tr("Choix", "Pick")), "menu": LONG, "cursor": 0}
    yield "accents", False, {"screen": Screen(ACCENTS, (ACCENTS, essential(ACCENTS))), "menu": (ACCENTS,)}
    yield "title-long", False, {"screen": Screen(tr("Un titre beaucoup trop long pour la barre", "A title far "
                                                    "too long for the bar"), icon="ok", big="5")}
    yield "empty", False, {"screen": Screen(Text("", ""))}
    yield "unprintable", False, {"screen": Screen(Text("a\tb\x00c", "a\nb"), (Text("\x07x", "y\u200b"),))}
    for size in ((64, 128), (100, 40), (48, 32), (200, 96)):
        tag = f"{size[0]}x{size[1]}"
        yield f"size-{tag}-lines", False, {"screen": Screen(tr("Tour de jeu", "Turn"), many_lines[:6], icon="turn",
                                                            bar=0.6), "size": size}
        yield f"size-{tag}-menu", False, {"screen": Screen(tr("Choix", "Pick"), (line,), big="8"), "menu": MANY,
                                          "cursor": 3, "scroll": 4, "size": size}
        yield f"size-{tag}-marquee", False, {"screen": Screen(tr("Choix", "Pick")), "menu": LONG, "cursor": 1,
                                             "scroll": 6, "size": size}
        yield f"size-{tag}-banner", False, {"screen": Screen(tr("T", "T"), bar=0.1), "size": size,
                                            "banner": tr("Un message qui prend plusieurs lignes sur l'écran",
                                                         "A message over several rows of the screen")}
        yield f"size-{tag}-big", False, {"screen": Screen(tr("Score", "Score"), big="42"), "size": size}
    fallback = [("fallback-accents", {"screen": Screen(ACCENTS, (ACCENTS, essential(ACCENTS)))}),
                ("fallback-menu", {"screen": Screen(tr("Été", "Summer"), (tr("Ça", "It"),), bar=0.5, icon="turn"),
                                   "menu": LONG, "cursor": 1, "scroll": 3}),
                ("fallback-banner", {"screen": Screen(tr("Été", "Summer")), "banner": ACCENTS}),
                ("fallback-big", {"screen": Screen(tr("Été", "Summer"), (tr("à", "a"),), big="12")}),
                ("fallback-arrows", {"screen": Screen(tr("Été", "Summer")), "menu": MANY, "cursor": 4,
                                     "status": tr("Déjà", "Done")})]
    for name, kw in fallback:
        yield name, True, kw


def sampled() -> Iterator[Case]:
    """The games' real screens from seeded playouts, with the seat's menu, cursor and scroll."""
    from tests.kits.screen_sampler import samples

    for game in GAMES:
        for i, s in enumerate(samples(game, SAMPLED_PER_GAME)):
            if i % EVERY:
                continue
            n = max(1, len(s.menu))
            yield f"{game}-{s.seed}-{s.move}-{s.seat}", False, {"screen": s.screen, "menu": s.menu,
                                                                "cursor": (i // EVERY) % n, "scroll": i % 9}


def cases() -> Iterator[tuple[str, bool, dict[str, Any]]]:
    """Every golden case, each in French and in English."""
    for name, fallback, kw in (*crafted(), *sampled()):
        for lang in ("fr", "en"):
            yield f"{name}-{lang}", fallback, {**kw, "lang": lang}


def picture(fallback: bool, kw: dict[str, Any]) -> tuple[str, bool]:
    """The case's sha256 and whether a TrueType font drew part of it."""
    fonts.configure(fallback_only=fallback)
    try:
        args = dict(kw)
        screen, lang = args.pop("screen"), args.pop("lang")
        image = render(screen, lang, **args)
        image.copy()  # the picture is the caller's: drawing it again must give the same
        p = plan(screen, lang, args.get("menu", ()), args.get("cursor", 0), args.get("banner"),
                 args.get("size", (128, 64)), args.get("page", 0), args.get("scroll", 0), args.get("status"))
        w, h = image.size
        digest = hashlib.sha256(f"{image.mode} {w}x{h}\n".encode() + image.tobytes()).hexdigest()
        return digest, fallback or bool(p.big)
    finally:
        fonts.configure()


def record() -> dict[str, Any]:
    """Every case's picture hash, and the fingerprint of the fonts that drew them."""
    out: dict[str, Any] = {"fingerprint": fingerprint(), "cases": {}}
    for name, fallback, kw in cases():
        digest, ttf = picture(fallback, kw)
        out["cases"][name] = {"sha256": digest, "ttf": ttf}
    return out


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text())
    return data


def test_every_case_is_recorded_once() -> None:
    names = [name for name, _, _ in cases()]
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(_golden()["cases"]), "cases changed: regenerate (see the docstring)"
    assert len(names) > 600


@pytest.mark.parametrize("ttf", [False, True], ids=["bitmap-font", "truetype"])
def test_pictures_match_the_record(ttf: bool) -> None:
    golden = _golden()
    if ttf and golden["fingerprint"] != fingerprint():
        pytest.skip(f"fonts differ from the record's {golden['fingerprint']} (now {fingerprint()})")
    wrong, checked = [], 0
    for name, fallback, kw in cases():
        want = golden["cases"].get(name)
        assert want is not None, f"no recorded picture for {name}: a new game? regenerate (see the docstring)"
        if want["ttf"] != ttf:
            continue
        digest, _ = picture(fallback, kw)
        checked += 1
        if digest != want["sha256"]:
            wrong.append(name)
    assert checked > (300 if not ttf else 100)
    assert not wrong, f"{len(wrong)} pictures changed: {wrong[:20]}"


def test_the_crafted_cases_are_different_pictures() -> None:
    cases = _golden()["cases"]
    icons = {cases[f"icon-{name}-fr"]["sha256"] for name in ICONS}
    marquee = {cases[f"marquee-{k}-en"]["sha256"] for k in range(14)}
    bars = {cases[f"bar-{bar}-fr"]["sha256"] for bar in (None, 0.0, 0.5, 1.0)}
    assert len(icons) == len(ICONS) and len(marquee) >= 5 and len(bars) == 4


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    GOLDEN.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
