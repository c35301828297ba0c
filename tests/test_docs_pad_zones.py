"""The games' docs name pads as the table does: a doc that uses the rules' name of a pad (`pad.N`,
by game seat) also gives the table's (`seatT.pad`, by table seat, as the config, the simulator and
scripts name it), and every table zone a doc names exists on the simulated table."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_host.storage.config import load_config

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs" / "games").glob("*.md"))
RULES_PAD = re.compile(r"`pad\.(?:\d+|N|<seat>)`")
TABLE_PAD = re.compile(r"`(seat(?:\d+|T)\.pad)`")


def test_a_doc_naming_a_pad_by_game_seat_says_the_tables_name() -> None:
    assert DOCS
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        if RULES_PAD.search(text):
            assert "`seatT.pad`" in text, f"{doc.name} names pads `pad.N` but never the table's `seatT.pad`"


def test_every_table_pad_a_doc_names_exists() -> None:
    zones = set(load_config(None).zones)
    named = {(doc.name, z) for doc in DOCS for z in TABLE_PAD.findall(doc.read_text(encoding="utf-8"))}
    assert {z for _, z in named} & {"seatT.pad"}, "no doc names the table's pads"
    for name, zone in named:
        assert zone == "seatT.pad" or zone in zones, f"{name}: {zone} is no zone of the table"
