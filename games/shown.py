"""What a game shows, as data the service renders: texts in both table languages, the lines of a
screen (an essential one is never cut), a seat's screen and the entries of its button menu. Part of the engine contract
(games/core.py names them too)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.frozen import cached_hash, quick_init


@cached_hash
@quick_init
@dataclass(frozen=True)
class Text:
    """A message in both table languages; games build these, screens pick one."""

    fr: str
    en: str

    def get(self, lang: str) -> str:
        """The message in `lang` ("fr" or "en"), French when unknown."""
        return self.en if lang == "en" else self.fr

    def format(self, **kw: Any) -> Text:
        """Both languages with `str.format` placeholders filled."""
        return Text(self.fr.format(**kw), self.en.format(**kw))


def tr(fr: str, en: str) -> Text:
    """Shorthand for a bilingual Text."""
    return Text(fr, en)


@cached_hash
@quick_init
@dataclass(frozen=True)
class Line(Text):
    """A screen line with a mark for the renderer: an essential line (one the player acts on or
    must read to play) is never cut; it wraps and pages. Plain Text lines may be ellipsised."""

    essential: bool = False


def essential(text: Text) -> Line:
    """`text` marked essential: the screens show it whole (wrapped, paged), never cut."""
    return Line(text.fr, text.en, True)


def is_essential(text: object) -> bool:
    """True for a screen line marked with `essential`."""
    return isinstance(text, Line) and text.essential


@cached_hash
@quick_init
@dataclass(frozen=True)
class Screen:
    """A seat's screen: title bar, up to ~4 text lines, optional big number and countdown bar.

    The runtime adds the seat's button menu (choices) below the lines when there is one. Lines
    wrapped in `essential(...)` are never cut; lines that do not fit go on pages (◀ ▶).
    """

    title: Text
    lines: tuple[Text, ...] = ()
    big: str | None = None
    bar: float | None = None  # 0..1 fraction left of a countdown
    icon: str | None = None  # "turn", "wait", "eye", "warn", "ok", "trophy"


@quick_init
@dataclass(frozen=True)
class Choice:
    """One entry of a seat's button menu: its label, the action it applies, and for an
    irrevocable choice the question the table asks before applying it."""

    label: Text
    action: Mapping[str, Any]  # an Action (games/core.py)
    confirm: Text | None = None
