"""Operation: Mata Hari: the action examples of docs/games/mata-hari.md replay as documented."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.core import CHANCE, GameConfig
from games.mata_hari import GAME
from games.mata_hari.state import owed

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "mata-hari.md"


def _lines() -> list[dict]:
    blocks = re.findall(r"```jsonl\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]


def test_documented_example_replays() -> None:
    lines = _lines()
    assert len(lines) > 60
    state = GAME.initial_state(GameConfig(players=3))
    for line in lines:
        assert set(line) == {"seat", "action"}
        seat = CHANCE if line["seat"] == "chance" else line["seat"]
        state = GAME.apply(state, seat, line["action"]).state
    assert state.phase == "offer" and state.active == 2 and state.turn == 3
    assert [s.compromis for s in state.seats] == [0, 2, 1]
    assert not any(owed(state, i) for i in range(3))
    # the Hitman changed hands, J1 received the demanded Pistols 5
    assert "mata-hari/partners/hitman/1" in state.seats[1].hand
    assert "mata-hari/resources/pistolets-5/1" in state.seats[0].hand


def test_every_documented_action_type_exists() -> None:
    from games.mata_hari.rules import KEYS
    text = DOC.read_text(encoding="utf-8")
    for kind in KEYS:
        assert f'"type": "{kind}"' in text, kind


def test_every_rejection_code_is_documented() -> None:
    from games.mata_hari.texts import REFUSALS
    codes = REFUSALS.codes()
    assert len(codes) > 30
    text = DOC.read_text(encoding="utf-8")
    assert not [c for c in codes if f"`{c}`" not in text]
