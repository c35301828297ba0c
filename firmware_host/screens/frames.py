"""What one seat's screen shows, as data (a Frame), and the shared zone naming of the table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Required, TypedDict

from games.core import Screen, Text, tr
from games.frozen import dict_eq, quick_init


class FrameText(TypedDict, total=False):
    """A frame as plain text: the title and lines always, the other keys when the frame shows them."""

    title: Required[str]
    lines: Required[list[str]]
    big: str
    bar: float
    menu: list[str]
    cursor: int
    banner: str
    page: int
    status: str


@dict_eq
@quick_init
@dataclass(frozen=True)
class Frame:
    """A seat's whole screen: the app's Screen, its button menu, and a banner that takes priority.

    Frames are compared before rendering so an unchanged seat costs nothing.
    """

    screen: Screen
    menu: tuple[Text, ...] = ()
    cursor: int = 0
    banner: Text | None = None
    tags: tuple[str, ...] = field(default=(), compare=True)  # stable markers for transcripts
    qr: str | None = None  # a link shown as a QR code beside the title and lines (a seat's phone)
    page: int = 0  # the page shown (0: the first, with the menu); ◀ ▶ move past the menu to others
    scroll: int = 0  # sideways scroll step of a highlighted menu entry too wide for its row
    status: Text | None = None  # a message shown above a menu that stays visible (and usable)

    def text(self, lang: str) -> FrameText:
        """The frame as plain text (terminal simulator, script transcripts)."""
        out: FrameText = {"title": self.screen.title.get(lang),
                                  "lines": [t.get(lang) for t in self.screen.lines]}
        if self.screen.big is not None:
            out["big"] = self.screen.big
        if self.screen.bar is not None:
            out["bar"] = round(self.screen.bar, 2)
        if self.menu:
            out["menu"] = [t.get(lang) for t in self.menu]
            out["cursor"] = self.cursor
        if self.banner is not None:
            out["banner"] = self.banner.get(lang)
        if self.page:
            out["page"] = self.page
        if self.status is not None:
            out["status"] = self.status.get(lang)
        return out


def blank_frame(title: Text, *lines: Text) -> Frame:
    """A frame with a title and text lines only."""
    return Frame(Screen(title, tuple(lines)))


def zone_label(zone: str, for_seat: int | None = None) -> Text:
    """How a physical zone is named to players: "C3", "votre plateau", "emplacement 2"."""
    if zone.startswith("seat") and zone.endswith(".pad"):
        n = int(zone[4:-4])
        if for_seat == n:
            return tr("votre plateau", "your pad")
        return tr(f"le plateau du siège {n}", f"the pad of seat {n}")
    if zone.startswith("centre."):
        slot = zone.split(".", 1)[1]
        return tr(f"l'emplacement central {slot}", f"centre slot {slot}")
    return Text(zone, zone)
