"""ZOP across two tables fuzzed: both tables' loops stepped one at a time, each table's messages
delivered to the other in random order with its players' random moves, on the real RemoteSeats of
two simulated tables (the links replaced by lists the driver carries).

A game "stops" when, every message delivered, the host waits for an opening that the joining table
does not send, or when the joining table's screen shows turns revealed otherwise than the host's
(its engine's reveal on the stand-ins of the host's cards, or an end on it); it "warns" when either table logs a warning (a move that cannot be told or followed).
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass, field
from typing import Any

from firmware_host.loop.simulator import SimTable
from games.zop import rules_supply
from games.zop.game import GAME
from tests.service.remote.test_remote_seats import FakeLink, msg
from tests.service.remote.test_remote_zop_commit import HOST, JOINING, Pair

OPS = 600  # random steps per game: about a round of ZOP (a match of two or three ends in 1,200-1,500)


class _Warnings(logging.Handler):
    """The warnings the tables log."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())


@dataclass
class Outcome:
    """One fuzzed game: where it stopped (None: it did not), the warnings logged, the last steps."""

    seed: int
    stuck: str | None = None
    warnings: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    over: bool = False

    @property
    def ok(self) -> bool:
        """Neither stopped nor warned."""
        return self.stuck is None and not self.warnings


def _deliver(pair: Pair, src: FakeLink, dst: FakeLink) -> None:
    kind, fields = src.sent.pop(0)
    fields = json.loads(json.dumps(fields))  # as the wire carries it
    pair.seq[src.side] += 1
    dst.inbox.append(msg(kind, pair.seq[src.side], **fields))


def _flush(pair: Pair) -> None:
    """Every message delivered, both tables stepped, until neither sends any more."""
    for _ in range(50):
        moved = False
        for src, dst in ((pair.la, pair.lb), (pair.lb, pair.la)):
            while src.sent:
                _deliver(pair, src, dst)
                moved = True
        pair.host.step()
        pair.join.step()
        if not moved and not pair.la.sent and not pair.lb.sent:
            return


def _shown_on_stand_ins(pair: Pair, rounds: list[Any]) -> str | None:
    """What the joining table shows when its engine's revealed turns are not the host's (None: they
    are, or its screens await the other table and it gives no end). `rounds`: the host's turns of
    each round so far, its current one last (updated here: a round begun starts them again)."""
    a, b = pair.a, pair.b
    now = a.state.turns
    if rounds and rounds[-1] == now[:len(rounds[-1])]:
        rounds[-1] = now
    else:
        rounds.append(now)
    turns = b.state.turns
    if any(turns == real[:len(turns)] for real in rounds):  # the host's, or behind it
        return None
    seat = next(t for t in b.seats if t is not None)
    frame = b.frame(seat).text("fr")
    if "l'autre table…" not in frame["lines"]:
        return f"the joining table shows turns the host did not reveal: {frame}"
    if b.over and b._told() is not None:
        return "the joining table ends the game on the stand-ins of the host's cards"
    return None


def play(sims: tuple[SimTable, SimTable], seed: int, ops: int = OPS) -> Outcome:
    """One game fuzzed with `seed`."""
    rng = random.Random(seed)
    out = Outcome(seed)
    seen = _Warnings()
    logger = logging.getLogger("firmware_host")
    logger.addHandler(seen)
    try:
        pair = Pair(sims)
        a, b = pair.a, pair.b
        rounds: list[Any] = []
        for op in range(ops):
            if a.over:  # the host's game is the record: the joining engine may end first on stand-ins
                break
            r = rng.random()
            if r < 0.5:
                who, seat, name = (a, HOST, "host") if r < 0.25 else (b, JOINING, "join")
                acts = who.game.legal_actions(who.state, seat)
                if acts:
                    x = rng.choice(acts)
                    out.trace.append(f"{op} {name} lays {x} ok={who.apply(seat, x)}")
            elif r < 0.9:
                src, dst, table = (pair.la, pair.lb, pair.join) if r < 0.7 else (pair.lb, pair.la, pair.host)
                if src.sent:
                    out.trace.append(f"{op} {src.side}-> {src.sent[0]}")
                    _deliver(pair, src, dst)
                table.step()
            else:
                out.trace.append(f"{op} flush")
                _flush(pair)
                if rules_supply.opening(GAME.deck, a.state):
                    out.stuck = f"op {op}: the host waits for an opening the joining table does not send"
                    break
            wrong = _shown_on_stand_ins(pair, rounds)
            if wrong is not None:
                out.stuck = f"op {op}: {wrong}"
                break
            if seen.seen:
                break
        if out.stuck is None and not seen.seen:
            _flush(pair)
            if rules_supply.opening(GAME.deck, a.state):
                out.stuck = "at the end: the host waits for an opening the joining table does not send"
            elif a.over != b.over or (a.over and a.state != b.state):
                out.stuck = f"at the end: the host's game over {a.over}, the joining table's {b.over}"
        out.over = a.over and b.over
        out.warnings = list(seen.seen)
        del out.trace[:-60]
        return out
    finally:
        logger.removeHandler(seen)
