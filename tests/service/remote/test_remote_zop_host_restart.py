"""ZOP across tables, the host restarted from its journal: a move laid at the joining table on one
the host refused is still refused (the refusals each table counts start again with the whole game
the host sends), and the moves laid on the host's game as it is are taken.

Two tables' RemoteSeats on their real sessions, their links replaced by lists the test carries
(test_remote_zop_commit.py's Pair)."""

from __future__ import annotations

import json
import logging

import pytest

from firmware_host.loop.simulator import SimTable
from firmware_host.remote.seats import RemoteSeats
from games.zop import rules_supply
from games.zop.game import GAME
from tests.service.remote.test_remote_seats import FakeLink, msg
from tests.service.remote.test_remote_zop_commit import HOST, JOINING, Pair, first

HANG = 30.0  # seconds the host's worker may take to tell its game again (a few ms expected)


def to_host(pair: Pair) -> None:
    """The joining table's oldest message, taken by the host."""
    kind, fields = pair.lb.sent.pop(0)
    pair.seq["join"] += 1
    pair.la.inbox.append(msg(kind, pair.seq["join"], **json.loads(json.dumps(fields))))
    pair.host.step()


def restart_host(pair: Pair, deliver: bool = True) -> None:
    """The host's power cut: the same journal (its session's moves), a new link (a later run) and
    RemoteSeats that tell the whole game again, as the table does once restarted (remote/play.py,
    Rejoining); `deliver`: the joining table takes that game now."""
    pair.a.recorder = pair.host.inner
    run = pair.la.run + 1
    pair.la = FakeLink("host")
    pair.la.run = run
    pair.host = RemoteSeats(pair.a, pair.la, frozenset({JOINING}), resumed=True)  # type: ignore[arg-type]
    pair.host.send_game()
    assert pair.host.teller is not None and pair.host.teller.finish(HANG)
    pair.lb.peer_restarts += 1
    pair.seq["host"] = 0
    if deliver:
        pair.pump()


def a_refusal(pair: Pair) -> None:
    """The joining player takes its card back while the host's player lays: the host refuses it."""
    card, turns = first(pair.b, JOINING), len(pair.a.state.turns)
    pair.lay(pair.b, JOINING, card)
    assert pair.b.apply(JOINING, {"type": "withdraw", "card": card})
    assert pair.a.apply(HOST, {"type": "commit", "card": first(pair.a, HOST)})
    refused = pair.join.refused
    to_host(pair)  # after the host's card: refused
    pair.pump()  # the card is back on the joining table's pad, the turn revealed
    assert pair.join.refused == refused + 1
    assert len(pair.a.state.turns) == turns + 1 and pair.a.state == pair.b.state


def laid_taken_back_laid_again(pair: Pair, card: str, caplog: pytest.LogCaptureFixture) -> None:
    """The joining player's `card` laid, taken back and laid again (three moves not yet at the host),
    the host's player lays and takes back its own: the first taken, the other two refused, in step."""
    mine = first(pair.a, HOST)
    assert pair.a.apply(HOST, {"type": "commit", "card": mine})
    to_host(pair)  # the card laid: taken
    to_host(pair)  # the card taken back: refused (the host's card came first)
    assert pair.a.apply(HOST, {"type": "withdraw", "card": mine})
    to_host(pair)  # the card laid again, on the refused move: refused too
    assert len(pair.a.state.sides[JOINING].laid) == 1  # never the same card twice
    with caplog.at_level(logging.ERROR, "firmware_host.remote"):
        pair.pump()
    assert pair.b.moves == pair.join.plain() and pair.b.state.sides[JOINING].laid == (card,)
    assert not caplog.records
    pair.lay(pair.b, JOINING, first(pair.b, JOINING))  # good moves again: taken, the turn revealed
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    assert len(pair.a.state.turns) == 4 and pair.a.state == pair.b.state
    pair.turn()


def test_the_restarted_host_refuses_a_move_laid_on_a_refused_one_and_takes_the_good_ones(
        sims: tuple[SimTable, SimTable], caplog: pytest.LogCaptureFixture) -> None:
    pair = Pair(sims)
    a_refusal(pair)
    a_refusal(pair)  # the joining table has had two refusals
    restart_host(pair)
    assert pair.a.state == pair.b.state and pair.join.synced
    # a good move, carrying every refusal the joining table had: taken
    pair.lay(pair.b, JOINING, "zop/dark/special/3")  # its player lays an extra card next turn
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    assert pair.a.state == pair.b.state and rules_supply.required(GAME.deck, pair.b.state, JOINING) == 2
    # laid, taken back and laid again while the host's player lays and takes back its own
    card = first(pair.b, JOINING)
    for action in ({"type": "commit", "card": card}, {"type": "withdraw", "card": card},
                   {"type": "commit", "card": card}):
        assert pair.b.apply(JOINING, action)
    laid_taken_back_laid_again(pair, card, caplog)


def test_a_move_laid_before_the_restarted_hosts_game_came_on_one_it_refused_is_refused(
        sims: tuple[SimTable, SimTable], caplog: pytest.LogCaptureFixture) -> None:
    """The joining player lays, takes back and lays again while the host restarts: those moves carry
    the refusals counted since the host's game before the restart, as many as the restarted host
    has sent since its own. The card laid again, on the move refused, is refused all the same."""
    pair = Pair(sims)
    a_refusal(pair)
    a_refusal(pair)
    pair.lay(pair.b, JOINING, "zop/dark/special/3")  # its player lays an extra card next turn
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    assert rules_supply.required(GAME.deck, pair.b.state, JOINING) == 2
    restart_host(pair, deliver=False)  # its whole game not yet at the joining table
    card = first(pair.b, JOINING)
    for action in ({"type": "commit", "card": card}, {"type": "withdraw", "card": card},
                   {"type": "commit", "card": card}):
        assert pair.b.apply(JOINING, action)
    assert [f["r"] for _, f in pair.lb.sent] == [2, 2, 2]
    laid_taken_back_laid_again(pair, card, caplog)
