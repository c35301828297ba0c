"""What the fault suites add to `zebra-table script`: `--acks`, the `resume` event, and the zygote.

(The reader fault events are tested in test_reader.py.)
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from firmware_host.commands.main import build_parser
from firmware_host.commands.script import run, state_digest
from firmware_host.storage.journal import Journal
from games.core import GameConfig, replay
from games.playout import random_playout
from games.registry import get_game
from tests.kits.faultkit import Zygote

pytestmark = pytest.mark.usefixtures("fault_summary")

START = {"start": {"game": "droles-de-zebres", "seats": [2, 7], "options": {}}}


def script(tmp_path: Path, events: list[dict[str, Any]], *extra: str) -> tuple[int, list[dict[str, Any]]]:
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    out = io.StringIO()
    code = run(build_parser().parse_args(["script", str(path), *extra]), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_acks_list_committed_moves_and_the_state_they_give(tmp_path):
    journal = tmp_path / "j.sqlite"
    code, lines = script(tmp_path, [START, {"press": 2}, {"press": 7, "button": "right"}],
                         "--journal", str(journal), "--acks")
    assert code == 0
    assert lines[0]["acked"] == [] and lines[2]["acked"] == []
    [[gid, idx, seat, action]] = lines[1]["acked"]
    rec = Journal(journal).record(gid)
    assert (idx, seat) == (0, 0) and rec.moves == ((0, action),)  # what was acked is what was committed
    game = get_game("droles-de-zebres")
    assert lines[1]["state"] == state_digest(replay(game, rec.config, rec.moves)) != lines[0]["state"]


def test_acks_need_a_journal(tmp_path, capsys):
    code, lines = script(tmp_path, [START], "--acks")
    assert code == 2 and lines == [] and "--acks needs --journal" in capsys.readouterr().err


def test_resume_chooses_reprendre_on_the_menu_and_abandon_ends_the_game(tmp_path):
    journal = tmp_path / "j.sqlite"
    code, first = script(tmp_path, [START, {"press": 2}, {"place": "A1", "piece": "white/zebra/1"}],
                         "--journal", str(journal), "--acks")
    assert code == 0 and first[-1]["moves"] == 1
    # a new process: the pieces are back on the table, then a seat that is not the first one resumes
    code, again = script(tmp_path, [{"place": "A1", "piece": "white/zebra/1"}, {"resume": True, "seat": 7},
                                    {"resume": True}], "--journal", str(journal), "--acks")
    assert code == 1 and "offers no unfinished game" in again[2]["error"]  # already resumed
    assert again[0]["app"] == "menu" and again[1]["app"] == "game"
    assert again[1]["state"] == first[-1]["state"] and again[1]["moves"] == 1 and again[1]["acked"] == []
    assert again[1]["leds"] == {"A1": "red"}  # the zebra is not part of the resumed game: guidance
    code, third = script(tmp_path, [{"press": 4}, {"press": 4, "button": "right"}, {"resume": False}],
                         "--journal", str(journal))
    assert code == 0 and third[-1]["app"] == "menu"
    assert "Reprendre" not in third[-1]["screens"]["4"]["menu"][0]
    assert Journal(journal).unfinished() is None


def test_zygote_children_run_the_script_command_and_die_by_the_kill(tmp_path):
    zygote = Zygote(tmp_path / "tmp", tmp_path / "zygote.stderr")
    try:
        child = zygote.spawn(tmp_path / "j.sqlite", 1, tmp_path / "child.stderr")
        child.send(START)
        line = child.read()
        assert line is not None and line["app"] == "game" and line["acked"] == []
        child.send({"press": 2})
        assert child.read()["moves"] == 1
        assert child.kill() == []  # nothing was written after the last line; killed by SIGKILL
        again = zygote.spawn(tmp_path / "j.sqlite", 1, tmp_path / "child.stderr")
        again.send({"resume": True})
        assert again.read()["moves"] == 1
        lines, code = again.close()
        assert lines == [] and code == 0
    finally:
        zygote.close()


def test_a_game_resumed_at_its_end_is_written_finished_before_the_next_one_starts(tmp_path):
    # the power went between the commit of a game's last move and the commit of its end: the
    # journal holds every move of a finished game still marked as playing
    game = get_game("droles-de-zebres")
    played = random_playout(game, GameConfig(2, {}, 5), seed=5)
    assert played.outcome is not None
    journal = tmp_path / "j.sqlite"
    j = Journal(journal)
    gid = j.start_game(game.id, played.config, (2, 7))
    j.append_many(gid, 0, played.moves)
    j.close()
    # resumed, then a new game started at once (the script's start does not wait for the next pass)
    code, lines = script(tmp_path, [{"resume": True}, START], "--journal", str(journal), "--acks")
    assert code == 0 and [line["app"] for line in lines] == ["game", "game"]
    j = Journal(journal)
    try:
        first, second = (j.record(i) for i in j.ids())
        assert (first.id, first.status, len(first.moves)) == (gid, "finished", len(played.moves))
        assert first.outcome == json.loads(json.dumps(played.outcome.to_json()))
        assert (second.status, second.moves, second.outcome) == ("playing", (), None)
    finally:
        j.close()
