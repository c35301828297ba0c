"""What the table's loop asks of the app in front of the players (the menu, the table test, a game)
and what an app answers: a transition the loop carries out (start a game, back to the menu, ...).

Apps speak table seats and never see the loop: they return what must happen, the loop does it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from firmware_host.screens.frames import Frame

Button = Literal["left", "ok", "right"]
PressKind = Literal["press", "release", "long"]
BUTTONS: dict[str, Button] = {"left": "left", "ok": "ok", "right": "right"}  # by name: a str read as a Button
TEST_APP = "_test"  # the game id the menu starts the table test with


@dataclass(frozen=True)
class Unfinished:
    """A game the journal holds as still playing: the menu offers to resume or abandon it."""

    jid: int
    game_id: str
    seats: tuple[int | None, ...]
    remote: bool = False  # played with another table: resuming it rejoins that table


@dataclass(frozen=True)
class StartRequest:
    """What the menu asks the runtime to start: a game on seats with options, or the test app."""

    game_id: str
    seats: tuple[int | None, ...] = ()  # None: a player without a seat (journaled games)
    options: dict[str, object] = field(default_factory=dict)
    resume: int | None = None  # journal id of an unfinished game to resume
    extra: int = 0  # players without a seat (a game for more players than the table has seats)
    computers: dict[int, str] = field(default_factory=dict)  # game seat (index in seats) -> level
    hints: bool = False  # human seats may ask the computer for a hint
    seed: int | None = None  # the game's seed when another table chose it (a remote game); None: a new one
    # a game with another table: "host" (its None seats play there), or what attaches the joining
    # table's seats (firmware_host/remote/play.py); None: a game of this table alone
    remote: object | None = None


@dataclass(frozen=True)
class StartGame:
    """Start a game (or the table test) as the menu set it up."""

    request: StartRequest


@dataclass(frozen=True)
class SetLanguage:
    """Every screen in this language from now on (the choice is kept)."""

    language: str


@dataclass(frozen=True)
class AbandonUnfinished:
    """The players abandoned the journal's unfinished game."""

    jid: int


@dataclass(frozen=True)
class GameOver:
    """The game has its outcome: the journal records its end (the seats stay on its last screens)."""

    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class LeaveGame:
    """The players left the game before its end: journaled as abandoned, back to the menu."""

    game_id: str
    moves: int


@dataclass(frozen=True)
class JoinRemote:
    """Join the remote game of `code` (its host's screens show it) with these table seats."""

    code: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class BackToMenu:
    """The app is done (the table test was left): the menu again."""


Transition = StartGame | SetLanguage | AbandonUnfinished | GameOver | LeaveGame | BackToMenu | JoinRemote
Sensed = Mapping[str, frozenset[str]]  # physical zone -> UIDs, as settled


class App(Protocol):
    """The app in front of the players: events in (table seats), a transition or None out."""

    @property
    def needs_reader(self) -> bool:
        """True when the app follows the pieces: its screens say so when the reader is away."""
        ...

    def begin(self, sensed: Sensed) -> Transition | None:
        """The app is now in front of the players; `sensed` is the table as last settled."""
        ...

    def on_button(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A table seat's button (OK's press comes on its release; "long" is a long press on OK)."""
        ...

    def on_sensed(self, sensed: Sensed) -> Transition | None:
        """A settled layout of the table."""
        ...

    def on_time(self) -> Transition | None:
        """Time passed (a tick): banners, countdowns, computer players."""
        ...

    def on_journal_back(self, unfinished: Callable[[], Unfinished | None]) -> None:
        """The journal can be read again: `unfinished()` says which game it holds unfinished."""
        ...

    def frame(self, seat: int) -> Frame:
        """Table seat `seat`'s screen."""
        ...

    def leds(self) -> dict[str, str]:
        """Physical zone -> colour."""
        ...

    def take_cues(self) -> list[str]:
        """The sounds asked since the last call, in order."""
        ...

    def next_deadline(self) -> float | None:
        """The next moment the app changes by itself (None: not before an event)."""
        ...

    def prepare(self, settling: Sensed | None = None) -> bool:
        """Idle work that makes the next event cheaper; True if there was some. `settling`: the
        layout sensed while a settle window runs (what will most likely settle), else None."""
        ...


class QuietApp:
    """The defaults of an app that nothing changes by itself: no sound, no deadline, no idle work,
    nothing to do when the journal comes back."""

    def on_time(self) -> Transition | None:
        """Nothing changes by itself."""
        return None

    def on_journal_back(self, unfinished: Callable[[], Unfinished | None]) -> None:
        """Nothing to offer."""

    def take_cues(self) -> list[str]:
        """No sound."""
        return []

    def next_deadline(self) -> float | None:
        """Nothing changes by itself."""
        return None

    def prepare(self, settling: Sensed | None = None) -> bool:
        """Nothing to prepare."""
        return False
