"""Computer players: one pure module per game (`games/<game>/ai.py`), shared search code here.

Every game's AI module offers the same functions (pure: no I/O, no clock but the budget's):

    LEVELS: tuple[str, ...]                       # e.g. ("easy", "strong")
    DEFAULT_BUDGETS: dict[str, Budget]            # per level, sized for a Pi Zero 2 W
    needs_decision(view, seat) -> bool          # whether to ask the computer now
    choose(view, seat, level, rng, budget=None) -> Action
    rank(view, seat, level, rng, budget=None) -> list[Ranked]   # hints: candidates, best first
    sample_state(view, seat, rng) -> state        # a full state consistent with the view

`view` is `game.view(state, seat)` — what the seat may know, nothing more. The action returned
is legal for `seat` in every state that gives this view, and the same view, level, seed and
iteration budget always give the same action.

This module finds a game's AI lazily (like games.registry) and checks the arguments.
"""

from __future__ import annotations

import importlib
import random
from functools import cache
from types import ModuleType
from typing import Any, Protocol, cast

from games.ai.budget import Budget
from games.ai.search import Ranked
from games.core import Action

__all__ = ["AI_MODULES", "Budget", "GameAI", "NoComputerPlayer", "Ranked", "ai_module", "choose", "default_budget", "has_ai", "levels",
           "needs_decision", "rank", "sample_state", "check_request"]

# game id -> module of its computer player
AI_MODULES: dict[str, str] = {
    "droles-de-zebres": "games.droles_de_zebres.ai",
    "zop": "games.zop.ai",
    "spywhere": "games.spywhere.ai",
}


class NoComputerPlayer(ValueError):
    """A game without a computer player, or a level it does not have."""


class GameAI(Protocol):
    """What every game's AI module offers (the module itself satisfies this protocol)."""

    LEVELS: tuple[str, ...]
    DEFAULT_BUDGETS: dict[str, Budget]

    def needs_decision(self, view: Any, seat: int, /) -> bool:
        """Whether the computer playing `seat` has a choice to make now."""

    def choose(self, view: Any, seat: int, level: str, rng: random.Random, budget: Budget | None = None, /
               ) -> Action:
        """The action of `seat`, from its view."""

    def rank(self, view: Any, seat: int, level: str, rng: random.Random, budget: Budget | None = None, /
             ) -> list[Ranked[Action]]:
        """Candidate actions, best first."""

    def sample_state(self, view: Any, seat: int, rng: random.Random, /) -> Any:
        """A full state consistent with the view."""


def _ai(game_id: str) -> GameAI:
    return cast(GameAI, ai_module(game_id))


def has_ai(game_id: str) -> bool:
    """True when the game has a computer player."""
    return game_id in AI_MODULES


@cache
def ai_module(game_id: str) -> ModuleType:
    """The AI module of a game; raises NoComputerPlayer."""
    try:
        return importlib.import_module(AI_MODULES[game_id])
    except KeyError:
        raise NoComputerPlayer(f"no computer player for {game_id!r}; games with one: {', '.join(AI_MODULES)}") \
            from None


def levels(game_id: str) -> tuple[str, ...]:
    """The levels a game's computer player offers, weakest first."""
    return tuple(_ai(game_id).LEVELS)


def default_budget(game_id: str, level: str) -> Budget:
    """The thinking budget of a level when none is given (about 2 s on a Pi Zero 2 W)."""
    return _ai(game_id).DEFAULT_BUDGETS[level]


def needs_decision(game_id: str, view: Any, seat: int) -> bool:
    """True when the computer playing `seat` has a choice to make now (ask it only then)."""
    return bool(_ai(game_id).needs_decision(view, seat))


def choose(game_id: str, view: Any, seat: int, level: str, rng: random.Random,
           budget: Budget | None = None) -> Action:
    """The action the computer plays for `seat`, from that seat's view only."""
    return _ai(game_id).choose(view, seat, level, rng, budget)


def rank(game_id: str, view: Any, seat: int, level: str, rng: random.Random,
         budget: Budget | None = None) -> list[Ranked[Action]]:
    """Candidate actions, best first, with their estimated values (a hint for a human seat)."""
    return _ai(game_id).rank(view, seat, level, rng, budget)


def sample_state(game_id: str, view: Any, seat: int, rng: random.Random) -> Any:
    """A full state that gives `seat` exactly `view`, hidden cards dealt at random."""
    return _ai(game_id).sample_state(view, seat, rng)


def check_request(view: Any, seat: Any, level: Any, rng: Any, budget: Any, known_levels: tuple[str, ...],
                  players: int) -> None:
    """Refuse bad arguments with a clear message (a bool is not a seat, a level must exist)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ValueError(f"seat must be an integer 0..{players - 1}, got {seat!r}")
    if getattr(view, "seat", seat) != seat:
        raise ValueError(f"this is the view of seat {view.seat!r}, not of seat {seat}")
    if level not in known_levels:
        raise NoComputerPlayer(f"unknown level {level!r}; levels: {', '.join(known_levels)}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
    if budget is not None and not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget, got {type(budget).__name__}")
