"""The game's answers about a state that the events after a move ask (each seat's choices, who is
waited for, who acts, the pieces expected on the sensed zones, the LEDs' hints, the outcome), each
made by one function of the game, the state and the zones the table senses: the session asks them
of the state on the table (kept per state, `StateMemo`), the foresight of a state a move would
lead to, and both get the very same values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from firmware_host.apps import reconcile
from firmware_host.apps.phones import seat_choices
from games.core import Game

Answer = Callable[[Game[Any, Any], Any, set[str], int], Any]  # (game, state, zones, seat) -> value


def _choices(game: Game[Any, Any], state: Any, zones: set[str], seat: int) -> Any:
    return seat_choices(game, state, seat, zones)


def _expected(game: Game[Any, Any], state: Any, zones: set[str], seat: int) -> Any:
    return reconcile.restrict(game.expected_layout(state), zones)


# the memo key's first item -> its answer (a seat's answer has the seat as the key's second item)
ANSWERS: dict[str, Answer] = {
    "choices": _choices,
    "waiting_for": lambda game, state, zones, seat: game.waiting_for(state),
    "to_act": lambda game, state, zones, seat: game.to_act(state),
    "expected": _expected,
    "highlights": lambda game, state, zones, seat: game.highlights(state),
    "outcome": lambda game, state, zones, seat: game.outcome(state),
}
TABLE_KEYS = (("to_act",), ("outcome",), ("waiting_for",), ("expected",), ("highlights",))  # one per state


def answer(game: Game[Any, Any], state: Any, zones: set[str], key: tuple[Any, ...]) -> Any:
    """The answer the memo key `key` names, for `state`."""
    return ANSWERS[key[0]](game, state, zones, key[1] if len(key) > 1 else -1)


class Current(Protocol):
    """What `now` reads of the game in progress (the session)."""

    game: Game[Any, Any]
    state: Any

    def logical_zones(self) -> set[str]: ...


def now(play: Current, key: tuple[Any, ...]) -> Any:
    """The answer the memo key `key` names, for the state on the table."""
    return answer(play.game, play.state, play.logical_zones(), key)
