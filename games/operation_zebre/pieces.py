"""Opération Zèbre's components: the document database, MANCHE/ÉCHEC numbers, variant cards, piece ids.

Everything is read from the TOML files in `data/` and validated once; a malformed file raises
DataError naming the file and the entry.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from games.core import Text, tr

GAME_ID: Final = "operation-zebre"
PIECE_PREFIX: Final = f"{GAME_ID}/documents/"
DATA_DIR = Path(__file__).parent / "data"
CATEGORIES = ("place", "screen", "person")
SIDES = ("recto", "verso")
HINTS = ("initial", "erase")
DIFFICULTIES = ("novice", "advanced")


class DataError(ValueError):
    """A data file of Opération Zèbre that cannot be used."""


@dataclass(frozen=True)
class Line:
    """One printed line of a document and the value printed at its right."""

    text: str
    value: int


@dataclass(frozen=True)
class Document:
    """A classified document (one side of a card)."""

    id: str
    title: str
    initial: str
    category: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Card:
    """A physical card: its key "<deck>/<n>" and the document id on each side (None = unknown)."""

    key: str
    recto: str | None = None
    verso: str | None = None

    def side(self, side: str) -> str | None:
        """The document id printed on `side`."""
        return self.recto if side == "recto" else self.verso


@dataclass(frozen=True)
class Library:
    """The tagged decks, the cards whose text is known, and the documents."""

    decks: tuple[tuple[str, int], ...]
    documents: Mapping[str, Document]
    cards: Mapping[str, Card]

    def card_keys(self) -> list[str]:
        """Every card of every deck, "<deck>/<n>", in deck order."""
        return [f"{deck}/{n}" for deck, count in self.decks for n in range(1, count + 1)]

    def has_card(self, key: Any) -> bool:
        """True for a card key of one of the decks."""
        if not isinstance(key, str) or key.count("/") != 1:
            return False
        deck, _, num = key.partition("/")
        counts = dict(self.decks)
        return deck in counts and num.isdigit() and str(int(num)) == num and 1 <= int(num) <= counts[deck]

    def card(self, key: str) -> Card:
        """The card for a key (an all-unknown card when the database has no entry)."""
        return self.cards.get(key, Card(key))

    def document(self, doc_id: str | None) -> Document | None:
        """A document by id, None for None."""
        return None if doc_id is None else self.documents[doc_id]


@dataclass(frozen=True)
class CoopCard:
    """A cooperative MANCHE card side: rounds to survive and suspicion boxes."""

    rounds: int
    boxes: int


@dataclass(frozen=True)
class CompetCard:
    """A competitive MANCHE card side: rounds, and the value of each suspicion box in tick order."""

    rounds: int
    values: tuple[int, ...]


@dataclass(frozen=True)
class Tables:
    """The numbers printed on the MANCHE and ÉCHEC cards."""

    echecs: tuple[int, ...]
    coop: Mapping[tuple[str, int], CoopCard]
    compet: Mapping[str, CompetCard]


@dataclass(frozen=True)
class Protocol:
    """A PROTOCOLE card: a text and the constraints the table checks."""

    id: str
    text: Text
    max_visible_lines: int | None = None
    max_document_ticks: int | None = None
    hints: tuple[str, ...] = HINTS
    hide_first_line: bool = False
    excludes: tuple[str, ...] = ()  # variant cards it may not be played with (data: `excludes`)


@dataclass(frozen=True)
class Mission:
    """One special mission and its conditions."""

    text: Text
    category: str | None = None
    max_ticks: int | None = None
    hint: str | None = None  # "none" | "initial" | "erase"
    max_visible_lines: int | None = None


@dataclass(frozen=True)
class MissionCard:
    """A MISSIONS SPÉCIALES card."""

    id: str
    name: Text
    missions: tuple[Mission, ...]
    excludes: tuple[str, ...] = ()  # variant cards it may not be played with (data: `excludes`)


@dataclass(frozen=True)
class GameData:
    """All of Opération Zèbre's data."""

    library: Library
    tables: Tables
    protocols: Mapping[str, Protocol]
    mission_cards: Mapping[str, MissionCard]


# -- parsing helpers ---------------------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    """A parsed TOML file; DataError when missing or malformed."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{path.name}: {exc}") from exc


def _int(value: Any, where: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise DataError(f"{where}: expected an integer >= {minimum}, got {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}: expected a non-empty string, got {value!r}")
    return value


def _text(value: Any, where: str) -> Text:
    if not isinstance(value, dict):
        raise DataError(f"{where}: expected {{ fr = ..., en = ... }}")
    return Text(_str(value.get("fr"), f"{where}.fr"), _str(value.get("en"), f"{where}.en"))


def _opt_int(entry: Mapping[str, Any], key: str, where: str) -> int | None:
    return None if key not in entry else _int(entry[key], f"{where}.{key}")


# -- the three files ---------------------------------------------------------------------------


def parse_library(raw: Mapping[str, Any], name: str = "documents.toml") -> Library:
    """The document database from its parsed TOML."""
    decks_raw = raw.get("decks", {})
    if not isinstance(decks_raw, dict):
        raise DataError(f"{name}: [decks] must be a table")
    decks = []
    for deck, count in decks_raw.items():
        if "/" in deck or not deck:
            raise DataError(f"{name}: deck name {deck!r} must not contain '/'")
        decks.append((deck, _int(count, f"{name}: decks.{deck}")))
    documents: dict[str, Document] = {}
    for i, entry in enumerate(raw.get("documents", [])):
        where = f"{name}: documents[{i}]"
        doc_id = _str(entry.get("id"), f"{where}.id")
        if doc_id in documents:
            raise DataError(f"{where}: duplicate id {doc_id!r}")
        title = _str(entry.get("title"), f"{where}.title")
        category = entry.get("category")
        if category not in CATEGORIES:
            raise DataError(f"{where}.category: expected one of {CATEGORIES}, got {category!r}")
        initial = _str(entry.get("initial", title.strip()[0]), f"{where}.initial")[0].upper()
        lines = []
        for j, line in enumerate(entry.get("lines", [])):
            if not isinstance(line, dict):
                raise DataError(f"{where}.lines[{j}]: expected {{ text = ..., value = ... }}")
            lines.append(Line(_str(line.get("text"), f"{where}.lines[{j}].text"),
                              _int(line.get("value"), f"{where}.lines[{j}].value")))
        if not lines:
            raise DataError(f"{where}: a document needs at least one line")
        documents[doc_id] = Document(doc_id, title, initial, category, tuple(lines))
    library = Library(tuple(decks), documents, {})
    cards: dict[str, Card] = {}
    for i, entry in enumerate(raw.get("cards", [])):
        where = f"{name}: cards[{i}]"
        key = f"{_str(entry.get('deck'), f'{where}.deck')}/{_int(entry.get('number'), f'{where}.number', 1)}"
        if not library.has_card(key):
            raise DataError(f"{where}: card {key} is not in a deck of [decks]")
        if key in cards:
            raise DataError(f"{where}: card {key} listed twice")
        sides = {}
        for side in SIDES:
            doc_id = entry.get(side)
            if doc_id is not None and doc_id not in documents:
                raise DataError(f"{where}.{side}: unknown document {doc_id!r}")
            sides[side] = doc_id
        cards[key] = Card(key, sides["recto"], sides["verso"])
    return Library(tuple(decks), documents, cards)


def parse_tables(raw: Mapping[str, Any], name: str = "tables.toml") -> Tables:
    """The MANCHE and ÉCHEC numbers from their parsed TOML."""
    echecs = raw.get("echecs")
    if not isinstance(echecs, list) or not echecs:
        raise DataError(f"{name}: echecs must be a non-empty list of integers")
    coop: dict[tuple[str, int], CoopCard] = {}
    compet: dict[str, CompetCard] = {}
    for diff in DIFFICULTIES:
        side = raw.get("coop", {}).get(diff, {})
        for players in range(2, 9):
            entry = side.get(str(players))
            where = f"{name}: coop.{diff}.{players}"
            if not isinstance(entry, dict):
                raise DataError(f"{where}: missing {{ rounds = ..., boxes = ... }}")
            coop[(diff, players)] = CoopCard(_int(entry.get("rounds"), f"{where}.rounds", 1),
                                             _int(entry.get("boxes"), f"{where}.boxes", 1))
        entry = raw.get("competitive", {}).get(diff)
        where = f"{name}: competitive.{diff}"
        if not isinstance(entry, dict) or not isinstance(entry.get("suspicion"), list) or not entry["suspicion"]:
            raise DataError(f"{where}: needs rounds and a non-empty suspicion list")
        values = tuple(_int(v, f"{where}.suspicion") for v in entry["suspicion"])
        compet[diff] = CompetCard(_int(entry.get("rounds"), f"{where}.rounds", 1), values)
    return Tables(tuple(_int(v, f"{name}: echecs") for v in echecs), coop, compet)


def parse_variants(raw: Mapping[str, Any], name: str = "variants.toml"
                   ) -> tuple[dict[str, Protocol], dict[str, MissionCard]]:
    """The PROTOCOLE and MISSIONS SPÉCIALES cards from their parsed TOML."""
    protocols: dict[str, Protocol] = {}
    for i, entry in enumerate(raw.get("protocols", [])):
        where = f"{name}: protocols[{i}]"
        pid = _str(entry.get("id"), f"{where}.id")
        hints = tuple(entry.get("hints", HINTS))
        if any(h not in HINTS for h in hints) or pid in protocols or pid in ("none", "random"):
            raise DataError(f"{where}: bad hints {hints!r} or duplicate/reserved id {pid!r}")
        protocols[pid] = Protocol(pid, _text(entry.get("text"), f"{where}.text"),
                                  _opt_int(entry, "max_visible_lines", where),
                                  _opt_int(entry, "max_document_ticks", where), hints,
                                  bool(entry.get("hide_first_line", False)),
                                  _excludes(entry, where))
    cards: dict[str, MissionCard] = {}
    for i, entry in enumerate(raw.get("missions", [])):
        where = f"{name}: missions[{i}]"
        mid = _str(entry.get("id"), f"{where}.id")
        if mid in cards or mid in ("none", "random"):
            raise DataError(f"{where}: duplicate or reserved id {mid!r}")
        missions = []
        for j, m in enumerate(entry.get("missions", [])):
            mw = f"{where}.missions[{j}]"
            if m.get("category") not in (None, *CATEGORIES) or m.get("hint") not in (None, "none", *HINTS):
                raise DataError(f"{mw}: bad category or hint")
            missions.append(Mission(_text(m.get("text"), f"{mw}.text"), m.get("category"),
                                    _opt_int(m, "max_ticks", mw), m.get("hint"),
                                    _opt_int(m, "max_visible_lines", mw)))
        if not missions:
            raise DataError(f"{where}: a mission card needs missions")
        cards[mid] = MissionCard(mid, _text(entry.get("name"), f"{where}.name"), tuple(missions),
                                 _excludes(entry, where))
    _check_variant_ids(protocols, cards, name)
    return protocols, cards


MAX_VARIANT_CARDS = 8  # of each kind: the menu offers every combination (2^8 - 1 at most)


def _excludes(entry: Mapping[str, Any], where: str) -> tuple[str, ...]:
    raw = entry.get("excludes", [])
    if not isinstance(raw, list):
        raise DataError(f"{where}.excludes: expected a list of card ids, got {raw!r}")
    return tuple(_str(x, f"{where}.excludes") for x in raw)


def _check_variant_ids(protocols: Mapping[str, Protocol], cards: Mapping[str, MissionCard], name: str) -> None:
    """Ids unique across both kinds, free of the "+" that joins them in options; excludes known."""
    for kind, group in (("protocols", protocols), ("missions", cards)):
        if len(group) > MAX_VARIANT_CARDS:
            raise DataError(f"{name}: at most {MAX_VARIANT_CARDS} {kind} cards, got {len(group)}")
    both = set(protocols) | set(cards)
    for vid in sorted(both):
        if vid in protocols and vid in cards:
            raise DataError(f"{name}: id {vid!r} is both a protocol and a missions card")
        if "+" in vid:
            raise DataError(f"{name}: id {vid!r} may not contain '+' (it joins ids in the options)")
    excludes = [(vid, p.excludes) for vid, p in protocols.items()] + [(vid, c.excludes) for vid, c in cards.items()]
    for vid, excluded in excludes:
        for other in excluded:
            if other not in both or other == vid:
                raise DataError(f"{name}: {vid}.excludes names {other!r}, not another card of the file")


def load_data(directory: Path = DATA_DIR) -> GameData:
    """Read and validate the three data files of a directory."""
    library = parse_library(read_toml(directory / "documents.toml"))
    tables = parse_tables(read_toml(directory / "tables.toml"))
    protocols, missions = parse_variants(read_toml(directory / "variants.toml"))
    return GameData(library, tables, protocols, missions)


@cache
def default_data() -> GameData:
    """The data shipped in the package (read once)."""
    return load_data()


# -- tagged pieces -----------------------------------------------------------------------------

def piece_id(card: str) -> str:
    """The piece id of a card key ("sample/3" -> "operation-zebre/documents/sample/3")."""
    return PIECE_PREFIX + card


def card_of(piece: str) -> str | None:
    """The card key of a piece id, None for anything else."""
    return piece[len(PIECE_PREFIX):] if piece.startswith(PIECE_PREFIX) else None


def all_pieces(data: GameData) -> list[str]:
    """Every tagged document card."""
    return [piece_id(k) for k in data.library.card_keys()]


def piece_label(piece: str) -> Text:
    """A neutral name for a card (never its content: instructions may be read by anyone)."""
    card = card_of(piece)
    if card is None or "/" not in card:
        return Text(piece, piece)
    deck, _, num = card.partition("/")
    if deck == "sample":
        return tr(f"le dossier exemple n°{num}", f"sample document no. {num}")
    if deck == "box":
        return tr(f"le dossier n°{num}", f"document no. {num}")
    return tr(f"le dossier {deck} n°{num}", f"document {deck} no. {num}")
