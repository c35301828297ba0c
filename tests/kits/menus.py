"""A game seat's menu as the tests walk it: each entry's game action, or the table's own entry."""

from __future__ import annotations

from typing import Any

from firmware_host.apps.entries import Entry, TableChoice
from firmware_host.apps.session import GameSession
from games.core import Action


def entries(session: GameSession, seat: int) -> list[Action | Entry]:
    """What each entry of the seat's menu does: a game action (a dict) or one of the table's entries."""
    return [c.entry if isinstance(c, TableChoice) else c.action for c in session.menu(seat)]


def game_actions(session: GameSession, seat: int) -> list[Any]:
    """The game actions in the seat's menu (the table's own entries left out)."""
    return [c.action for c in session.menu(seat) if not isinstance(c, TableChoice)]
