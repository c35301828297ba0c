"""Every registered game played to the end on the simulated table (its `table_runs`, see
tests/kits/every_game.py) — pieces laid and lifted on the virtual reader, choices pressed on
mock buttons, instructions followed — then replayed through `zebra-table script` as a separate
run, which must reach the same outcome."""

import io
import json

import pytest

from firmware_host.commands.main import build_parser
from firmware_host.commands.script import run
from tests.kits.every_game import ids, table_runs
from tests.kits.tabledriver import Driver


def purposeful(game, state, seat, legal, rng):
    """Like a group that means to play: rarely takes a card back, censors enough to stay safe."""
    weights = {"withdraw": 0.02, "uncensor": 0.1, "no_card": 0.3, "censor": 3.0, "confirm": 2.0, "read": 3.0}
    return rng.choices(legal, [weights.get(a["type"], 1.0) for a in legal])[0]


CASES = [(gid, list(run.seats), run.options, run.seed) for gid in ids() for run in table_runs(gid)]


def test_twelve_players_competitive_on_an_eight_seat_table(tmp_path):
    """Opération Zèbre with 12 players: 8 seated, 4 without a seat who guess with their team."""
    driver = Driver(seed=6)
    try:
        driver.start("operation-zebre", list(range(1, 9)), {"mode": "competitive"}, extra=4)
        session = driver.session
        assert session.config.players == 12 and session.seats[8:] == (None,) * 4
        driver.play(purposeful, max_steps=6000)
        outcome = session.game.outcome(session.state)
        assert outcome is not None and len(outcome.scores) == 12
        script = tmp_path / "game.jsonl"
        script.write_text(driver.script_text())
    finally:
        driver.close()
    out = io.StringIO()
    assert run(build_parser().parse_args(["script", str(script), "--seed", "6"]), out) == 0
    assert json.loads(out.getvalue().splitlines()[-1])["outcome"] == outcome.to_json()


@pytest.mark.parametrize("game,seats,options,seed", CASES, ids=[f"{c[0]}-{len(c[1])}p" for c in CASES])
def test_whole_game_on_the_simulated_table(tmp_path, game, seats, options, seed):
    driver = Driver(seed=seed)
    try:
        driver.start(game, seats, options)
        driver.play(purposeful, max_steps=4000, misplace_at=3, wrong_zone="auto")
        session = driver.session
        outcome = session.game.outcome(session.state).to_json()
        moves = len(session.moves)
        expired = driver.expired
        script = tmp_path / "game.jsonl"
        script.write_text(driver.script_text())
    finally:
        driver.close()
    if options.get("mode") == "competitive":
        assert expired > 0, "the scenario must include an interception countdown running out"
    out = io.StringIO()
    assert run(build_parser().parse_args(["script", str(script), "--seed", str(seed)]), out) == 0
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last["outcome"] == outcome and last["moves"] == moves
    for seat in seats:
        assert last["screens"][str(seat)]["menu"] == ["Retour au menu"]


def test_logs_never_name_a_card_of_a_secret_game(caplog):
    """A whole ZOP game with every log record kept: no record names a card (all are secret)."""
    import logging

    caplog.set_level(logging.DEBUG)
    driver = Driver(seed=11)
    try:
        driver.start("zop", [1, 2], {})
        # a refused gesture: seat 1 (dark deck) tries to lay a card of the light deck
        assert not driver.session.apply(1, {"type": "lay", "card": "zop/light/attack/1"})
        driver.play(purposeful, max_steps=4000, misplace_at=2, wrong_zone="auto")
        assert driver.session.over
    finally:
        driver.close()
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "refused lay for seat 1" in text
    assert "zop/" not in text and "attack" not in text and "defence" not in text
