"""The table's own entries in a game seat's menu (undo, hint, yes/no, quit, how to play): told
apart from the game's actions by their type, never by what a game action's dict holds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.core import Choice, Text


class Entry(Enum):
    """What one of the table's entries does."""

    UNDO = "undo"  # ask to take the last move back
    UNDO_YES = "undo_yes"  # agree to the undo asked
    UNDO_NO = "undo_no"  # refuse it
    UNDO_CANCEL = "undo_cancel"  # its author withdraws it
    HINT = "hint"  # ask the computer for a hint
    CONFIRM = "confirm"  # yes to an irrevocable choice
    CANCEL = "cancel"  # no to it
    RESUME = "resume"  # back to the game from the quit question
    QUIT = "quit"  # quit the game (asks the other players first)
    HOWTO = "howto"  # read how to play
    LEAVE_YES = "leave_yes"  # agree that the game ends
    LEAVE_NO = "leave_no"  # keep playing
    LEAVE_CANCEL = "leave_cancel"  # the asker withdraws the request to quit


@dataclass(frozen=True)
class TableChoice:
    """One of the table's menu entries: its label and what it does."""

    label: Text
    entry: Entry


MenuEntry = Choice | TableChoice  # a game's action (Choice) or the table's own entry
