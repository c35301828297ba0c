"""The chance outcomes the table draws itself, and those it leaves to the hands.

On a real table a chance event whose outcomes differ by the pieces they put on the table (a card
dealt onto a pad) is left for the table to sense; one that no piece shows (an ÉCHEC card, a
shuffle) is drawn by the table itself; the simulator draws them all. A draw depends on the seed and
the move number only, so a resumed game draws as it would have, and a draw worked out ahead
(foresight.py) is the one the table will make.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from firmware_host.apps import reconcile
from firmware_host.apps.state_answers import answer
from games.core import CHANCE, Action, Game, GameConfig
from games.playout import sample_chance

_EXPECTED = ("expected",)


class Pending(Protocol):
    """What telling who draws reads of the game in progress (the session)."""

    game: Game[Any, Any]
    state: Any
    auto_chance: bool
    remote: Any  # the seats played at another table, or None

    @property
    def over(self) -> bool: ...
    def to_act(self) -> frozenset[int]: ...
    def expected(self) -> dict[str, Any]: ...
    def logical_zones(self) -> set[str]: ...


class Drawing(Pending, Protocol):
    """What drawing reads of the game in progress besides: the seed and the move number."""

    config: GameConfig
    moves: list[tuple[int, Action]]


def draws(play: Pending, state: Any = None) -> bool:
    """True when the table draws the next chance outcome itself in `state` (the current one by
    default): chance is to act, the game goes on, no other table draws it, no piece shows it."""
    game = play.game
    if state is None or state is play.state:
        state, pending = None, CHANCE in play.to_act() and not play.over
    else:
        pending = CHANCE in game.to_act(state) and game.outcome(state) is None
    if not pending or play.remote is not None and play.remote.from_link(CHANCE):
        return False  # the host table draws for both tables: its draws come through the link
    return play.auto_chance or not visible(play, state)


def table_draw(play: Drawing, state: Any = None, moves: int | None = None) -> Action | None:
    """The chance outcome the table draws itself in `state` after `moves` moves (the current
    ones by default), or None when it draws none there (`draws`)."""
    if not draws(play, state):
        return None
    state = play.state if state is None else state
    moves = len(play.moves) if moves is None else moves
    return sample_chance(play.game, state, random.Random(f"{play.config.seed}/{moves}"))


def visible(play: Pending, state: Any = None) -> bool:
    """True if the pending chance outcomes (in `state`: the current one by default) can be told
    apart by what the table senses."""
    zones = play.logical_zones()
    game = play.game
    now = play.expected() if state is None else answer(game, state, zones, _EXPECTED)
    state = play.state if state is None else state
    return any(reconcile.restrict(game.footprint(state, CHANCE, act), zones) != now
               for act, _ in game.chance_outcomes(state))
