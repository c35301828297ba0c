"""A message too large for one MQTT message crosses in parts: each part a sealed, signed message
of its own, well under the 64 KB a message may weigh; put together in any order, a copy dropped,
a missing part waited for, a part of another message or a forged one never mixed in; the whole
checked as any message is. Through a real broker: a link cut or a restart of the receiving table
in the middle of the parts loses nothing and hangs nothing."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.remote import code as codes
from firmware_host.remote import parts, wire
from firmware_host.remote.link import RemoteLink
from firmware_host.venue.inbound import MAX_PAYLOAD, BadMessage
from firmware_host.venue.public import dumps
from tests.kits.remotekit import broker_settings

KEY = codes.derive("ABCDEFGH")
TOPIC = wire.topic(KEY.room, "host")
STAMP = {"ack": 0, "run": 7, "seen": 0, "base": 0}


def whole_game(moves: int) -> dict:
    """A game message whose moves weigh as a long game's do."""
    move = [0, {"type": "place", "piece": "droles-de-zebres/green/lion/1", "square": "C3"}]
    return {"game": "droles-de-zebres", "players": 2, "options": {}, "seed": 1, "remote": [1],
            "moves": [move] * moves, "views": {"1": "ab" * 32}}


def part_messages(kind: str, fields: dict, first: int = 1, run: int = 7) -> list[dict]:
    """The parts a link sends for a message (its fields as sent: link.send's own)."""
    link = RemoteLink(SimpleNamespace(host="x", port=1), "ABCDEFGH", "host")  # never started
    link.next_seq, link.run = first, run
    link.send(kind, fields)
    return [link.fields[seq] for seq in sorted(link.fields)]


def sealed(fields: dict, key: bytes = KEY.key) -> bytes:
    return wire.encode(key, TOPIC, {**STAMP, **fields})


def as_parts(messages: list[dict]) -> list[parts.Part]:
    return [parts.part(wire.parse(TOPIC, sealed(m), KEY.key).data, 7) for m in messages]


def test_a_long_game_crosses_in_parts_each_well_under_a_message_s_limit():
    fields = whole_game(3000)  # over three times a message's limit
    size = len(dumps({"v": wire.VERSION, "kind": "game", **fields}))
    assert size > 3 * MAX_PAYLOAD
    messages = part_messages("game", fields)
    n = -(-size // parts.PART_BYTES)
    assert len(messages) == n and [m["seq"] for m in messages] == list(range(1, n + 1))
    payloads = [sealed(m) for m in messages]
    assert max(map(len, payloads)) < 0.7 * MAX_PAYLOAD  # about 43 KB
    assembly = parts.Assembly()
    out = [assembly.add(parts.part(wire.parse(TOPIC, p, KEY.key).data, 7), TOPIC) for p in payloads]
    assert out[:-1] == [None] * (n - 1) and out[-1] is not None
    last = wire.parse(TOPIC, payloads[-1], KEY.key)
    taken = wire.whole(TOPIC, out[-1], last)
    assert (taken.kind, taken.seq, taken.run) == ("game", n, 7)
    assert {k: v for k, v in taken.data.items() if k not in wire.STAMPS | {"v", "kind"}} == fields
    small = part_messages("move", {"n": 1, "seat": 0, "action": {"type": "x"}})
    assert [m["kind"] for m in small] == ["move"]  # a message that fits crosses whole, as ever


REWRITE = as_parts(part_messages("rewrite", {"from": 0, "moves": whole_game(900)["moves"], "views": {}}))
GAME_PARTS = as_parts(part_messages("game", whole_game(900)))
LATER_PARTS = as_parts(part_messages("game", whole_game(901), first=len(GAME_PARTS) + 1))


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 6))
def test_parts_in_any_order_with_copies_make_the_message_once(rng: random.Random, copies: int):
    got = REWRITE
    order = got + [rng.choice(got) for _ in range(copies)]
    rng.shuffle(order)
    assembly = parts.Assembly()
    results = [assembly.add(p, TOPIC) for p in order]
    done = [r for r in results if r is not None]
    last_new = max(order.index(p) for p in got)
    assert len(done) == 1 and results[last_new] == done[0]
    assert json.loads(done[0])["kind"] == "rewrite" and assembly.dropped == 0


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_missing_part_is_waited_for_and_a_later_message_replaces_it(rng: random.Random):
    first = GAME_PARTS
    missing = rng.randrange(len(first))
    assembly = parts.Assembly()
    kept = [p for i, p in enumerate(first) if i != missing]
    rng.shuffle(kept)
    assert all(assembly.add(p, TOPIC) is None for p in kept)
    second = LATER_PARTS
    assert [assembly.add(p, TOPIC) for p in second][-1] is not None
    assert assembly.dropped == 1  # the first was set aside, never mixed into the second


def test_parts_of_another_message_or_run_are_never_mixed_in():
    a = GAME_PARTS
    b = as_parts(part_messages("game", whole_game(901)))  # the same seqs, another message
    assembly = parts.Assembly()
    assert assembly.add(a[0], TOPIC) is None
    for p in b[1:]:
        assert assembly.add(p, TOPIC) is None
    with pytest.raises(BadMessage, match="came twice, different"):
        assembly.add(parts.Part(**{**b[1].__dict__, "chunk": "eHh4"}), TOPIC)
    assembly = parts.Assembly()
    for p in a[:-1]:
        assembly.add(p, TOPIC)
    other_run = parts.Part(**{**a[-1].__dict__, "run": 8})  # the sender restarted: the rest is another run's
    assert assembly.add(other_run, TOPIC) is None and assembly.dropped == 1


def test_a_whole_that_is_not_the_one_sent_is_refused():
    a = GAME_PARTS
    assembly = parts.Assembly()
    for p in a[:-1]:
        assembly.add(p, TOPIC)
    bent = parts.Part(**{**a[-1].__dict__, "digest": "00" * 32})
    assert assembly.add(bent, TOPIC) is None  # another message's part: the first is dropped
    assembly = parts.Assembly()
    forged = [parts.Part(**{**p.__dict__, "digest": "00" * 32}) for p in a]
    with pytest.raises(BadMessage, match="is not the one sent"):
        for p in forged:
            assembly.add(p, TOPIC)
    with pytest.raises(BadMessage, match="not base64"):
        parts.Assembly().add(parts.Part(**{**a[0].__dict__, "chunk": "@@@@"}), TOPIC)
    with pytest.raises(BadMessage, match="over its"):
        assembly = parts.Assembly()
        for p in a:
            assembly.add(parts.Part(**{**p.__dict__, "size": 100}), TOPIC)


def test_a_message_too_large_even_for_its_parts_is_not_sent_and_said(monkeypatch, caplog):
    monkeypatch.setattr(parts, "MAX_PARTS", 2)
    link = RemoteLink(SimpleNamespace(host="x", port=1), "ABCDEFGH", "host")  # never started
    assert link.send("game", whole_game(900)) == 0  # three parts' worth
    assert link.unacknowledged() == 0 and link.next_seq == 1
    assert "game message not sent: a message of" in caplog.text and "at most 2" in caplog.text
    assert link.send("left", {}) == 1  # the game's next message goes as ever


def test_a_forged_part_under_another_key_is_refused():
    message = part_messages("game", whole_game(900))[0]
    with pytest.raises(BadMessage, match="wrong signature"):
        wire.parse(TOPIC, sealed(message, key=codes.derive("ABCDEFGJ").key), KEY.key)


GOOD = part_messages("game", whole_game(900))[1]


@pytest.mark.parametrize("change, reason", [
    ({"seq": 9}, "has seq 9"), ({"i": 2, "n": 2}, "i = 2"), ({"n": parts.MAX_PARTS + 1}, "n = "),
    ({"n": 1, "i": 0, "seq": 1}, "n = 1"), ({"whole": "part"}, "a part of a 'part'"), ({"whole": "ping"}, "ping"),
    ({"size": parts.MAX_WHOLE + 1}, "size = "), ({"size": True}, "size = True"), ({"digest": "AB" * 32}, "digest"),
    ({"chunk": "A" * (parts.MAX_CHUNK + 4)}, "chunk"), ({"chunk": 5}, "chunk"), ({"of": 0}, "of = 0"),
])
def test_a_part_out_of_bounds_is_refused_naming_the_field(change: dict, reason: str):
    with pytest.raises(BadMessage, match=reason.replace("(", r"\(").replace("[", r"\[")):
        wire.parse(TOPIC, sealed({**GOOD, **change}), KEY.key)


def test_a_message_put_together_is_checked_as_any_message():
    last = wire.parse(TOPIC, sealed(GOOD), KEY.key)
    for body, reason in [(dumps({"v": wire.VERSION, "kind": "part"}), "a message in parts is a 'part'"),
                         (dumps({"v": wire.VERSION, "kind": "game", "seq": 1}), r"with \['seq'\]"),
                         (dumps({"v": 2, "kind": "left"}), "version 2, this table reads 3"),
                         (dumps({"v": wire.VERSION, "kind": "game", "players": 2}), "game None"),
                         (b"[" * 40 + b"]" * 40, "nested"), (b"x" * (parts.MAX_WHOLE + 1), "at most")]:
        with pytest.raises(BadMessage, match=reason):
            wire.whole(TOPIC, body, last)


def test_a_table_of_the_earlier_version_is_refused_naming_it():
    body = dumps({"v": 2, "kind": "part", "seq": 2, **STAMP})
    from firmware_host.remote import seal
    from firmware_host.venue import signing
    payload = signing.sign(KEY.key, TOPIC, dumps({"v": 2, "box": seal.seal(KEY.key, body)}))
    with pytest.raises(BadMessage, match="version 2, this table reads 3"):
        wire.parse(TOPIC, payload, KEY.key)


# -- through a real broker ------------------------------------------------------------------------
def links(broker, monkeypatch) -> tuple[RemoteLink, RemoteLink]:
    monkeypatch.setattr("firmware_host.remote.link.RESEND", 0.3)
    host = RemoteLink(broker_settings(broker), "ABCDEFGH", "host")
    join = RemoteLink(broker_settings(broker), "ABCDEFGH", "join")
    host.start()
    join.start()
    return host, join


def wait(cond, timeout: float = 10.0) -> bool:
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return False


def dark_after(link: RemoteLink, count: int, then) -> None:
    """The link takes `count` parts, then hears nothing more and `then` is called (in a thread of its own)."""
    import threading

    def heard(client, userdata, msg):
        if link.stats.parts < count:
            link._on_message(client, userdata, msg)
            if link.stats.parts == count:
                threading.Thread(target=then).start()

    assert link.ready.wait(5)
    link.client.on_message = heard


def test_a_link_cut_in_the_middle_of_the_parts_loses_nothing(broker, monkeypatch):
    host, join = links(broker, monkeypatch)
    try:
        assert wait(lambda: host.present and join.present)
        dark_after(join, 2, join.cut)  # the Wi-Fi goes between two parts
        fields = whole_game(1500)
        host.send("game", fields)
        assert wait(lambda: not join.connected) and join.stats.parts == 2
        join.client.on_message = join._on_message
        join.restore()
        assert wait(lambda: join.stats.wholes == 1 and host.unacknowledged() == 0), join.stats
        got = join.take()
        assert [m.kind for m in got] == ["game"] and got[0].data["moves"] == fields["moves"]
        assert join.stats.bad == 0 and join.assembly.dropped == 0
    finally:
        host.close()
        join.close()


def test_a_table_restarting_in_the_middle_of_the_parts_takes_the_next_message_whole(broker, monkeypatch):
    host, join = links(broker, monkeypatch)
    second = None
    try:
        assert wait(lambda: host.present and join.present)
        dark_after(join, 2, join.close)  # the power goes between two parts
        host.send("game", whole_game(1500))
        assert wait(lambda: not join.thread.is_alive()) and join.stats.wholes == 0
        second = RemoteLink(broker_settings(broker), "ABCDEFGH", "join")  # the table restarted
        second.start()
        assert wait(lambda: host.peer_restarts == 1 and second.stats.parts >= 1)
        fields = whole_game(1600)
        host.send("game", fields)  # the host sends its whole game again when it sees the new run
        assert wait(lambda: second.stats.wholes == 1 and host.unacknowledged() == 0), second.stats
        got = second.take()
        assert [m.kind for m in got] == ["game"] and got[0].data["moves"] == fields["moves"]
        assert second.assembly.dropped == 1 and second.stats.bad == 0  # the first one's rest, set aside
    finally:
        host.close()
        join.close()
        if second is not None:
            second.close()


# -- two tables, one game -------------------------------------------------------------------------
def test_tables_that_restart_take_the_game_up_from_the_hosts_parts(broker, tmp_path, monkeypatch):
    from tests.kits.remotekit import TwoTables
    from tests.service.remote.test_remote_restart import play_until

    # a real game's whole weighs up to about 20 KB (bench/bench_remote_whole.py): a limit of 200
    # bytes per part makes this short game's whole cross in several parts, as a long one would
    monkeypatch.setattr(parts, "PART_BYTES", 200)
    paths = (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    t = TwoTables(broker, "droles-de-zebres", {"first_player": "seat0"}, seed=26, journals=paths)
    try:
        t.join(t.code)
        assert t.joined is not None and t.joined.link.stats.wholes == 1  # the game at its start, in parts too
        play_until(t, 6)
        t.power_cut("b")
        t.restart("b")
        # in step with its journal alone until the host's whole game comes: waited for too
        assert t.wait(lambda: t.hosted.link.peer_restarts == 1 and t.joined is not None
                      and t.joined.link.stats.wholes >= 1 and t.in_step()), t.describe()
        assert t.joined.link.stats.parts >= 3, t.joined.link.stats
        assert t.join_session.moves == t.host_session.moves
        play_until(t, 10)
        t.power_cut("a")
        t.restart("a")
        # the restarted host's whole game
        assert t.wait(lambda: t.joined.seats.link.peer_restarts == 1 and t.joined.link.stats.wholes >= 2
                      and t.in_step()), (t.describe(), t.joined.link.stats)
        play_until(t, 14)
        assert t.join_session.moves == t.host_session.moves and t.join_session.state == t.host_session.state
        assert t.joined.link.stats.bad == t.hosted.link.stats.bad == 0
        assert t.hosted.seats.mismatches == t.joined.seats.mismatches == 0
    finally:
        t.close()


def test_a_game_of_zop_takes_its_rewrites_and_whole_game_in_parts(broker, tmp_path, monkeypatch):
    from tests.kits.remotekit import TwoTables
    from tests.service.remote.test_remote_zop import joined_to_a_host_card_face_down

    monkeypatch.setattr(parts, "PART_BYTES", 200)  # ZOP's reveals (rewrites) and its whole game in parts
    sent: list[tuple[str, int]] = []
    send = RemoteLink.send

    def recorded(link: RemoteLink, kind: str, fields: dict) -> int:
        sent.append((kind, len(dumps({"v": wire.VERSION, "kind": kind, **fields}))))
        return send(link, kind, fields)

    monkeypatch.setattr(RemoteLink, "send", recorded)
    t = TwoTables(broker, "zop", {}, seed=5, journals=(tmp_path / "a.sqlite", tmp_path / "b.sqlite"))
    t.fair = True
    try:
        joined_to_a_host_card_face_down(t)
        cut = len(sent)
        t.power_cut("b")
        t.restart("b")
        # the restarted table is in step with its journal alone until the host's whole game comes
        assert t.wait(lambda: t.hosted.link.peer_restarts == 1 and t.joined is not None
                      and t.joined.link.stats.wholes >= 1 and t.in_step()), t.describe()
        assert t.joined is not None
        restarted, wholes = len(sent), t.joined.link.stats.wholes
        turns = len(t.host_session.state.turns)
        for _ in range(400):  # a few turns, a reveal told again in parts among them
            assert t.wait(t.in_step), t.describe()
            if len(t.host_session.state.turns) >= turns + 3 and ("rewrite", True) in [
                    (kind, size > parts.PART_BYTES) for kind, size in sent[restarted:]]:
                break
            assert t.act(), t.describe()
        assert ("game", True) in [(kind, size > parts.PART_BYTES) for kind, size in sent[cut:restarted]], sent
        assert ("rewrite", True) in [(kind, size > parts.PART_BYTES) for kind, size in sent[restarted:]], sent
        assert t.joined.link.stats.wholes > wholes  # the rewrite put together at the joining table
        # the joining seat's own side the same at both tables, once the host's loop took its last move
        assert t.wait(lambda: t.in_step() and t.host_session.state.sides[1] == t.join_session.state.sides[1])
        assert t.joined.seats.mismatches == 0
        assert t.hosted.link.stats.bad == t.joined.link.stats.bad == 0
    finally:
        t.close()
