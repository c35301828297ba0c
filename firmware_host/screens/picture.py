"""A seat's picture as a Pillow image that unpacks its pixels only when they are read.

Pillow keeps a mode "1" image at one byte per pixel: making one from the renderer's packed bytes
(`Image.frombytes`) unpacks 8,192 pixels, the largest single cost of a new frame. The table's own
path never reads them: the panel is sent the packed bytes (drivers/oled_updates.pack_rows), and
the picture is only kept, to be saved, copied or shown on a web page later, if ever. A `Picture`
is a real `PIL.Image.Image` holding its bytes; the first read of its pixels (any Pillow call that
reaches the image core, `load`, `tobytes`, `copy`, `save`...) unpacks them, once.

Imported lazily, by the renderer's first picture: it imports Pillow.
"""

from __future__ import annotations

from typing import Any

from PIL import Image


class Picture(Image.Image):
    """A mode "1" image of `size` made from its packed bytes (rows of whole bytes, MSB first)."""

    def __init__(self, size: tuple[int, int], data: bytes) -> None:
        if len(data) != (size[0] + 7) // 8 * size[1]:
            raise ValueError(f"a {size[0]}x{size[1]} picture is {(size[0] + 7) // 8 * size[1]} bytes, got {len(data)}")
        super().__init__()
        self._mode = "1"
        self._size = size
        self._packed: bytes | None = data

    def _unpack(self) -> None:
        data, self._packed = self._packed, None
        if data is not None:  # unpacked by Pillow's own decoder, as `Image.frombytes` does
            self._im = Image.frombytes("1", self._size, data).im

    @property
    def im(self) -> Any:
        """The image core (the pixels unpacked first, if they were not yet)."""
        if self._packed is not None:
            self._unpack()
        return Image.Image.im.fget(self)  # type: ignore[attr-defined]

    @im.setter
    def im(self, im: Any) -> None:
        self._packed = None  # a core set from outside replaces the bytes
        self._im = im

    def load(self) -> Any:
        """Pillow's `load`, the pixels unpacked first."""
        if self._packed is not None:
            self._unpack()
        return super().load()

    def __eq__(self, other: object) -> bool:
        """Equal to any image of the same mode, size, info and pixels (a Picture or not)."""
        if not isinstance(other, Image.Image):
            return False
        return (self.mode == other.mode and self.size == other.size and self.info == other.info
                and self.getpalette() == other.getpalette() and self.tobytes() == other.tobytes())

    __hash__ = None  # type: ignore[assignment]  # as Pillow's: images compare by value


def picture(size: tuple[int, int], data: bytes) -> Image.Image:
    """A mode "1" image of `size` whose pixels are `data`, unpacked when first read."""
    return Picture(size, data)
