"""A Picture (pixels unpacked when first read) behaves as the image `Image.frombytes` makes of the
same bytes, whatever is asked of it first."""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from firmware_host.screens.frames import Frame
from firmware_host.screens.picture import Picture, picture
from firmware_host.screens.render import frame_layout, frame_picture, render
from games.core import Screen, tr


def _png(im: Image.Image) -> bytes:
    out = io.BytesIO()
    im.save(out, format="PNG")
    return out.getvalue()


def _drawn(im: Image.Image) -> bytes:
    ImageDraw.Draw(im).rectangle((1, 1, 6, 5), fill=1)
    return im.tobytes()


def _pasted(im: Image.Image) -> bytes:
    base = Image.new("1", (im.width + 4, im.height + 4))
    base.paste(im, (2, 2))
    return base.tobytes()


def _masked(im: Image.Image) -> bytes:
    base = Image.new("1", im.size, 1)
    base.paste(0, (0, 0, *im.size), im)
    return base.tobytes()


# each a first reading of the pixels, and what it gives
READS: dict[str, Callable[[Image.Image], Any]] = {
    "tobytes": lambda im: im.tobytes(),
    "load": lambda im: [im.load()[x, y] for x in (0, im.width - 1) for y in (0, im.height - 1)],  # type: ignore[index]
    "getpixel": lambda im: im.getpixel((im.width - 1, im.height // 2)),
    "copy": lambda im: im.copy().tobytes(),
    "convert": lambda im: im.convert("L").tobytes(),
    "transpose": lambda im: im.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R"),
    "resize": lambda im: im.resize((im.width * 2, im.height * 2), Image.Resampling.NEAREST).tobytes(),
    "png": _png,
    "draw": _drawn,
    "paste": _pasted,
    "histogram": lambda im: im.histogram(),
    "bbox": lambda im: im.getbbox(),
    "pickle": lambda im: pickle.loads(pickle.dumps(im)).tobytes(),
    "crop": lambda im: im.crop((1, 1, 9, 7)).tobytes(),
    "core": lambda im: (im.im.size, im.im.mode, im.im.getbbox()),  # Pillow's own modules read `im` directly
    "chops": lambda im: ImageChops.logical_xor(im, Image.new("1", im.size, 1)).tobytes(),
    "mask": lambda im: _masked(im),
}

sizes = st.sampled_from([(128, 64), (64, 128), (48, 32), (50, 33), (61, 40), (200, 100)])


@st.composite
def pictures(draw: st.DrawFn) -> tuple[tuple[int, int], bytes]:
    width, height = draw(sizes)
    stride = (width + 7) // 8
    return (width, height), draw(st.binary(min_size=stride * height, max_size=stride * height))


@settings(max_examples=60, deadline=None)
@given(pictures(), st.sampled_from(sorted(READS)))
def test_a_picture_reads_as_the_image_of_its_bytes(case: tuple[tuple[int, int], bytes], read: str) -> None:
    size, data = case
    lazy, eager = picture(size, data), Image.frombytes("1", size, data)
    assert (lazy.mode, lazy.size, lazy.width, lazy.height) == (eager.mode, eager.size, eager.width, eager.height)
    assert READS[read](lazy) == READS[read](eager)
    assert lazy.tobytes() == eager.tobytes()  # and after that first reading, still the same pixels


@settings(max_examples=30, deadline=None)
@given(pictures())
def test_a_picture_equals_the_image_of_its_bytes_both_ways(case: tuple[tuple[int, int], bytes]) -> None:
    size, data = case
    lazy = picture(size, data)
    eager = Image.frombytes("1", size, data)
    assert lazy == eager
    assert eager == lazy
    assert lazy == picture(size, data)
    flipped = bytes([data[0] ^ 0x80]) + data[1:]
    assert lazy != Image.frombytes("1", size, flipped)
    assert Image.frombytes("1", size, flipped) != lazy


def test_a_picture_changed_keeps_the_change() -> None:
    lazy = picture((128, 64), bytes(1024))
    lazy.putpixel((3, 2), 1)
    assert lazy.getpixel((3, 2)) == 1
    assert lazy.tobytes()[2 * 16] == 0x10


def test_a_picture_of_the_wrong_length_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="1024 bytes, got 1000"):
        Picture((128, 64), bytes(1000))


def test_a_picture_is_not_unpacked_until_read() -> None:
    lazy = picture((128, 64), bytes(range(256)) * 4)
    assert lazy._im is None  # the table's path (size, mode, identity) never unpacks it
    lazy.tobytes()
    assert lazy._im is not None


def test_the_renderer_hands_pictures_of_its_bytes() -> None:
    frame = Frame(Screen(tr("Titre", "Title"), (tr("ligne une", "line one"), tr("ligne deux", "line two"))),
                  menu=(tr("Oui", "Yes"), tr("Non", "No")), cursor=1)
    p, k = frame_layout(frame, "fr", (128, 64))
    image, rows = frame_picture(frame, "fr", (128, 64), k)
    assert rows is not None and image.tobytes() == rows
    assert render(frame.screen, "fr", menu=frame.menu, cursor=1).tobytes() == rows
