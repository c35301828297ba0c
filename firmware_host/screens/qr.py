"""QR codes of the seats' phone links: on a seat's OLED (1-bit picture) and on the owner's page (SVG).

Below both the renderer and the web pages: it draws with the screens' fonts and imports only
segno and Pillow, lazily.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from . import fonts
from .textfit import fit

if TYPE_CHECKING:
    from PIL.Image import Image

    from games.core import Screen

BORDER = 2  # lit pixels around the code at least: scanners need a light quiet zone


def _matrix(text: str) -> tuple[tuple[int, ...], ...]:
    import segno

    # error level L keeps the code small enough for two pixels per module on a 64-pixel-high screen
    code = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple(tuple(1 if bit else 0 for bit in row) for row in code.matrix)


def svg(text: str, scale: int = 4) -> str:
    """The QR code of `text` as an inline SVG document."""
    import segno

    return segno.make(text, error="m", micro=False).svg_inline(scale=scale, border=2)


@lru_cache(maxsize=16)
def _picture(text: str, rows: tuple[str, ...], size: tuple[int, int]) -> Image:
    from PIL import Image, ImageDraw

    width, height = size
    side = min(width, height)
    matrix = _matrix(text)
    n = len(matrix)
    scale = max(1, (side - 2 * BORDER) // n)
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, side - 1, side - 1), fill=1)
    off = (side - n * scale) // 2
    for y, row in enumerate(matrix):
        for x, bit in enumerate(row):
            if bit:
                x0, y0 = off + x * scale, off + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)
    face = fonts.face(10, False)
    if width >= height:  # text beside the code
        left, top, room = side + 3, 1, width - side - 4
    else:  # a quarter-turned screen: text under the code
        left, top, room = 2, side + 2, width - 4
    for i, text in enumerate(rows):
        y = top + i * 12
        if y + face.height > height:
            break
        fonts.draw_text(draw, (left, y), fit(face, text, room), face, fill=1)
    return image


def qr_picture(text: str, screen: Screen, lang: str, size: tuple[int, int]) -> Image:
    """A seat's screen showing `text` as a QR code, with the screen's title and lines beside it."""
    rows = tuple(t.get(lang) for t in (screen.title, *screen.lines))
    return _picture(text, rows, tuple(size)).copy()


def modules(text: str) -> int:
    """The code's width in modules (tests check it stays scannable on the OLED)."""
    return len(_matrix(text))


def decode_picture(image: Any) -> list[list[int]]:
    """The module grid read back from a picture made by `qr_picture` (tests)."""
    width, height = image.size
    side = min(width, height)
    px = image.load()
    # find the code's bounding box: the dark pixels inside the lit square
    dark = [(x, y) for y in range(side) for x in range(side) if not px[x, y]]
    x0, y0 = min(x for x, _ in dark), min(y for _, y in dark)
    x1 = max(x for x, _ in dark)
    # finder patterns are 7 modules wide: the top-left one gives the scale
    run = 0
    while px[x0 + run, y0] == 0:
        run += 1
    scale = run // 7
    n = (x1 - x0 + 1) // scale
    return [[0 if px[x0 + c * scale, y0 + r * scale] else 1 for c in range(n)] for r in range(n)]
