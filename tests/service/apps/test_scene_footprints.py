"""A scene's footprints are worked out only when a mistake's class reads them: over seeded random
games (moves, mistakes, presses, time passing), the table says what it said with them worked out
at once, event by event, and most scenes never read them."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from firmware_host.apps import mistakes
from firmware_host.apps.mistakes import Footprint, Later
from firmware_host.apps.session import GameSession
from games.registry import game_ids
from tests.service.apps.test_frame_reuse import event, open_game

EVENTS = 150


def told(s: GameSession) -> tuple[object, ...]:
    """What the table says after an event: its instruction, the reason, the sounds, the state."""
    return s.table.instruction, s.table.reason, tuple(s.cues), len(s.moves), s.state


def play(game_id: str, seed: int) -> list[tuple[object, ...]]:
    s, clock = open_game(game_id, seed, False)
    rng = random.Random(seed)
    sensed: dict[str, frozenset[str]] = {}
    said = []
    for _ in range(EVENTS):
        if not event(s, clock, rng, sensed):
            break
        said.append(told(s))
    return said


class Eager(Sequence[Footprint]):
    """The footprints worked out when the scene is made (what Later puts off)."""

    def __init__(self, make: object) -> None:
        self.made = list(make())  # type: ignore[operator]

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return self.made[index]

    def __len__(self) -> int:
        return len(self.made)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_table_says_what_footprints_worked_out_at_once_say(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    made = read = 0
    real_all = Later._all

    def counting_init(self: Later, make: object) -> None:
        nonlocal made
        made += 1
        self._make, self._made = make, None  # type: ignore[assignment]

    def counting_all(self: Later) -> Sequence[Footprint]:
        nonlocal read
        read += self._made is None
        return real_all(self)

    with monkeypatch.context() as m:
        m.setattr(Later, "__init__", counting_init)
        m.setattr(Later, "_all", counting_all)
        later = play(game_id, 7)
    with monkeypatch.context() as m:
        m.setattr(mistakes, "Later", Eager)
        eager = play(game_id, 7)
    assert later == eager
    assert 0 < read < made, (made, read)  # scenes made: some read their footprints, some never


def test_later_works_them_out_once_and_only_when_read() -> None:
    calls = []
    feet: list[Footprint] = [(0, {"type": "lay"}, {"pad.0": frozenset({"a"})}), (1, {"type": "pass"}, {})]

    def make() -> list[Footprint]:
        calls.append(1)
        return feet

    lazy = Later(make)
    assert calls == []
    assert list(lazy) == feet and len(lazy) == 2 and lazy[1] == feet[1] and list(lazy[:1]) == feet[:1]
    assert calls == [1]
