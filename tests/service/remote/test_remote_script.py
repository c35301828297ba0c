"""`zebra-table script --tables 2`: two simulated tables in one script play a whole game of Drôles
de Zèbres, one of ZOP, one of Spywhere and one of Mata Hari, through a real mosquitto, one table's
link cut in the middle. The script is recorded by playing in this process, then replayed by the
command in a fresh interpreter: the same game, both tables agreeing move for move (in Mata Hari on
every joining seat's view and the outcome), nothing lost over the cut."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.storage.config import sim_config_text
from games.core import to_json
from tests.kits.remotekit import ScriptRecorder

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("game", "options", "cut_after", "seats", "there"), [
    ("droles-de-zebres", {"first_player": "random"}, 10, [1, None], [3]), ("zop", {}, 40, [1, None], [3]),
    ("spywhere", {}, 30, [1, None], [3]), ("mata-hari", {}, 30, [1, None, 5], [3])])
def test_a_two_table_script_plays_a_whole_game_with_the_link_cut(broker, tmp_path, game, options, cut_after, seats,
                                                                   there):
    config = tmp_path / "table.toml"
    config.write_text(sim_config_text() + f'\n[remote]\nhost = "127.0.0.1"\nport = {broker.port}\nreconnect_max = 0.5\n')
    rec = ScriptRecorder(config, seed=4, fair=game != "droles-de-zebres")
    try:
        rec.send({"comment": "table a hosts, table b joins with the code a shows"})
        rec.send({"host": {"game": game, "seats": seats, "options": options}})
        rec.send({"table": "b", "join": {"seats": there}})
        rec.send({"sync": True})
        cut = False
        for _ in range(3000):
            a, b = rec.session("a"), rec.session("b")
            if a.over and b.over:
                break
            # its screen free to say it, its player free to play meanwhile (in Spywhere the host draws)
            if not cut and len(a.moves) >= cut_after and b.instruction is None and b.humans_to_act():
                rec.send({"table": "b", "link": "cut"})
                moves = len(rec.session("b").moves)
                while len(rec.session("b").moves) == moves:  # whoever's turn it is plays meanwhile
                    assert rec.act()
                rec.send({"table": "b", "link": "restore"})
                # the move made while cut is resent once the link is back: nobody plays before it arrives
                rec.send({"sync": True})
                cut = True
            assert rec.act(), "nobody can play and the game is not over"
            rec.send({"sync": True})
        a, b = rec.session("a"), rec.session("b")
        joining = [i for i, x in enumerate(seats) if x is None]
        # the same game at both tables (the joining table holds the host's moves as told: in ZOP
        # stand-ins for cards laid and taken back before a reveal, in Spywhere the order in which the
        # host's player drew the cards in its hand at the end)
        assert cut and a.over and b.over and a.game.outcome(a.state) == b.game.outcome(b.state)
        assert rec.two.games["a"].seats.log == b.moves
        if game == "mata-hari":  # what the host's players composed and never said is not told: the views are
            assert [to_json(a.game.view(a.state, j)) for j in joining] == \
                [to_json(b.game.view(b.state, j)) for j in joining]
        else:
            assert a.state == b.state and len(a.moves) == len(b.moves)
        recorded = {"a": len(a.moves), "b": len(b.moves)}
    finally:
        rec.close()
    script = tmp_path / "two.jsonl"
    script.write_text("\n".join(rec.lines) + "\n")
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "script", str(script), "--tables", "2",
                           "--config", str(config), "--seed", "4"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, (proc.stdout[-3000:], proc.stderr[-3000:])
    entries = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(entries) == len(rec.lines) and not [e for e in entries if "error" in e]
    last = entries[-1]
    assert {t: last["tables"][t]["moves"] for t in recorded} == recorded
    assert last["outcome"] is not None
    # while cut, table b said at once that the other table's player is away
    cut_at = next(i for i, e in enumerate(entries) if e["event"].get("link") == "cut")
    # (the screen's standing line while the link is down; the notice "J1 (à distance) est absent" waits under it)
    away = ", ".join(f"J{i + 1}" for i, x in enumerate(seats) if x is not None)
    assert f"Réseau perdu : {away} absent" in json.dumps(entries[cut_at]["screens"]["3"], ensure_ascii=False)
    assert entries[cut_at]["tables"]["b"]["present"] is False
