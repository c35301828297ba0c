"""Whole games of Spywhere between two simulated tables through a real mosquitto, the broker stopped
in the middle: the host deals and draws for both tables (the joining table's players lay the cards
its screens name on their own pads and in the centre); the joining table never holds a host seat's
passport, hand card or identification before the end shows it (its engine holds stand-ins); nothing
is lost, and both tables end on the same game."""

from __future__ import annotations

import pytest

from firmware_host.apps.app import StartRequest
from firmware_host.remote import crossing, wire
from firmware_host.remote.seats import RemoteSeats
from games.core import CHANCE, GameConfig
from games.playout import random_playout
from games.registry import get_game
from tests.kits.remotekit import TwoTables, assert_sealed, messages_by_kind, seat_names
from tests.service.apps.solo_table import follow_instruction, open_table, session
from tests.service.remote.test_remote_faults import Sniffer
from tests.service.remote.test_remote_seats import FakeLink, msg


def secrets(state, joining=(1,)):
    """The host seats' passports, hands and identifications."""
    return [(state.passports[s], state.hands[s], state.guesses[s]) for s in range(state.players) if s not in joining]


@pytest.mark.parametrize(("seed", "seats", "there"), [
    (3, (1, None, 5), (3,)),  # 3 players, two at the host
    (8, (1, None), (3,)),  # 2 players
    (6, (1, None, 5, None, None), (3, 4, 5)),  # 5 players, two at the host, three at the joining table
])
def test_whole_games_of_spywhere_between_two_tables_with_the_broker_stopped(broker, seed, seats, there):
    joining, here, away = seat_names(seats)
    t = TwoTables(broker, "spywhere", {}, seed=seed, seats=seats)
    t.fair = True
    sniffer = Sniffer(broker.port)  # a third party on the broker
    try:
        t.join(t.code, there)
        assert t.wait(t.in_step)
        a, b = t.host_session, t.join_session
        assert b.config.seed == 0 and b.config.option("retriple") == "off"  # the host's seed never crosses
        cut_done, acts, stand_ins, laid_there = False, 0, 0, 0
        kinds = messages_by_kind(t)  # the host's messages, by kind
        while not (a.over and b.over):
            assert t.wait(t.in_step), t.describe()
            a, b = t.host_session, t.join_session
            if a.over:
                break
            # the joining table's engine holds what the host's seats hold only where the rules showed it
            stand_ins += secrets(a.state, joining) != secrets(b.state, joining)
            assert all(a.state.hands[j] == b.state.hands[j] for j in joining) and a.state.centre == b.state.centre
            if not cut_done and a.state.turn >= 2:
                t.cut_broker(broker, away, here)
                cut_done = True
                continue
            followed = t.followed["join"]
            assert t.act(), t.describe()
            laid_there += t.followed["join"] - followed
            acts += 1
            assert acts < 4000
        t.assert_same_end()
        # the joining table's players laid what the host dealt them and the centre; it held stand-ins
        assert cut_done and stand_ins > 10 and laid_there >= 5, (cut_done, stand_ins, laid_there)
        assert kinds.count("rewrite") >= 2, kinds  # stand-ins told again (a card shown, the end)
        # the third party read no card: every message sealed
        with sniffer.lock:
            seen = list(sniffer.seen)
        assert_sealed(seen, t.code, (b"spywhere/",), b"spywhere/nationality/", "host", 51)
    finally:
        sniffer.close()
        t.close()


def shuffled_back(session) -> int:
    """How many times a triple went back into the pile along a table's moves."""
    game, moves = session.game, session.moves
    state, count = game.initial_state(session.config), 0
    for seat, action in moves:
        step = game.apply(state, seat, action)
        count += sum(e.kind == "return_to_pile" for e in step.effects)
        state = step.state
    return count


def test_a_whole_game_of_spywhere_with_the_re_triple_rule_between_two_tables(broker):
    """With the re-triple rule chosen, triples made by a refill go back into the pile at both tables
    (the joining table's engine lays them again from stand-ins kept to give the same re-triples), and
    both end on the same game."""
    t = TwoTables(broker, "spywhere", {"retriple": "on"}, seed=6, seats=(1, None))  # two triples shuffled back
    t.fair = True
    try:
        t.join(t.code)
        assert t.join_session.config.option("retriple") == "on"
        kinds = messages_by_kind(t)
        t.play_to_end()
        t.assert_same_end()
        a, b = t.host_session, t.join_session
        assert shuffled_back(a) >= 2 and shuffled_back(b) == shuffled_back(a), (shuffled_back(a), shuffled_back(b))
        assert kinds.count("rewrite") >= 1, kinds
    finally:
        t.close()


@pytest.mark.parametrize("which", ["b", "a"])
def test_a_table_cut_off_in_a_game_of_spywhere_takes_it_up_from_its_journal(broker, tmp_path, which):
    """Each table in turn goes dark while the joining table holds stand-ins for the host seats' cards,
    starts again from its journal, and both play on to the same end."""
    t = TwoTables(broker, "spywhere", {}, seed=5, journals=(tmp_path / "a.sqlite", tmp_path / "b.sqlite"),
                  seats=(1, None, 5))
    t.fair = True
    try:
        t.join(t.code)
        while t.host_session.state.turn < 2:
            assert t.wait(t.in_step), t.describe()
            assert t.act(), t.describe()
        assert t.wait(t.in_step), t.describe()
        assert secrets(t.host_session.state) != secrets(t.join_session.state)  # stand-ins there
        t.power_cut(which)
        t.restart(which)
        assert "à distance" in t.resume_entry
        t.play_to_end()
        t.assert_same_end(whole=False)
    finally:
        t.close()


def test_the_joining_table_never_draws_a_card_its_player_lays_before_the_host_deals_it():
    """On a table that senses its draws, a card laid on a joining seat's pad before the host's draw
    came is not read as that draw: the host draws for both tables; its draw, once it comes, is laid."""
    game = get_game("spywhere")
    play = random_playout(game, GameConfig(2, {"retriple": "off"}, 4), 4)
    told = crossing.shadow(game, play.config, {0}, [])  # game seat 0 at the host, seat 1 here
    state = game.initial_state(play.config)
    for seat, action in play.moves:
        if CHANCE in game.to_act(state) and state.step == "draw" and state.active == 1:
            break
        after = game.apply(state, seat, action).state
        told.step(state, seat, action, after)
        state = after
    draw = dict(play.moves[len(told.log)][1])
    sim = open_table(seed=4)
    try:
        sim.runtime.start(StartRequest("spywhere", (None, 3), {"retriple": "off"}, seed=0))
        s = session(sim)
        link = FakeLink("join")
        remote = RemoteSeats(s, link, frozenset({0}))  # type: ignore[arg-type]
        s.auto_chance = False  # a real table: a card laid on a pad could be read as a draw
        remote.log = list(told.log)
        remote.follow()
        sim.runtime.refresh()  # the screens and LEDs say what to lay
        while follow_instruction(sim):
            pass
        assert s.moves == told.log and s.synced and s.to_act() == frozenset({CHANCE})
        sim.place("seat3.pad", draw["card"])
        sim.settle()
        assert s.moves == told.log  # not a draw of this table's
        link.inbox.append(msg("move", 1, n=len(told.log), seat=CHANCE, action=draw, views={}))
        sim.runtime.tick()
        assert s.moves == [*told.log, (CHANCE, draw)]
        while follow_instruction(sim):  # the card scanned goes to the player's hand
            pass
        assert s.synced and s.moves == [*told.log, (CHANCE, draw)]
    finally:
        sim.close()


def test_a_message_does_not_grow_with_the_players_at_the_joining_table():
    """Each message carries a digest of each joining seat's view, never the view (a view weighs
    kilobytes): with five players at the joining table a message's views stay a few hundred bytes."""
    import json

    from firmware_host.remote.shadow import views
    from tests.kits.spyplay import quiet_playout

    game = get_game("spywhere")
    config = game.validate_config(GameConfig(6, dict(crossing.REMOTE_OPTIONS["spywhere"]), 1))
    seats = frozenset({1, 2, 3, 4, 5})
    told, state, heaviest, kinds = crossing.shadow(game, config, seats, []), game.initial_state(config), 0, set()
    for seat, action in quiet_playout(game, config, 1)[:80]:
        after = game.apply(state, seat, action).state
        kind, fields = told.step(state, seat, action, after)
        kinds.add(kind)
        assert sorted(fields["views"]) == ["1", "2", "3", "4", "5"]
        assert len(json.dumps(fields["views"])) <= 5 * 75, kind
        heaviest = max(heaviest, len(json.dumps(views(game, after, seats))))
        state = after
    assert kinds == {"move", "rewrite"} and heaviest > 5 * 1000  # the views themselves would weigh


def test_moves_told_again_give_the_joining_players_no_message_twice(monkeypatch):
    """A rewrite lays again moves the joining players were shown (stand-ins replaced): their
    messages ("J2 pose Belgique, prend Angleterre.") are not given again; only the rewrite's new
    moves speak. The host's messages of a seeded 4-player game followed on a simulated table, its
    idle time given between messages (the words of each move said)."""
    from firmware_host.apps.seat_ui import SeatUI
    from games.core import replay
    from tests.kits.spyplay import quiet_playout

    game = get_game("spywhere")
    config = game.validate_config(GameConfig(4, dict(crossing.REMOTE_OPTIONS["spywhere"]), 1))
    here = frozenset({1, 3})
    told, state, messages = crossing.shadow(game, config, here, []), game.initial_state(config), []
    for seat, action in quiet_playout(game, config, 1)[:130]:
        after = game.apply(state, seat, action).state
        messages.append(told.step(state, seat, action, after))
        state = after
    said: list[str] = []
    notify = SeatUI.notify
    monkeypatch.setattr(SeatUI, "notify", lambda ui, text, *a, **k: (said.append(text.fr), notify(ui, text, *a, **k)))
    sim = open_table(seed=1)
    try:
        sim.runtime.auto_chance = False
        sim.runtime.start(StartRequest("spywhere", (None, 3, None, 4), dict(config.options), seed=0))
        s = session(sim)
        remote = RemoteSeats(s, FakeLink("join"), frozenset({0, 2}))  # type: ignore[arg-type]
        rewrites = relaid = 0
        for n, (kind, fields) in enumerate(messages):
            while s.computers.work():  # the loop's idle time: each move's words said
                pass
            said.clear()
            remote.take(wire.Message(kind, n + 1, 0, {"kind": kind, **fields}))
            if kind == "rewrite":
                fresh = fields["fresh"]
                rewrites += 1
                relaid += fresh - fields["from"]
                new, at = set(), replay(game, s.config, s.moves[:fresh])
                for seat, action in s.moves[fresh:]:  # the texts of the rewrite's new moves
                    step = game.apply(at, seat, action)
                    new |= {e.text.fr for e in step.effects}
                    at = step.state
                assert set(said) <= new, (n, set(said) - new)
            sim.runtime.refresh()
            while follow_instruction(sim):
                pass
        assert s.moves == remote.log and rewrites >= 5 and relaid >= 100, (rewrites, relaid)
    finally:
        sim.close()
