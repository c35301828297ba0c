"""A whole Drôles de Zèbres game on the simulated table, replayed through `zebra-table script`."""

import io
import json

from firmware_host.commands.main import build_parser
from firmware_host.commands.script import run
from tests.kits.tabledriver import Driver


def lions_and_crocodiles_first(game, state, seat, legal, rng):
    """Prefer a crocodile swap, a crocodile placed where it can swap, then a lion."""
    swaps = [a for a in legal if a["type"] == "swap"]
    if swaps:
        return rng.choice(swaps)
    crocs = [a for a in legal if "crocodile" in a.get("piece", "")]
    useful = [a for a in crocs
              if any(b["type"] == "swap" for b in game.legal_actions(game.apply(state, seat, a).state, seat))]
    if useful:
        return rng.choice(useful)
    lions = [a for a in legal if "lion" in a.get("piece", "")]
    gazelles = [a for a in legal if "gazelle" in a.get("piece", "")]
    return rng.choice(lions or gazelles or legal)


def test_complete_game_by_placing_tags(tmp_path):
    driver = Driver(seed=5)
    try:
        driver.start("droles-de-zebres", [2, 7], {"first_player": "seat0"})
        driver.play(lions_and_crocodiles_first, misplace_at=4, wrong_zone="auto")
        session = driver.session
        types = [a["type"] for _, a in session.moves]
        assert "swap" in types, "the scenario must include a crocodile swap"
        assert any("lion" in a.get("piece", "") for _, a in session.moves)
        assert driver.wrong_banner is not None and "Retirez" in driver.wrong_banner.fr
        expected_outcome = session.game.outcome(session.state).to_json()
        removals = [e for e in driver.events if "remove" in e]
        assert removals, "gazelles fleeing and the misplaced token were lifted following the screen"
        script = tmp_path / "game.jsonl"
        script.write_text(driver.script_text())
    finally:
        driver.close()
    out = io.StringIO()
    assert run(build_parser().parse_args(["script", str(script), "--seed", "5"]), out) == 0
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last["outcome"] == expected_outcome
    board = [sq for sq in last["public"]["squares"]]
    assert len(board) == 30
    final = last["screens"]["2"]  # table seat 2 is game seat 0
    assert final["title"].startswith("Fin") and final["big"] == str(int(expected_outcome["scores"][0]))
    assert final["menu"] == ["Retour au menu"]
