"""Spywhere's card set: nationalities, colours, piece ids and their labels (data in data/cards.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from games.core import Text

GAME_ID: Final = "spywhere"
DATA_FILE: Final = Path(__file__).parent / "data" / "cards.toml"

# Numbers printed in the rulebook (not card data): kept here, named, used by the rules.
HAND_SIZE: Final = 3  # cards dealt to each player
CENTRE_SLOTS: Final = 5  # face-up cards in the centre, on zones centre.1..centre.5
TRIPLE: Final = 3  # identical centre cards that may be taken
ENDER_BONUS: Final = 3  # points for ending the game by identifying every opponent
REMOVE_AT_MOST: Final = 4  # with this many players or fewer, one nationality is removed
TWO_PLAYER_FIRST_ROUND: Final = 5  # 2 players: « Aucune tentative … avant le 5e tour de jeu »
# How "le 5e tour de jeu" is read (option `identify_from`): the 5th round (each player's 5th
# turn), or the 5th turn of play (one player's turn, as « tour » means elsewhere in the rulebook).
IDENTIFY_FROM_ROUND: Final = "round"
IDENTIFY_FROM_TURN: Final = "turn"


class CardDataError(ValueError):
    """The card data file is missing a field or holds an inconsistent value."""


@dataclass(frozen=True)
class Nationality:
    """One nationality: id used in piece ids and actions, full and short names."""

    id: str
    name: Text
    short: Text


@dataclass(frozen=True)
class Colour:
    """One identification colour (one set of cards per player)."""

    id: str
    name: Text


@dataclass(frozen=True)
class CardSet:
    """The printed set as read from the data file."""

    nationalities: tuple[Nationality, ...]
    cards_per_nationality: int
    colours: tuple[Colour, ...]

    def nationality(self, nat: str) -> Nationality:
        """The nationality with id `nat`; raises CardDataError when unknown."""
        for n in self.nationalities:
            if n.id == nat:
                return n
        raise CardDataError(f"unknown nationality {nat!r}")

    @property
    def ids(self) -> tuple[str, ...]:
        """Every nationality id, in data-file order."""
        return tuple(n.id for n in self.nationalities)


def _text(raw: object, where: str) -> Text:
    if not isinstance(raw, dict) or not isinstance(raw.get("fr"), str) or not isinstance(raw.get("en"), str):
        raise CardDataError(f"{DATA_FILE.name}: {where} needs {{ fr = \"...\", en = \"...\" }}")
    return Text(raw["fr"], raw["en"])


def parse_card_set(raw: dict[str, object]) -> CardSet:
    """Build and validate a CardSet from the decoded TOML table."""
    nats = raw.get("nationality")
    colours = raw.get("colour")
    count = raw.get("cards_per_nationality")
    if not isinstance(nats, list) or len(nats) != 6:
        raise CardDataError(f"{DATA_FILE.name}: exactly 6 [[nationality]] tables expected")
    if not isinstance(colours, list) or len(colours) < 6:
        raise CardDataError(f"{DATA_FILE.name}: at least 6 [[colour]] tables expected (one per seat)")
    if not isinstance(count, int) or isinstance(count, bool) or count < TRIPLE:
        raise CardDataError(f"{DATA_FILE.name}: cards_per_nationality must be an integer ≥ {TRIPLE}")
    nationalities = tuple(
        Nationality(str(n.get("id", "")), _text(n.get("name"), f"nationality {i + 1} name"),
                    _text(n.get("short"), f"nationality {i + 1} short"))
        for i, n in enumerate(nats)
    )
    cols = tuple(Colour(str(c.get("id", "")), _text(c.get("name"), f"colour {i + 1} name"))
                 for i, c in enumerate(colours))
    for kind, ids in (("nationality", [n.id for n in nationalities]), ("colour", [c.id for c in cols])):
        if len(set(ids)) != len(ids) or not all(i and i.isascii() and "/" not in i for i in ids):
            raise CardDataError(f"{DATA_FILE.name}: {kind} ids must be distinct, ASCII, without '/'")
    return CardSet(nationalities, count, cols)


@cache
def card_set() -> CardSet:
    """The card set of data/cards.toml (read once)."""
    with DATA_FILE.open("rb") as f:
        return parse_card_set(tomllib.load(f))


# -- piece ids ----------------------------------------------------------------------------------


def nationality_card(nat: str, n: int) -> str:
    """Piece id of the n-th (1-based) nationality card of `nat`."""
    return f"{GAME_ID}/nationality/{nat}/{n}"


def passport(nat: str) -> str:
    """Piece id of the passport of `nat`."""
    return f"{GAME_ID}/passport/{nat}/1"


def identification(colour: str, nat: str) -> str:
    """Piece id of the identification card naming `nat` in the set of `colour`."""
    return f"{GAME_ID}/identification/{colour}/{nat}"


def nat_of(card: str) -> str:
    """The nationality of a nationality card or passport piece id."""
    try:
        return _NATS[card]
    except KeyError:  # read once per piece id: the rules ask it of every card at every move
        nat = card.split("/")[2]
        if len(_NATS) < _NATS_KEPT:  # bounded: an action's card may be any string until checked
            _NATS[card] = nat
        return nat


_NATS: dict[str, str] = {}  # piece id -> nationality (a few dozen cards in play)
_NATS_KEPT = 512


def deck(nats: tuple[str, ...]) -> tuple[str, ...]:
    """Every nationality card of the nationalities `nats`, sorted."""
    per = card_set().cards_per_nationality
    return tuple(sorted(nationality_card(nat, n) for nat in nats for n in range(1, per + 1)))


def all_pieces() -> list[str]:
    """Every tagged card of the game: nationality cards, passports, identification cards."""
    cs = card_set()
    out = [nationality_card(n, i) for n in cs.ids for i in range(1, cs.cards_per_nationality + 1)]
    out += [passport(n) for n in cs.ids]
    out += [identification(c.id, n) for c in cs.colours for n in cs.ids]
    return out


def piece_kind(piece: str) -> tuple[str, str, str] | None:
    """(set, kind, n) of one of this game's piece ids, or None for anything else."""
    parts = piece.split("/") if isinstance(piece, str) else []
    if len(parts) != 4 or parts[0] != GAME_ID:
        return None
    return parts[1], parts[2], parts[3]


def label(piece: str) -> Text:
    """A short French/English name of a piece ("la carte Italie n°7")."""
    kind = piece_kind(piece)
    cs = card_set()
    try:
        if kind is not None and kind[0] == "nationality":
            name = cs.nationality(kind[1]).name
            return Text(f"la carte {name.fr} n°{kind[2]}", f"the {name.en} card #{kind[2]}")
        if kind is not None and kind[0] == "passport":
            name = cs.nationality(kind[1]).name
            return Text(f"le passeport {name.fr}", f"the {name.en} passport")
        if kind is not None and kind[0] == "identification":
            colour = next(c for c in cs.colours if c.id == kind[1])
            name = cs.nationality(kind[2]).name
            return Text(f"l'identification {colour.name.fr} {name.fr}", f"the {colour.name.en} {name.en} identification")
    except (CardDataError, StopIteration):
        pass  # a piece the card data does not name: its id is its label
    return Text(str(piece), str(piece))


def nat_name(nat: str) -> Text:
    """The full name of a nationality id (the id itself when unknown)."""
    try:
        return card_set().nationality(nat).name
    except CardDataError:
        return Text(nat, nat)


def nat_short(nat: str) -> Text:
    """The 3-letter name of a nationality id for screen lines."""
    try:
        return card_set().nationality(nat).short
    except CardDataError:
        return Text(nat[:3], nat[:3])
