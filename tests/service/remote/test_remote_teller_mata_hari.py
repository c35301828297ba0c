"""Operation: Mata Hari's messages are made off the table's loop: the host's loop plays on while the
worker is held in a search over the shadow's cards, the joining table's moves that arrive meanwhile
are judged as they would be once every message is made (taken when only the host's players moved
since, refused when a joining seat's move came since, kept until the moves told say which), and the
messages reach the link in the order they were made, the very messages a shadow told in step makes;
a game resumed from the journal is told again in the worker, the joining table's moves waiting for it."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from firmware_host.apps.app import StartRequest
from firmware_host.remote import crossing
from firmware_host.remote.seats import RemoteSeats
from firmware_host.remote.shadow_mata_hari import MHShadow
from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game
from tests.service.apps.solo_table import open_table, session
from tests.service.remote.test_remote_seats import FakeLink, msg

GAME = get_game("mata-hari")
SEED = 0
LAYOUT = (1, None, 5)  # game seat 1 plays at the joining table
JOINING = frozenset({1})
HANG = 60.0  # seconds before a worker that never finishes fails the test


@pytest.fixture(scope="module")
def played() -> tuple[list[Any], list[tuple[str, dict[str, Any]]], list[int], list[Any]]:
    """A seeded game, its messages as a shadow told in step makes them, the moves told after each
    move, and the moves told at the end."""
    play = random_playout(GAME, GameConfig(len(LAYOUT), {}, SEED), SEED)
    told = crossing.shadow(GAME, play.config, JOINING, [])
    state, messages, counts = GAME.initial_state(play.config), [], []
    for seat, action in play.moves:
        after = GAME.apply(state, seat, action).state
        messages.append(told.step(state, seat, action, after))
        counts.append(len(told.log))
        state = after
    return play.moves, messages, counts, told.log


class Searches:
    """MHShadow's steps counted by thread; the worker held in its first search until `release`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.loop = threading.current_thread()
        self.on_loop = 0  # messages made on the loop
        self.searches = 0  # changes of the shadow tried in the worker
        self.held = threading.Event()  # the worker holds a search
        self.release = threading.Event()
        step, replayed = MHShadow.step, MHShadow._replayed

        def counted_step(shadow: MHShadow, *args: Any) -> Any:
            if threading.current_thread() is self.loop:
                self.on_loop += 1
            return step(shadow, *args)

        def searching(shadow: MHShadow, *args: Any) -> Any:
            if threading.current_thread() is not self.loop:
                self.searches += 1
                if not self.held.is_set():
                    self.held.set()
                    self.release.wait(HANG)
            return replayed(shadow, *args)

        monkeypatch.setattr(MHShadow, "step", counted_step)
        monkeypatch.setattr(MHShadow, "_replayed", searching)


def hosting(moves: list[Any]) -> tuple[Any, Any, FakeLink]:
    """A host table playing `moves` (its session applies them) before its remote seats are attached."""
    sim = open_table(seed=SEED)
    sim.runtime.auto_chance = False  # the moves given are the game's deals and draws
    sim.runtime.start(StartRequest("mata-hari", LAYOUT, {}, seed=SEED))
    s = session(sim)
    s.run_chance = lambda: None  # type: ignore[method-assign]  # nor after a joining move: the game's own draws
    for seat, action in moves:
        assert s.apply(seat, action)
    return sim, s, FakeLink("host")


def wait(cond: Any) -> bool:
    """True once `cond()` is (False: not within HANG seconds)."""
    end = time.monotonic() + HANG
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.001)
    return True


def proposed(remote: RemoteSeats, seq: int, n: int, seat: int, action: Any) -> None:
    """The joining table's move `seq`, laid after `n` moves told, reaches the host."""
    remote.take(msg("move", seq, n=n, seat=seat, action=dict(action)))


def until_joining(s: Any, moves: list[Any], n: int) -> int:
    """The host's players' moves from `n` on, up to the joining table's next: its index."""
    while moves[n][0] not in JOINING:
        assert s.apply(*moves[n])
        n += 1
    return n


def test_the_loop_plays_on_while_a_search_is_made_and_joining_moves_are_judged_as_told(played, monkeypatch):
    moves, expected, counts, final = played
    searches = Searches(monkeypatch)
    sim, s, link = hosting([])
    try:
        remote = RemoteSeats(s, link, JOINING)  # type: ignore[arg-type]
        n = 0
        while not searches.held.is_set():  # up to the first message whose making searches
            assert s.apply(*moves[n])
            n += 1
            assert wait(lambda: searches.held.is_set() or not remote.telling)
        # the worker holds the shadow: the host's players play on, their messages wait their turn
        held, told, sent = n, list(remote.log), len(link.sent)
        assert len(told) == counts[held - 2]
        a = until_joining(s, moves, n)
        assert remote.telling and a > held
        # the joining table lays its move after the moves it was told: only the host's players moved since
        proposed(remote, 1, len(told), *moves[a])
        assert s.moves == moves[:a + 1]  # taken at once, its message waits behind the others
        c = until_joining(s, moves, a + 1)
        # its next move laid after as many moves told (a copy's count): the joining seat's own came since
        proposed(remote, 2, len(told), *moves[c])
        assert s.moves == moves[:c]
        # ... after those and its own move: the host's players' moves told before it came since; and
        # after every move told: both judged once the moves told say what came since
        proposed(remote, 3, len(told) + 1, *moves[c])
        proposed(remote, 4, counts[c - 1], *moves[c])
        assert s.moves == moves[:c] and len(link.sent) == sent and remote.log == told and remote.telling
        searches.release.set()
        assert remote.teller is not None and remote.teller.finish(HANG)
        remote.step()
        assert s.moves == moves[:c + 1]
        assert play_on(remote, s, moves, counts, c + 1) == len(moves)
        assert remote.teller.finish(HANG)
        refusals = [("refused", {"n": len(told)}), ("refused", {"n": len(told) + 1})]
        assert link.sent == [*expected[:c], *refusals, *expected[c:]]
        assert remote.log == final and not remote.telling and s.over and len(final) < len(moves)
        remote.step()
        assert link.stopped  # the game is over and every message made: the link says "offline" and stops
        assert searches.on_loop == 0 and searches.searches > 5, (searches.on_loop, searches.searches)
    finally:
        searches.release.set()
        sim.close()
    # the same moves, messages made on the loop as each move is played: the same judgements, the same messages
    monkeypatch.setattr(MHShadow, "costly", lambda *_: False)
    sim, s, again = hosting([])
    try:
        remote = RemoteSeats(s, again, JOINING)  # type: ignore[arg-type]
        for seat, action in moves[:a]:  # as the host's loop played them above
            assert s.apply(seat, action)
        assert not remote.telling
        for seq, n in enumerate((len(told), len(told), len(told) + 1, counts[c - 1]), start=1):
            if seq == 2:
                assert until_joining(s, moves, a + 1) == c
            proposed(remote, seq, n, *moves[a if seq == 1 else c])
        assert s.moves == moves[:c + 1] and searches.on_loop > 0
        assert again.sent == link.sent[:len(again.sent)] and len(again.sent) == c + 3
    finally:
        sim.close()


def play_on(remote: RemoteSeats, s: Any, moves: list[Any], counts: list[int], n: int) -> int:
    """The rest of the game from move `n`, the joining table's moves from the link after every move told."""
    for seat, action in moves[n:]:
        if seat in JOINING:
            proposed(remote, 100 + n, counts[n - 1], seat, action)
            assert remote.teller is not None and remote.teller.finish(HANG)
            remote.step()  # a move kept until the moves told say what came since
        else:
            assert s.apply(seat, action)
        assert s.moves == moves[:n + 1], (n, s.moves[n - 2:], moves[n - 2:n + 3])
        n += 1
    return n


def test_a_resumed_game_is_told_again_in_the_worker_and_joining_moves_wait_for_it(played, monkeypatch):
    moves, expected, counts, final = played
    half = next(k for k in range(len(moves) // 2, len(moves)) if moves[k][0] in JOINING)
    config = GAME.validate_config(GameConfig(len(LAYOUT), {}, SEED))
    state = GAME.initial_state(config)
    for seat, action in moves[:half]:
        state = GAME.apply(state, seat, action).state
    game = ("game", crossing.game_fields(GAME, config, crossing.shadow(GAME, config, JOINING, moves[:half]), state))
    after = GAME.apply(state, *moves[half]).state
    other = next(a for a in GAME.legal_actions(after, 1) if (1, a) != moves[half + 1])
    sim, s, link = hosting(moves[:half])  # a game resumed from the journal
    searches = Searches(monkeypatch)
    try:
        remote = RemoteSeats(s, link, JOINING, resumed=True)  # type: ignore[arg-type]
        remote.send_game()
        assert searches.held.wait(HANG) and remote.telling  # the game so far is being told again
        # the joining table's move after every move it was told before the restart, and one more laid
        # after as many (a copy's count): kept until the moves told say what came since
        told = counts[half - 1]
        proposed(remote, 1, told, *moves[half])
        proposed(remote, 2, told, 1, other)
        remote.step()
        assert s.moves == moves[:half] and link.sent == []
        searches.release.set()
        assert remote.teller is not None and remote.teller.finish(HANG)
        remote.step()
        assert s.moves == moves[:half + 1]
        assert play_on(remote, s, moves, counts, half + 1) == len(moves) and remote.teller.finish(HANG)
        assert link.sent == [game, expected[half], ("refused", {"n": told}), *expected[half + 1:]]
        assert remote.log == final and searches.on_loop == 0
    finally:
        searches.release.set()
        sim.close()
