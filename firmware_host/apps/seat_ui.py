"""One seat's side of a game in progress: where its cursor and page are, the question it is asked
(quit? an irrevocable choice?), the how-to page it reads, and the messages waiting for it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from firmware_host.apps.app import Button
from games.core import Choice, Text, tr

NOTICE_SECONDS = 3.0
MAX_NOTICES = 4  # a burst of effects must not queue minutes of banners


@dataclass
class Notice:
    """A transient message and until when it shows."""

    text: Text
    until: float


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
        """Queue a message; `first`: before those already waiting (it is about what the player just did)."""
        q = self.notices
        if first:
            for notice in q:
                notice.until += NOTICE_SECONDS
            q.appendleft(Notice(text, now + NOTICE_SECONDS))
        else:
            start = max(now, q[-1].until) if q else now
            q.append(Notice(text, start + NOTICE_SECONDS))
        while len(q) > MAX_NOTICES:
            q.popleft()

    def expire(self, now: float, covered: bool) -> None:
        """Drop the messages whose time is over; `covered` (an instruction hides them): they wait."""
        if covered:
            for i, notice in enumerate(self.notices):
                notice.until = max(notice.until, now + NOTICE_SECONDS * (i + 1))
            return
        while self.notices and self.notices[0].until <= now:
            self.notices.popleft()
