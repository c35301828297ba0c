"""kill -9 of the table service at random moments during whole games, in all five games.

The service is `zebra-table script - --journal J --acks`, fed hardware events on a pipe: the virtual
reader controller on a real pseudo-terminal, mock button pins, dummy screens, the real SQLite
journal. A `KillRun` plays each game from the transcript alone (it never looks inside the service),
kills the process at random moments — before, while and after an event is handled, while it boots,
while it resumes — then starts a new one, lays back the pieces the table kept and chooses
"Reprendre" on the menu. After every kill: no acknowledged move is missing from the journal; the
resumed state equals the replay of the journaled moves (digests compared on every transcript
line); the table's guidance and LEDs are those the rules ask for.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.undo import last_human_move
from firmware_host.commands.script import state_digest
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from games.core import CHANCE, IllegalAction, replay
from games.registry import get_game
from tests.kits import faultkit
from tests.kits.faultkit import Service, ServiceError, Zygote, fresh_service, purposeful

# two hundred kills and restarts: a minute or more
pytestmark = [pytest.mark.usefixtures("fault_summary"), pytest.mark.slow]


class Mirror:
    """The game as the transcript tells it: config from the journal, state = replay of the acks.

    Also the physical table: the pieces people laid, which stay when the service dies.
    """

    def __init__(self, zones: Iterable[str]):
        self.table_zones = set(zones)
        self.physical: dict[str, set[str]] = {}
        self.game: Any = None
        self.jid: int | None = None
        self.config: Any = None
        self.seats: tuple[int, ...] = ()
        self.moves: list[tuple[int, Any]] = []
        self.state: Any = None

    def adopt(self, rec: Any, upto: int | None = None) -> None:
        """Follow a journaled game: its config, seats and its first `upto` moves (all by default)."""
        self.game = get_game(rec.game)
        self.jid, self.config, self.seats = rec.id, rec.config, tuple(rec.seats)
        self.moves = [(s, a) for s, a in rec.moves][:upto]
        self.state = replay(self.game, self.config, self.moves)

    def ack(self, seat: int, action: Any) -> None:
        """One more acknowledged move."""
        self.state = self.game.apply(self.state, seat, action).state
        self.moves.append((seat, action))

    @property
    def over(self) -> bool:
        """True when there is no game or it has its outcome."""
        return self.game is None or self.game.outcome(self.state) is not None

    def to_physical(self, zone: str) -> str:
        """Logical game zone -> table zone."""
        return f"seat{self.seats[int(zone[4:])]}.pad" if zone.startswith("pad.") else zone

    def to_logical(self, zone: str) -> str | None:
        """Table zone -> logical zone (None: the pad of a seat not playing)."""
        if zone.startswith("seat") and zone.endswith(".pad"):
            seat = int(zone[4:-4])
            return f"pad.{self.seats.index(seat)}" if seat in self.seats else None
        return zone

    def zones(self) -> set[str]:
        """Logical zones the table senses."""
        return {z for z in map(self.to_logical, self.table_zones) if z is not None}

    def layout(self) -> dict[str, frozenset[str]]:
        """The game's pieces on the table, in logical zones."""
        out = {}
        for zone, pieces in self.physical.items():
            logical = self.to_logical(zone)
            if logical is not None and pieces:
                out[logical] = frozenset(pieces)
        return out

    def fixes(self) -> list[Any]:
        """What the table asks the players to do (the same rule as the service's)."""
        zones = self.zones()
        expected = reconcile.restrict(self.game.expected_layout(self.state), zones)
        return reconcile.fixes(expected, reconcile.restrict(self.layout(), zones))

    def leds(self) -> dict[str, str]:
        """The LEDs the service must light now: the first fix, else the game's hints."""
        todo = self.fixes()
        if todo:
            return {self.to_physical(todo[0].zone): "red" if todo[0].kind == "remove" else "green"}
        return {self.to_physical(z): c for z, c in self.game.highlights(self.state).items()}

    def move_piece(self, ev: dict[str, Any]) -> None:
        """A hand lays or lifts a piece (the table keeps it whatever the service does)."""
        if "place" in ev:
            self.physical.setdefault(ev["place"], set()).add(ev["piece"])
        elif "remove" in ev:
            self.physical.get(ev["remove"], set()).discard(ev["piece"])

    def reachable(self, seat: int) -> tuple[list[Any], list[Any]]:
        """Legal actions a player can make (menu or pieces), and the seat's menu actions."""
        menu = [c.action for c in self.game.choices(self.state, seat)]
        zones = self.zones()
        now = reconcile.restrict(self.layout(), zones)
        out = [a for a in self.game.legal_actions(self.state, seat)
               if a in menu or reconcile.restrict(self.game.footprint(self.state, seat, a), zones) != now]
        return out, menu

    def gesture(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """The place/remove events that make `action` with pieces."""
        zones = self.zones()
        foot = reconcile.restrict(self.game.footprint(self.state, seat, action), zones)
        todo = reconcile.fixes(foot, reconcile.restrict(self.layout(), zones))
        return [{"remove" if f.kind == "remove" else "place": self.to_physical(f.zone), "piece": f.piece,
                 "settle": i == len(todo) - 1} for i, f in enumerate(todo)]


@dataclass(frozen=True)
class KillPlan:
    """One game id to play on killed services: how many kills, about how many events apart."""

    game: str
    seats: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    kills: int = 40
    gap: int = 5  # mean events between two kills
    seed: int = 0


class KillRun:
    """Plays games on service processes killed -9 at random moments, resuming each time.

    After every kill the journal must hold every acknowledged move; the restarted service gets the
    pieces the table kept, resumes through its menu, and must reach the state the journaled moves
    give when replayed without interruption, and show the same guidance the rules ask for.
    """

    MAX_EVENTS = 20_000

    def __init__(self, plan: KillPlan, workdir: Path, zygote: Zygote | None, fresh_every: int = 10,
                 boot_kill: float = 0.05, restart_kill: float = 0.15):
        self.plan = plan
        self.rng = random.Random(plan.seed)
        workdir.mkdir(parents=True, exist_ok=True)
        self.journal = workdir / f"{plan.game}.sqlite"
        self.stderr = workdir / f"{plan.game}.stderr"
        self.tmp = workdir / "tmp"
        self.zygote = zygote
        self.fresh_every = fresh_every  # every n-th restart is a fresh interpreter
        self.boot_kill, self.restart_kill = boot_kill, restart_kill
        self.mirror = Mirror(load_config(None).zones)
        self.figures: Counter[str] = Counter()
        self.mismatches: list[str] = []
        self.service: Service | None = None
        self.screens: dict[str, Any] = {}
        self.intent: list[Any] | None = None  # [seat, action, moves when chosen, events spent, menu]
        self.finished: set[int] = set()
        self.pending = 0  # kills not yet shown survived by a checked restart
        self.next_kill = self._gap()

    # -- the run --------------------------------------------------------------------------------
    def run(self) -> Counter[str]:
        """Play until the planned kills are done and a game finished; returns the figures."""
        try:
            self._restart(first=True)
            # a mismatch ends the run: what follows it would only repeat it
            while (self.figures["kills"] < self.plan.kills or not self.finished) and not self.mismatches:
                if self.figures["events"] > self.MAX_EVENTS:
                    raise ServiceError(f"{self.plan.game}: no end after {self.MAX_EVENTS} events")
                self._step()
            assert self.service is not None
            lines, code = self.service.close()
        finally:
            if self.service is not None:
                self.service.stop()
        for line in lines:
            self._absorb(line)
        if code != 0:
            self._mismatch(f"the service ended with exit code {code}")
        self._check_records()
        if "Traceback" in self.stderr.read_text(errors="replace"):
            self._mismatch(f"a service wrote a traceback: see {self.stderr}")
        self.figures["mismatches"] = len(self.mismatches)
        return self.figures

    def _gap(self) -> int:
        return self.rng.randint(1, 2 * self.plan.gap - 1)

    def _mismatch(self, what: str) -> None:
        self.mismatches.append(f"{self.plan.game} after {self.figures['events']} events: {what}")

    def _read_journal(self) -> tuple[Any, Any]:
        """(the unfinished game, the game we follow) read with the product's journal class."""
        journal = Journal(self.journal)
        try:
            current = journal.record(self.mirror.jid) if self.mirror.jid is not None else None
            return journal.unfinished(), current
        finally:
            journal.close()

    # -- events ---------------------------------------------------------------------------------
    def _send(self, event: dict[str, Any], play: bool = True) -> bool:
        """Send one event and take in its line; False if the service was killed around it."""
        assert self.service is not None
        self.figures["events"] += 1
        if play:
            self.mirror.move_piece(event)
        self.service.send(event)
        self.next_kill -= 1
        if self.next_kill <= 0 and self.figures["kills"] < self.plan.kills:
            self.next_kill = self._gap()
            self._kill()
            self._restart()
            return False
        line = self.service.read()
        if line is None:
            raise ServiceError(f"{self.plan.game}: the service died by itself; see {self.stderr}")
        self._absorb(line)
        return True

    def _kill(self, event_sent: bool = True) -> None:
        """SIGKILL at a random moment: before, during or after the last event's handling."""
        assert self.service is not None
        roll = self.rng.random() if event_sent else 0.0
        if roll < 0.3:
            lines: list[dict[str, Any]] = []
        elif roll < 0.85:
            lines = self.service.read_within(self.rng.uniform(0.0, 0.006))
        else:
            lines = [line] if (line := self.service.read()) is not None else []
        lines += self.service.kill()
        self.figures["kills"] += 1
        self.pending += 1
        for line in lines:
            self._absorb(line)

    def _absorb(self, line: dict[str, Any]) -> None:
        """Take in one transcript line: acknowledged moves, then the state digest they must give."""
        if "error" in line:
            raise ServiceError(f"{self.plan.game}: line refused: {line['error']} ({line.get('event')})")
        self.screens = line["screens"]
        m = self.mirror
        acked = line.get("acked", [])
        if "start" in line.get("event", {}) or (acked and acked[0][0] != m.jid):
            unfinished, _ = self._read_journal()
            m.adopt(unfinished, upto=0)
        for gid, idx, seat, action in acked:
            if gid != m.jid or idx != len(m.moves):
                self._mismatch(f"acknowledged move {gid}/{idx} out of order (expected {m.jid}/{len(m.moves)})")
                return
            try:
                m.ack(seat, action)
            except IllegalAction as exc:
                self._mismatch(f"acknowledged move {gid}/{idx} is illegal in the replayed state: {exc}")
                return
            self.figures["acked_moves"] += 1
        if line.get("app") == "game":
            self.figures["states_compared"] += 1
            if line["moves"] != len(m.moves) or line.get("state") != state_digest(m.state):
                self._mismatch(f"service state ({line['moves']} moves) differs from the replay "
                               f"of {len(m.moves)} acknowledged moves")
        if m.game is not None and m.jid is not None and m.over and m.jid not in self.finished:
            self.finished.add(m.jid)
            self.figures["games_finished"] += 1

    # -- restarts -------------------------------------------------------------------------------
    def _restart(self, first: bool = False) -> None:
        """Check the journal, start a new service, lay the kept pieces back, resume the game."""
        m = self.mirror
        errors = len(self.mismatches)
        unfinished, current = self._read_journal()
        if current is not None:
            journaled = [(s, a) for s, a in current.moves]
            self.figures["acked_moves_checked"] += len(m.moves)  # every one acknowledged so far, after each kill
            if journaled[:len(m.moves)] != m.moves:
                kept = next((i for i, (a, b) in enumerate(zip(journaled, m.moves)) if a != b),
                            min(len(journaled), len(m.moves)))
                self.figures["acked_moves_lost"] += len(m.moves) - kept
                self._mismatch(f"acknowledged moves missing from the journal ({len(journaled)} journaled, "
                               f"{len(m.moves)} acknowledged)")
            self.figures["committed_unacked"] += max(0, len(journaled) - len(m.moves))
        if unfinished is not None:
            m.adopt(unfinished)
        elif current is not None and current.status == "playing":
            self._mismatch("the game being played is not offered for resume")
        self.intent = None
        self.figures["restarts"] += 0 if first else 1
        fresh = self.zygote is None or self.figures["restarts"] % self.fresh_every == 0
        if fresh:
            self.service = fresh_service(self.journal, self.plan.seed, self.stderr, self.tmp)
        else:
            self.service = self.zygote.spawn(self.journal, self.plan.seed, self.stderr)
        self.figures["fresh_processes" if fresh else "forked_processes"] += 1
        more = not first and self.figures["kills"] < self.plan.kills
        # at least one kill while booting in each run: past half the kills, if chance has not made
        # one (Mata Hari's runs resume with few events, so chance alone missed it in some runs)
        owed = more and self.figures["kills"] >= self.plan.kills // 2 \
            and not self.figures["kills_while_booting"] + self.figures["kills_while_resuming"]
        if more and (owed or self.rng.random() < self.boot_kill):  # while it opens the journal, the pty...
            time.sleep(self.rng.uniform(0.0, 0.05))
            self.figures["kills_while_booting"] += 1
            self._kill(event_sent=False)
            return self._restart()
        relay = [{"place": z, "piece": p, "settle": False}
                 for z in sorted(m.physical) for p in sorted(m.physical[z])]
        if relay:
            relay[-1]["settle"] = True
        events = relay + ([{"resume": True}] if unfinished is not None else [])
        kill_at = self.rng.randrange(len(events)) if events and self.rng.random() < self.restart_kill else -1
        line: dict[str, Any] = {}
        for i, event in enumerate(events):
            if more and i == kill_at:
                self.service.send(event)
                self.figures["kills_while_resuming"] += 1
                self._kill()
                return self._restart()
            self.figures["events"] += 1
            self.service.send(event)
            line = self.service.read()
            if line is None:
                raise ServiceError(f"{self.plan.game}: the service died by itself; see {self.stderr}")
            self._absorb(line)
        if unfinished is not None:
            self.figures["resumes"] += 1
            if line.get("app") != "game":
                self._mismatch("the resumed game did not start")
            else:  # its state digest was compared with the replay of the journaled moves (_absorb)
                self.figures["resumed_states_compared"] += 1
                if line["leds"] != m.leds():
                    self._mismatch(f"after resume the table shows {line['leds']}, the rules ask {m.leds()}")
            self.figures["resumed_with_guidance" if m.fixes() else "resumed_board_matching"] += 1
        if errors == len(self.mismatches):
            self.figures["kills_survived"] += self.pending
        self.pending = 0

    # -- playing --------------------------------------------------------------------------------
    def _step(self) -> None:
        """One event of play: start a game, follow the table's guidance, or act toward an intent."""
        m = self.mirror
        if m.over:
            self.intent = None
            spec = {"game": self.plan.game, "seats": list(self.plan.seats), "options": self.plan.options}
            self._send({"start": spec}, play=False)
            return
        todo = m.fixes()
        if todo:
            fix = todo[0]
            self.figures["guidance_followed"] += 1
            kind = "remove" if fix.kind == "remove" else "place"
            self._send({kind: m.to_physical(fix.zone), "piece": fix.piece})
            return
        if self.intent is None or self.intent[2] != len(m.moves):
            seats = sorted(s for s in m.game.to_act(m.state) if s != CHANCE)
            self.rng.shuffle(seats)
            for seat in seats:
                reach, menu = m.reachable(seat)
                if reach:
                    act = purposeful(m.game, m.state, seat, reach, self.rng)
                    self.intent = [seat, act, len(m.moves), 0, menu]
                    break
            else:  # only a countdown can move the game on
                self.figures["waits"] += 1
                self._send({"advance": 1.0}, play=False)
                return
        assert self.intent is not None
        seat, action, _, _, menu = self.intent
        self.intent[3] += 1
        if self.intent[3] > 100:
            raise ServiceError(f"{self.plan.game}: {action} not taken after 100 events")
        if action not in menu:
            for event in m.gesture(seat, action):
                if not self._send(event):
                    return
            if len(m.moves) == self.intent[2]:
                self._mismatch(f"the table did not take the gesture of {action}")
            return
        table_seat = str(m.seats[seat])
        screen = self.screens.get(table_seat, {})
        if screen.get("menu") == ["Non", "Oui"]:  # the table asks again before an irrevocable choice
            button = "right" if screen.get("cursor", 0) == 0 else "ok"
            self._send({"press": int(table_seat), "button": button}, play=False)
            return
        labels = [c.label.get("fr") for c in m.game.choices(m.state, seat)]
        last = last_human_move(m.moves, frozenset())
        if last is not None and m.moves[last][0] == seat:  # its author may ask to take it back
            labels.append("Annuler le dernier coup")
        if screen.get("menu") != labels:
            self._mismatch(f"seat {table_seat} shows menu {screen.get('menu')}, the replay gives {labels}")
        target, cursor = menu.index(action), screen.get("cursor", 0)
        if "banner" in screen or cursor == target:  # a message covers the menu: OK clears it
            button = "ok"
        else:
            button = "right" if (target - cursor) % len(menu) <= len(menu) // 2 else "left"
        self._send({"press": int(table_seat), "button": button}, play=False)

    def _check_records(self) -> None:
        """The journal holds every acknowledged move; each finished game replays to its outcome."""
        journal = Journal(self.journal)
        try:
            m = self.mirror
            self.figures["acked_moves_checked"] += len(m.moves) if m.jid is not None else 0
            if m.jid is not None and [(s, a) for s, a in journal.record(m.jid).moves][:len(m.moves)] != m.moves:
                self._mismatch("acknowledged moves missing from the journal at the end")
            for rec in journal.games():
                if rec.status == "finished":
                    game = get_game(rec.game)
                    outcome = game.outcome(replay(game, rec.config, rec.moves))
                    if outcome is None or json.loads(json.dumps(outcome.to_json())) != rec.outcome:
                        self._mismatch(f"game {rec.id}: the record does not replay to its outcome")
        finally:
            journal.close()


PLANS = (KillPlan("droles-de-zebres", (2, 7), kills=40, gap=4, seed=11),
         KillPlan("zop", (1, 2), kills=40, gap=5, seed=12),
         KillPlan("spywhere", (1, 2), kills=40, gap=3, seed=13),
         KillPlan("operation-zebre", (1, 2, 3), kills=40, gap=10, seed=14),
         KillPlan("mata-hari", (1, 3, 5, 7), kills=40, gap=8, seed=15))


def run_plans(plans: tuple[KillPlan, ...], workdir: Path, workers: int = 2) -> dict[str, KillRun | BaseException]:
    """Every plan's KillRun (or what it raised), `workers` at a time on one zygote."""
    zygote = Zygote(workdir / "tmp", workdir / "zygote.stderr")

    def one(plan: KillPlan) -> KillRun | BaseException:
        run = KillRun(plan, workdir / plan.game, zygote)
        try:
            run.run()
        except Exception as exc:  # reported by the plan's own test
            exc.add_note(f"figures so far: {dict(run.figures)}")
            return exc
        return run

    try:
        with ThreadPoolExecutor(workers) as pool:
            return dict(zip([p.game for p in plans], pool.map(one, plans)))
    finally:
        zygote.close()


@pytest.fixture(scope="module")
def kill_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, KillRun | BaseException]:
    """All five games killed and resumed (two at a time: one plays while the other's service works)."""
    return run_plans(PLANS, tmp_path_factory.mktemp("kill"))


@pytest.mark.parametrize("plan", PLANS, ids=[p.game for p in PLANS])
def test_kill_minus_nine_loses_no_acknowledged_move(kill_runs, plan):
    run = kill_runs[plan.game]
    if isinstance(run, BaseException):
        raise run
    figs = run.figures
    faultkit.record("kill -9", kills=figs["kills"], kills_survived=figs["kills_survived"],
                    mismatches=figs["mismatches"], acked_moves=figs["acked_moves"],
                    committed_unacked=figs["committed_unacked"], resumes=figs["resumes"],
                    games_finished=figs["games_finished"], fresh_processes=figs["fresh_processes"],
                    events=figs["events"])
    assert run.mismatches == [], "\n".join(run.mismatches[:10])
    assert figs["kills"] >= plan.kills and figs["kills_survived"] == figs["kills"]
    assert figs["resumes"] >= plan.kills // 2, "most kills must hit a game in progress"
    assert figs["games_finished"] >= 1 and figs["fresh_processes"] >= 2
    assert figs["kills_while_resuming"] + figs["kills_while_booting"] >= 1


def test_a_kill_while_resuming_is_resumed_again(tmp_path):
    """Kill the service between laying the pieces back and choosing "Reprendre", every time."""
    plan = KillPlan("droles-de-zebres", (3, 4), kills=6, gap=6, seed=21)
    zygote = Zygote(tmp_path / "tmp", tmp_path / "zygote.stderr")
    try:
        run = KillRun(plan, tmp_path / "ddz", zygote, boot_kill=0.3, restart_kill=1.0)
        figs = run.run()
    finally:
        zygote.close()
    assert run.mismatches == [], "\n".join(run.mismatches[:10])
    assert figs["kills_while_resuming"] >= 1 and figs["kills_survived"] == figs["kills"]
