"""The action examples of docs/games/operation-zebre.md replay exactly as the text says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.core import CHANCE, GameConfig, replay
from games.operation_zebre import GAME
from games.operation_zebre.texts import REFUSALS

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "operation-zebre.md"
BLOCK = re.compile(r"<!-- config: (\{.*?\}) -->\s*```jsonl\n(.*?)```", re.S)


def _examples() -> list[tuple[GameConfig, list[tuple[int, dict]]]]:
    out = []
    for config, body in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        cfg = json.loads(config)
        moves = []
        for line in body.strip().splitlines():
            item = json.loads(line)
            moves.append((CHANCE if item["seat"] == "chance" else item["seat"], item["action"]))
        out.append((GameConfig(cfg["players"], cfg["options"]), moves))
    return out


def test_documented_examples_replay_as_described():
    coop, compet = _examples()
    state = replay(GAME, GAME.validate_config(coop[0]), coop[1])
    assert state.tracks[0].ticked == 14 and state.round == 2 and state.phase == "prepare"
    state = replay(GAME, GAME.validate_config(compet[0]), compet[1])
    assert state.order == (1, 0, 3, 2) and state.interceptions == ((), (1,)) and state.reader == 3


def test_documented_rejection_codes_exist():
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Rejection codes")[1].split("##")[0]
    listed = set(re.findall(r"`([a-z_]+)`", section))
    assert listed == REFUSALS.codes()
