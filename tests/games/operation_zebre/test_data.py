"""Opération Zèbre's data files: they load, they are validated, the samples are the table's own."""

from __future__ import annotations

import copy

import pytest

from games.operation_zebre import GAME
from games.operation_zebre.pieces import (
    CATEGORIES,
    DATA_DIR,
    DataError,
    parse_library,
    parse_tables,
    parse_variants,
    read_toml,
)

DOCS = read_toml(DATA_DIR / "documents.toml")
TABLES = read_toml(DATA_DIR / "tables.toml")
VARIANTS = read_toml(DATA_DIR / "variants.toml")


def test_shipped_data_loads_with_every_card_side_known():
    lib = GAME.data.library
    assert len(lib.documents) == 12 and len(lib.cards) == 6
    for card in lib.cards.values():
        assert card.recto in lib.documents and card.verso in lib.documents
    assert {d.category for d in lib.documents.values()} == set(CATEGORIES)
    assert lib.documents["france"].initial == "F" and lib.documents["simpson"].initial == "L"
    assert GAME.data.tables.echecs == (2, 3, 4, 5)
    assert len(GAME.data.protocols) == 4 and all(len(m.missions) == 4 for m in GAME.data.mission_cards.values())


def test_sample_france_fits_the_rulebook_example():
    values = [ln.value for ln in GAME.data.library.documents["france"].lines]
    visible = [v for i, v in enumerate(values) if i not in (1, 5, 7)]
    assert len(visible) == 5 and sum(visible) == 4 and values[4] == 2


def test_samples_are_not_the_published_text():
    # words of the published France card quoted in the rulebook must not appear in the samples
    published = ["transcontinental", "frontières avec la Belgique", "Brésil", "Membre du G7", "pays fondateurs",
                 "Première destination"]
    text = " ".join(ln.text for d in GAME.data.library.documents.values() for ln in d.lines)
    assert not any(word in text for word in published)


def _bad_library(mutate) -> None:
    raw = copy.deepcopy(DOCS)
    mutate(raw)
    with pytest.raises(DataError):
        parse_library(raw)


def test_document_database_is_validated():
    _bad_library(lambda r: r["documents"].append(dict(r["documents"][0])))  # duplicate id
    _bad_library(lambda r: r["documents"][0].update(category="sport"))
    _bad_library(lambda r: r["documents"][0]["lines"][0].update(value=-1))
    _bad_library(lambda r: r["documents"][0]["lines"][0].update(value=True))
    _bad_library(lambda r: r["documents"][0].update(lines=[]))
    _bad_library(lambda r: r["cards"][0].update(recto="nowhere"))
    _bad_library(lambda r: r["cards"][0].update(number=7))  # beyond the sample deck
    _bad_library(lambda r: r["cards"].append(dict(r["cards"][0])))
    _bad_library(lambda r: r["decks"].update({"a/b": 1}))


def test_unknown_cards_and_sides():
    raw = copy.deepcopy(DOCS)
    raw["decks"]["box"] = 2
    raw["cards"].append({"deck": "box", "number": 1, "recto": "france"})
    lib = parse_library(raw)
    assert lib.card("box/1").verso is None and lib.card("box/2").recto is None
    assert lib.has_card("box/2") and not lib.has_card("box/3") and not lib.has_card("box/01")


def test_tables_and_variants_are_validated():
    raw = copy.deepcopy(TABLES)
    del raw["coop"]["novice"]["5"]
    with pytest.raises(DataError, match="coop.novice.5"):
        parse_tables(raw)
    raw = copy.deepcopy(TABLES)
    raw["competitive"]["advanced"]["suspicion"] = []
    with pytest.raises(DataError):
        parse_tables(raw)
    raw = copy.deepcopy(VARIANTS)
    raw["protocols"][0]["hints"] = ["shout"]
    with pytest.raises(DataError):
        parse_variants(raw)
    raw = copy.deepcopy(VARIANTS)
    raw["missions"][0]["missions"][0]["category"] = "sport"
    with pytest.raises(DataError):
        parse_variants(raw)
