"""One seat's side of a game in progress: where its cursor and page are, the question it is asked
(quit? an irrevocable choice?), the how-to page it reads, and the messages waiting for it."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from firmware_host.apps.app import Button
from firmware_host.screens import layout
from games.core import Choice, Screen, Text, tr

NOTICE_SECONDS = 3.0  # a message shows at least this long once on screen
READ_SECONDS = 2.0  # each part of a message too long for its rows shows at least this long


@dataclass
class Notice:
    """The seat's messages not read yet, shown together, and how long they have been on screen."""

    parts: tuple[Text, ...]  # every message not read yet, the first ahead
    until: float  # not gone before then (once on screen)
    since: float = 0.0  # when the first of them came
    urgent: bool = False  # about what lies on the table now: shows even over an instruction
    shown_at: float | None = None  # on screen since then (None: hidden, its reading not begun)
    windows: int = 1  # how many parts of its rows the text needs, shown in turn (0: no room now)
    # the parts joined, with the parts they were joined from: one text object while they stand
    # (read three times at every build of the seat's frame, and a key of the screens' caches)
    _joined: tuple[tuple[Text, ...], Text] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def text(self) -> Text:
        """What the seat reads."""
        parts = self.parts
        if len(parts) == 1:
            return parts[0]
        joined = self._joined
        if joined is None or joined[0] is not parts:
            joined = self._joined = (parts, read_together(parts))
        return joined[1]

    def done(self) -> float | None:
        """When it has been read (every part of it on screen long enough); None while hidden."""
        if self.shown_at is None:
            return None
        return max(self.until, self.shown_at + max(NOTICE_SECONDS, self.windows * READ_SECONDS))

    def window(self, now: float) -> int:
        """Which part of its rows shows now (each part READ_SECONDS, then round again)."""
        if self.shown_at is None or self.windows <= 1:
            return 0
        return int((now - self.shown_at) / READ_SECONDS) % self.windows

    def next_change(self, now: float) -> float | None:
        """When what it shows changes by itself: its next part, or its end (None: hidden)."""
        done = self.done()
        if done is None or self.shown_at is None or self.windows <= 1:
            return done
        part = self.shown_at + READ_SECONDS * (math.floor((now - self.shown_at) / READ_SECONDS) + 1)
        return min(done, part)


def joined(parts: tuple[Text, ...], text: Text, first: bool = False) -> tuple[Text, ...]:
    """A seat's messages not read yet with `text` among them (ahead when `first`), once."""
    if text in parts:
        return parts
    return (text, *parts) if first else (*parts, text)


def read_together(parts: tuple[Text, ...]) -> Text:
    """Messages not read yet as the seat reads them, one after the other."""
    return parts[0] if len(parts) == 1 else tr(" · ".join(t.fr for t in parts), " · ".join(t.en for t in parts))


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

    def notify(self, text: Text, now: float, first: bool = False, urgent: bool = False) -> None:
        """A message for this seat. It joins the messages not read yet (one notice: ◀ ▶ never step
        through old news, and nothing unread is replaced); once the notice showing has been read,
        the new message replaces it. `first` (about what the player just did): ahead;
        `urgent`: shows even over an instruction."""
        q = self.notices
        old = q[0] if q else None
        if old is not None and (done := old.done()) is not None and done <= now:
            old = None  # read: the new message takes its place
        if old is None:
            q.clear()
            q.append(Notice((text,), now + NOTICE_SECONDS, now, urgent))
            return
        if text in old.parts:
            old.urgent = old.urgent or urgent
            return
        parts = joined(old.parts, text, first)
        # read from its start again: the parts shift, and the new message must be seen whole too
        q[0] = Notice(parts, max(old.until, now + NOTICE_SECONDS), old.since, old.urgent or urgent, None, old.windows)

    def on_screen(self, now: float, windows: int) -> int:
        """The first notice is on screen now, its text needing `windows` parts of its rows (0:
        none spare, it waits): starts its reading time; which part shows."""
        notice = self.notices[0]
        notice.windows = windows
        if windows <= 0:
            notice.shown_at = None
            return 0
        if notice.shown_at is None:
            notice.shown_at = now
        return notice.window(now)

    def hidden(self) -> None:
        """The first notice is not on screen (an instruction covers it): its reading starts again."""
        if self.notices:
            self.notices[0].shown_at = None

    def dismiss(self, now: float) -> bool:
        """A press while a notice shows: its next part, or it goes once its last part shows.
        False when nothing on screen was dismissed (a notice hidden stays unread)."""
        notice = self.notices[0] if self.notices else None
        if notice is None or notice.shown_at is None:
            return False
        if notice.window(now) + 1 < notice.windows:
            notice.shown_at -= READ_SECONDS  # the next part now
            return True
        self.notices.popleft()
        return True

    def expire(self, now: float, covered: bool) -> None:
        """Drop the notice once read; `covered` (an instruction hides it): it waits, unread."""
        notice = self.notices[0] if self.notices else None
        if notice is None:
            return
        if covered and not notice.urgent:
            notice.shown_at = None
            return
        done = notice.done()
        if done is not None and done <= now:
            self.notices.popleft()


def shown_status(ui: SeatUI, screen: Screen, menu: tuple[Text, ...], size: tuple[int, int], lang: str,
                 now: float, also: str | None = None) -> tuple[Text, bool]:
    """The part of the seat's notice its screen shows now above `menu`, its reading time started,
    and whether it covers the screen as a banner: without a menu, or when the essential lines
    leave it no row (then for its reading time only: the screen comes back whole, and the
    message is read, never left waiting unseen). Laid out in the seat's `lang` only, and in `also`
    when another reader shows the frame in that language (the web pages)."""
    text = ui.notices[0].text
    parts, cover = message_parts(screen, menu, size, lang, text)
    i = ui.on_screen(now, max(1, len(parts)))
    if also is not None and also != lang:
        part = parts[i % len(parts)] if parts else text.get(lang)
        # the same part of its own layout
        other = layout.status_windows(screen, also, () if cover else menu, size, text)
        shown = {lang: part, also: other[i % len(other)] if other else text.get(also)}
        return Text(shown.get("fr", part), shown.get("en", part)), cover
    return shown_part(parts, i, text, lang), cover


def message_parts(screen: Screen, menu: tuple[Text, ...], size: tuple[int, int], lang: str, text: Text
                  ) -> tuple[tuple[str, ...], bool]:
    """The parts of a message a seat reads in turn above `menu`, and whether it covers the screen
    as a banner instead (without a menu, or with no row spare: then its parts as a banner)."""
    parts = layout.status_windows(screen, lang, menu, size, text)
    cover = not menu or not parts
    if menu and cover:
        parts = layout.status_windows(screen, lang, (), size, text)
    return parts, cover


def shown_part(parts: tuple[str, ...], i: int, text: Text, lang: str) -> Text:
    """Part `i` of a message's `parts` in `lang` (`message_parts`), as the frame shows it."""
    part = parts[i % len(parts)] if parts else text.get(lang)
    if part == text.get(lang):  # the whole message: the notice's own text
        return text
    # a part of it, in turn: no reader takes the other language (a seat switching language gets
    # a frame built in its new one), which holds the same part, so the frame changes only with it
    return Text(part, part)
