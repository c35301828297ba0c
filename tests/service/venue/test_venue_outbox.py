"""The venue outbox over a real journal: messages rebuilt from games and moves, in order, checked
by the venue's own parser; the cursor moves on contiguous acknowledgements and survives a restart."""

from __future__ import annotations

import json
import logging

import pytest

from firmware_host.storage.journal import Journal
from firmware_host.venue import inbound
from firmware_host.venue.outbox import Outbox
from games.core import CHANCE, GameConfig
from games.playout import random_playout
from games.registry import get_game
from tests.kits.venuekit import journal_game


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    yield j
    j.close()


def test_events_follow_the_journal_in_order(journal):
    box = Outbox(journal.path, "t1")
    gid, p = journal_game(journal, "spywhere", 3, seed=4)
    out = box.take(10_000)
    n = len(p.moves)
    assert [m.seq for m in out] == list(range(n + 2))
    assert [m.final for m in out] == [False] * (n + 1) + [True]
    events = [inbound.parse(m.topic, m.payload) for m in out]
    assert [e.kind for e in events] == ["started"] + ["move"] * n + ["finished"]
    assert {e.game_id for e in events} == {f"{box.tag}-{gid}"} and {e.table for e in events} == {"t1"}
    start, end = events[0].data, events[-1].data
    assert (start["game"], start["players"], start["seats"]) == ("spywhere", 3, [1, 2, 3])
    for (seat, _), e in zip(p.moves, events[1:-1]):
        assert e.data["seat"] == (None if seat == CHANCE else seat)
    assert end["status"] == "finished" and end["moves"] == n and end["duration"] >= 0
    assert end["public"]["outcome"] == {"scores": list(p.outcome.scores), "winners": list(p.outcome.winners)}
    assert all("seed" not in json.loads(m.payload) for m in out)
    assert box.take(100) == []


def test_cursor_moves_on_contiguous_acks_and_survives_a_restart(journal):
    box = Outbox(journal.path, "t1")
    gid, p = journal_game(journal, "zop", 2, seed=1)
    first = box.take(10)
    assert [m.seq for m in first] == list(range(10)) and box.in_flight() == 10
    for seq in (3, 0, 2):
        box.ack(gid, seq)
    assert box.cursor[gid] == 0  # 1 not acknowledged yet: 2 and 3 wait
    box.ack(gid, 1)
    assert box.cursor[gid] == 3 and box.in_flight() == 6
    box.close()
    again = Outbox(journal.path, "t1")  # a restart: what was not acknowledged is taken again
    assert again.tag == box.tag
    rest = again.take(100_000)
    assert [m.seq for m in rest] == list(range(4, len(p.moves) + 2))
    for m in rest:
        again.ack(gid, m.seq)
    again.close()
    assert journal.db.execute("SELECT acked, closed FROM venue_outbox WHERE game_id=?", (gid,)).fetchone() \
        == (len(p.moves) + 1, 1)
    assert Outbox(journal.path, "t1").take(100) == []


def test_unhanded_messages_are_taken_again(journal):
    box = Outbox(journal.path, "t1")
    journal_game(journal, "spywhere", 3, seed=2)
    batch = box.take(5)
    box.unhand(batch[2:])
    assert [m.seq for m in box.take(3)] == [2, 3, 4]
    assert [m.payload for m in box.take(0)] == []


def test_games_over_before_the_venue_was_configured_stay_at_home(journal):
    journal_game(journal, "spywhere", 3, seed=1)
    playing, _ = journal_game(journal, "spywhere", 3, seed=2, finish=False)
    box = Outbox(journal.path, "t1")
    out = box.take(10_000)
    assert {m.game for m in out} == {playing}  # the game still playing goes, the one over does not


def test_an_abandoned_game_ends_with_abandoned_and_no_outcome(journal):
    box = Outbox(journal.path, "t1")
    g = get_game("zop")
    config = g.validate_config(GameConfig(2, {}, 3))
    p = random_playout(g, config, 3)
    gid = journal.start_game("zop", config, (2, 5))
    for i, (seat, act) in enumerate(p.moves[:4]):
        journal.append(gid, i, seat, act)
    gid2 = journal.start_game("zop", config, (1, 2))  # a new game abandons the unfinished one
    out = box.take(100)
    events = [inbound.parse(m.topic, m.payload) for m in out]
    assert [(e.kind, e.seq) for e in events] == [("started", 0), *[("move", i) for i in range(1, 5)],
                                                 ("finished", 5), ("started", 0)]
    assert events[5].data["status"] == "abandoned" and events[5].data["public"]["outcome"] is None
    assert events[5].data["seats"] == [2, 5]
    assert events[-1].game_id.endswith(f"-{gid2}")


def test_a_game_that_cannot_be_replayed_does_not_hold_back_the_next(journal, caplog):
    box = Outbox(journal.path, "t1")
    bad = journal.start_game("spywhere", get_game("spywhere").validate_config(GameConfig(3)), (1, 2, 3))
    journal.append(bad, 0, 0, {"type": "no-such-move"})
    journal.finish(bad, None, "abandoned")
    good, p = journal_game(journal, "spywhere", 3, seed=5)
    with caplog.at_level(logging.ERROR):
        out = box.take(10_000)
    assert {m.game for m in out} == {good} and len(out) == len(p.moves) + 2
    assert f"game {bad} of the journal cannot be published" in caplog.text


def test_each_journal_has_its_own_tag(tmp_path):
    a, b = Journal(tmp_path / "a.sqlite"), Journal(tmp_path / "b.sqlite")
    assert Outbox(a.path, "t1").tag != Outbox(b.path, "t1").tag


def test_the_journal_calls_its_listener_after_each_commit(journal):
    seen: list[int] = []
    journal.on_commit = lambda: seen.append(journal.db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
    gid = journal.start_game("zop", GameConfig(2), (1, 2))
    journal.append(gid, 0, CHANCE, {"type": "x"})
    journal.finish(gid, None, "abandoned")
    assert seen == [0, 1, 1]


def test_a_phone_seat_leaves_as_a_player_without_a_seat(journal):
    """Phone seats (9 on) are no seats of the table: the venue's parser takes them as seatless."""
    g = get_game("mata-hari")
    p = random_playout(g, GameConfig(4, {}, 2), 2)
    gid = journal.start_game("mata-hari", p.config, (1, 2, 9, 10))
    for i, (seat, act) in enumerate(p.moves[:5]):
        journal.append(gid, i, seat, act)
    box = Outbox(journal.path, "t1")
    start = inbound.parse(*(lambda m: (m.topic, m.payload))(box.take(1)[0]))
    assert start.data["seats"] == [1, 2, None, None]
