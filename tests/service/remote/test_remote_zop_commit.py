"""ZOP across tables, from the joining table to the host: a card laid face down there crosses as a
commitment only (firmware_host/remote/sealing.py, games/zop/rules_sealed.py), and is opened once the
host's game waits for it (every card of the turn laid: the host's cards can no longer change).

Two tables' RemoteSeats on their real sessions, their links replaced by a test that carries each
message to the other table (no broker: the games through mosquitto are in test_remote_zop.py); and
the joining table cut off like a power cut while the host waits for its card, through mosquitto."""

from __future__ import annotations

import copy
import json
import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware_host.apps.app import StartRequest
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import SimTable
from firmware_host.remote import crossing
from firmware_host.remote.seats import RemoteSeats
from firmware_host.storage.journal_rows import RemoteRecord, decode_remote, encode_players
from games.core import GameConfig, IllegalAction
from games.zop import rules_supply
from games.zop.game import GAME
from games.zop.rules_sealed import is_sealed, placeholder
from tests.kits.remotekit import TwoTables
from tests.service.apps.solo_table import follow_instruction, human_move, session
from tests.service.remote.test_remote_seats import FakeLink, msg

OPTIONS: dict[str, object] = dict(crossing.REMOTE_OPTIONS["zop"])
SECRET = "5e" * 32
HOST, JOINING = 0, 1


class Pair:
    """A new game of ZOP at both tables: game seat 0 at the host, game seat 1 at the joining table."""

    def __init__(self, sims: tuple[SimTable, SimTable], secret: str = SECRET):
        sims[0].runtime.start(StartRequest("zop", (1, None), dict(OPTIONS), seed=0))
        sims[1].runtime.start(StartRequest("zop", (None, 3), dict(OPTIONS), seed=0))
        self.a, self.b = session(sims[0]), session(sims[1])
        self.la, self.lb = FakeLink("host"), FakeLink("join")
        self.host = RemoteSeats(self.a, self.la, frozenset({JOINING}))  # type: ignore[arg-type]
        self.join = RemoteSeats(self.b, self.lb, frozenset({HOST}), secret=secret)  # type: ignore[arg-type]
        self.seq = {"host": 0, "join": 0}
        self.sent: list[tuple[str, dict[str, Any]]] = []  # every message of the joining table, in order
        self.told: list[tuple[str, dict[str, Any]]] = []  # every message of the host
        self.hold = False  # keep the joining table's messages back (the test reads or changes them)
        self.hold_open = False  # keep them back while one of them opens a card

    def pump(self) -> None:
        """Carry every message to the other table until neither sends any more."""
        for _ in range(20):
            moved = False
            for src, dst in ((self.la, self.lb), (self.lb, self.la)):
                if src is self.lb and (self.hold or (self.hold_open and any(
                        f.get("action", {}).get("type") == "open" for _, f in src.sent))):
                    continue
                while src.sent:
                    kind, fields = src.sent.pop(0)
                    fields = json.loads(json.dumps(fields))  # as the wire carries it
                    (self.sent if src is self.lb else self.told).append((kind, copy.deepcopy(fields)))
                    self.seq[src.side] += 1
                    dst.inbox.append(replace(msg(kind, self.seq[src.side], **fields), run=src.run))
                    moved = True
            self.host.step()
            self.join.step()
            if not moved:
                return

    def lay(self, who: GameSession, seat: int, card: str) -> None:
        assert who.apply(seat, {"type": "commit", "card": card}), card
        self.pump()

    def turn(self) -> None:
        """One turn: the joining player lays first, then the host's; both see the reveal."""
        turns = len(self.a.state.turns)
        self.lay(self.b, JOINING, first(self.b, JOINING))
        self.lay(self.a, HOST, first(self.a, HOST))
        assert len(self.a.state.turns) == len(self.b.state.turns) == turns + 1
        assert self.a.state == self.b.state


def first(s: GameSession, seat: int, skip: int = 0) -> str:
    cards = [a["card"] for a in s.game.legal_actions(s.state, seat) if a["type"] == "commit"]
    return str(cards[skip % len(cards)])


def masked(messages: list[tuple[str, dict[str, Any]]]) -> str:
    """The messages with each placeholder replaced by its order of first appearance."""
    seen: dict[str, str] = {}

    def mask(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: mask(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [mask(v) for v in value]
        if is_sealed(value):
            return seen.setdefault(value, f"<placeholder {len(seen)}>")
        return value

    return json.dumps(mask(messages), sort_keys=True)


def test_the_joining_tables_messages_before_the_reveal_are_the_same_whatever_card_it_laid(sims: tuple[SimTable, SimTable]) -> None:
    cards = GAME.deck.ids(GAME.deck.set_of_seat(JOINING))
    for prefix in (0, 3):  # the first turn, and one after three reveals (whose salts the host has seen)
        runs: set[str] = set()
        for i, card in enumerate(cards):
            pair = Pair(sims)
            for _ in range(prefix):
                pair.turn()
            opened = [(f["action"]["card"], bytes.fromhex(f["action"]["salt"])) for k, f in pair.sent
                      if f.get("action", {}).get("type") == "open"]
            assert len(opened) == prefix
            if card not in [a.get("card") for a in GAME.legal_actions(pair.b.state, JOINING)]:
                continue  # played in the prefix
            start = len(pair.sent)
            other = first(pair.b, JOINING, i + 1)
            # laid, taken back, another laid: the hidden variant is both cards
            pair.lay(pair.b, JOINING, other)
            assert pair.b.apply(JOINING, {"type": "withdraw", "card": other})
            pair.pump()
            pair.lay(pair.b, JOINING, card)
            assert all(is_sealed(c) for c in pair.a.state.sides[JOINING].laid)  # the host holds placeholders
            pair.hold = True
            pair.lay(pair.a, HOST, first(pair.a, HOST))  # every card laid: the host waits for the opening
            before = pair.sent[start:]  # every message of the joining table before the reveal
            assert [m[1]["action"]["type"] for m in before] == ["commit", "withdraw", "commit"]
            assert not pair.a.state.turns[prefix:]
            pair.hold = False
            pair.pump()
            (_, opening), = [m for m in pair.sent[start + 3:] if m[1]["action"]["type"] == "open"]
            assert opening["action"]["card"] == card
            assert pair.a.state.turns[-1].cards[JOINING] == (card,) and pair.a.state == pair.b.state
            runs.add(masked(before))
            sealed = {f["action"]["card"] for _, f in before}
            assert len(sealed) == 2  # each card laid has its own commitment
            # what the host knew (every card's name, the salts opened so far) makes none of them
            assert not sealed & {placeholder(c, salt) for c in cards for _, salt in opened}
        assert len(runs) == 1, "a message of the joining table told which card it laid"


def test_the_same_card_laid_again_has_another_commitment(sims: tuple[SimTable, SimTable]) -> None:
    pair = Pair(sims)
    card = first(pair.b, JOINING)
    pair.lay(pair.b, JOINING, card)
    assert pair.b.apply(JOINING, {"type": "withdraw", "card": card})
    pair.lay(pair.b, JOINING, card)
    laid = [f["action"]["card"] for _, f in pair.sent if f["action"]["type"] == "commit"]
    assert len(laid) == 2 and laid[0] != laid[1]  # the host cannot tell the card laid again from another


def test_a_forged_opening_is_refused_said_on_the_host_screens_and_changes_nothing(sims: tuple[SimTable, SimTable],
                                                                               caplog: pytest.LogCaptureFixture) -> None:
    pair = Pair(sims)
    pair.turn()
    card, other = first(pair.b, JOINING), first(pair.b, JOINING, 1)
    pair.lay(pair.b, JOINING, card)
    pair.hold = True
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    pair.join.step()
    (kind, genuine), = pair.lb.sent
    pair.lb.sent.clear()
    assert kind == "move" and genuine["action"]["type"] == "open"
    before, moves = pair.a.state, list(pair.a.moves)
    salt = genuine["action"]["salt"]
    forged = [{"type": "open", "card": other, "salt": salt},  # another card under the real salt
              {"type": "open", "card": card, "salt": "00" * 16},  # the card under another salt
              {"type": "open", "card": card, "salt": "zz"},  # not a salt
              {"type": "open", "card": "zop/light/attack/1", "salt": salt}]  # a card of the host's deck
    pair.hold = False
    with caplog.at_level(logging.WARNING, logger="firmware_host.remote.seats"):
        for action in forged:
            pair.lb.sent.append(("move", {**genuine, "action": action}))
            pair.pump()
            assert pair.a.state == before and pair.a.moves == moves  # the game left as it was
            assert pair.b.moves == pair.join.plain()
    assert [k for k, _ in pair.told[-len(forged):]] == ["refused"] * len(forged)
    while pair.a.computers.work():  # the messages after a remote move wait behind its words
        pass
    words = " ".join(n.text.fr for n in pair.a.ui[HOST].notices)
    assert "J2 : Carte refusée : ce n'est pas la carte posée face cachée." in words
    assert sum("opened at the reveal is refused" in r.message for r in caplog.records) == len(forged)
    pair.lb.sent.append(("move", genuine))
    pair.pump()
    assert pair.a.state.turns[-1].cards[JOINING] == (card,) and pair.a.state == pair.b.state


def test_while_the_host_waits_for_the_opening_its_own_card_cannot_change() -> None:
    config = GameConfig(2, dict(OPTIONS), 0)
    state = GAME.initial_state(config)
    mine, theirs = "zop/light/attack/2", "zop/dark/defence/1"
    salt = bytes(range(16))
    state = GAME.apply(state, JOINING, {"type": "commit", "card": placeholder(theirs, salt)}).state
    state = GAME.apply(state, HOST, {"type": "commit", "card": mine}).state
    assert GAME.to_act(state) == frozenset({JOINING}) and not state.turns
    for action in ({"type": "withdraw", "card": mine}, {"type": "commit", "card": "zop/light/attack/3"}):
        with pytest.raises(IllegalAction):
            GAME.apply(state, HOST, action)
    assert GAME.legal_actions(state, HOST) == []
    opened = GAME.apply(state, JOINING, {"type": "open", "card": theirs, "salt": salt.hex()}).state
    plain = GAME.initial_state(config)
    for seat, card in ((JOINING, theirs), (HOST, mine)):
        plain = GAME.apply(plain, seat, {"type": "commit", "card": card}).state
    assert opened == plain  # opened, the game is the one the card laid in clear would have made
    # at one table nothing is laid as a placeholder
    one = GAME.initial_state(GameConfig(2, {"deck": "sensed"}, 0))
    with pytest.raises(IllegalAction):
        GAME.apply(one, JOINING, {"type": "commit", "card": placeholder(theirs, salt)})


def test_the_joining_table_cut_off_while_the_host_waits_for_its_card_opens_it_from_its_journal(broker: Any, tmp_path: Path) -> None:
    t = TwoTables(broker, "zop", {}, seed=5, journals=(tmp_path / "a.sqlite", tmp_path / "b.sqlite"))
    try:
        t.join(t.code)
        assert t.wait(t.in_step), t.describe()
        assert human_move(t.b, t.rng)  # the joining player lays a card face down
        assert t.wait(t.in_step), t.describe()
        (card,) = t.join_session.state.sides[JOINING].laid
        assert all(is_sealed(c) for c in t.host_session.state.sides[JOINING].laid)  # the host holds its commitment
        assert human_move(t.a, t.rng)  # the host's player lays: the host waits for the opening
        t.power_cut("b")  # before the joining table read it: its salt is in its journal only
        a = t.host_session
        assert not a.state.turns and a.to_act() == frozenset({JOINING})
        (mine,) = a.state.sides[HOST].laid
        moves = list(a.moves)
        pad = a.to_physical("pad.0") or "pad.0"
        t.a.remove(pad, mine)  # the host's player takes its card back: too late, it is no move
        t.a.settle()
        assert a.moves == moves and a.instruction is not None and a.instruction.fix.zone == "pad.0"
        assert follow_instruction(t.a)  # put back where the screens say
        assert a.instruction is None and a.moves == moves
        t.restart("b")
        assert t.wait(lambda: t.in_step() and t.host_session.state.turns), t.describe()
        assert t.host_session.state.turns[0].cards[JOINING] == (card,)
        assert t.host_session.state == t.join_session.state
        assert t.joined is not None and t.joined.seats.mismatches == 0
    finally:
        t.close()


def test_a_placeholder_the_joining_table_never_sent_is_not_followed(sims: tuple[SimTable, SimTable],
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    pair = Pair(sims)
    pair.lay(pair.b, JOINING, first(pair.b, JOINING))
    moves, log = list(pair.b.moves), list(pair.join.log)
    stranger = {"type": "commit", "card": "#" + "0" * 64}
    pair.lb.inbox.append(msg("move", 99, n=len(log), seat=JOINING, action=stranger, views={}))
    with caplog.at_level(logging.ERROR, logger="firmware_host.remote.seats"):
        pair.join.step()
    assert pair.b.moves == moves and pair.join.log == log
    assert any("never sent" in r.message for r in caplog.records)


@pytest.mark.parametrize("secret", ["", "ab" * 32])
def test_the_joining_tables_secret_is_journaled_and_checked(secret: str) -> None:
    record = RemoteRecord("join", "ABCDEFGH", (0,), secret)
    text = encode_players({}, False, record)
    assert decode_remote(text, 2) == record
    for bad in ("AB" * 32, "ab" * 31, 7, "ab" * 32 + "\n"):
        damaged = json.loads(text)
        damaged["remote"]["secret"] = bad
        with pytest.raises(ValueError, match="secret"):
            decode_remote(json.dumps(damaged), 2)


def test_when_the_host_lays_last_the_joining_table_reads_the_reveal_once_with_the_host_cards(
        sims: tuple[SimTable, SimTable]) -> None:
    pair = Pair(sims)
    for turn in range(1, 5):
        pair.lay(pair.b, JOINING, first(pair.b, JOINING))
        pair.lay(pair.a, HOST, first(pair.a, HOST, 3))  # not the first card, which a stand-in would be
        while pair.b.computers.work():
            pass
        words = " · ".join(n.text.fr for n in pair.b.ui[JOINING].notices)
        assert words.count(" : +") == turn, words  # never the turn revealed with the host's stand-ins first
        assert pair.a.state == pair.b.state


def test_the_joining_table_whose_engine_ends_first_keeps_its_link_until_the_hosts_reveal(
        sims: tuple[SimTable, SimTable]) -> None:
    """The game's last card laid at the joining table: its own engine ends the game on the host
    player's stand-ins while the host still waits for the card's opening. Its link stays until the
    host's reveal, the true end, has arrived (a whole game is long: its end here is the joining
    engine's outcome, given at this turn's reveal)."""
    pair = Pair(sims)
    pair.turn()
    pair.lay(pair.a, HOST, first(pair.a, HOST))  # the host's player lays first
    pair.hold_open = True
    pair.lay(pair.b, JOINING, first(pair.b, JOINING))  # the joining player lays the turn's last card
    (_, opening), = [m for m in pair.lb.sent if m[1]["action"]["type"] == "open"]
    assert pair.a.to_act() == frozenset({JOINING}) and len(pair.b.state.turns) == 2  # revealed here only
    real = pair.b.of_state
    pair.b.of_state = lambda key, compute: (  # type: ignore[method-assign]
        ("ended",) if key == ("outcome",) and len(pair.b.state.turns) == 2 else real(key, compute))
    try:
        assert pair.b.over
        pair.join.step()
        assert not pair.lb.stopped, "the joining table left the broker before the host's reveal"
        pair.hold_open = False
        pair.pump()
        assert len(pair.a.state.turns) == 2 and pair.a.state == pair.b.state
    finally:
        del pair.b.of_state


def test_the_tables_are_not_in_step_while_an_opening_waits_in_the_hosts_inbox(broker: Any, tmp_path: Path) -> None:
    """An opening is acknowledged when the host's link receives it and is in neither table's moves
    until the host's loop takes it: until then the two tables are not in step (nobody may be able to
    play: at the game's end the joining table's engine is over and the host waits)."""
    t = TwoTables(broker, "zop", {}, seed=5)
    try:
        t.join(t.code)
        assert t.wait(t.in_step), t.describe()
        # the joining table's moves count refusals from the host's game of this run
        assert t.joined is not None and t.joined.seats._counted() == {"r": 0, "g": t.hosted.link.run}
        assert human_move(t.a, t.rng)  # the host's player lays first
        assert t.wait(t.in_step), t.describe()
        assert human_move(t.b, t.rng)  # the joining player lays the turn's last card

        def only(sim: SimTable, cond: Any) -> bool:  # one table's loop runs, the other's stands still
            for _ in range(2000):
                sim.clock.advance(0.1)  # type: ignore[attr-defined]
                sim.runtime.drain()
                sim.runtime.tick()
                if cond():
                    return True
                time.sleep(0.005)
            return False

        assert only(t.a, lambda: t.host_session.to_act() == frozenset({JOINING})), t.describe()  # waits for it
        assert only(t.b, lambda: t.hosted.link.untaken() == 1 and not t.joined.link.unacknowledged())
        (waiting,) = list(t.hosted.link.inbox)
        assert waiting.data["action"]["type"] == "open" and not t.host_session.state.turns
        assert not t.in_step()  # acknowledged, not yet taken
        assert t.wait(t.in_step), t.describe()
        assert len(t.host_session.state.turns) == 1 and t.host_session.state == t.join_session.state
    finally:
        t.close()


def test_a_card_laid_again_at_the_joining_table_while_its_opening_waits_never_crosses_to_the_next_turn(
        sims: tuple[SimTable, SimTable], caplog: pytest.LogCaptureFixture) -> None:
    """The host's player lays the turn's last card: the joining table opens its card, and its engine
    (the host's card held back until the reveal) still lets its player take the card back and lay it
    again. Neither crosses: the host would refuse the first ("revealing") and could take the second,
    numbered after the opening, as a card of the next turn (a card the reveal has played)."""
    pair = Pair(sims)
    pair.turn()
    card = first(pair.b, JOINING)
    pair.lay(pair.b, JOINING, card)
    pair.hold_open = True
    pair.lay(pair.a, HOST, first(pair.a, HOST))  # the host waits for the opening, held back
    sent = len(pair.lb.sent)
    assert pair.b.apply(JOINING, {"type": "withdraw", "card": card})
    assert pair.b.apply(JOINING, {"type": "commit", "card": card})
    assert len(pair.lb.sent) == sent  # the cards laid while the opening waits stay at the joining table
    pair.hold_open = False
    with caplog.at_level(logging.ERROR, "firmware_host.remote"):
        pair.pump()
    assert len(pair.a.state.turns) == 2 and not pair.a.state.sides[JOINING].laid
    assert pair.a.state == pair.b.state and not caplog.records
    pair.turn()  # the game goes on


def test_a_joining_table_restarted_while_its_opening_waits_sends_no_card_laid_again(
        sims: tuple[SimTable, SimTable], caplog: pytest.LogCaptureFixture) -> None:
    """The joining table loses power while its opening waits in the host's inbox, its player having
    taken its card back and laid it again: once restarted, the host's whole game (sent before the
    host's loop takes the opening) says the host waits for the opening; those moves go back rather
    than cross again, where the one numbered after the opening would be a card of the next turn."""
    pair = Pair(sims)
    pair.turn()
    card = first(pair.b, JOINING)
    pair.lay(pair.b, JOINING, card)
    pair.hold_open = True
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    assert pair.b.apply(JOINING, {"type": "withdraw", "card": card})
    assert pair.b.apply(JOINING, {"type": "commit", "card": card})
    (kind, opening), = pair.lb.sent  # the opening reaches the host's inbox, the host's loop not yet run
    pair.la.inbox.append(msg(kind, 99, **json.loads(json.dumps(opening))))
    pair.lb.sent.clear()
    pair.b.recorder = pair.join.inner  # the power cut: the same journal, a new link
    pair.lb = FakeLink("join")  # type: ignore[assignment]
    pair.join = RemoteSeats(pair.b, pair.lb, frozenset({HOST}), resumed=True, secret=SECRET)  # type: ignore[arg-type]
    pair.la.peer_restarts += 1
    pair.hold_open = False
    with caplog.at_level(logging.ERROR, "firmware_host.remote"):
        pair.host.step()  # the whole game is sent, then the opening taken
        pair.pump()
    assert any(kind == "game" for kind, _ in pair.told)
    assert len(pair.a.state.turns) == 2 and not pair.a.state.sides[JOINING].laid
    assert pair.a.state == pair.b.state and not caplog.records
    pair.turn()


def test_a_move_laid_at_the_joining_table_on_one_the_host_refused_is_refused_too(
        sims: tuple[SimTable, SimTable], caplog: pytest.LogCaptureFixture) -> None:
    """The joining player, owed an extra card, lays a card, takes it back and lays it again, while
    the host's player lays and takes back its own. The host takes the first, refuses the card taken
    back (a move of the joining table's came first), and its own card taken back fills the place the
    third was numbered for: laid on a refused move, it is refused too, else the host would hold the
    same card twice (two placeholders), which the joining table could never follow nor open."""
    pair = Pair(sims)
    pair.lay(pair.b, JOINING, "zop/dark/special/3")  # its player lays an extra card next turn
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    assert rules_supply.required(GAME.deck, pair.b.state, JOINING) == 2
    card = first(pair.b, JOINING)
    for action in ({"type": "commit", "card": card}, {"type": "withdraw", "card": card},
                   {"type": "commit", "card": card}):
        assert pair.b.apply(JOINING, action)
    mine = first(pair.a, HOST)
    assert pair.a.apply(HOST, {"type": "commit", "card": mine})

    def to_host() -> None:
        kind, fields = pair.lb.sent.pop(0)
        pair.seq["join"] += 1
        pair.la.inbox.append(msg(kind, pair.seq["join"], **json.loads(json.dumps(fields))))
        pair.host.step()

    to_host()  # the card laid: taken
    to_host()  # the card taken back: refused
    assert pair.a.apply(HOST, {"type": "withdraw", "card": mine})
    to_host()  # the card laid again, numbered after the one refused
    assert len(pair.a.state.sides[JOINING].laid) == 1
    with caplog.at_level(logging.ERROR, "firmware_host.remote"):
        pair.pump()
    assert pair.b.moves == pair.join.plain() and pair.b.state.sides[JOINING].laid == (card,)
    assert not caplog.records
    pair.lay(pair.b, JOINING, first(pair.b, JOINING))  # the turn goes on to its reveal
    pair.lay(pair.a, HOST, first(pair.a, HOST))
    assert len(pair.a.state.turns) == 2 and pair.a.state == pair.b.state
