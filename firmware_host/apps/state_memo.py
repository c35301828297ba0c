"""What the game's pure functions answered for the current state, kept until the state changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_NONE: Any = object()  # no value yet (None is one)


class StateMemo:
    """What the game's pure functions answered for one state (states are immutable): frames are
    recomputed at every event, the engine only when the state changed."""

    def __init__(self) -> None:
        self.state: Any = None
        self.values: dict[tuple[Any, ...], Any] = {}
        # a new state's answers known already (worked out while its move was read), a new dict
        self.ahead: Callable[[Any], dict[tuple[Any, ...], Any]] | None = None

    def get(self, state: Any, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """`compute()` for `state`, computed once."""
        if self.state is not state:
            self.state, self.values = state, {} if self.ahead is None else self.ahead(state)
        known = self.values.get(key, _NONE)  # not a KeyError caught: every new state misses each key once
        if known is _NONE:
            known = self.values[key] = compute()
        return known  # type: ignore[no-any-return]

    def has(self, state: Any, key: tuple[Any, ...]) -> bool:
        """True when `key` was computed for `state`."""
        return self.state is state and key in self.values
