"""RemoteSeats against a table that holds the key but says nonsense (a bug, another version):
every message is checked against the game before it is followed; none crashes the table or
changes its game. And `Joining.begin` refuses a game it cannot play with one clear reason."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from firmware_host.apps.app import StartRequest
from firmware_host.apps.menu import MenuApp
from firmware_host.remote import play
from firmware_host.remote.seats import RemoteSeats
from firmware_host.remote.wire import Message
from tests.service.apps.solo_table import open_table, session


class FakeLink:
    """A link whose messages the test writes and whose sendings it reads."""

    def __init__(self, side: str):
        self.side = side
        self.code = "ABCDEFGH"
        self.inbox: deque[Message] = deque()
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.present = True
        self.connected = True
        self.ever_present = True
        self.stopped = False
        self.peer_restarts = 0
        self.run = 1  # the link's run (a table that restarts has a later one)

    def take(self) -> list[Message]:
        out = list(self.inbox)
        self.inbox.clear()
        return out

    def send(self, kind: str, fields: dict[str, Any]) -> int:
        self.sent.append((kind, fields))
        return len(self.sent)

    def unacknowledged(self) -> int:
        return 0

    def stop(self, after_sending: bool = False) -> None:
        self.stopped = True


def table(side: str, seats: tuple[int | None, ...], seed: int = 0):
    sim = open_table(seed=seed)
    sim.runtime.start(StartRequest("droles-de-zebres", seats, {"first_player": "seat0"}, seed=4))
    s = session(sim)
    link = FakeLink(side)
    remote = RemoteSeats(s, link, frozenset(i for i, t in enumerate(seats) if t is None))  # type: ignore[arg-type]
    return sim, s, link, remote


def msg(kind: str, seq: int, **data: Any) -> Message:
    return Message(kind, seq, 0, {"kind": kind, "seq": seq, **data})


GUARDIAN = {"type": "guardian", "position": 0}


def test_the_host_refuses_a_move_not_its_to_make_or_illegal_and_keeps_its_game():
    sim, s, link, remote = table("host", (1, None))
    try:
        assert s.to_act() == {0}  # seat 1 (the host's) places the guardian first
        before = list(s.moves)
        link.inbox.extend([
            msg("move", 1, n=len(before), seat=1, action=GUARDIAN),  # not the joining seat's turn
            msg("move", 2, n=len(before), seat=0, action=GUARDIAN),  # a host seat's move, from the other table
            msg("move", 3, n=99, seat=1, action={"type": "stop"}),  # after moves the host never made
            msg("move", 4, n=len(before), seat=1, action=["not", "an", "action"]),
            msg("move", 5, n=len(before), seat=1, action={"type": "place", "piece": 5, "square": None}),
        ])
        sim.runtime.tick()
        assert s.moves == before
        assert [k for k, _ in link.sent] == ["refused"] * 5
    finally:
        sim.close()


def test_the_joining_table_sets_aside_what_it_cannot_follow_and_goes_on():
    sim, s, link, remote = table("join", (None, 3))
    try:
        link.inbox.extend([
            msg("move", 1, n=5, seat=0, action=GUARDIAN),  # a gap in the host's moves
            msg("move", 2, n=0, seat=0, action=None, views={}),  # a move hidden from this table
            msg("move", 3, n=0, seat=0, action={"type": "fly"}, views={}),  # illegal here
        ])
        sim.runtime.tick()
        assert s.moves == [] and remote.mismatches == 0
        link.inbox.append(msg("move", 4, n=1, seat=0, action=GUARDIAN, views={}))  # after the illegal one
        sim.runtime.tick()
        assert s.moves == []  # its log holds the illegal move: nothing after it is laid
        assert isinstance(sim.runtime.app, type(s))  # the table is still in the game
    finally:
        sim.close()


def test_a_resumed_joining_table_follows_only_the_hosts_whole_game_of_its_own_seed():
    sim, s, link, _ = table("join", (None, 3))
    remote = RemoteSeats(s, link, frozenset({0}), resumed=True)  # type: ignore[arg-type]
    try:
        whole = {"game": s.game.id, "players": 2, "seed": s.config.seed, "options": {}, "remote": [1],
                 "moves": [[0, GUARDIAN]], "views": {}}
        link.inbox.extend([
            msg("move", 1, n=0, seat=0, action=GUARDIAN, views={}),  # before the whole game: set aside
            msg("game", 2, **{**whole, "seed": s.config.seed + 1}),  # another game's: refused
            msg("game", 3, **{**whole, "remote": [0]}),  # seats that are not this table's: refused
        ])
        sim.runtime.tick()
        assert s.moves == [] and not remote.synced
        link.inbox.append(msg("game", 4, **whole))
        sim.runtime.tick()
        assert s.moves == [(0, GUARDIAN)] and remote.synced and remote.checked == 1
    finally:
        sim.close()


def test_a_view_that_differs_from_the_joining_engines_is_counted():
    sim, s, link, remote = table("join", (None, 3))
    try:
        link.inbox.append(msg("move", 1, n=0, seat=0, action=GUARDIAN, views={"1": "0" * 64}))
        sim.runtime.tick()
        assert s.moves == [(0, GUARDIAN)] and remote.checked == 1 and remote.mismatches == 1
        # announced to the local player as a computer's move is, once its words are checked
        while s.computers.work():
            pass
        assert any("J1 : Haut col. A" in n.text.fr for n in s.ui[1].notices), s.ui[1].notices
    finally:
        sim.close()


class FakeJoining(play.Joining):
    def __init__(self, runtime: Any, data: dict[str, Any]):
        self.table = runtime
        self.code = "ABCDEFGH"
        self.link = FakeLink("join")  # type: ignore[assignment]
        self.taken = [msg("game", 1, **data)]


GAME = {"game": "droles-de-zebres", "players": 2, "options": {"first_player": "seat0"}, "seed": 3, "remote": [1],
        "moves": [], "views": {}}


@pytest.mark.parametrize(("change", "seats", "words"), [
    ({"game": "chess"}, (3,), "does not have"),
    ({"game": "operation-zebre", "players": 4, "options": {}}, (3,), "not playable between tables"),
    ({"game": "zop", "options": {"deck": "tracked"}}, (3,), "sensed"),
    ({"players": 5}, (3,), "players"),
    ({"options": {"first_player": "nobody"}}, (3,), "first_player"),
    ({}, (3, 4), "at this table: give as many"),
    ({"remote": [0, 1]}, (3, 3), "table seats"),
])
def test_joining_a_game_this_table_cannot_play_says_why(change, seats, words):
    sim = open_table()
    try:
        joining = FakeJoining(sim.runtime, {**GAME, **change})
        with pytest.raises(ValueError, match=words):
            joining.begin(seats)
        assert isinstance(sim.runtime.app, MenuApp)  # nothing started
    finally:
        sim.close()


def test_hosting_a_game_with_secrets_or_without_a_remote_player_is_refused():
    sim = open_table()
    try:
        with pytest.raises(ValueError, match="not playable between tables"):
            play.host(sim.runtime, None, "operation-zebre", (1, None, None, None))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="sensed"):
            play.host(sim.runtime, None, "zop", (1, None), {"deck": "tracked"})  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="players at both tables"):
            play.host(sim.runtime, None, "droles-de-zebres", (1, 2))  # type: ignore[arg-type]
    finally:
        sim.close()


def test_the_joining_table_sets_aside_a_rewrite_past_its_moves_and_follows_one_in_them():
    sim, s, link, remote = table("join", (None, 3))
    try:
        link.inbox.append(msg("rewrite", 1, **{"from": 3, "moves": [[0, GUARDIAN]], "views": {}}))
        sim.runtime.tick()
        assert s.moves == [] and remote.log == []
        link.inbox.append(msg("move", 2, n=0, seat=0, action={"type": "guardian", "position": 1}, views={}))
        sim.runtime.tick()
        assert s.moves == [(0, {"type": "guardian", "position": 1})]
        # the host tells move 0 again otherwise: this table takes its copy back, quietly, and lays the host's
        link.inbox.append(msg("rewrite", 3, **{"from": 0, "moves": [[0, GUARDIAN]], "views": {}}))
        sim.runtime.tick()
        assert s.moves == [(0, GUARDIAN)] and remote.log == [(0, GUARDIAN)]
        assert not any("annulé" in n.text.fr for n in s.ui[1].notices), s.ui[1].notices
        assert isinstance(sim.runtime.app, type(s))
    finally:
        sim.close()


def test_a_rewrite_announces_the_moves_it_says_are_new_and_no_other():
    """A rewrite tells moves again (laid again without a word) and may end with new ones: those from
    `fresh` on are announced as a move from the other table is."""
    sim, s, link, remote = table("join", (None, 3))
    try:
        link.inbox.append(msg("rewrite", 1, **{"from": 0, "moves": [[0, GUARDIAN]], "views": {}, "fresh": 0}))
        sim.runtime.tick()
        assert s.moves == [(0, GUARDIAN)]
        while s.computers.work():  # its words are checked a slice at a time
            pass
        assert any("J1 : Haut col. A" in n.text.fr for n in s.ui[1].notices), s.ui[1].notices
    finally:
        sim.close()
    sim, s, link, remote = table("join", (None, 3))
    try:
        link.inbox.append(msg("rewrite", 1, **{"from": 0, "moves": [[0, GUARDIAN]], "views": {}}))
        sim.runtime.tick()
        assert s.moves == [(0, GUARDIAN)]
        while s.computers.work():
            pass
        assert not any("J1 :" in n.text.fr for n in s.ui[1].notices), s.ui[1].notices
    finally:
        sim.close()
