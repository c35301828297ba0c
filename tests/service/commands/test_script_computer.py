"""`zebra-table script` with computer players: reproducible transcripts, clear refusals."""

from __future__ import annotations

import io
import json

import pytest

from firmware_host.commands.main import build_parser
from firmware_host.commands.script import run
from firmware_host.commands.script_events import check_event
from firmware_host.storage.inputs import InputError

SEATS = tuple(range(1, 9))


def transcript(tmp_path, events: list[object]) -> tuple[int, list[dict]]:
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(e if isinstance(e, str) else json.dumps(e) for e in events) + "\n")
    out = io.StringIO()
    code = run(build_parser().parse_args(["script", str(path), "--seed", "7"]), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


GAME = [
    {"start": {"game": "spywhere", "seats": [1], "computers": ["strong", {"level": "easy", "seat": 3}]}},
    {"advance": 1},
    {"start": {"game": "droles-de-zebres", "seats": [2], "computers": [{"level": "strong", "seat": 3}],
               "options": {"first_player": "seat1"}}},
    {"advance": 1},
]


def test_a_transcript_with_computer_players_is_the_same_on_every_run(tmp_path):
    code, first = transcript(tmp_path, GAME)
    assert code == 0, [e.get("error") for e in first]
    _, second = transcript(tmp_path, GAME)
    assert first == second
    spy, ddz = first[1], first[3]
    assert spy["game"] == "spywhere" and spy["seats"] == [1, None, 3]
    assert spy["screens"]["3"]["title"].startswith("J3 (ordinateur)")
    # Drôles de Zèbres: the computer placed the guardian (a menu choice: applied at once), the
    # human's turn follows; its screen (table seat 3) shows the public screen
    assert ddz["moves"] == 1 and ddz["to_act"] == [2] and ddz["seats"] == [2, 3]
    assert ddz["screens"]["3"]["title"].startswith("J2 (ordinateur)")


@pytest.mark.parametrize(("computers", "says"), [
    ([True], "expected a string"),
    (["godlike"], "unknown level 'godlike'"),
    ("strong", "expected a list"),
    ([{"level": "strong", "seat": 1}], "not a free seat"),
    ([{"level": "strong", "seat": 2.0}], "expected an integer"),
    ([{"level": "strong", "colour": "red"}], "colour"),
    ([], "expected a list of 1 to"),
])
def test_a_bad_computer_spec_is_one_clear_message_naming_the_line(tmp_path, computers, says):
    code, out = transcript(tmp_path, [{"comment": "x"},
                                      {"start": {"game": "droles-de-zebres", "seats": [1], "computers": computers}}])
    assert code == 1
    error = out[1]["error"]
    assert "s.jsonl:2" in error and says in error and "\n" not in error
    assert out[1]["app"] == "menu"  # nothing started


def test_a_game_without_computer_player_and_bad_hints_are_refused():
    with pytest.raises(InputError, match="has no computer player"):
        check_event({"start": {"game": "mata-hari", "seats": [1], "computers": ["strong"]}}, SEATS, "f:1")
    with pytest.raises(InputError, match="hints"):
        check_event({"start": {"game": "zop", "seats": [1], "computers": ["strong"], "hints": 1}}, SEATS, "f:1")
