"""Opération Zèbre: where the engine follows the rulebook's own words (issue 13): the Variante.

Rulebook (Variante): « En début de partie, piochez une ou plusieurs cartes PROTOCOLE et/ou
MISSIONS SPÉCIALES. »
"""

from __future__ import annotations

import copy
import io
import json

import pytest

from firmware_host.apps.app import StartGame
from firmware_host.apps.menu import Do, MenuApp, MenuKey, Option, Pick
from firmware_host.commands.main import build_parser
from firmware_host.commands.rules import run
from games.core import CHANCE, BadConfig, GameConfig
from games.operation_zebre import GAME, OperationZebre
from games.operation_zebre.pieces import (
    DATA_DIR,
    DataError,
    GameData,
    parse_library,
    parse_tables,
    parse_variants,
    read_toml,
)
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.operation_zebre_kit import FRANCE, Table


def test_several_protocols_are_played_together_and_every_constraint_holds():
    """« piochez une ou plusieurs cartes PROTOCOLE »; « PROTOCOLE : ajoute une contrainte à
    respecter tout au long de la partie »: with p1 (4 visible lines max) and p4 (first line
    censored) both constraints hold."""
    t = Table(2, protocol="p4+p1")  # any order: the table keeps p1+p4
    assert t.state.protocols == ("p1", "p4")
    assert [p.id for p in t.view(0).protocols] == ["p1", "p4"]
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    for line in (1, 5, 7):
        t.do(0, "censor", line=line)
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "confirm"}).code == "protocol_lines"
    t.do(0, "censor", line=2)  # 4 visible lines, but the first one is among them
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "confirm"}).code == "protocol_first_line"
    t.do(0, "censor", line=2)
    t.do(0, "censor", line=0)
    t.do(0, "confirm")


def test_several_missions_cards_every_mission_must_be_achieved():
    """« piochez une ou plusieurs cartes … MISSIONS SPÉCIALES »; « vous devez réussir les 4 missions
    représentées sur la carte, sinon vous perdez la partie »: with two cards, all 8 missions."""
    t = Table(2, protocol="p1", missions="m3+m1")
    assert t.state.mission_cards == ("m1", "m3") and t.state.missions_done == (False,) * 8
    listed = t.view(0).missions
    assert listed.cards == ("m1", "m3") and [m.card for m in listed.slots] == ["m1"] * 4 + ["m3"] * 4
    assert listed.name.en == "Missions: themes + Missions: thrift"
    t.do(0, "lay", card=FRANCE)
    t.do(0, "side", side="recto")
    # M6 is m3's second mission (a film): France is a place
    assert check_illegal_leaves_state(GAME, t.state, 0, {"type": "mission", "mission": 5}).code == \
        "mission_category"
    assert GAME.describe_action(t.state, 0, {"type": "mission", "mission": 4}).en.startswith("M5 Place, 3 ticks")
    t.do(0, "mission", mission=4)  # m3 no. 1: a place with 3 ticks at most
    for line in (0, 1, 5, 7):
        t.do(0, "censor", line=line)
    t.do(0, "confirm")  # 3 ticks (p1 allows 4 visible lines)
    t.by_sum(1, 0)
    t.do(0, "guess", correct=True)
    assert t.state.missions_done == (False,) * 4 + (True,) + (False,) * 3


def test_contradictory_cards_are_refused_with_a_clear_message():
    """The cards in play must not contradict each other: a mission that needs a hint a protocol (or
    « interdire l'usage des indices ») forbids could never be achieved (from the data file's fields)."""
    with pytest.raises(BadConfig, match=r"p3 forbids the Initial hint: mission m2 no\. 2 impossible"):
        GAME.validate_config(GameConfig(2, {"protocol": "p3", "missions": "m2"}))
    with pytest.raises(BadConfig, match=r"p3 forbids the Initial hint: mission m4 no\. 4 impossible"):
        GAME.validate_config(GameConfig(2, {"protocol": "p1+p3", "missions": "m1+m4"}))
    with pytest.raises(BadConfig, match=r"Hints off: mission m2 no\. 2 impossible \(Initial hint\)"):
        GAME.validate_config(GameConfig(2, {"hints": "off", "missions": "m2"}))
    with pytest.raises(BadConfig, match=r"unknown card 'p9'.*known: p1, p2, p3, p4"):
        GAME.validate_config(GameConfig(2, {"protocol": "p1+p9"}))
    with pytest.raises(BadConfig, match="named twice"):
        GAME.validate_config(GameConfig(2, {"protocol": "p1+p1"}))
    # what does not contradict is accepted
    assert GAME.validate_config(GameConfig(2, {"protocol": "p3", "missions": "m1+m3"})).options["missions"] == "m1+m3"
    assert GAME.validate_config(GameConfig(2, {"protocol": "p1+p2+p3+p4"})).options["protocol"] == "p1+p2+p3+p4"


def _data_with(edit) -> OperationZebre:
    raw = copy.deepcopy(read_toml(DATA_DIR / "variants.toml"))
    edit(raw)
    protocols, missions = parse_variants(raw)
    return OperationZebre(GameData(parse_library(read_toml(DATA_DIR / "documents.toml")),
                                   parse_tables(read_toml(DATA_DIR / "tables.toml")), protocols, missions))


def test_excludes_in_the_data_file_declare_contradictions_the_table_cannot_see():
    """Cards whose text the table cannot check (or the two faces of one printed card) are declared
    incompatible in variants.toml with `excludes`; those sets are neither offered nor accepted."""
    game = _data_with(lambda raw: raw["protocols"][0].update(excludes=["p2", "m1"]))
    choices = next(o for o in game.options if o.key == "protocol").choices
    assert "p1+p3" in choices and "p1+p2" not in choices and "p1+p2+p3" not in choices
    with pytest.raises(BadConfig, match=r"p1 and p2 exclude each other \(variants\.toml\)"):
        game.validate_config(GameConfig(2, {"protocol": "p1+p2"}))
    with pytest.raises(BadConfig, match=r"p1 and m1 exclude each other"):
        game.validate_config(GameConfig(2, {"protocol": "p1", "missions": "m1"}))
    with pytest.raises(DataError, match=r"p1\.excludes names 'p7'"):
        _data_with(lambda raw: raw["protocols"][0].update(excludes=["p7"]))
    with pytest.raises(DataError, match="may not contain"):
        _data_with(lambda raw: raw["protocols"][0].update(id="p1+p2"))
    with pytest.raises(DataError, match="expected a list"):
        _data_with(lambda raw: raw["protocols"][0].update(excludes="p2"))


def test_random_draws_give_only_cards_compatible_with_those_in_play():
    """« piochez une ou plusieurs cartes »: a drawn card that would contradict the others is not
    drawn (drawing again until a compatible one comes gives the same odds among those)."""
    t = Table(2, protocol="p3", missions="random")
    assert [a["id"] for a, _ in GAME.chance_outcomes(t.state)] == ["m1", "m3"]
    t = Table(2, protocol="random", missions="m2")
    assert [a["id"] for a, _ in GAME.chance_outcomes(t.state)] == ["p1", "p2", "p4"]
    t = Table(2, protocol="random", missions="random")
    t.do(CHANCE, "protocol", id="p3")
    assert [a["id"] for a, _ in GAME.chance_outcomes(t.state)] == ["m1", "m3"]
    t.do(CHANCE, "missions", id="m3")
    assert t.state.protocols == ("p3",) and t.state.mission_cards == ("m3",) and t.state.phase == "prepare"
    t = Table(2, hints="off", missions="random")
    assert [a["id"] for a, _ in GAME.chance_outcomes(t.state)] == ["m1", "m3"]
    assert check_illegal_leaves_state(GAME, t.state, CHANCE, {"type": "missions", "id": "m2"}).code == "bad_chance"


def _press_to(menu: MenuApp, key: MenuKey) -> StartGame | None:
    keys = [k for _, k in menu.entries()]
    menu.cursor = 0
    for _ in range(keys.index(key)):
        menu.on_button(0, "right", "press")
    done = menu.on_button(0, "ok", "press")
    assert done is None or isinstance(done, StartGame)
    return done


def test_combinations_are_in_the_setup_menu_and_on_the_command_line(tmp_path):
    """The combinations go through the game's options: the table's setup menu and
    `zebra-table rules --option protocol=p1+p3`."""
    menu = MenuApp((0, 1))
    menu.on_button(0, "ok", "press")  # takes the menu
    _press_to(menu, Pick("operation-zebre"))
    seen = []
    for _ in range(len(next(o for o in GAME.options if o.key == "protocol").choices)):
        _press_to(menu, Option("protocol"))
        seen.append(menu.options["protocol"])
    assert "p1+p3" in seen and "p1+p2+p3+p4" in seen
    label = next(t for t, k in menu.entries() if k == Option("protocol"))
    assert label.fr == "Protocole : Aucun"  # came round again
    while menu.options.get("protocol") != "p1+p3":
        _press_to(menu, Option("protocol"))
    label = next(t for t, k in menu.entries() if k == Option("protocol"))
    assert label.fr == "Protocole : 4 lignes visibles max + Indice Initiale interdit"
    while menu.options.get("missions") != "m2":
        _press_to(menu, Option("missions"))
    menu.on_button(1, "ok", "press")  # the second seat joins
    assert _press_to(menu, Do("start")) is None and "p3 forbids the Initial hint" in menu.message.en

    actions = tmp_path / "none.jsonl"
    actions.write_text("")
    out = io.StringIO()
    args = build_parser().parse_args(["rules", "operation-zebre", "--players", "2", "--actions", str(actions),
                                      "--option", "protocol=p3+p1", "--option", "missions=m1+m3"])
    assert run(args, out) == 0
    doc = json.loads(out.getvalue())
    assert doc["options"]["protocol"] == "p1+p3" and doc["options"]["missions"] == "m1+m3"
    assert [p["id"] for p in doc["views"]["public"]["protocols"]] == ["p1", "p3"]
    out = io.StringIO()
    args = build_parser().parse_args(["rules", "operation-zebre", "--players", "2", "--actions", str(actions),
                                      "--option", "protocol=p3", "--option", "missions=m2"])
    assert run(args, out) == 2
    assert "p3 forbids the Initial hint" in json.loads(out.getvalue())["error"]["message"]
