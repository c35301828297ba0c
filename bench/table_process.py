"""The table's process-level figures for bench_table.py: a fresh process's cold start to its first
frames, a process's RSS with a game in progress, and a started table's CPU while nobody plays
(each measured in a child interpreter)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from benchkit import ROOT

from firmware_host.storage.tags import sim_registry
from games.registry import get_game

# what `zebra-table run` does, on the simulated hardware: imports, config, tag registry, journal, table
SIM_TABLE = """
import sys, tempfile, threading, time
from pathlib import Path
from firmware_host.commands.main import build_parser
build_parser("run")  # what `zebra-table run` imports
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import TagRegistry
from firmware_host.loop.table import Table
config = load_config(None)
table = Table(config, TagRegistry(), simulated=True, journal=Journal(Path(tempfile.mkdtemp()) / "j.sqlite"))
"""

COLD_START = SIM_TABLE + """
from drivers.reader.virtual import wait_until
runtime = table.start()
wait_until(lambda: runtime.queue.qsize() > 0 or table.link.state.value == "ready", 10)
runtime.drain()
runtime.refresh()
table.screens.flush()
cpu = time.process_time()
games = sorted({m.split(".")[1] for m in sys.modules if m.startswith("games.")} - {"core", "registry", "playout"})
print(cpu, len(games))
table.close()
"""

RSS = """
import sys, tempfile
from pathlib import Path
from firmware_host.commands.main import build_parser
build_parser("run")  # what `zebra-table run` imports
from firmware_host.storage.tags import TagRegistry
sys.path.insert(0, "bench")
from bench_table import Bench, Figures, seats_for
bench = Bench(Path(tempfile.mkdtemp()) / "j.sqlite", registry=TagRegistry.load(TAGS))
bench.play(GAME, seats_for(GAME), 80, 0, Figures(), leave=False)
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(int(status["VmRSS"].split()[0]), int(status["VmHWM"].split()[0]))
bench.close()
"""

IDLE = SIM_TABLE + """
from firmware_host.loop.affinity import pin_table
from firmware_host.loop.events import Stop
pin_table(config.pin_cpu)
table.start()
loop = threading.Thread(target=table.runtime.run, kwargs={"on_idle": table.poll, "max_wait": 0.5}, daemon=True)
loop.start()  # the service's loop (`zebra-table run` runs it on its main thread)
time.sleep(SETTLE)  # the start-up's work done: the reader's handshake, the first frames and idle work
# the simulated reader controller's thread is the simulator's, not the table's
sim = [t for t in threading.enumerate() if t.name == "virtual-reader"]
def spent():
    return time.process_time() - sum(time.clock_gettime(time.pthread_getcpuclockid(t.ident)) for t in sim)
cpu, wall = spent(), time.monotonic()
time.sleep(SECONDS)
cpu, wall = spent() - cpu, time.monotonic() - wall
threads = threading.active_count()
table.runtime.post(Stop())
loop.join(5)
table.close()
print(cpu / wall * 1000, threads)
"""

def cold_start(work: Path) -> tuple[float, float, int]:
    """A fresh table process up to its first frames on the screens: CPU s, wall s, game modules.

    The table runs the package pip installed, whose bytecode pip compiled at install time: the
    process gets a bytecode cache of its own (written by the first process, the install's
    stand-in) even where the environment says not to write one (PYTHONDONTWRITEBYTECODE)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env["TMPDIR"] = str(work)  # its journal's folder goes with the bench's, removed at the end
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", COLD_START], capture_output=True, text=True, cwd=ROOT, check=True,
                         env=env)
    wall = time.perf_counter() - t
    cpu, games = out.stdout.split()
    return float(cpu), wall, int(games)


def service_rss(game: str, work: Path) -> tuple[float, float]:
    """RSS and its peak (MB) of a fresh table process with a `game` in progress (80 events played),
    its tags read from a file as on a table."""
    tags = sim_registry(get_game(game).pieces()).save(work / "tags.json")
    code = RSS.replace("GAME", repr(game)).replace("TAGS", repr(str(tags)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={**os.environ, "TMPDIR": str(work)})  # its journal goes with the bench's folder
    rss, peak = out.stdout.split()
    return int(rss) / 1024, int(peak) / 1024


def idle_cpu(work: Path, seconds: float) -> tuple[float, int]:
    """CPU ms a second of a started table nobody plays (its loop waiting for events, its reader
    link and screen writers waiting, the simulated reader controller left out), and its threads."""
    code = IDLE.replace("SETTLE", "1.0").replace("SECONDS", repr(seconds))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={**os.environ, "TMPDIR": str(work)})  # its journal goes with the bench's folder
    ms, threads = out.stdout.split()
    return float(ms), int(threads)
