"""The host's long Spywhere messages (a rewrite that tells dozens of moves again, the end) are made
off the table's loop: the loop replays at most one move per move it records, serves events while
the worker holds a rewrite, and the messages reach the link in the order they were made, the very
messages a shadow told in step makes."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from firmware_host.apps.app import StartRequest
from firmware_host.remote import crossing
from firmware_host.remote.seats import RemoteSeats
from firmware_host.remote.shadow_spywhere import SpyShadow
from games.core import GameConfig
from games.registry import get_game
from tests.kits.spyplay import quiet_playout
from tests.service.apps.solo_table import open_table, session
from tests.service.remote.test_remote_seats import FakeLink, msg

GAME = get_game("spywhere")
LAYOUT = (1, None, 5)  # game seat 1 plays at the joining table
JOINING = frozenset({1})
HANG = 60.0  # seconds before a worker that never finishes fails the test (it takes a fraction of one)


@pytest.fixture(scope="module")
def played() -> tuple[GameConfig, list[Any], list[tuple[str, dict[str, Any]]], list[Any]]:
    """A long seeded game (to the pile's end), its messages as a shadow told in step makes them, and
    its moves as told."""
    config = GAME.validate_config(GameConfig(3, dict(crossing.REMOTE_OPTIONS["spywhere"]), 2))
    moves = quiet_playout(GAME, config, 2)
    told = crossing.shadow(GAME, config, JOINING, [])
    state, messages = GAME.initial_state(config), []
    for seat, action in moves:
        after = GAME.apply(state, seat, action).state
        messages.append(told.step(state, seat, action, after))
        state = after
    return config, moves, messages, told.log


class Replays:
    """SpyShadow's replays counted by thread; the worker's first long one held until `release`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.loop = threading.current_thread()
        self.on_loop: list[int] = []  # moves replayed on the loop, per replay
        self.in_worker: list[int] = []
        self.held = threading.Event()  # the worker holds a long replay
        self.release = threading.Event()
        replay = SpyShadow._replay

        def counted(shadow: SpyShadow, log: Any, start: int, told: int) -> Any:
            n = len(log) - start
            if threading.current_thread() is self.loop:
                self.on_loop.append(n)
            else:
                self.in_worker.append(n)
                if n > 1 and not self.held.is_set():
                    self.held.set()
                    self.release.wait(HANG)
            return replay(shadow, log, start, told)

        monkeypatch.setattr(SpyShadow, "_replay", counted)


def hosting(moves: list[Any]) -> tuple[Any, Any, FakeLink]:
    """A host table playing `moves` (its session applies them) before its remote seats are attached."""
    sim = open_table(seed=2)
    sim.runtime.auto_chance = False  # the moves given are the game's draws
    sim.runtime.start(StartRequest("spywhere", LAYOUT, dict(crossing.REMOTE_OPTIONS["spywhere"]), seed=2))
    s = session(sim)
    for seat, action in moves:
        assert s.apply(seat, action)
    return sim, s, FakeLink("host")


def test_a_long_rewrite_is_made_off_the_loop_while_it_serves_and_every_message_keeps_its_place(
        played, monkeypatch):
    config, moves, expected, final = played
    replays = Replays(monkeypatch)
    sim, s, link = hosting([])
    try:
        remote = RemoteSeats(s, link, JOINING)  # type: ignore[arg-type]
        n = 0
        while not replays.held.is_set():  # up to the first move whose message tells earlier moves again
            before = len(replays.on_loop)
            assert s.apply(*moves[n])
            n += 1
            assert all(k <= 1 for k in replays.on_loop[before:]), replays.on_loop[before:]
        assert remote.telling and n < len(moves) - 5
        told = list(remote.log)
        sent = len(link.sent)
        # the worker holds the shadow: the loop goes on, its moves and a refusal wait their turn
        for _ in range(5):
            assert s.apply(*moves[n])
            n += 1
        remote.take(msg("move", 1, n=0, seat=1, action={"type": "none"}))  # late and illegal: refused
        refused_at = n
        assert len(link.sent) == sent and remote.log == told and remote.telling
        assert replays.on_loop.count(0) + replays.on_loop.count(1) == len(replays.on_loop)
        replays.release.set()
        for seat, action in moves[n:]:
            before = len(replays.on_loop)
            assert s.apply(seat, action)
            assert all(k <= 1 for k in replays.on_loop[before:]), replays.on_loop[before:]
        assert remote.teller is not None and remote.teller.finish(HANG)
        assert link.sent == [*expected[:refused_at], ("refused", {"n": 0}), *expected[refused_at:]]
        assert remote.log == final and not remote.telling
        # the long replays were the worker's: dozens of moves told again, none of them on the loop
        assert max(replays.in_worker) >= 40 and max(replays.on_loop) <= 1, (replays.in_worker, replays.on_loop)
        assert remote.teller.handed >= sum(kind == "rewrite" for kind, _ in expected)
    finally:
        replays.release.set()
        sim.close()


def test_a_resumed_game_is_told_again_from_the_worker_and_its_whole_game_waits_for_it(played, monkeypatch):
    config, moves, _, _ = played
    half = len(moves) // 2
    sim, s, link = hosting(moves[:half])  # a game resumed from the journal with half its moves
    replays = Replays(monkeypatch)
    replays.held.set()  # nothing held: the replay of the game so far runs through
    try:
        remote = RemoteSeats(s, link, JOINING, resumed=True)  # type: ignore[arg-type]
        remote.send_game()
        assert replays.on_loop == []  # the game so far is replayed in the worker only
        assert remote.teller is not None and remote.teller.finish(HANG)
        told = crossing.shadow(GAME, config, JOINING, moves[:half])
        assert link.sent == [("game", crossing.game_fields(GAME, config, told, s.state))]
        assert remote.log == told.log and sum(replays.in_worker) >= half
    finally:
        sim.close()


def test_the_worker_thread_is_kept_between_long_messages_and_ends_once_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_host.remote import teller as teller_module

    monkeypatch.setattr(teller_module, "IDLE_S", 0.5)
    sent: list[tuple[str, int]] = []
    threads: list[threading.Thread] = []
    t = teller_module.Teller(lambda kind, fields: sent.append((kind, fields["n"])))

    def long_job(n: int) -> None:
        t._in_order(lambda: (threads.append(threading.current_thread()), t.send_now("m", {"n": n})), True)

    long_job(1)
    assert t.finish(HANG)
    t.send("m", {"n": 2})  # nothing waits: sent at once, on the caller's thread
    long_job(3)
    assert t.finish(HANG) and not t.busy
    # one thread made both long messages (no start per message), in order with the short one
    assert sent == [("m", 1), ("m", 2), ("m", 3)] and len(set(threads)) == 1 and threads[0] is not threading.current_thread()
    threads[0].join(HANG)  # idle past IDLE_S: its thread ends, none left behind by a finished game
    assert not threads[0].is_alive() and t._worker is None
    long_job(4)  # a new long message after that starts a thread again
    assert t.finish(HANG) and sent[-1] == ("m", 4)
