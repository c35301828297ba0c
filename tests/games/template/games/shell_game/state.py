"""The shell game's state: the rounds played, and where the pea lies while it is hidden."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

HIDE: Final = "hide"  # the hider puts the pea under a cup
GUESS: Final = "guess"  # the other seat names a cup with the buttons
OVER: Final = "over"
CUPS: Final = (1, 2, 3)  # the centre slots, each under a cup
ROUNDS: Final = (4, 6)  # the option's values, the default first


@dataclass(frozen=True)
class Round:
    """One round played: who hid, under which cup, which cup the other named."""

    hider: int
    cup: int
    guess: int

    @property
    def found(self) -> bool:
        """Whether the guesser named the pea's cup."""
        return self.cup == self.guess


@dataclass(frozen=True)
class ShellState:
    """The whole game: immutable, compared by value."""

    rounds: int
    phase: str = HIDE
    cup: int | None = None  # the pea's cup while hidden: the hider's secret
    played: tuple[Round, ...] = ()

    @property
    def hider(self) -> int:
        """The seat hiding the pea this round (seats take turns, seat 0 first)."""
        return len(self.played) % 2

    @property
    def guesser(self) -> int:
        """The seat guessing this round."""
        return 1 - self.hider
