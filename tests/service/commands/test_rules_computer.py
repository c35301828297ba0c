"""`zebra-table rules --computer SEAT=LEVEL`: computer seats in random playouts and action files."""

from __future__ import annotations

import io
import json

import pytest

from firmware_host.commands.main import build_parser
from firmware_host.commands.rules import EXIT_USAGE, run


def rules(*argv: str, tmp_path=None, lines=None) -> tuple[int, dict]:
    extra: list[str] = []
    if lines is not None:
        path = tmp_path / "actions.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        extra = ["--actions", str(path)]
    out = io.StringIO()
    code = run(build_parser().parse_args(["rules", *argv, *extra]), out)
    return code, json.loads(out.getvalue())


def test_random_playout_with_a_computer_seat_is_reproducible():
    argv = ("droles-de-zebres", "--players", "2", "--seed", "5", "--random-playout", "--computer", "1=easy")
    code, doc = rules(*argv)
    assert code == 0 and doc["outcome"] is not None and doc["to_act"] == []
    assert rules(*argv)[1] == doc
    assert rules("droles-de-zebres", "--players", "2", "--seed", "5", "--random-playout")[1] != doc


def test_computer_against_computer_to_the_end_of_a_zop_match():
    code, doc = rules("zop", "--players", "2", "--seed", "1", "--option", "deck=tracked", "--random-playout",
                      "--computer", "0=greedy", "--computer", "1=easy")
    assert code == 0 and len(doc["outcome"]["winners"]) == 1
    assert len(doc["outcome"]["details"]["rounds"]) >= 2  # round ends were passed by the computers


def test_spywhere_with_two_computers_among_four():
    code, doc = rules("spywhere", "--players", "4", "--seed", "2", "--random-playout",
                      "--computer", "0=strong", "--computer", "2=greedy")
    assert code == 0 and doc["outcome"]["winners"]


def test_action_file_human_seat_and_computer_answers(tmp_path):
    lines = [{"seat": 0, "action": {"type": "guardian", "position": 3}}]
    code, doc = rules("droles-de-zebres", "--players", "2", "--seed", "0", "--computer", "1=strong",
                      "--legal", tmp_path=tmp_path, lines=lines)
    assert code == 0 and doc["to_act"] == [0]  # the computer placed (and moved the guardian) at once
    squares = doc["views"]["public"]["squares"]
    assert len(squares) == 1 and squares[0]["seat"] == 1
    assert doc["moves"] >= 2 and doc["legal"]["0"]


def test_action_file_line_for_a_computer_seat_is_refused(tmp_path):
    lines = [{"seat": 1, "action": {"type": "guardian", "position": 3}}]
    code, doc = rules("droles-de-zebres", "--players", "2", "--computer", "1=easy", tmp_path=tmp_path, lines=lines)
    assert code == EXIT_USAGE
    assert doc["error"]["code"] == "computer_seat" and "line 1" in doc["error"]["message"]


@pytest.mark.parametrize("item, words", [
    ("2=strong", "SEAT 0..1"), ("x=strong", "SEAT=LEVEL"), ("1", "SEAT=LEVEL"), ("1=grandmaster", "level"),
    ("-1=easy", "SEAT 0..1"), ("True=easy", "SEAT=LEVEL"),
])
def test_bad_computer_options(item, words):
    code, doc = rules("droles-de-zebres", "--players", "2", "--random-playout", f"--computer={item}")
    assert code == EXIT_USAGE and doc["error"]["code"] == "bad_config"
    assert words in doc["error"]["message"] and repr(item) in doc["error"]["message"]


def test_game_without_computer_player():
    code, doc = rules("mata-hari", "--players", "4", "--random-playout", "--computer", "0=easy")
    assert code == EXIT_USAGE and "no computer player" in doc["error"]["message"]


def test_same_seed_same_game_in_fresh_processes_whatever_the_hash_seed():
    """Reproducible across processes: nothing depends on the order of a set of strings."""
    import os
    import subprocess
    import sys

    argv = [sys.executable, "-m", "firmware_host.commands.main", "rules", "spywhere", "--players", "3", "--seed", "4",
            "--random-playout", "--computer", "0=strong", "--computer", "2=strong"]
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1]
