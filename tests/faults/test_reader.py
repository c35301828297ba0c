"""Reader controller faults during whole games, through `zebra-table script` processes.

Each game of faultkit.CASES is played once on an in-process simulated table (tests/kits/tabledriver.py);
its events are then replayed by two `zebra-table script --acks` processes at the same time: one
as they are, one with reader faults inserted — corrupt, truncated, duplicated, reordered and
dropped frames on the virtual controller's pseudo-terminal, garbage bytes, lost inventory items,
and the controller unplugged and plugged back. The faulty run must reach, after every one of the
game's own events, exactly the state of the fault-free run (state digests compared line by line),
and its link must have reconnected once per unplug.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from tests.kits import faultkit
from tests.kits.faultkit import CASES, GameCase, reference_run, start_script, transcript

# every game replayed under reader faults: tens of seconds
pytestmark = [pytest.mark.usefixtures("fault_summary"), pytest.mark.slow]

FRAME_FAULTS = ("drop", "corrupt", "truncate", "duplicate", "reorder")
INJECTED = (*FRAME_FAULTS, "garbage")  # what counts as frames injected (controller counters)


def with_reader_faults(events: tuple[dict[str, Any], ...], rng: random.Random, frame_faults: int,
                       cycles: int, garbage: int) -> tuple[list[dict[str, Any]], Counter[str]]:
    """The events with reader fault events inserted, and how many of each were planned.

    A frame fault goes just before a piece is laid or lifted, so it hits that event's frame; an
    unplug goes between two gestures, sometimes with the inventory after it damaged too.
    """
    moves = [i for i, e in enumerate(events) if "place" in e or "remove" in e]
    hit = rng.sample(moves, min(frame_faults, len(moves)))  # one fault per piece moved at most
    kinds = [FRAME_FAULTS[i % len(FRAME_FAULTS)] for i in range(len(hit))]
    before: dict[int, list[dict[str, Any]]] = {}
    for kind, at in zip(kinds, hit):
        before.setdefault(at, []).append({"reader": kind})
    for at in rng.sample(range(1, len(events)), garbage):
        before.setdefault(at, []).append({"reader": "garbage", "size": rng.randrange(1, 120)})
    pieces = 0
    on_table = []
    for e in events:
        pieces += 1 if "place" in e else -1 if "remove" in e else 0
        on_table.append(pieces)
    planned: Counter[str] = Counter(kinds)
    # never in the middle of a gesture: the time an unplug takes would let a half-made move settle
    # (a card lifted to be swapped would be read as taken back), which is right, but another game
    settled = [i for i in range(1, len(events)) if events[i - 1].get("settle", True)]
    for at in rng.sample(settled, cycles):
        cycle: list[dict[str, Any]] = [{"reader": "disappear"}]
        if rng.random() < 0.4:  # the inventory answer after it comes back is damaged too
            cycle.append({"reader": "drop", "kinds": ["INV"]} if on_table[at - 1] else
                         {"reader": "duplicate", "kinds": ["END"]})
            planned["inventory_faults"] += 1
        cycle.append({"reader": "reappear"})
        before.setdefault(at, []).extend(cycle)
    planned["cycles"] = cycles
    out: list[dict[str, Any]] = []
    for i, e in enumerate(events):
        out.extend(before.get(i, []))
        out.append(e)
    out.append({"reader": "stats"})
    return out, planned


def start_runs(cases: Iterable[GameCase], work: Path, frame_faults: int, cycles: int,
               garbage: int) -> list[tuple[GameCase, Counter[str], Any, Any]]:
    """For each case its fault-free and faulty script processes, all running at once."""
    started: list[tuple[GameCase, Counter[str], Any, Any]] = []
    try:
        for case in cases:  # each game's processes run while the next game's reference is played
            ref = reference_run(case)
            faulty, planned = with_reader_faults(ref.events, random.Random(case.seed), frame_faults,
                                                 cycles, garbage)
            started.append((case, planned, start_script(ref.events, work / case.game, "clean", case.seed),
                            start_script(faulty, work / case.game, "faulty", case.seed)))
    except BaseException:
        stop_runs(started)
        raise
    return started


def stop_runs(started: list[tuple[GameCase, Counter[str], Any, Any]]) -> None:
    """Kill what still runs (a hung script must not outlive the suite)."""
    for _, _, *procs in started:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def check_run(case: GameCase, planned: Counter[str], clean_proc: Any, faulty_proc: Any,
              work: Path) -> tuple[dict[str, int], list[str]]:
    """Wait for one case's two processes; its figures, and every difference or missed recovery."""
    codes = (clean_proc.wait(faultkit.READ_TIMEOUT * 3), faulty_proc.wait(faultkit.READ_TIMEOUT * 3))
    folder = work / case.game
    clean, faulty = transcript(folder, "clean"), transcript(folder, "faulty")
    ref = reference_run(case)
    problems = [f"{line['event']}: {line['error']}" for line in clean + faulty if "error" in line]
    if codes != (0, 0):
        problems.append(f"exit codes {codes}; see {folder}")
    own = _own_events(faulty)
    steps = [(line["moves"], line.get("state")) for line in own]
    expected = [(line["moves"], line.get("state")) for line in clean]
    problems += [f"after event {i} ({own[i]['event']}) the state differs from the fault-free run's; see {folder}"
                 for i, (a, b) in enumerate(zip(steps, expected)) if a != b]
    if len(steps) != len(expected):
        problems.append(f"{len(steps)} events handled, {len(expected)} in the fault-free run")
    if [a for line in faulty for a in line["acked"]] != [a for line in clean for a in line["acked"]]:
        problems.append("the journaled moves differ from the fault-free run's")
    if (own[-1]["state"], own[-1]["outcome"], own[-1]["moves"]) != (ref.state, ref.outcome, ref.moves):
        problems.append("the game did not end as on the in-process table")
    stats = faulty[-1]["reader_stats"]
    link, controller = stats["link"], stats["controller"]["faults"]
    figures = {"frames_injected": sum(controller.get(kind, 0) for kind in INJECTED),
               "reconnects": link["reconnects"], "unplugs": controller.get("disappear", 0),
               "resyncs": link["resyncs"], "gaps": link["gaps"], "stale": link["stale"],
               "duplicates": link["duplicates"], "frames_rejected": sum(link["rejected"].values()),
               "inventory_retries": link["extra"].get("inventory_incomplete", 0)}
    if not controller.get("disappear") == planned["cycles"] == link["reconnects"]:
        problems.append(f"{planned['cycles']} unplugs planned, {link['reconnects']} reconnects")
    for kind in FRAME_FAULTS:
        if controller.get(kind, 0) < planned[kind]:
            problems.append(f"{kind}: planned {planned[kind]}, applied {controller.get(kind, 0)}")
    # (a frame's fault is not always seen alone: a truncated frame swallows the next one, a copy
    # arriving during a resync is not counted as a duplicate; the states above are what matters)
    noticed = link["gaps"] and link["duplicates"] and figures["frames_rejected"]
    if link["resyncs"] < 1 + planned["cycles"] or not noticed:
        problems.append(f"the link did not notice the faults: {link}")
    figures["mismatches"] = len(problems)
    return figures, problems


@pytest.fixture(scope="module")
def reader_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, int], list[str]]]:
    """Each case's figures and problems, its two processes run alongside the others'."""
    work = tmp_path_factory.mktemp("reader")
    started = start_runs(CASES, work, frame_faults=20, cycles=11, garbage=4)
    try:
        return {case.game: check_run(case, planned, clean, bad, work) for case, planned, clean, bad in started}
    finally:
        stop_runs(started)


def _own_events(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines of the game's own events (not the inserted reader events)."""
    return [line for line in lines if "reader" not in line.get("event", {})]


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
def test_reader_faults_leave_the_game_exactly_as_without(reader_runs, case: GameCase):
    figures, problems = reader_runs[case.game]
    faultkit.record("reader faults", **figures)
    assert problems == []
    assert figures["reconnects"] == 11 and figures["frames_injected"] >= 20


def test_reader_fault_events_of_a_script(tmp_path: Path):
    """The script's reader events: each fault reaches the controller, bad ones are refused."""
    case = CASES[0]
    events = [case.start, {"reader": "reorder"}, {"place": "A1", "piece": "green/zebra/1"},
              {"reader": "duplicate"}, {"place": "B1", "piece": "green/zebra/2"},
              {"reader": "truncate", "kinds": ["NOPE"]}, {"reader": "drop", "count": 0},
              {"reader": "garbage", "size": 10}, {"reader": "dance"}, {"reader": "stats"}]
    proc = start_script(events, tmp_path, "events", 1)
    assert proc.wait(faultkit.READ_TIMEOUT) == 1  # the refused lines make the exit code 1
    lines = transcript(tmp_path, "events")
    assert [("error" in line) for line in lines] == [False] * 5 + [True, True, False, True, False]
    assert "NOPE" in lines[5]["error"] and "count" in lines[6]["error"] and "stats" in lines[8]["error"]
    stats = lines[-1]["reader_stats"]
    assert stats["controller"]["faults"] == {"reorder": 1, "duplicate": 1, "garbage": 1}
    assert stats["link"]["duplicates"] == 1
    # both pieces were seen (a place waits for that) and neither is a move: the guardian comes first
    assert lines[4]["reader"] == "ready" and lines[4]["moves"] == 0 and lines[4]["leds"] == {"A1": "red"}
