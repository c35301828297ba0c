"""Phone seats: players with no seat at the table (no screen, no buttons, no pad) who play on a phone.

A table's own seats are numbered 1 to 8; phone seats follow, from 9. A phone seat is a table seat
like another to the apps (its frame, its three buttons, pressed from its page), but the table
senses nothing of it: the cards it would lay on its pad are tracked by the table, and its menu
offers those gestures as choices (`gesture_choices`), as a computer player's cards exist only in
the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from firmware_host.apps import reconcile
from games.core import Choice, Game
from games.registry import available_ids, game_info

FIRST_PHONE_SEAT = 9  # the table config numbers its seats 1 to 8


def phone_seat_ids(seat_ids: Iterable[int]) -> tuple[int, ...]:
    """The phone seats a table offers: enough for its largest game with one player seated."""
    if not list(seat_ids):
        return ()
    most = max((game_info(gid).max_players for gid in available_ids()), default=0)
    return tuple(range(FIRST_PHONE_SEAT, FIRST_PHONE_SEAT + max(0, most - 1)))


def is_phone_seat(seat: int | None) -> bool:
    """True for a phone seat's number."""
    return seat is not None and seat >= FIRST_PHONE_SEAT


def gesture_choices(game: Game[Any, Any], state: Any, seat: int, sensed_zones: set[str],
                    menu: list[Choice]) -> list[Choice]:
    """A seat whose pad the table cannot sense: its legal moves the table cannot see (a card laid
    on or lifted from that pad), as menu entries; none for a seat whose pad is sensed."""
    if f"pad.{seat}" in sensed_zones:
        return []
    known = [c.action for c in menu]
    now = reconcile.restrict(game.expected_layout(state), sensed_zones)
    out = []
    for action in game.legal_actions(state, seat):
        if action in known:
            continue
        if reconcile.restrict(game.footprint(state, seat, action), sensed_zones) == now:
            out.append(Choice(game.describe_action(state, seat, action), action))
    return out


def seat_choices(game: Game[Any, Any], state: Any, seat: int, sensed_zones: set[str]) -> list[Choice]:
    """A seat's menu from the game: on a seat whose pad the table cannot sense, its unseen gestures first."""
    menu = game.choices(state, seat)
    return [*gesture_choices(game, state, seat, sensed_zones, menu), *menu]
