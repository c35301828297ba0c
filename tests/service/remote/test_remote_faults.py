"""Faults of a remote game on a real broker: a race both tables play at once (the host's move
stands, the joining table takes its own back and lays the host's), a message replayed or forged
by a third party on the broker (dropped, never followed)."""

from __future__ import annotations

import threading

import paho.mqtt.client as mqtt

from firmware_host.apps.menu import MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.remote import code as codes
from firmware_host.remote import wire
from tests.kits.remotekit import TwoTables, screen_words
from tests.service.apps.solo_table import human_move, press_choice, session


class Sniffer:
    """A third party on the broker: sees every remote topic, publishes what it likes."""

    def __init__(self, port: int):
        self.seen: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="sniffer", protocol=mqtt.MQTTv311)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("zebra-table/remote/#", qos=1)
        self.client.on_subscribe = lambda *a: self.ready.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.ready.wait(5)

    def _message(self, client, userdata, msg):
        with self.lock:
            self.seen.append((msg.topic, bytes(msg.payload)))

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def play_until(t: TwoTables, moves: int) -> None:
    while len(t.host_session.moves) < moves:
        assert t.wait(t.in_step), t.describe()
        assert t.act(), t.describe()
    assert t.wait(t.in_step), t.describe()


def test_a_race_for_who_starts_is_the_hosts(broker):
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "either"}, seed=5)
    try:
        t.join(t.code)
        assert t.wait(t.in_step)
        assert t.host_session.humans_to_act() == {0} and t.join_session.humans_to_act() == {1}
        # both place the guardian before either table hears of the other's (the broker holds both)
        broker.pause()
        try:
            assert human_move(t.a, t.rng) and human_move(t.b, t.rng)
        finally:
            broker.resume()
        assert len(t.host_session.moves) == len(t.join_session.moves) == 1
        hosts = t.host_session.moves[0]
        assert hosts[0] == 0 and t.join_session.moves[0][0] == 1
        assert t.wait(lambda: t.joined.seats.refused == 1 and t.in_step()), t.describe()
        assert t.join_session.moves[0] == hosts  # the host's move stands at both tables
        # the joining table journaled its move and the take-back, like an undo
        assert any(a.get("type") == "_undo" for _, a in t.join_session.history)
        # its players are told why and shown how to put the table right, then the game goes on
        play_until(t, 8)
        assert t.host_session.moves == t.join_session.moves
    finally:
        t.close()


def test_a_replayed_or_forged_message_is_never_followed(broker):
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "random"}, seed=7)
    sniffer = Sniffer(broker.port)
    try:
        t.join(t.code)
        play_until(t, 6)
        opened = codes.derive(t.code)
        room = opened.room
        join_topic = wire.topic(room, "join")
        with sniffer.lock:
            moves = [p for topic, p in sniffer.seen
                     if topic == join_topic and wire.parse(topic, p, opened.key).kind == "move"]
        assert moves, "the joining table sent no move"
        assert not any(b"move" in p for _, p in sniffer.seen)  # sealed: only the key opens them
        link = t.hosted.link
        before = list(t.host_session.moves)
        duplicates, bad = link.stats.duplicates, link.stats.bad
        sniffer.publish(join_topic, moves[0])  # replayed as it was
        assert t.wait(lambda: link.stats.duplicates > duplicates)
        at = moves[0].index(b'"box":"') + 40
        forged = moves[0][:at] + (b"A" if moves[0][at:at + 1] != b"A" else b"B") + moves[0][at + 1:]
        assert forged != moves[0]
        sniffer.publish(join_topic, forged)  # changed, its signature kept
        guessed = codes.derive("ZZZZZZZZ").key  # signed with another code's key
        sniffer.publish(join_topic, wire.encode(guessed, join_topic, {
            "kind": "move", "seq": 999, "ack": 0, "n": len(before), "seat": 1, "action": {"type": "stop"}}))
        assert t.wait(lambda: link.stats.bad >= bad + 2), (link.stats, bad)
        t.wait(lambda: False, 0.5)
        assert t.host_session.moves == before
        play_until(t, 10)  # the game goes on
    finally:
        sniffer.close()
        t.close()


def ask_to_quit(sim, table_seat: int) -> None:
    """The player at `table_seat` asks to quit: long press on OK, then "Quitter la partie"."""
    s = session(sim)
    sim.long_press(table_seat, "ok")
    gseat = s.game_seat(table_seat)
    assert s.ui[gseat].quit_prompt
    press_choice(sim, table_seat, [c.label.fr for c in s.menu(gseat)].index("Quitter la partie"))


def test_leaving_asks_the_other_table_and_ends_both_once_it_agrees(broker):
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "random"}, seed=9)
    try:
        t.join(t.code)
        play_until(t, 3)
        host, left = t.host_session, t.join_session
        ask_to_quit(t.b, 3)
        assert left.menus.leaving is not None and left is session(t.b)  # asked, not gone: it waits
        assert t.wait(lambda: "J2 veut quitter" in screen_words(t.a, 1)), screen_words(t.a, 1)
        assert [c.label.fr for c in host.menu(0)] == ["Non", "Oui, quitter"]
        press_choice(t.a, 1, 1)  # "Oui, quitter"
        assert isinstance(t.a.runtime.app, MenuApp)
        assert t.wait(lambda: isinstance(t.b.runtime.app, MenuApp)), screen_words(t.b, 3)  # both ended
        assert t.wait(lambda: not t.joined.link.thread.is_alive() and not t.hosted.link.thread.is_alive())
    finally:
        t.close()


def test_a_no_at_the_other_table_keeps_the_game(broker):
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "random"}, seed=9)
    try:
        t.join(t.code)
        play_until(t, 3)
        ask_to_quit(t.b, 3)
        assert t.wait(lambda: "J2 veut quitter" in screen_words(t.a, 1))
        press_choice(t.a, 1, 0)  # "Non"
        joining = t.join_session
        assert t.wait(lambda: joining.menus.leaving is None and any(
            "J1 veut continuer la partie." in n.text.fr for n in joining.ui[1].notices)), joining.ui[1].notices
        assert t.host_session.menus.leaving is None
        play_until(t, 8)  # the game goes on at both tables
        # withdrawn by the player who asked: the other table is asked no more
        ask_to_quit(t.b, 3)
        assert t.wait(lambda: t.host_session.menus.leaving is not None)
        press_choice(t.b, 3, 0)  # "Retirer la demande"
        assert t.wait(lambda: t.host_session.menus.leaving is None)
        assert isinstance(t.a.runtime.app, GameSession) and isinstance(t.b.runtime.app, GameSession)
    finally:
        t.close()


def test_a_table_whose_other_is_away_leaves_at_once_and_tells_it(broker):
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "random"}, seed=9)
    try:
        t.join(t.code)
        play_until(t, 3)
        t.hosted.link.cut()
        assert t.wait(lambda: not t.joined.link.present)
        ask_to_quit(t.b, 3)
        assert isinstance(t.b.runtime.app, MenuApp)  # nobody to ask: it left at once
        t.hosted.link.restore()
        assert t.wait(lambda: t.host_session.remote.left), t.describe()
        assert t.wait(lambda: any("L'autre table a quitté la partie" in n.text.fr
                                  for n in t.host_session.ui[0].notices) or
                      "quitté" in str(t.a.frames()[1].banner))
    finally:
        t.close()


def test_a_hand_at_the_host_never_makes_the_other_tables_move(broker):
    from firmware_host.apps import reconcile

    t = TwoTables(broker, "droles-de-zebres", {"first_player": "random"}, seed=11)
    try:
        t.join(t.code)
        for _ in range(400):  # until the joining table's player must lay a piece
            assert t.wait(t.in_step), t.describe()
            s = t.host_session
            if 1 in s.to_act() and s.instruction is None and not t.join_session.instruction:
                zones = s.logical_zones()
                now = reconcile.restrict(s.layout(), zones)
                placing = [a for a in s.game.legal_actions(s.state, 1)
                           if reconcile.restrict(s.game.footprint(s.state, 1, a), zones) != now]
                if placing:
                    break
            assert t.act(), t.describe()
        else:
            raise AssertionError("the joining player never had a piece to lay")
        before = list(s.moves)
        foot = reconcile.restrict(s.game.footprint(s.state, 1, placing[0]), zones)
        for fix in reconcile.fixes(foot, now):  # a hand at the host lays the other player's move
            (t.a.remove if fix.kind == "remove" else t.a.place)(s.to_physical(fix.zone), fix.piece)
        t.a.settle()
        assert s.moves == before  # not taken: that move is the other table's to make
        assert s.instruction is not None  # the table says to put it back
        t.wait(lambda: False, 0.5)
        assert t.join_session.moves == before  # nothing crossed
    finally:
        t.close()
