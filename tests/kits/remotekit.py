"""Two simulated tables in one process playing one game through a real broker: the host's and the
joining table's runtimes, each driven through its real event path (reader, buttons, settle), their
remote links on the broker, and a player at each table doing what its screens say."""

from __future__ import annotations

import base64
import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from firmware_host.apps.menu import CodeChar, Do
from firmware_host.apps.session import GameSession
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.remote import code as codes
from firmware_host.remote import wire
from firmware_host.remote.play import Joining, RemoteGame, host
from firmware_host.remote.settings import parse_remote
from firmware_host.storage.config import TableConfig, parse_config, sim_config_text
from firmware_host.storage.journal import Journal
from firmware_host.venue.settings import Broker
from tests.kits.menus import entries
from tests.kits.venuekit import Broker as Mosquitto
from tests.service.apps.solo_table import follow_instruction, human_move, menu_to, open_table, session


def broker_settings(mosquitto: Mosquitto) -> Broker:
    """The `[remote]` section pointing at the test's broker."""
    problems: list[tuple[str, str]] = []
    parsed = parse_remote({"host": "127.0.0.1", "port": mosquitto.port, "reconnect_max": 0.5, "keepalive": 5},
                          lambda k, m: problems.append((k, m)))
    assert parsed is not None, problems
    return parsed


def screen_words(sim: SimTable, table_seat: int) -> str:
    """Everything a seat's screen says (title, lines, banner, status), in French."""
    t = sim.frames()[table_seat].text("fr")
    return " | ".join([t["title"], *t["lines"], t.get("banner", ""), t.get("status", "")])


def assert_sealed(seen: list[tuple[str, bytes]], code: str, hidden: tuple[bytes, ...], opened: bytes, side: str,
                  least: int) -> None:
    """A third party on the broker that saw `seen` (at least `least` messages) reads none of `hidden`
    in any of them, while the game's key opens `opened` in some message on the `side` topic."""
    boxes = [(topic, json.loads(payload)["box"]) for topic, payload in seen]
    assert len(boxes) >= least, len(boxes)
    assert not any(h in base64.b64decode(box) for _, box in boxes for h in hidden)
    key = codes.derive(code).key
    assert any(opened in wire.seal.unseal(key, box) for topic, box in boxes if topic.endswith(f"/{side}"))


def menu_config(port: int) -> TableConfig:
    """A simulated table's config with `[remote]` on the test's broker, reconnecting quickly."""
    return parse_config(sim_config_text() + f'\n[remote]\nhost = "127.0.0.1"\nport = {port}\nreconnect_max = 0.5\n')


@contextmanager
def menu_tables(config: TableConfig, count: int = 2) -> Iterator[tuple[SimTable, ...]]:
    """`count` simulated tables on `config` (seeds 1, 2, …) at their menus; closed with their remote games."""
    sims = [SimTable(config, clock=FakeClock(), seed=n + 1) for n in range(count)]
    try:
        for sim in sims:
            assert sim.wait_ready()
            sim.settle()
        yield tuple(sims)
    finally:
        for sim in sims:
            game = sim.runtime.remote_game
            if game is not None:
                game.close()
            sim.close()


def join_by_code(sim: SimTable, seat: int, code: str) -> None:
    """At `sim`, `seat` takes the menu, chooses "Rejoindre une partie à distance" and types `code` with its buttons."""
    sim.press(seat, "ok")
    menu_to(sim, seat, Do("join"))
    for char in code:
        menu_to(sim, seat, CodeChar(char))


def pump(sims: list[SimTable] | tuple[SimTable, ...], cond: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Run the tables' loops (their fake clocks a tenth of a second a pass) until `cond()` is true or
    `timeout` real seconds pass: its last value."""
    end = time.monotonic() + timeout
    while True:
        for sim in sims:
            sim.clock.advance(0.1)
            sim.runtime.drain()
            sim.runtime.tick()
        value = cond()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.01)


def remote_config(mosquitto: Mosquitto) -> TableConfig:
    """A simulated table's config with a `[remote]` section pointing at the test's broker."""
    return parse_config(sim_config_text() + f'\n[remote]\nhost = "127.0.0.1"\nport = {mosquitto.port}\n'
                        'reconnect_max = 0.5\nkeepalive = 5\n')


def seat_names(seats: tuple[int | None, ...]) -> tuple[tuple[int, ...], str, str]:
    """The game seats played at the joining table, the host's players' names and the joining
    table's (the names the screens give: "J1, J3")."""
    joining = tuple(i for i, x in enumerate(seats) if x is None)
    here = ", ".join(f"J{i + 1}" for i, x in enumerate(seats) if x is not None)
    return joining, here, ", ".join(f"J{i + 1}" for i in joining)


def messages_by_kind(t: TwoTables) -> list[str]:
    """The kinds of the messages the host table sends from now on, in order."""
    kinds: list[str] = []
    send = t.hosted.link.send

    def recorded(kind: str, fields: Any) -> Any:
        kinds.append(kind)
        return send(kind, fields)

    t.hosted.link.send = recorded  # type: ignore[method-assign]
    return kinds


class TwoTables:
    """A host table (game seat 0 at its seat 1) and a joining table (game seat 1 at its seat 3);
    `seats`: the host's table seat of each game seat, None for one played at the joining table
    (which `join` seats at its `table_seats`, in order).

    With `journals` (a path for each table), each keeps a real journal and can be cut off like a
    power cut and started again from it (`restart`)."""

    def __init__(self, mosquitto: Mosquitto, game: str, options: dict[str, Any], seed: int = 0,
                 journals: tuple[Path, Path] | None = None, seats: tuple[int | None, ...] = (1, None)):
        self.settings = broker_settings(mosquitto)
        self.config = remote_config(mosquitto)
        self.journals = journals
        self.seed = seed
        self.a = self._open("a")
        self.b = self._open("b")
        self.rng = random.Random(seed)
        self.hosted: RemoteGame = host(self.a.runtime, self.settings, game, seats, options)
        self.joined: RemoteGame | None = None
        self.code = self.hosted.code
        self.followed = {"host": 0, "join": 0}  # instructions carried out at each table
        self.resume_entry = ""  # the menu's words for the game taken up after the last restart
        self.fair = False  # act(): the host's players first (True: either table's, at random)

    def _open(self, which: str) -> SimTable:
        seed = self.seed + (which == "b")
        if self.journals is None:
            return open_table(seed=seed)
        path = self.journals[0 if which == "a" else 1]
        return open_table(seed=seed, journal=Journal(path), config=self.config)

    def power_cut(self, which: str) -> None:
        """Table `which` goes dark: its link leaves the broker without a word, its loop stops."""
        game = self.hosted if which == "a" else self.joined
        assert game is not None
        game.link.cut()
        game.link.close()
        (self.a if which == "a" else self.b).close()

    def restart(self, which: str) -> RemoteGame:
        """Table `which` starts again from its journal, with no piece on it, and its players choose
        "Reprendre" in the menu, as after a power cut."""
        from firmware_host.commands.script import ScriptRunner

        sim = self._open(which)
        menu = sim.runtime.app
        assert menu.unfinished is not None and menu.unfinished.remote, "the menu offers no remote game to resume"
        self.resume_entry = next(t.fr for t, _ in menu.entries() if t.fr.startswith("Reprendre"))
        if which == "a":
            self.a = sim
        else:
            self.b = sim
        ScriptRunner(sim, sim.clock)._resume(True, 1 if which == "a" else 3)
        game = sim.runtime.remote_game
        assert game is not None, "the resumed game is not played with the other table"
        if which == "a":
            self.hosted = game
        else:
            self.joined = game
        return game

    def join(self, typed: str, table_seats: tuple[int, ...] = (3,)) -> RemoteGame:
        joining = Joining(self.b.runtime, self.settings, typed)
        assert self.wait(lambda: joining.game() is not None), "the host's game did not arrive"
        self.joined = joining.begin(table_seats)
        return self.joined

    @property
    def host_session(self) -> GameSession:
        return session(self.a)

    @property
    def join_session(self) -> GameSession:
        return session(self.b)

    def pump(self) -> None:
        """Let each table's loop take what its link brought; its clock runs on (messages expire)."""
        for sim in (self.a, self.b):
            sim.clock.advance(0.1)  # type: ignore[attr-defined]
            sim.runtime.drain()
            sim.runtime.tick()

    def wait(self, cond: Callable[[], Any], timeout: float = 20.0) -> Any:
        """Pump both tables until `cond()` holds (real time: the broker is real)."""
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            value = cond()
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.002)

    def play_to_end(self, most: int = 4000) -> None:
        """Both tables play on (at most `most` things done) until the game is over at both."""
        for _ in range(most):
            assert self.wait(self.in_step), self.describe()
            if self.host_session.over and self.join_session.over:
                return
            assert self.act(), self.describe()
        raise AssertionError(f"the game is not over after {most} things done\n{self.describe()}")

    def assert_same_end(self, whole: bool = True) -> None:
        """Both tables ended on the same game and outcome; the joining table checked the host's
        views and found none different (along the whole game unless `whole` is False: it restarted)."""
        a, b = self.host_session, self.join_session
        assert a.state == b.state and a.over and b.over
        assert a.game.outcome(a.state) == b.game.outcome(b.state)
        assert self.joined is not None and self.joined.seats.mismatches == 0
        assert self.joined.seats.checked > (len(a.moves) // 2 if whole else 0)

    def cut_broker(self, broker: Mosquitto, away: str, here: str) -> None:
        """The broker stopped mid-game: the host's screens say `away` (the other table's player) is
        away and the joining table's say `here` is; someone plays on meanwhile; once it is back both
        tables are in step."""
        broker.stop()
        assert self.wait(lambda: f"{away} absent" in str(self.hosted.seats.status_text())), screen_words(self.a, 1)
        assert self.joined is not None
        joined = self.joined
        assert self.wait(lambda: f"{here} absent" in str(joined.seats.status_text())), screen_words(self.b, 3)
        moves = len(self.host_session.moves) + len(self.join_session.moves)
        while len(self.host_session.moves) + len(self.join_session.moves) == moves:
            assert self.act(), "nobody could play while the broker was away"
        broker.start()
        assert self.wait(self.in_step), self.describe()

    def in_step(self) -> bool:
        """The joining table holds the moves the host told it (its own cards laid face down named,
        where the host holds their placeholders) and every message was acknowledged and taken by the
        other table's loop (a card opened at the reveal is in no table's moves until the host takes it),
        and the joining table is not waiting for the host's cards to reveal a turn (its screens say so
        then, over any instruction worked out on the stand-ins)."""
        assert self.joined is not None
        s = self.join_session
        return (not self.hosted.seats.telling and self.hosted.seats.log == self.joined.seats.log
                and self.joined.seats.plain() == s.moves and not s.stand_ins(s.state)
                and not any(g.link.unacknowledged() or g.link.untaken() for g in (self.hosted, self.joined)))

    def act_instruction(self) -> bool:
        """Carry out an instruction shown at either table; False if neither shows one."""
        for name, sim in (("host", self.a), ("join", self.b)):
            if follow_instruction(sim):
                self.followed[name] += 1
                return True
        return False

    def act(self) -> bool:
        """One thing a person does at either table: follow an instruction, else play a move. False: none."""
        if self.act_instruction():
            return True
        tables = [self.a, self.b]
        if self.fair:  # players who lay at the same time: either table's may be first
            self.rng.shuffle(tables)
        return any(human_move(sim, self.rng) for sim in tables)

    def describe(self) -> str:
        """Where the two tables are (for a failing test's message)."""
        out = []
        for name, s in (("host", self.host_session), ("join", self.join_session)):
            out.append(f"{name}: {len(s.moves)} moves, to act {sorted(s.to_act())}, humans {sorted(s.humans_to_act())},"
                       f" instruction {s.instruction}, synced {s.synced}, last {s.moves[-3:]}")
        return "\n".join(out)

    def close(self) -> None:
        for game in (self.hosted, self.joined):
            if game is not None:
                game.close()
        self.a.close()
        self.b.close()


class ScriptRecorder:
    """Plays a remote game on two tables through `firmware_host/remote/script.py` in this process,
    as people would, and records every line: replayed by `zebra-table script --tables 2` with the
    same config and seed, the same game is played."""

    def __init__(self, config_path: Any, seed: int, fair: bool = False):
        from firmware_host.apps.computer import InlineThinker
        from firmware_host.commands.script import ScriptRunner
        from firmware_host.loop.simulator import FakeClock
        from firmware_host.remote.script import TwoTables as ScriptTables
        from firmware_host.storage.config import load_config

        config = load_config(str(config_path))
        self.clock = FakeClock()
        self.sims = {"a": SimTable(config, clock=self.clock, seed=seed),
                     "b": SimTable(config, clock=self.clock, seed=seed + 1)}
        for sim in self.sims.values():
            assert sim.wait_ready()
            sim.runtime.thinker = InlineThinker()
        for sim in self.sims.values():
            sim.settle()
        self.two = ScriptTables({t: ScriptRunner(s, self.clock) for t, s in self.sims.items()}, config.remote)
        self.rng = random.Random(seed)
        self.fair = fair  # act(): either table's players first, at random (players who lay at the same time)
        self.lines: list[str] = []

    def send(self, event: dict[str, Any]) -> dict[str, Any]:
        import json

        line = json.dumps(event, ensure_ascii=False)
        self.lines.append(line)
        entry = self.two.line(line, f"line {len(self.lines)}")
        assert "error" not in entry, entry
        return entry

    def session(self, table: str) -> GameSession:
        return session(self.sims[table])

    def act(self) -> bool:
        """One event a person makes at either table (an instruction first); False if none."""
        from firmware_host.apps import reconcile

        for t in ("a", "b"):
            s = self.session(t)
            if s.instruction is not None:
                fix = s.instruction.fix
                kind = "remove" if fix.kind == "remove" else "place"
                self.send({"table": t, kind: s.to_physical(fix.zone), "piece": fix.piece})
                return True
        tables = ["a", "b"]
        if self.fair:
            self.rng.shuffle(tables)
        for t in tables:
            s = self.session(t)
            humans = sorted(s.humans_to_act())
            if not humans:
                continue
            seat = self.rng.choice(humans)
            table_seat = s.seats[seat]
            menu = entries(s, seat)
            zones = s.logical_zones()
            now = reconcile.restrict(s.layout(), zones)
            legal = [a for a in s.game.legal_actions(s.state, seat)
                     if a in menu or reconcile.restrict(s.game.footprint(s.state, seat, a), zones) != now]
            if not legal:
                continue
            action = self.rng.choice(legal)
            if action in menu:
                for _ in range(menu.index(action)):
                    self.send({"table": t, "press": table_seat, "button": "right"})
                self.send({"table": t, "press": table_seat, "button": "ok"})
                if s.ui[seat].confirming is not None:
                    self.send({"table": t, "press": table_seat, "button": "right"})
                    self.send({"table": t, "press": table_seat, "button": "ok"})
            else:
                todo = reconcile.fixes(reconcile.restrict(s.game.footprint(s.state, seat, action), zones), now)
                for i, fix in enumerate(todo):
                    kind = "remove" if fix.kind == "remove" else "place"
                    self.send({"table": t, kind: s.to_physical(fix.zone), "piece": fix.piece,
                               "settle": i == len(todo) - 1})
            return True
        return False

    def close(self) -> None:
        self.two.close()
        for sim in self.sims.values():
            sim.close()
