"""Helpers of the fault suites: service processes to kill, a fork server, figures for the summary.

The service under test is `zebra-table script - --journal J --acks`: hardware events go in as JSON
lines on its stdin, one transcript line comes out per event with the moves the journal committed
while handling it ("acked") and a digest of the game state. A kill -9 suite needs hundreds of
restarts, and a fresh interpreter spends ~0.4 s importing; so most restarts are forked from a
`Zygote`, a process that imported everything once and forks a child that runs the very same
`firmware_host.commands.main.main(["script", ...])` on pipes. Some restarts use a fresh interpreter
(`python -m firmware_host.commands.main script`) so the command's own start is killed and resumed too.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
READ_TIMEOUT = 60.0  # seconds a transcript line may take on a loaded machine before we give up
SUMMARY: dict[str, Counter[str]] = {}  # suite -> figures, printed by tests/conftest.py
SUMMARY_FILE: Path | None = None  # set by the suites: where the JSON summary is written


class ServiceError(AssertionError):
    """The service process did something a fault suite does not allow (error line, crash, hang)."""


# ---------------------------------------------------------------------------------------------
# The summary


def record(suite: str, **figures: int) -> None:
    """Add figures to a suite's summary and rewrite the JSON file."""
    SUMMARY.setdefault(suite, Counter()).update(figures)
    if SUMMARY_FILE is not None:
        SUMMARY_FILE.write_text(json.dumps(summary_json(), indent=1, sort_keys=True) + "\n")


def summary_json() -> dict[str, dict[str, int]]:
    """The figures as plain JSON."""
    return {suite: dict(sorted(figs.items())) for suite, figs in sorted(SUMMARY.items())}


def summary_lines() -> list[str]:
    """The summary as text: the headline figures first, then every suite's counters."""
    total = Counter[str]()
    for figs in SUMMARY.values():
        total.update(figs)
    lines = [f"kills survived {total['kills_survived']}/{total['kills']}, frames injected "
             f"{total['frames_injected']}, reader reconnects {total['reconnects']}, "
             f"screen recoveries {total['screen_recoveries']}, bad inputs {total['bad_inputs']}, "
             f"power cuts {total['power_cuts']}, "
             f"mismatches {total['mismatches']}"]
    for suite, figs in sorted(SUMMARY.items()):
        lines.append(f"  {suite}: " + ", ".join(f"{k} {v}" for k, v in sorted(figs.items())))
    if SUMMARY_FILE is not None:
        lines.append(f"  (JSON: {SUMMARY_FILE})")
    return lines


# ---------------------------------------------------------------------------------------------
# One service process


class Service:
    """A running `zebra-table script` process: JSON events in, transcript lines out."""

    def __init__(self, pid: int, stdin_fd: int, stdout_fd: int, reap: Any):
        self.pid = pid
        self._in = stdin_fd
        self._out = stdout_fd
        self._reap = reap  # () -> exit status as returncode (negative = killed by that signal)
        self._buf = b""
        self.dead = False

    def send(self, event: dict[str, Any]) -> None:
        """Write one event line (a dead process's closed pipe is ignored: the kill is the test)."""
        data = (json.dumps(event, ensure_ascii=False) + "\n").encode()
        try:
            while data:
                data = data[os.write(self._in, data):]
        except BrokenPipeError:
            pass

    def read(self, timeout: float = READ_TIMEOUT) -> dict[str, Any] | None:
        """The next transcript line, None at end of output; ServiceError after `timeout`."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ServiceError(f"service {self.pid}: no transcript line within {timeout:.0f} s")
            ready, _, _ = select.select([self._out], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._out, 65536)
            if not chunk:
                return None  # a partial last line is not an acknowledgement
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def read_within(self, seconds: float) -> list[dict[str, Any]]:
        """Every complete line that arrives within `seconds` (stops early at end of output)."""
        out: list[dict[str, Any]] = []
        deadline = time.monotonic() + seconds
        while True:
            if b"\n" not in self._buf:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([self._out], [], [], max(0.0, left))
                if not ready:
                    return out
                chunk = os.read(self._out, 65536)
                if not chunk:
                    return out
                self._buf += chunk
                continue
            line = self.read(1.0)
            if line is not None:
                out.append(line)

    def kill(self) -> list[dict[str, Any]]:
        """SIGKILL, then the lines it wrote before dying; checks that the signal is what ended it."""
        os.kill(self.pid, signal.SIGKILL)  # not reaped yet, so this pid cannot be another process
        lines = []
        while (line := self.read()) is not None:
            lines.append(line)
        status = self._finish()
        if status != -signal.SIGKILL:
            raise ServiceError(f"service {self.pid} ended with status {status}, not by the kill")
        return lines

    def stop(self) -> None:
        """Kill and reap without checks (clean-up after a failure)."""
        if not self.dead:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._finish()

    def close(self) -> tuple[list[dict[str, Any]], int]:
        """End of input: the remaining lines and the exit code."""
        os.close(self._in)
        self._in = -1
        lines = []
        while (line := self.read()) is not None:
            lines.append(line)
        return lines, self._finish()

    def _finish(self) -> int:
        status = self._reap()
        for fd in (self._in, self._out):
            if fd >= 0:
                os.close(fd)
        self._in = self._out = -1
        self.dead = True
        return status


def _script_argv(journal: Path, seed: int) -> list[str]:
    return ["script", "-", "--journal", str(journal), "--seed", str(seed), "--acks"]


def _child_env(tmp: Path) -> dict[str, str]:
    # the virtual reader's pty folder outlives a kill -9: keep those in the test's own tmp
    tmp.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "TMPDIR": str(tmp), "PYTHONUNBUFFERED": "1"}


def fresh_service(journal: Path, seed: int, stderr: Path, tmp: Path) -> Service:
    """`python -m firmware_host.commands.main script - --acks` in a new interpreter."""
    with open(stderr, "ab") as err:
        proc = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", *_script_argv(journal, seed)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, cwd=ROOT,
                                env=_child_env(tmp))
    assert proc.stdin is not None and proc.stdout is not None
    # the Service owns the raw pipe ends: closing its stdin must be the child's end of input
    stdin_fd, stdout_fd = os.dup(proc.stdin.fileno()), os.dup(proc.stdout.fileno())
    proc.stdin.close()
    proc.stdout.close()
    proc.stdin = proc.stdout = None
    return Service(proc.pid, stdin_fd, stdout_fd, lambda: proc.wait(READ_TIMEOUT))


# ---------------------------------------------------------------------------------------------
# The zygote: a warm process that forks service children on request


class Zygote:
    """Forks `zebra-table script` children from a process that already imported everything."""

    def __init__(self, tmp: Path, stderr: Path):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        stderr.parent.mkdir(parents=True, exist_ok=True)
        with open(stderr, "ab") as err:
            self.proc = subprocess.Popen([sys.executable, __file__, "--zygote", str(theirs.fileno())],
                                         pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                         stdout=err, stderr=err, cwd=ROOT, env=_child_env(tmp))
        theirs.close()
        self.sock = ours
        self.lock = threading.Lock()  # one request/answer at a time
        ready = self._ask({"ping": True}, [])
        if not ready.get("ready"):
            raise ServiceError(f"zygote did not start: {ready}")

    def _ask(self, msg: dict[str, Any], fds: list[int]) -> dict[str, Any]:
        with self.lock:
            socket.send_fds(self.sock, [json.dumps(msg).encode()], fds)
            self.sock.settimeout(READ_TIMEOUT)
            answer = self.sock.recv(4096)
        if not answer:
            raise ServiceError("zygote went away")
        return json.loads(answer)

    def spawn(self, journal: Path, seed: int, stderr: Path) -> Service:
        """A forked service child on new pipes."""
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            pid = self._ask({"spawn": _script_argv(journal, seed)}, [in_r, out_w, err])["pid"]
        finally:
            for fd in (in_r, out_w, err):
                os.close(fd)
        return Service(pid, in_w, out_r, lambda: self._ask({"wait": pid}, [])["status"])

    def close(self) -> None:
        """Stop the zygote (it kills and reaps any child left)."""
        self.sock.close()
        self.proc.wait(READ_TIMEOUT)


def _zygote(sock_fd: int) -> None:
    """The zygote's loop: warm up, then fork a child per "spawn", reap on "wait"."""
    from firmware_host.commands import main as cli
    from firmware_host.screens.frames import blank_frame
    from firmware_host.screens.render import render_frame
    from firmware_host.storage.tags import all_game_pieces, sim_registry
    from games.core import tr
    for module in ("gpiozero.pins.mock", "luma.core.device", "serial"):  # not luma.oled: it starts threads
        importlib.import_module(module)  # what every child needs, loaded once
    cli.build_parser()  # imports every command module
    sim_registry(all_game_pieces())  # imports every game
    render_frame(blank_frame(tr("é", "é"), tr("à", "à")))  # loads the fonts
    assert threading.active_count() == 1, "the zygote must not fork with threads running"
    sock = socket.socket(fileno=sock_fd)
    children: set[int] = set()
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 65536, 3)
        except ConnectionResetError:
            msg, fds = b"", []
        if not msg:
            break
        cmd = json.loads(msg)
        if "spawn" in cmd:
            pid = os.fork()
            if pid == 0:
                _child(cmd["spawn"], fds, sock, cli.main)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            sock.send(json.dumps({"pid": pid}).encode())
        elif "wait" in cmd:
            _, status = os.waitpid(cmd["wait"], 0)
            children.discard(cmd["wait"])
            sock.send(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode())
        else:
            sock.send(json.dumps({"ready": True}).encode())
    for pid in children:  # the test went away: leave nothing running
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _child(argv: list[str], fds: list[int], sock: socket.socket, main: Any) -> None:
    """In the forked child: the pipes become stdin/stdout/stderr, then the command runs."""
    code = 70
    try:
        sock.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the child's own stdio
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=1)  # noqa: SIM115
        code = main(argv)
        sys.stdout.flush()
    except BaseException:  # reported on stderr, the exit code says it failed
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)


# ---------------------------------------------------------------------------------------------
# Playing a game through a service process, from its transcript alone


def purposeful(game: Any, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """Like a group that means to play: rarely takes a card back, censors enough to stay safe."""
    weights = {"withdraw": 0.02, "uncensor": 0.1, "no_card": 0.3, "censor": 3.0, "confirm": 2.0, "read": 3.0}
    return rng.choices(legal, [weights.get(a["type"], 1.0) for a in legal])[0]


# ---------------------------------------------------------------------------------------------
# Whole games on the simulated table (tests/kits/tabledriver.py), as scripts to replay with faults


@dataclass(frozen=True)
class GameCase:
    """A game set-up for the fault suites: game id, table seats, options, seed."""

    game: str
    seats: tuple[int, ...]
    options: tuple[tuple[str, Any], ...] = ()
    seed: int = 0

    @property
    def start(self) -> dict[str, Any]:
        """The script event that starts it."""
        return {"start": {"game": self.game, "seats": list(self.seats), "options": dict(self.options)}}


CASES = (GameCase("droles-de-zebres", (2, 7), seed=5), GameCase("zop", (1, 2), seed=3),
         GameCase("spywhere", (1, 2), seed=8), GameCase("operation-zebre", (1, 2, 3), seed=3),
         GameCase("mata-hari", (1, 3, 5, 7), seed=3))


@dataclass(frozen=True)
class Reference:
    """A fault-free whole game: the events people made, and where the game ended."""

    events: tuple[dict[str, Any], ...]
    state: str  # digest of the final state
    outcome: dict[str, Any]
    moves: int


def play_step(driver: Any, pick: Any = purposeful) -> bool:
    """One step of `Driver.play`: follow the table, let a countdown run out, or act. False once over."""
    from games.core import CHANCE

    s = driver.session
    if s.over:
        return False
    if driver.follow_instruction():
        return True
    if s.timers and driver.rng.random() < 0.5:  # nobody answers in time
        driver.expired += 1
        driver.send({"advance": round(min(t.deadline for t in s.timers) - driver.clock() + 0.3, 2)})
        return True
    seat = driver.rng.choice(sorted(x for x in s.game.to_act(s.state) if x != CHANCE))
    driver.do(seat, pick(s.game, s.state, seat, driver.reachable(seat), driver.rng))
    return True


_REFERENCES: dict[GameCase, Reference] = {}


def reference_run(case: GameCase) -> Reference:
    """The case played to the end on an in-process simulated table (cached: suites share it)."""
    from firmware_host.commands.script import state_digest
    from tests.kits.tabledriver import Driver

    if case not in _REFERENCES:
        driver = Driver(seed=case.seed)
        try:
            driver.send(case.start)
            for _ in range(5000):
                if not play_step(driver):
                    break
            session = driver.session
            outcome = session.game.outcome(session.state)
            assert outcome is not None, f"{case.game}: no outcome after 5000 steps"
            _REFERENCES[case] = Reference(tuple(driver.events), state_digest(session.state),
                                          outcome.to_json(), len(session.moves))
        finally:
            driver.close()
    return _REFERENCES[case]


def start_script(events: Iterable[dict[str, Any]], workdir: Path, name: str, seed: int) -> subprocess.Popen[bytes]:
    """`zebra-table script FILE --acks` started in a new process (transcript in `<name>.out`)."""
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / f"{name}.jsonl"
    script.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events))
    argv = [sys.executable, "-m", "firmware_host.commands.main", "script", str(script), "--seed", str(seed),
            "--journal", str(workdir / f"{name}.sqlite"), "--acks", "-o", str(workdir / f"{name}.out")]
    with open(workdir / f"{name}.stderr", "wb") as err:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err, stderr=err, cwd=ROOT,
                                env=_child_env(workdir / "tmp"))


def transcript(workdir: Path, name: str) -> list[dict[str, Any]]:
    """The transcript lines a script process wrote."""
    return [json.loads(line) for line in (workdir / f"{name}.out").read_text().splitlines()]


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "--zygote":
    _zygote(int(sys.argv[2]))
