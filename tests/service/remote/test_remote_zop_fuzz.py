"""ZOP across tables with both tables' loops stepped one at a time and the messages taken in random
orders (tests/kits/zop_fuzz.py), and what such games found, each on the two tables' real RemoteSeats.

bench/bench_zop_fuzz.py plays many more, each to the match's end."""

from __future__ import annotations

import logging

import pytest

from firmware_host.loop.simulator import SimTable
from games.zop import rules_supply
from games.zop.game import GAME
from tests.kits.zop_fuzz import play
from tests.service.remote.test_remote_zop_commit import HOST, JOINING, Pair

SEEDS = (39, 113, 119)  # games that stop without the order of a pad's cards as a hidden variant


def test_the_host_lays_its_last_two_cards_in_an_order_no_stand_in_shows(sims: tuple[SimTable, SimTable],
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    """The host's player owes an extra card when it has two left: the joining player knows both cards,
    not the order they are laid in (the reveal shows it). The second crosses as a stand-in, not as a
    rewrite the rules cannot show yet, and the reveal tells the order."""
    pair = Pair(sims)
    deck = GAME.deck
    first_17 = [f"zop/light/{kind}/{n}" for kind, ns in (("attack", range(1, 6)), ("defence", range(1, 7)),
                                                         ("special", (1, 2, 5, 6, 7, 8))) for n in ns]
    theirs = [c for c in deck.ids(deck.set_of_seat(JOINING)) if not c.endswith(("special/3", "special/4"))]
    for mine, card in zip([*first_17, "zop/light/special/3"], theirs, strict=True):  # 3: an extra card owed
        pair.lay(pair.b, JOINING, card)
        pair.lay(pair.a, HOST, mine)
    assert pair.a.state == pair.b.state and rules_supply.required(deck, pair.a.state, HOST) == 2
    last = ("zop/light/special/4", "zop/light/attack/6")  # its last two, not in the stand-ins' order
    with caplog.at_level(logging.WARNING, logger="firmware_host"):
        for card in last:
            pair.lay(pair.a, HOST, card)
        assert [f.get("hidden") for k, f in pair.told[-2:]] == [True, True]  # both crossed as stand-ins
        pair.lay(pair.b, JOINING, "zop/dark/special/3")
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert pair.a.state.turns[-1].cards[HOST] == last and pair.a.state == pair.b.state


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fuzzed_game_neither_stops_nor_warns(sims: tuple[SimTable, SimTable], seed: int) -> None:
    out = play(sims, seed)
    assert out.ok, f"{out.stuck} {out.warnings}\n" + "\n".join(out.trace[-30:])
