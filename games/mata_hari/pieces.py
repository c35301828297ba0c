"""The card set of Operation: Mata Hari, read from data/cards.toml: piece ids, attributes, set-up."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.core import Text

GAME_ID = "mata-hari"
DATA = Path(__file__).with_name("data")


class CardDataError(ValueError):
    """The card data file is inconsistent (a typo in an edited data file)."""


@dataclass(frozen=True)
class Card:
    """One resource or partner card of the Operation pile."""

    id: str
    family: str  # "resource" | "partner"
    colour: str | None = None
    object: str | None = None
    value: int | None = None
    partner: str | None = None

    def attr(self, name: str) -> Any:
        """The attribute a statement predicate tests (None when the card has none)."""
        return getattr(self, name, None)


@dataclass(frozen=True)
class Objective:
    """A secret objective: the resource that scores and the skull colour that costs."""

    id: str
    resource: str
    skull: str


@dataclass(frozen=True)
class Setup:
    """What one player count plays with."""

    players: int
    deck: tuple[str, ...]  # resources and partners in play (sorted ids)
    objectives: tuple[str, ...]
    resources: tuple[str, ...]  # resource ids in play
    deal: int
    by_value: dict[int, frozenset[str]]  # value -> resource cards in play with that value
    removed: tuple[str, ...]  # cards left in the box


@dataclass(frozen=True)
class CardSet:
    """Every printed card and name."""

    cards: dict[str, Card]
    objectives: dict[str, Objective]
    covers: tuple[str, ...]
    names: dict[str, Text]  # resource, partner, colour and family ids -> names
    resource_order: tuple[str, ...]
    partner_kinds: tuple[str, ...]
    colours: tuple[str, ...]
    setup_rows: dict[int, dict[str, Any]]
    table: dict[str, Any]


def resource_id(obj: str, value: int) -> str:
    """The piece id of a resource card."""
    return f"{GAME_ID}/resources/{obj}-{value}/1"


def partner_id(kind: str, n: int) -> str:
    """The piece id of the n-th (1-based) partner card of a kind."""
    return f"{GAME_ID}/partners/{kind}/{n}"


def objective_id(resource: str) -> str:
    """The piece id of an objective card."""
    return f"{GAME_ID}/objectives/{resource}/1"


def cover_id(n: int) -> str:
    """The piece id of the n-th (1-based) cover card."""
    return f"{GAME_ID}/covers/cover/{n}"


def _text(entry: dict[str, Any]) -> Text:
    return Text(str(entry["fr"]), str(entry["en"]))


@cache
def card_set() -> CardSet:
    """The card set from data/cards.toml (read once)."""
    with open(DATA / "cards.toml", "rb") as fh:
        raw = tomllib.load(fh)
    names: dict[str, Text] = {}
    colours = tuple(raw["colours"])
    for cid, entry in raw["colours"].items():
        names[cid] = _text(entry)
    cards: dict[str, Card] = {}
    order = []
    for res in raw["resources"]:
        if res["colour"] not in colours:
            raise CardDataError(f"cards.toml: resource {res['id']}: unknown colour {res['colour']!r}")
        order.append(res["id"])
        names[res["id"]] = _text(res)
        for v in raw["values"]:
            cid = resource_id(res["id"], int(v))
            cards[cid] = Card(cid, "resource", colour=res["colour"], object=res["id"], value=int(v))
    kinds = []
    for p in raw["partners"]:
        kinds.append(p["id"])
        names[p["id"]] = _text(p)
        for n in range(1, int(p["count"]) + 1):
            cid = partner_id(p["id"], n)
            cards[cid] = Card(cid, "partner", partner=p["id"])
    objectives = {}
    for o in raw["objectives"]:
        if o["resource"] not in order or o["skull"] not in colours:
            raise CardDataError(f"cards.toml: bad objective {o}")
        oid = objective_id(o["resource"])
        objectives[oid] = Objective(oid, o["resource"], o["skull"])
    covers = tuple(cover_id(n) for n in range(1, int(raw["covers"]["count"]) + 1))
    rows = {int(k): v for k, v in raw["setup"].items()}
    return CardSet(cards, objectives, covers, names, tuple(order), tuple(kinds), colours, rows,
                   dict(raw["table"]))


@cache
def setup(players: int) -> Setup:
    """The cards in play for a player count (rulebook set-up tables)."""
    cs = card_set()
    row = cs.setup_rows.get(players)
    if row is None:
        raise CardDataError(f"cards.toml: no set-up row for {players} players")
    gone_res = set(row["remove_resources"])
    drop = int(row["remove_partners"])
    removed: list[str] = []
    deck: list[str] = []
    for cid, card in cs.cards.items():
        out = False
        if card.family == "resource" and card.object in gone_res:
            out = True
        if card.family == "partner":
            count = sum(1 for c in cs.cards.values() if c.partner == card.partner)
            n = int(cid.rsplit("/", 1)[1])
            out = n > count - drop
        (removed if out else deck).append(cid)
    objectives = tuple(sorted(o.id for o in cs.objectives.values() if o.resource not in gone_res))
    resources = tuple(r for r in cs.resource_order if r not in gone_res)
    by_value: dict[int, set[str]] = {}
    for cid in deck:
        card = cs.cards[cid]
        if card.value is not None:
            by_value.setdefault(card.value, set()).add(cid)
    return Setup(players, tuple(sorted(deck)), objectives, resources, int(row["deal"]),
                 {v: frozenset(s) for v, s in by_value.items()}, tuple(sorted(removed)))


def card(cid: str) -> Card:
    """The card with this piece id (KeyError when unknown)."""
    return card_set().cards[cid]


def is_card(cid: object) -> bool:
    """True for the piece id of a resource or partner card."""
    return isinstance(cid, str) and cid in card_set().cards


def name(key: str) -> Text:
    """The name of a resource, partner kind, colour or family id."""
    return card_set().names.get(key, Text(key, key))


def label(piece: str) -> Text:
    """A short name for any piece id of the game ("Documents 5", "Agent double")."""
    cs = card_set()
    c = cs.cards.get(piece)
    if c is not None:
        if c.family == "resource":
            n = name(c.object or "")
            return Text(f"{n.fr} {c.value}", f"{n.en} {c.value}")
        return name(c.partner or "")
    o = cs.objectives.get(piece)
    if o is not None:
        n = name(o.resource)
        return Text(f"Objectif {n.fr}", f"{n.en} objective")
    if piece in cs.covers:
        number = piece.rsplit("/", 1)[1]
        return Text(f"Couverture {number}", f"Cover {number}")
    return Text(piece, piece)


def all_pieces() -> list[str]:
    """Every tagged piece of the box: resources, partners, objectives, covers."""
    cs = card_set()
    return [*cs.cards, *sorted(cs.objectives), *cs.covers]
