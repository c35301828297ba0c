"""docs/games/spywhere.md: its example lines have the rules command's shape, and the opening replays."""

import json
import re
from pathlib import Path

from games.core import CHANCE, GameConfig
from games.spywhere import GAME
from games.spywhere.rules_turn import FIELDS
from games.spywhere.state import IDENTIFY, PLAY

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "spywhere.md"


def _blocks(lang: str) -> list[list[dict]]:
    text = DOC.read_text(encoding="utf-8")
    return [[json.loads(line) for line in block.strip().splitlines()]
            for block in re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)]


def test_every_documented_line_has_the_rules_command_shape():
    lines = [line for block in _blocks("json") + _blocks("jsonl") for line in block]
    assert lines
    for line in lines:
        assert set(line) == {"seat", "action"} and "type" in line["action"]
        assert line["seat"] == "chance" or isinstance(line["seat"], int)
    documented = {line["action"]["type"] for line in lines}
    assert set(FIELDS) <= documented and {"remove", "passport", "deal", "centre", "draw"} <= documented


def test_the_documented_opening_replays():
    (opening,) = _blocks("jsonl")
    state = GAME.initial_state(GameConfig(players=3, options={"removed_nationality": "belgique"}))
    for line in opening:
        seat = CHANCE if line["seat"] == "chance" else line["seat"]
        state = GAME.apply(state, seat, line["action"]).state
    assert state.phase == PLAY and state.active == 0 and state.turn == 3
    assert state.clues[0] == tuple(sorted(f"spywhere/nationality/espagne/{n}" for n in (1, 3, 4)))
    assert state.guesses == (((2, "espagne"),), (), ((0, "france"),))
    assert state.step != IDENTIFY
