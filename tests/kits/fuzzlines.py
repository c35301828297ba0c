"""Seeded random input lines for the `rules` and `script` commands, and a run that counts what
they did: refused, accepted, a traceback (an exception out of the command, or the table's loop
recovering from one), a hang (more than HANG_SECONDS of one line).

Lines are of four kinds: a legal line as it is, a legal line with one value changed (a key dropped or added, a value of
another type, a huge or non-finite number, a deep or long value), arbitrary JSON, and arbitrary
bytes. `rules` files are a seeded legal prefix of a game (chance drawn as `rules` draws it)
followed by one random line, so the damage reaches the rules deep in a game; `script` lines go to
one simulated table that lives through all of them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import random
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HANG_SECONDS = 10.0  # wall time of one line (its whole file for `rules`) counted as a hang

ODD: list[Any] = [None, True, False, 0, -1, 1.5, 2**63, -(2**70), 10**30, 1e308, -1e308, math.inf, -math.inf, math.nan,
       "", "x" * 5000, "\u0000", "\ud7ff\u2028", [], {}, [[[[[[]]]]]], {"": {"": {}}}, "A1", "seat1.pad", "ok"]


class Hang(Exception):
    """A line took more than HANG_SECONDS."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise Hang in this (main) thread if the block takes longer than `seconds` of wall time."""
    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"more than {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def junk(rng: random.Random, depth: int = 0) -> Any:
    """An arbitrary JSON value (non-finite numbers included, as Python's json writes them)."""
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice(ODD) if rng.random() < 0.5 else rng.choice(
            [rng.randint(-5, 300), rng.uniform(-1e3, 1e3), "".join(rng.choice("A1B2éz ") for _ in range(rng.randint(0, 8)))])
    if roll < 0.7:
        return [junk(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["seat", "action", "type", "piece", "zone", "x", ""]): junk(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def mutate(value: Any, rng: random.Random) -> Any:
    """`value` (a JSON object) with one thing changed somewhere inside it."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        out = dict(value)
        roll = rng.random()
        if roll < 0.2:
            del out[key]
        elif roll < 0.3:
            out[rng.choice(["extra", "", "type", "seat"])] = junk(rng)
        elif roll < 0.6 and isinstance(out[key], (dict, list)) and out[key]:
            out[key] = mutate(out[key], rng)
        else:
            out[key] = junk(rng)
        return out
    if isinstance(value, list) and value:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        out_list[i] = mutate(out_list[i], rng) if rng.random() < 0.5 else junk(rng)
        return out_list
    return junk(rng)


def random_line(legal: dict[str, Any] | None, rng: random.Random) -> bytes:
    """One random line: a legal one as it is or mutated (most), arbitrary JSON, or arbitrary bytes."""
    roll = rng.random()
    if legal is not None and roll < 0.15:  # the table (or the game) moves on: the next lines meet new states
        return json.dumps(legal).encode()
    if legal is not None and roll < 0.7:
        return json.dumps(mutate(legal, rng)).encode()
    if roll < 0.9:
        return json.dumps(junk(rng)).encode()
    if rng.random() < 0.1:
        return rng.choice([b"[" * 50_000, b'{"seat": ' + b"9" * 5000 + b"}", b"\xff\xfe", b"x" * 100_000])
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 60))).replace(b"\n", b" ")


class Tally:
    """What a run of random lines did."""

    def __init__(self) -> None:
        self.figures: Counter[str] = Counter()
        self.problems: list[str] = []

    def run(self, what: str, line: bytes, body: Callable[[], str]) -> None:
        """Run one line's `body` (returns "accepted" or "refused"), counting a traceback or a hang."""
        self.figures["lines"] += 1
        started = time.monotonic()
        try:
            with deadline(HANG_SECONDS):
                self.figures[body()] += 1
        except Hang:
            self.figures["hangs"] += 1
            self.problems.append(f"{what}: hang on {line[:200]!r}")
        except Exception:  # the point: nothing may escape, each one is a traceback a user would see
            self.figures["tracebacks"] += 1
            self.problems.append(f"{what}: traceback on {line[:200]!r}\n{traceback.format_exc(limit=8)}")
        self.figures["slowest_ms"] = max(self.figures["slowest_ms"], round(1000 * (time.monotonic() - started)))


# -- rules ----------------------------------------------------------------------------------------
def rules_lines(count: int, seed: int, work: Path) -> Tally:
    """`count` random lines, each at the end of a legal prefix of a random game, through `rules`."""
    from firmware_host.commands import rules as cli_rules
    from games.core import CHANCE, GameConfig, to_json
    from games.playout import sample_chance
    from games.registry import game_ids, get_game

    tally = Tally()
    rng = random.Random(seed)
    path = work / "actions.jsonl"
    games = sorted(game_ids())
    for n in range(count):
        game = get_game(games[n % len(games)])
        players = rng.choice([p for p in range(1, 9) if _plays(game, p)])
        config = game.validate_config(GameConfig(players, {}, n))
        chance = random.Random(n)  # as `rules` draws chance from its --seed
        state = game.initial_state(config)
        lines: list[bytes] = []
        for _ in range(rng.randint(0, 60)):
            if game.outcome(state) is not None:
                break
            if CHANCE in game.to_act(state):
                state = game.apply(state, CHANCE, sample_chance(game, state, chance)).state
                continue
            seat = rng.choice(sorted(game.to_act(state)))
            act = rng.choice(game.legal_actions(state, seat))
            lines.append(json.dumps({"seat": seat, "action": to_json(act)}).encode())
            state = game.apply(state, seat, act).state
        legal = None
        if game.outcome(state) is None and CHANCE not in game.to_act(state):
            seat = rng.choice(sorted(game.to_act(state)))
            legal = {"seat": seat, "action": to_json(rng.choice(game.legal_actions(state, seat)))}
        bad = random_line(legal, rng)
        path.write_bytes(b"\n".join([*lines, bad]) + b"\n")
        args = argparse.Namespace(game=game.id, players=players, seed=n, option=[], actions=str(path),
                                  random_playout=False, legal=False, computer=[])

        def body() -> str:
            out = io.StringIO()
            code = cli_rules.run(args, out)
            last = out.getvalue().rstrip("\n").rpartition("\n")[2]
            if code not in (0, cli_rules.EXIT_USAGE, cli_rules.EXIT_ILLEGAL) or ("error" in json.loads(last)) != bool(code):
                raise AssertionError(f"exit {code} with the last line {last[:200]}")
            return "refused" if code else "accepted"

        tally.run(f"rules {game.id} {players}p", bad, body)
    return tally


def _plays(game: Any, players: int) -> bool:
    from games.core import BadConfig, GameConfig

    try:
        game.validate_config(GameConfig(players, {}, 0))
    except BadConfig:
        return False
    return True


# -- script ---------------------------------------------------------------------------------------
def script_lines(count: int, seed: int, work: Path) -> Tally:
    """`count` random lines through one `script` runner on a simulated table with a real journal;
    a refused line must change nothing. Every twentieth line starts a game again (a random game
    among the five), so most lines land in a game in progress."""
    from firmware_host.apps.session import GameSession
    from firmware_host.commands.script import ScriptRunner, state_digest
    from firmware_host.commands.script_events import KEYS
    from firmware_host.loop.simulator import FakeClock, SimTable
    from firmware_host.storage import inputs
    from firmware_host.storage.journal import Journal
    from games.registry import game_ids, get_game

    tally = Tally()
    rng = random.Random(seed)
    clock = FakeClock()
    journal = Journal(work / "script.sqlite")
    sim = SimTable(clock=clock, journal=journal)
    # a mutated `png` line may name a relative path: it lands in the run's folder, not the caller's
    stack = contextlib.ExitStack()
    stack.enter_context(contextlib.chdir(work))
    try:
        assert sim.wait_ready()
        runner = ScriptRunner(sim, clock)
        games = sorted(game_ids())
        pieces = [p for _, p in sim.registry]
        zones = sorted(sim.runtime.table.zones)

        def snapshot() -> tuple[Any, ...]:
            app = sim.runtime.app
            state = (state_digest(app.state), len(app.moves)) if isinstance(app, GameSession) else None
            return type(app).__name__, state

        def legal_event() -> dict[str, Any]:
            kind = rng.choice(sorted(KEYS))
            seats = list(sim.runtime.seat_ids)
            events: dict[str, dict[str, Any]] = {
                "place": {"place": rng.choice(zones), "piece": rng.choice(pieces)},
                "remove": {"remove": rng.choice(zones), "piece": rng.choice(pieces)},
                "press": {"press": rng.choice(seats), "button": rng.choice(["ok", "left", "right"])},
                "long": {"long": rng.choice(seats)}, "advance": {"advance": rng.choice([0.1, 1.0, 5.0])},
                "resume": {"resume": rng.random() < 0.5}, "reader": {"reader": "stats"},
                "screen": {"screen": rng.choice(seats), "fail": 1}, "comment": {"comment": "x"},
                "png": {"png": rng.choice(seats), "path": str(work / "shot.png")},
            }
            return events.get(kind, {"comment": kind})

        for n in range(count):
            if n % 20 == 0:
                game = get_game(games[(n // 20) % len(games)])
                players = next(p for p in range(2, 9) if _plays(game, p))
                runner.line(json.dumps({"start": {"game": game.id, "seats": list(range(1, players + 1))}}), "start")
            line = random_line(legal_event(), rng)
            before, errors = snapshot(), sim.runtime.errors

            def body(line: bytes = line, before: tuple[Any, ...] = before, errors: int = errors) -> str:
                # read as the command reads its file: bounded, UTF-8 checked, blank lines and comments skipped
                read = [t for _, t in inputs.lines(io.BytesIO(line + b"\n"), "script")
                        if isinstance(t, inputs.InputError) or (t.strip() and not t.lstrip().startswith("#"))]
                if not read:
                    return "skipped"
                entry = runner.line(read[0], f"script:{n + 1}")
                if sim.runtime.errors != errors:
                    raise AssertionError("the table's loop raised (a traceback in its log) and recovered")
                if "error" in entry:
                    if snapshot() != before:
                        raise AssertionError(f"a refused line changed the table: {entry['error'][:200]}")
                    return "refused"
                return "accepted"

            tally.run("script", line, body)
    finally:
        sim.close()
        journal.close()
        stack.close()
    return tally
