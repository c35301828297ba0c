"""Every external input, fed arbitrary JSON values and bytes (hypothesis): the `rules` command,
the `script` runner, the config and tag loaders never raise a traceback, never hang, and a
refused input changes nothing."""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.apps.session import GameSession
from firmware_host.commands import rules as cli_rules
from firmware_host.commands.script import ScriptRunner, state_digest
from firmware_host.commands.script_events import KEYS
from firmware_host.loop.simulator import FakeClock, SimTable
from firmware_host.storage.config import ConfigError, load_config, sim_config_text
from firmware_host.storage.inputs import MAX_DEPTH, InputError, json_text
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import TagError, TagRegistry

SLOW = 10.0  # CPU seconds: far more than any accepted input takes (an unbounded one would take hours)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
settings_ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def dumps(value: object) -> str:
    return json.dumps(value, allow_nan=True)  # Infinity, NaN as Python would write them


# -- the JSON layer -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["[" * 10_000 + "]" * 10_000, '{"a":' * 5000 + "1" + "}" * 5000,
                                  "Infinity", "NaN", "1e400", "-1e400", "9" * 5000])
def test_json_that_would_crash_or_overflow_is_refused_with_a_message(text):
    with pytest.raises(InputError):
        json_text(text, "line 1")


def test_nesting_up_to_the_limit_is_fine():
    assert json_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x") is not None


# -- rules ----------------------------------------------------------------------------------------
def rules(tmp_path: Path, data: bytes) -> tuple[int, list[dict]]:
    path = tmp_path / "actions.jsonl"
    path.write_bytes(data)
    out = io.StringIO()
    args = argparse.Namespace(game="zop", players=2, seed=0, option=[], actions=str(path),
                              random_playout=False, legal=False)
    t = time.process_time()
    code = cli_rules.run(args, out)
    assert time.process_time() - t < SLOW
    # JSON Lines end at "\n" only: str.splitlines() would also cut at U+0085 or U+2028 inside a string
    return code, [json.loads(line) for line in out.getvalue().split("\n") if line]


@pytest.mark.parametrize("seat", ["Infinity", "1e400", "0.9", "true", '"0"', "-1", "2", "[0]"])
def test_rules_refuses_anything_but_an_integer_seat_of_the_game(tmp_path, seat):
    code, lines = rules(tmp_path, f'{{"seat": {seat}, "action": {{"type": "x"}}}}\n'.encode())
    assert code == cli_rules.EXIT_USAGE and lines[0]["error"]["code"] == "bad_line"
    assert "seat" in lines[0]["error"]["message"] or "JSON" in lines[0]["error"]["message"]


@settings_
@given(st.lists(json_values | st.fixed_dictionaries({"seat": json_values, "action": json_values}), max_size=4))
def test_rules_with_arbitrary_json_lines(tmp_path_factory, items):
    data = "".join(dumps(v) + "\n" for v in items).encode()
    code, lines = rules(tmp_path_factory.mktemp("r"), data)
    assert code in (0, cli_rules.EXIT_USAGE, cli_rules.EXIT_ILLEGAL)
    assert ("error" in lines[-1]) == (code != 0)


@settings_
@given(st.binary(max_size=300))
def test_rules_with_arbitrary_bytes(tmp_path_factory, data):
    code, lines = rules(tmp_path_factory.mktemp("r"), data)
    assert code in (0, cli_rules.EXIT_USAGE, cli_rules.EXIT_ILLEGAL)


# -- script ---------------------------------------------------------------------------------------
class Table:
    """One simulated table for every example (starting one takes a pty and threads)."""

    sim: SimTable | None = None
    runner: ScriptRunner | None = None
    journal: Journal | None = None

    @classmethod
    def get(cls, tmp: Path) -> ScriptRunner:
        if cls.runner is None:
            clock = FakeClock()
            cls.journal = Journal(tmp / "j.sqlite")
            cls.sim = SimTable(clock=clock, journal=cls.journal)
            assert cls.sim.wait_ready()
            cls.runner = ScriptRunner(cls.sim, clock)
            cls.runner.line(json.dumps({"start": {"game": "zop", "seats": [1, 2]}}), "start")
        return cls.runner


@pytest.fixture(scope="module", autouse=True)
def _close_table():
    yield
    if Table.sim is not None:
        Table.sim.close()
        Table.journal.close()


def snapshot(runner: ScriptRunner) -> tuple:
    app = runner.sim.runtime.app
    state = (state_digest(app.state), len(app.moves)) if isinstance(app, GameSession) else None
    j = Table.journal
    return type(app).__name__, state, j._one("SELECT count(*) FROM games")[0], j._one("SELECT count(*) FROM moves")[0]


def script_line(tmp: Path, text: str) -> None:
    runner = Table.get(tmp)
    before = snapshot(runner)
    t = time.process_time()
    entry = runner.line(text, "script:1")
    assert time.process_time() - t < SLOW
    if "error" in entry:
        assert snapshot(runner) == before, entry["error"]
        assert entry["error"].strip()


events = st.sampled_from(sorted(KEYS)).flatmap(
    lambda kind: st.fixed_dictionaries({kind: json_values},
                                       optional={k: json_values for k in KEYS[kind] if k != kind}))


@settings_
@given(events)
def test_script_events_with_arbitrary_values(tmp_path_factory, ev):
    script_line(tmp_path_factory.getbasetemp(), dumps(ev))


@settings_
@given(json_values)
def test_script_lines_of_arbitrary_json(tmp_path_factory, value):
    script_line(tmp_path_factory.getbasetemp(), dumps(value))


@pytest.mark.parametrize("ev", [
    {"press": math.inf}, {"press": 1.0}, {"press": True}, {"advance": math.inf}, {"advance": 1e7},
    {"start": {"game": "zop", "seats": [1, 1]}}, {"start": {"game": "zop", "seats": [99, 100]}},
    {"start": {"game": "zop", "seats": "12"}}, {"start": {"game": "operation-zebre", "seats": [1, 2], "extra": 1e9}},
    {"reader": "garbage", "size": 1e9}, {"reader": "drop", "count": 10 ** 12},
    {"png": 1, "path": "/nonexistent/folder/x.png"},
])
def test_script_inputs_from_the_issue_are_refused_and_change_nothing(tmp_path_factory, ev):
    runner = Table.get(tmp_path_factory.getbasetemp())
    before = snapshot(runner)
    entry = runner.line(dumps(ev), "script:7")
    assert "error" in entry and entry["error"].startswith("script:7") or "png" in ev
    assert snapshot(runner) == before


def test_script_lines_that_are_not_utf8_or_too_deep(tmp_path):
    from firmware_host.commands.main import main

    script = tmp_path / "s.jsonl"
    script.write_bytes(b'{"comment": "\xff\xfe"}\n' + b"[" * 5000 + b"\n" + b'{"comment": "ok"}\n')
    out = tmp_path / "out.jsonl"
    assert main(["script", str(script), "-o", str(out)]) == 1
    lines = [json.loads(x) for x in out.read_text().split("\n") if x]
    assert "not UTF-8" in lines[0]["error"] and "nested deeper" in lines[1]["error"] and "error" not in lines[2]


# -- config and tags ------------------------------------------------------------------------------
LITERALS = st.sampled_from(["nan", "inf", "-inf", "1e308", "-1", "0", "255", "300", "99999999999", "true",
                            '"x"', "[1, 2]", "{ a = 1 }", "0.5", "2.0", "[[[[1]]]]"]) | \
    st.integers().map(str) | st.floats(allow_nan=False).map(repr)


def loaded(path: Path):
    try:
        cfg = load_config(str(path))
    except ConfigError as exc:
        assert exc.issues and all(key and msg for key, msg in exc.issues)
        return None
    assert math.isfinite(cfg.hold_time) and 0 < cfg.hold_time <= 10
    assert math.isfinite(cfg.bounce_time) and 0 <= cfg.bounce_time <= 1
    assert math.isfinite(cfg.reader.settle) and all(0 <= a <= 254 for a in cfg.antennas)
    return cfg


@settings_
@given(st.data())
def test_config_with_any_value_replaced(tmp_path_factory, data):
    lines = sim_config_text().splitlines()
    keyed = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    i = data.draw(st.sampled_from(keyed))
    key = lines[i].split("=", 1)[0]
    lines[i] = f"{key}= {data.draw(LITERALS)}"
    path = tmp_path_factory.mktemp("c") / "table.toml"
    path.write_text("\n".join(lines) + "\n")
    loaded(path)


@settings_
@given(st.binary(max_size=400))
def test_config_of_arbitrary_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("c") / "table.toml"
    path.write_bytes(data)
    loaded(path)


@pytest.mark.parametrize("text, problem", [
    ("[buttons]\nhold_time = nan\n", "hold_time"), ("[buttons]\nbounce_time = inf\n", "bounce_time"),
    ("[buttons]\nhold_time = 1e308\n", "hold_time"), ("[antennas]\nA1 = 255\n", "antennas.A1"),
    ("[antennas]\nboard = 240\n", "antennas.board"), ("language = \"fr\"\n", "antennas"),
])
def test_config_values_that_passed_check_and_failed_at_run(tmp_path, text, problem):
    base = sim_config_text()
    path = tmp_path / "t.toml"
    if problem == "antennas":
        start = base.index("[antennas]")
        end = base.find("\n[", start + 1)
        path.write_text(base[:start] + (base[end + 1:] if end >= 0 else ""))
    elif "board" in text:
        path.write_text(re.sub(r"(?m)^board\s*=.*$", "board = 240", base))
    else:
        path.write_text(text + base.replace("[buttons]", "[ignored_buttons]") if "buttons" in text else
                        base.replace("[antennas]", "[antennas]\n" + text.split("\n", 1)[1]))
    with pytest.raises(ConfigError) as err:
        load_config(str(path))
    assert any(problem in key for key, _ in err.value.issues), err.value.issues


def test_config_not_utf8(tmp_path):
    path = tmp_path / "t.toml"
    path.write_bytes(b'language = "fr\xe9"\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(str(path))


@settings_
@given(json_values | st.fixed_dictionaries({"version": st.just(1), "tags": st.dictionaries(
    st.text(max_size=16), json_values, max_size=4)}))
def test_tag_registry_of_arbitrary_json(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("t") / "tags.json"
    path.write_text(dumps(value))
    try:
        reg = TagRegistry.load(path)
    except TagError as exc:
        assert str(path) in str(exc)
        return
    assert all(isinstance(p, str) for _, p in reg)


@settings_
@given(st.binary(max_size=300))
def test_tag_registry_of_arbitrary_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("t") / "tags.json"
    path.write_bytes(data)
    try:
        TagRegistry.load(path)
    except TagError:
        pass


@pytest.mark.parametrize("tags, problem", [
    ({"04A1B2C3": 5}, "expected a piece id"), ({"04A1B2C3": None}, "expected a piece id"),
    ({"04A1B2C3": "zop/a/card/1", "04A1B2C4": "zop/a/card/1"}, "two tags"),
])
def test_tag_registry_refusals(tmp_path, tags, problem):
    path = tmp_path / "tags.json"
    path.write_text(json.dumps({"version": 1, "tags": tags}))
    with pytest.raises(TagError, match=problem):
        TagRegistry.load(path)


class Endless(io.RawIOBase):
    """A stream that never ends (a device, a FIFO fed forever): `pattern` repeated, bytes counted."""

    def __init__(self, pattern: bytes):
        self.pattern = pattern
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = len(buffer)
        data = (self.pattern * (n // len(self.pattern) + 1))[:n]
        buffer[:n] = data
        self.read_bytes += n
        return n


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=300))
def test_an_endless_stream_of_any_bytes_is_read_to_a_bound_and_stopped(pattern):
    from firmware_host.storage import inputs

    raw = Endless(pattern)
    stream = io.BufferedReader(raw, buffer_size=4096)
    old = inputs.MAX_STREAM, inputs.MAX_SKIP
    inputs.MAX_STREAM, inputs.MAX_SKIP = 1024 * 1024, 256 * 1024  # the same rules, a smaller world
    try:
        results = list(inputs.lines(stream, "<endless>"))
    finally:
        inputs.MAX_STREAM, inputs.MAX_SKIP = old
    assert raw.read_bytes <= 1024 * 1024 + 256 * 1024 + inputs.MAX_LINE + 2 * 4096
    last = results[-1][1]
    assert isinstance(last, InputError) and "the rest is not read" in str(last)
