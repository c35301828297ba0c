"""Garbage collections run in the loop's idle time, not inside a table event."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import firmware_host.loop.runtime as runtime_module
from firmware_host.loop import collector
from firmware_host.loop.collector import ROOM, idle_collect
from tests.kits.tabledriver import Driver

RUNTIME = runtime_module.__file__


def _where() -> str:
    """Where the collection starting now was triggered: the loop's idle work, an event, or other."""
    names = set()
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_filename == RUNTIME:
            names.add(f.f_code.co_name)
        f = f.f_back  # type: ignore[assignment]
    if "prepare" in names:
        return "idle"
    return "event" if names & {"handle", "tick", "drain"} else "other"


@pytest.fixture
def collections() -> Iterator[list[str]]:
    seen: list[str] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(_where())

    gc.callbacks.append(callback)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)


def play_zop(seed: int, collections: list[str]) -> int:
    """A whole ZOP game on the simulated table, the loop's idle work done between events; the
    collections are counted from the game's start (the table's start-up imports and builds)."""
    driver = Driver(seed=seed)
    apply = driver.runner.apply

    def after_idle(ev: dict[str, Any]) -> None:
        while driver.sim.runtime.prepare():  # what Runtime.run does while no event is queued
            pass
        apply(ev)

    driver.runner.apply = after_idle  # type: ignore[method-assign]
    try:
        driver.start("zop", [1, 2])
        collections.clear()
        driver.play(max_steps=4000)
        assert driver.session.over
        return len(driver.events)
    finally:
        driver.close()


def test_no_collection_runs_inside_an_event_when_the_loop_has_idle_time(collections: list[str]) -> None:
    events = play_zop(3, collections)
    assert events > 100
    # the garbage was collected, in idle time: how often depends on what the process freed before
    # (a fresh process collects 24 times in this game, one that ran other tests 3 to 9 times)
    assert collections.count("idle") >= 1, collections
    assert collections.count("event") == 0, collections


def test_without_idle_collections_events_pay_for_them(collections: list[str], monkeypatch: Any) -> None:
    """The check above can fail: CPython's own collections land inside events."""
    idle_collect()  # set up (frozen, threshold raised) as on a table that has run
    monkeypatch.setattr(runtime_module, "idle_collect", lambda: False)
    t0, t1, t2 = gc.get_threshold()
    # CPython's 700 gives 5 to 26 collections in this game, depending on what the process ran
    # before (a worker of the whole suite: 5, all of them in idle work once); 100 gives dozens,
    # so that some land in events whatever ran before
    gc.set_threshold(100, t1, t2)
    try:
        play_zop(3, collections)
    finally:
        gc.set_threshold(t0, t1, t2)
    assert collections.count("event") > 0, collections


def test_idle_collect_runs_the_collection_that_is_due() -> None:
    idle_collect()
    assert gc.get_threshold()[0] >= ROOM and gc.get_freeze_count() > 0
    gc.collect(0)
    assert not idle_collect()  # nothing due
    junk = []
    while gc.get_count()[0] < collector._idle_at:
        a: list[Any] = []
        a.append(a)  # a cycle: only the collector frees it
        junk.append(a)
    count1 = gc.get_count()[1]
    assert idle_collect()
    assert gc.get_count()[0] < collector._idle_at and gc.get_count()[1] in (0, count1 + 1)


def test_idle_collect_leaves_a_disabled_collector_alone() -> None:
    idle_collect()
    gc.disable()
    try:
        junk = [[] for _ in range(collector._idle_at + 10)]
        assert gc.get_count()[0] >= collector._idle_at and not idle_collect()
        del junk
    finally:
        gc.enable()
