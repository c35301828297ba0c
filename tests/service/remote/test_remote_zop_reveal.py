"""ZOP across tables: when the joining table's player lays the last card of a turn, its own engine
reveals at once on the stand-ins of the host's cards (the host's cards cross as commitments until
the reveal). Its screens never show that reveal, nor an end made on it: they say the other table is
awaited until the host's reveal tells the turn as it was, read once.

Every frame of the joining table's seat and every message it is given are recorded, and each
reveal they show is checked against the host's real one (two tables' real sessions, their links
carried by the test: test_remote_zop_commit.py's Pair)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from firmware_host.apps.app import GameOver, Transition
from firmware_host.loop.simulator import SimTable
from games.core import Text
from tests.service.remote.test_remote_zop_commit import HOST, JOINING, Pair, first

TABLE_SEAT = 3  # the joining player's table seat (Pair)
REVEAL = re.compile(r"Att [^·]*? : \+[^·]*")  # a turn's reveal as the screens word it ("Att 1 / Att 4 : +1 / +4")


class Watched(Pair):
    """A Pair whose joining table's screen, messages and game ends are recorded after every step."""

    def __init__(self, sims: tuple[SimTable, SimTable]):
        super().__init__(sims)
        self.shown: list[tuple[str, Any]] = []  # (what the seat read, the joining engine's turns then)
        self.ends: list[tuple[Transition, Any]] = []  # each GameOver given, with the engine's turns then
        ui = self.b.ui[JOINING]
        given = ui.notify

        def notify(text: Text, *args: Any, **kwargs: Any) -> None:
            self.shown.append((text.fr, self.b.state.turns))
            given(text, *args, **kwargs)

        ui.notify = notify  # type: ignore[method-assign]

    def look(self) -> None:
        """What the joining table shows now: its seat's frame, and whether it ends the game."""
        while self.b.computers.work():  # a move's words, given as the table would in its idle time
            pass
        self.shown.append((json.dumps(self.b.frame(TABLE_SEAT).text("fr"), ensure_ascii=False), self.b.state.turns))
        done = self.b.on_time()
        if isinstance(done, GameOver):
            self.ends.append((done, self.b.state.turns))

    def pump(self) -> None:
        self.look()
        super().pump()
        self.look()

    def check(self) -> int:
        """Every reveal the joining table showed was read on the host's real turns; returns how many were shown."""
        real = self.a.state.turns
        count = 0
        for text, turns in self.shown:
            found = REVEAL.findall(text)
            count += len(found)
            if found:  # what the seat read was built from the turns as they really were
                assert turns == real[:len(turns)], f"shown on the stand-ins of the host's cards: {text}"
        for _, turns in self.ends:
            assert turns == real[:len(turns)], "the game ended on the stand-ins of the host's cards"
        return count


def joining_lays_last(pair: Watched) -> None:
    """One turn: the host's player lays first (not the card a stand-in would be), then the joining
    player lays the last card; the host's answer is held while the joining table is looked at."""
    pair.lay(pair.a, HOST, first(pair.a, HOST, 3))
    pair.hold = True
    pair.lay(pair.b, JOINING, first(pair.b, JOINING))
    pair.look()
    pair.hold = False
    pair.pump()
    assert pair.a.state == pair.b.state


def test_the_joining_table_shows_a_reveal_only_with_the_hosts_real_cards(sims: tuple[SimTable, SimTable]) -> None:
    pair = Watched(sims)
    for _ in range(3):
        joining_lays_last(pair)
    assert pair.check() >= 3  # each real reveal shown
    frames = [text for text, _ in pair.shown if text.startswith("{")]
    assert any("l'autre table" in t for t in frames)  # the reveal awaited is said
    words = " · ".join(n.text.fr for n in pair.b.ui[JOINING].notices)
    assert len(REVEAL.findall(words)) == 3, words  # each turn read once


def test_the_joining_table_ends_the_game_only_on_the_hosts_real_last_turn(sims: tuple[SimTable, SimTable]) -> None:
    """The game's last card laid at the joining table (a whole game is long: its end is made the
    second turn's reveal): no end is given on the stand-ins, the real end once the host's reveal came."""
    pair = Watched(sims)
    joining_lays_last(pair)
    real = pair.b.of_state

    def ended(key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        return ("ended",) if key == ("outcome",) and len(pair.b.state.turns) == 2 else real(key, compute)

    pair.b.of_state = ended  # type: ignore[method-assign]
    try:
        pair.lay(pair.a, HOST, first(pair.a, HOST, 3))
        pair.hold = True
        pair.lay(pair.b, JOINING, first(pair.b, JOINING))
        stand_ins = pair.b.state.turns
        assert len(stand_ins) == 2  # revealed here at once, on the stand-ins of the host's cards
        pair.look()
        assert not pair.ends, "the game ended on the stand-ins of the host's cards"
        pair.hold = False
        pair.pump()
        assert pair.a.state == pair.b.state and len(pair.ends) == 1  # the real end, once
        assert stand_ins != pair.a.state.turns  # the stand-ins' reveal was not the real one
        pair.check()
    finally:
        del pair.b.of_state


def test_the_joining_tables_leds_wait_with_its_screens(sims: tuple[SimTable, SimTable]) -> None:
    """While the joining table awaits the host's cards, its LEDs light nothing worked out on the
    stand-ins of those cards (no instruction, no pad to lay on): its screens say only that the other
    table is awaited. Once the reveal came, the LEDs are the real turn's."""
    pair = Watched(sims)
    awaited = 0
    for _ in range(3):
        pair.lay(pair.a, HOST, first(pair.a, HOST, 3))
        pair.hold = True
        pair.lay(pair.b, JOINING, first(pair.b, JOINING))
        assert pair.b.stand_ins(pair.b.state)
        frame = json.dumps(pair.b.frame(TABLE_SEAT).text("fr"), ensure_ascii=False)
        assert "l'autre table" in frame
        assert pair.b.leds() == {x.zone: "red" for x in pair.b.strangers}, pair.b.leds()
        awaited += 1
        pair.hold = False
        pair.pump()
        assert not pair.b.stand_ins(pair.b.state)
        assert pair.b.leds() == pair.b.frames.leds()  # the real turn's, as the host's reveal tells it
    assert awaited == 3
