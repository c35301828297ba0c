"""A remote seat's move put in words as a computer's is (firmware_host/apps/announce.py): checked a
slice at a time on the loop, the same words as the whole check made at once, the seats' messages
in the order of the moves, and a move taken back meanwhile never said. At the joining table (the
host's moves) and at the host (the joining table's)."""

from __future__ import annotations

import random
from typing import Any

from firmware_host.apps.announce import STEP_UNITS, advance, at_once, public_steps
from firmware_host.remote.shadow import view_digests
from games.core import Action, tr
from tests.service.remote.test_remote_seats import msg, table


def messages(s: Any, seat: int) -> list[str]:
    """What a seat has to read, in order."""
    return [p.fr for n in s.ui[seat].notices for p in n.parts]


def passes(game: Any, state: Any, seat: int, action: Action, humans: list[int]) -> int:
    """Passes of the loop the check of the move's words takes."""
    check = public_steps(game, state, seat, action, humans)
    n = 1
    while advance(check, STEP_UNITS)[0] is None:
        n += 1
    return n


def long_move(s: Any, seat: int, rng: random.Random) -> Action | None:
    """A legal move of `seat` whose words take several passes to check (several moves it had), if any."""
    legal = s.game.legal_actions(s.state, seat)
    rng.shuffle(legal)
    return next((a for a in legal if passes(s.game, s.state, seat, a, s.humans()) > 1), None)


def settle_words(s: Any) -> int:
    """Let the loop's idle time finish every check; the passes it took."""
    n = 0
    while s.computers.work():
        n += 1
    return n


def test_the_hosts_moves_are_said_in_slices_in_the_order_of_the_moves():
    sim, s, link, remote = table("join", (None, 3))  # game seat 0 plays at the host
    rng = random.Random(2)
    try:
        seq = 0
        said: list[str] = []
        for turn in range(12):
            if 0 not in s.to_act():  # the joining seat's move, laid here and echoed by the host
                action = rng.choice(s.game.legal_actions(s.state, 1))
                assert s.apply(1, action)
                seq += 1
                link.inbox.append(msg("move", seq, n=len(remote.log), seat=1, action=dict(action), views={}))
                sim.runtime.tick()
                assert s.moves == remote.log
                continue
            action = long_move(s, 0, rng)
            if action is None:  # a move its words are found for in one pass: said at once
                action = rng.choice(s.game.legal_actions(s.state, 0))
                seq += 1
                link.inbox.append(msg("move", seq, n=len(remote.log), seat=0, action=dict(action), views={}))
                sim.runtime.tick()
                assert not s.computers.words.pending
                continue
            words = at_once(s.game, s.state, 0, action, s.humans()).fr
            seq += 1
            link.inbox.append(msg("move", seq, n=len(remote.log), seat=0, action=dict(action),
                                  views=view_digests(s.game, s.game.apply(s.state, 0, action).state, [1])))
            sim.runtime.tick()  # the move is applied at once; its words take a few passes
            assert s.moves[-1] == (0, action) and s.computers.words.pending
            assert words not in messages(s, 1)
            after = f"après le coup {turn}"
            s.notify(frozenset({1}), tr(after, after))  # waits behind the move's words
            assert after not in messages(s, 1)
            assert settle_words(s) >= 1
            got = messages(s, 1)
            assert words in got and after in got and got.index(words) < got.index(after), got
            said.append(words)
        assert len(said) >= 3 and all("J1 :" in w for w in said)  # nothing hidden: the words tell the move
        assert remote.mismatches == 0
    finally:
        sim.close()


def test_a_host_move_taken_back_before_its_words_are_checked_is_never_said():
    sim, s, link, remote = table("join", (None, 3))
    rng = random.Random(5)
    try:
        action = long_move(s, 0, rng)
        assert action is not None
        words = at_once(s.game, s.state, 0, action, s.humans()).fr
        link.inbox.append(msg("move", 1, n=0, seat=0, action=dict(action), views={}))
        sim.runtime.tick()
        assert s.computers.words.pending
        s.notify(frozenset({1}), tr("après", "after"))
        # the host tells its first move again otherwise (as at a reveal): the one laid here goes back
        other = next(a for a in s.game.legal_actions(s.game.initial_state(s.config), 0)
                     if a != action and at_once(s.game, s.game.initial_state(s.config), 0, a, s.humans()).fr != words)
        link.inbox.append(msg("rewrite", 2, **{"from": 0, "moves": [[0, dict(other)]], "views": {}}))
        sim.runtime.tick()
        assert s.moves == [(0, other)] and not s.computers.words.pending
        assert "après" in messages(s, 1)  # the messages behind it are said at once
        settle_words(s)
        assert words not in messages(s, 1)
    finally:
        sim.close()


def test_the_joining_tables_moves_are_said_in_slices_at_the_host():
    sim, s, link, remote = table("host", (3, None))  # game seat 1 plays at the joining table
    rng = random.Random(3)
    try:
        assert s.to_act() == {0}
        assert s.apply(0, rng.choice(s.game.legal_actions(s.state, 0)))  # the host's own first move
        action = long_move(s, 1, rng)
        assert action is not None
        words = at_once(s.game, s.state, 1, action, s.humans()).fr
        link.inbox.append(msg("move", 1, n=len(s.moves), seat=1, action=dict(action)))
        sim.runtime.tick()
        assert s.moves[-1] == (1, action) and s.computers.words.pending
        s.notify(frozenset({0}), tr("après", "after"))
        assert words not in messages(s, 0) and "après" not in messages(s, 0)
        assert settle_words(s) >= 1
        got = messages(s, 0)
        assert got.index(words) < got.index("après"), got
        assert [k for k, _ in link.sent].count("refused") == 0
    finally:
        sim.close()
