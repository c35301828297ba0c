"""Two simulated tables in one `zebra-table script --tables 2`, playing one game through the
config's `[remote]` broker (docs/scripts.md, *Two tables*).

Every event may name its table (`"table": "b"`; "a" by default) and is then what it is for one
table. Four more: `{"host": {"game", "seats", "options"}}` starts a remote game at a table (None
in seats: a player of the other table), `{"join": {"seats": [...]}}` joins it at the other with
its code, `{"sync": true}` waits (real time, bounded) until both tables hold the same moves and
every message was acknowledged and taken by the other table's loop (a ZOP card opened at the
reveal is in neither table's moves until the host takes it), `{"link": "cut"}` /
`{"link": "restore"}` takes a table off the broker and back. After each line both tables' loops
take what their links brought.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from firmware_host.apps.session import GameSession
from firmware_host.commands.script_events import check_event
from firmware_host.loop.simulator import SimError, SimTable
from firmware_host.remote.play import Joining, RemoteGame, host
from firmware_host.storage import inputs
from firmware_host.storage.inputs import InputError
from firmware_host.venue.settings import Broker

TABLES = ("a", "b")
REMOTE_KEYS = {"host": ("host", "table"), "join": ("join", "table"), "sync": ("sync", "table"),
               "link": ("link", "table")}
SYNC_SECONDS = 30.0  # the longest a sync line waits (a broker restarting, a table reconnecting)


class Runner(Protocol):
    """What a one-table script runner does (firmware_host/commands/script.py:ScriptRunner)."""

    sim: SimTable
    report: dict[str, Any]

    def apply(self, ev: dict[str, Any]) -> None: ...


class TwoTables:
    """The two tables' runners, the remote game between them, and the broker they reach."""

    def __init__(self, runners: dict[str, Runner], broker: Broker | None):
        self.runners = runners
        self.broker = broker
        self.games: dict[str, RemoteGame] = {}
        self.code: str | None = None

    def line(self, line: str | InputError, where: str) -> dict[str, Any]:
        """One script line: {"event", "table"} once done, with "error" if it was refused."""
        entry: dict[str, Any] = {}
        for runner in self.runners.values():
            runner.report = {}
        try:
            if isinstance(line, InputError):
                raise line
            ev = inputs.obj(inputs.json_text(line, where), where)
            entry["event"] = ev
            table = inputs.choice(ev.get("table", "a"), f"{where}.table", TABLES)
            entry["table"] = table
            kind = next((k for k in REMOTE_KEYS if k in ev), None)
            if kind is not None:
                inputs.obj(ev, where, REMOTE_KEYS[kind])
                self._remote(kind, ev, table, where)
            else:
                event = {k: v for k, v in ev.items() if k != "table"}
                runner = self.runners[table]
                check_event(event, runner.sim.runtime.seat_ids, where)
                runner.apply(event)
        except (SimError, ValueError, KeyError, TypeError) as exc:
            entry["error"] = str(exc) if not isinstance(exc, KeyError) else f"missing key {exc}"
        self.pump()
        return entry

    def pump(self) -> None:
        """Each table's loop takes what its link brought."""
        for runner in self.runners.values():
            runner.sim.runtime.drain()
            runner.sim.runtime.tick()

    def status(self) -> dict[str, Any]:
        """Each table's game in short: moves, whether the other table is there, messages waiting."""
        out: dict[str, Any] = {}
        for name, runner in self.runners.items():
            app = runner.sim.runtime.app
            game = self.games.get(name)
            out[name] = {"moves": len(app.moves) if isinstance(app, GameSession) else None,
                         "present": game.link.present if game is not None else None,
                         "waiting": game.link.unacknowledged() if game is not None else None}
        return out

    def close(self) -> None:
        """Every link leaves the broker."""
        for game in self.games.values():
            game.close()

    # -- the remote events ----------------------------------------------------------------------
    def _remote(self, kind: str, ev: dict[str, Any], table: str, where: str) -> None:
        if kind in ("host", "join") and self.broker is None:
            raise SimError(f"{where}: {kind}: the config has no [remote] section (the broker)")
        runtime = self.runners[table].sim.runtime
        if kind == "host":
            spec = inputs.obj(ev["host"], f"{where}.host", ("game", "seats", "options"))
            seats = _seats(spec.get("seats"), f"{where}.host.seats", runtime.seat_ids, allow_none=True)
            options = inputs.obj(spec.get("options", {}), f"{where}.host.options")
            game_id = inputs.string(spec.get("game"), f"{where}.host.game", 64)
            assert self.broker is not None
            self.games[table] = host(runtime, self.broker, game_id, seats, options)
            self.code = self.games[table].code
        elif kind == "join":
            spec = inputs.obj(ev["join"], f"{where}.join", ("seats",))
            seats = _seats(spec.get("seats"), f"{where}.join.seats", runtime.seat_ids, allow_none=False)
            if self.code is None or table in self.games:
                raise SimError(f"{where}: join: no game hosted at the other table")
            assert self.broker is not None
            joining = Joining(runtime, self.broker, self.code)
            if not self._wait(lambda: joining.game() is not None):
                joining.link.close()
                raise SimError(f"{where}: join: the host's game did not arrive within {SYNC_SECONDS:g} s")
            self.games[table] = joining.begin(tuple(s for s in seats if s is not None))
        elif kind == "sync":
            inputs.boolean(ev["sync"], f"{where}.sync")
            if len(self.games) < 2:
                raise SimError(f"{where}: sync: no remote game between the two tables")
            if not self._wait(self._in_step):
                raise SimError(f"{where}: sync: the tables did not agree within {SYNC_SECONDS:g} s")
        else:
            what = inputs.choice(ev["link"], f"{where}.link", ("cut", "restore"))
            remote = self.games.get(table)
            if remote is None:
                raise SimError(f"{where}: link: table {table} plays no remote game")
            link = remote.link
            (link.cut if what == "cut" else link.restore)()
            self._wait(lambda: link.connected == (what == "restore"), 10.0)

    def _in_step(self) -> bool:
        apps = [a for a in (r.sim.runtime.app for r in self.runners.values()) if isinstance(a, GameSession)]
        over = len(apps) == 2 and all(a.over for a in apps)  # the links stop once the game is over
        # the joining table holds the host's moves as the host told them (a hidden card as a stand-in,
        # its own cards laid face down named where the host holds their placeholders)
        told = [g.seats.log for g in self.games.values() if g.seats.side == "host"]
        joined = [g.seats for g in self.games.values() if g.seats.side == "join"]
        return (len(apps) == 2 and len(told) == len(joined) == 1 and told[0] == joined[0].log
                and joined[0].plain() == joined[0].session.moves
                and not any(g.seats.telling for g in self.games.values())
                and all((g.link.present or over) and not g.link.unacknowledged() and not g.link.untaken()
                        for g in self.games.values()))

    def _wait(self, cond: Callable[[], bool], seconds: float = SYNC_SECONDS) -> bool:
        end = time.monotonic() + seconds
        while True:
            self.pump()
            if cond():
                return True
            if time.monotonic() > end:
                return False
            time.sleep(0.01)


def _seats(value: Any, where: str, seat_ids: tuple[int, ...], allow_none: bool) -> tuple[int | None, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise InputError(where, "expected a list of 1 to 8 seats")
    out: list[int | None] = []
    for i, s in enumerate(value):
        if s is None and allow_none:
            out.append(None)
            continue
        seat = inputs.integer(s, f"{where}[{i}]", 1, 8)
        if seat not in seat_ids:
            raise InputError(f"{where}[{i}]", f"no seat {seat} on this table")
        out.append(seat)
    return tuple(out)
