"""One seat's side of a game in progress: where its cursor and page are, the question it is asked
(quit? an irrevocable choice?), the how-to page it reads, and the messages waiting for it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from firmware_host.apps.app import Button
from games.core import Choice, Text, tr

NOTICE_SECONDS = 3.0


@dataclass
class Notice:
    """A transient message and until when it shows."""

    parts: tuple[Text, ...]  # one message, or two of one moment
    until: float
    since: float = 0.0  # when it was first shown

    @property
    def text(self) -> Text:
        """What the seat reads."""
        if len(self.parts) == 1:
            return self.parts[0]
        return tr(" · ".join(t.fr for t in self.parts), " · ".join(t.en for t in self.parts))


@dataclass
class SeatUI:
    """The state of one game seat's screen and buttons, and what changes it."""

    cursor: int = 0
    page: int = 0  # 0: the first page (with the menu); others: ◀ ▶ past the menu
    quit_prompt: bool = False
    confirming: Choice | None = None  # an irrevocable choice asked
    howto: int | None = None  # the "Comment jouer" page the seat reads
    notices: deque[Notice] = field(default_factory=deque)

    def home(self) -> None:
        """Cursor on the first entry, first page."""
        self.cursor, self.page = 0, 0

    def moved_on(self) -> None:
        """The game moved on: back to the first entry, and a pending question is stale."""
        self.cursor, self.page, self.confirming = 0, 0, None

    def toggle_quit(self) -> None:
        """A long press on OK: the quit question, or back from it."""
        self.quit_prompt = not self.quit_prompt
        self.home()

    def turn_howto(self, button: Button, pages: int) -> None:
        """◀ ▶ turn the how-to pages, OK goes back to the game."""
        if button == "ok" or not pages:
            self.howto = None
        else:
            self.howto = ((self.howto or 0) + (1 if button == "right" else -1)) % pages

    def question(self) -> Text | None:
        """The question the seat's screen asks, if any."""
        if self.quit_prompt:
            return tr("Quitter la partie ?", "Quit the game?")
        return self.confirming.confirm if self.confirming is not None else None

    def notify(self, text: Text, now: float, first: bool = False) -> None:
        """Show a message: it replaces the one showing, so ◀ ▶ never step through old news; two
        messages of one moment (a move and its effect) show together, `first` (about what the
        player just did) ahead."""
        q = self.notices
        parts: tuple[Text, ...] = (text,)
        if q and q[0].since == now and text not in q[0].parts:
            parts = (text, q[0].parts[0]) if first else (q[0].parts[-1], text)
        elif q and q[0].since == now:
            return
        q.clear()
        q.append(Notice(parts, now + NOTICE_SECONDS, now))

    def expire(self, now: float, covered: bool) -> None:
        """Drop the message whose time is over; `covered` (an instruction hides it): it waits."""
        if covered:
            for notice in self.notices:
                notice.until = max(notice.until, now + NOTICE_SECONDS)
            return
        while self.notices and self.notices[0].until <= now:
            self.notices.popleft()
