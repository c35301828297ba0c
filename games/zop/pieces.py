"""ZOP's deck: card definitions, special effect kinds, piece ids and labels (data in data/decks.toml)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from games.core import Text

GAME_ID: Final = "zop"
DATA_FILE: Final = Path(__file__).parent / "data" / "decks.toml"

ATTACK: Final = "attack"
DEFENCE: Final = "defence"
SPECIAL: Final = "special"
CARD_TYPES: Final = (ATTACK, DEFENCE, SPECIAL)

# effect kinds -> their parameters and each parameter's allowed type (or allowed values)
EFFECT_KINDS: Final[Mapping[str, Mapping[str, Any]]] = {
    "cancel": {},
    "boost": {"amount": int},
    "multiply": {"factor": int},
    "extra_cards": {"count": int, "timing": ("next_turn", "same_turn")},
    "blind_exchange": {"give": ("choice", "none"), "refuse": list},
    "counter": {"against": (ATTACK, DEFENCE), "block": bool, "score": bool},
    "score": {"points": int},
    "none": {},
}


class DeckDataError(ValueError):
    """The deck data file is missing a field or holds an inconsistent value."""


@dataclass(frozen=True)
class Ability:
    """A special card's effect: one kind from EFFECT_KINDS and its parameters."""

    kind: str
    amount: int = 0
    factor: int = 1
    count: int = 0
    timing: str = "next_turn"
    give: str = "choice"
    refuse: tuple[str, ...] = ()
    against: str = ""
    block: bool = False
    score: bool = False
    points: int = 0


@dataclass(frozen=True)
class CardDef:
    """One printed card of a deck: type, number within its type, strength, names, effect."""

    type: str
    n: int
    value: int
    name: Text
    short: Text
    ability: Ability | None = None

    @property
    def kind(self) -> str:
        """The effect kind of a special card, "" for attack and defence."""
        return self.ability.kind if self.ability else ""


@dataclass(frozen=True)
class Deck:
    """The deck definition shared by both sets, with the set names and the hand size."""

    sets: tuple[str, str]
    hand_size: int
    cards: tuple[CardDef, ...]
    # piece id -> (owner seat, card): built once, so hot paths never parse ids
    _lookup: dict[str, tuple[int, CardDef]] = field(init=False, repr=False, compare=False, hash=False)
    _ids: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        ids = {s: tuple(piece_id(s, c) for c in self.cards) for s in self.sets}
        lookup = {pid: (seat, card) for seat, s in enumerate(self.sets) for pid, card in zip(ids[s], self.cards)}
        object.__setattr__(self, "_ids", ids)
        object.__setattr__(self, "_lookup", lookup)

    def ids(self, set_name: str) -> tuple[str, ...]:
        """Every piece id of one set, in data order."""
        return self._ids[set_name]

    def all_ids(self) -> tuple[str, ...]:
        """Every piece id of both sets."""
        return tuple(self._lookup)

    def set_of_seat(self, seat: int) -> str:
        """The set played by a game seat (seat 0 the first set)."""
        return self.sets[seat]

    def owner(self, piece: str) -> int:
        """The seat whose deck a piece belongs to; raises DeckDataError for a foreign id."""
        return self._entry(piece)[0]

    def card(self, piece: str) -> CardDef:
        """The card definition behind a piece id; raises DeckDataError when unknown."""
        return self._entry(piece)[1]

    def is_card(self, piece: Any) -> bool:
        """True for a piece id of this game's decks."""
        return isinstance(piece, str) and piece in self._lookup

    def _entry(self, piece: Any) -> tuple[int, CardDef]:
        try:
            return self._lookup[piece]
        except (KeyError, TypeError):
            raise DeckDataError(f"not a ZOP card id: {piece!r}") from None


def piece_id(set_name: str, card: CardDef) -> str:
    """The tag id of one physical card: zop/<set>/<type>/<n>."""
    return f"{GAME_ID}/{set_name}/{card.type}/{card.n}"


# -- loading -----------------------------------------------------------------------------------


def _text(raw: Any, where: str) -> Text:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("fr"), str) or not isinstance(raw.get("en"), str):
        raise DeckDataError(f"{where}: expected {{ fr = \"...\", en = \"...\" }}")
    return Text(raw["fr"], raw["en"])


def _ability(raw: Any, where: str) -> Ability:
    if not isinstance(raw, Mapping) or raw.get("kind") not in EFFECT_KINDS:
        raise DeckDataError(f"{where}: effect.kind must be one of {', '.join(EFFECT_KINDS)}")
    kind = raw["kind"]
    spec = EFFECT_KINDS[kind]
    extra = set(raw) - set(spec) - {"kind"}
    if extra:
        raise DeckDataError(f"{where}: effect {kind!r} has no parameter {sorted(extra)[0]!r}")
    params: dict[str, Any] = {}
    for key, allowed in spec.items():
        if key not in raw:
            raise DeckDataError(f"{where}: effect {kind!r} needs {key!r}")
        value = raw[key]
        if isinstance(allowed, tuple):
            if value not in allowed:
                raise DeckDataError(f"{where}: {key} = {value!r}, expected one of {list(allowed)}")
        elif allowed is list:
            if not isinstance(value, list) or any(v not in EFFECT_KINDS for v in value):
                raise DeckDataError(f"{where}: {key} must be a list of effect kinds")
            value = tuple(value)
        elif not isinstance(value, allowed) or (allowed is int and isinstance(value, bool)):
            raise DeckDataError(f"{where}: {key} must be {allowed.__name__}")
        params[key] = value
    for key in ("amount", "count", "points"):
        if key in params and params[key] < 0:
            raise DeckDataError(f"{where}: {key} must not be negative")
    if kind == "multiply" and params["factor"] < 0:
        raise DeckDataError(f"{where}: factor must not be negative")
    return Ability(kind=kind, **params)


def _values(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    section = data.get(key)
    values = section.get("values") if isinstance(section, Mapping) else None
    if not isinstance(values, list) or not values or any(
            not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        raise DeckDataError(f"[{key}] values must be a non-empty list of non-negative integers")
    return tuple(values)


def parse_deck(data: Mapping[str, Any]) -> Deck:
    """A Deck from the parsed TOML document; raises DeckDataError naming the faulty field."""
    sets = data.get("sets")
    if not isinstance(sets, list) or len(sets) != 2 or len(set(sets)) != 2 or not all(
            isinstance(s, str) and s.isalnum() for s in sets):
        raise DeckDataError("sets must list two different plain names (one deck per player)")
    hand = data.get("hand_size")
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
        raise DeckDataError("hand_size must be a positive integer")
    cards: list[CardDef] = []
    for typ, word in ((ATTACK, ("Attaque", "Attack", "Att", "Atk")),
                      (DEFENCE, ("Défense", "Defence", "Déf", "Def"))):
        for n, value in enumerate(_values(data, typ), start=1):
            cards.append(CardDef(typ, n, value, Text(f"{word[0]} {value}", f"{word[1]} {value}"),
                                 Text(f"{word[2]} {value}", f"{word[3]} {value}")))
    specials = data.get(SPECIAL)
    if not isinstance(specials, list) or not specials:
        raise DeckDataError("[[special]] entries are missing")
    seen: set[int] = set()
    for i, raw in enumerate(specials):
        where = f"[[special]] #{i + 1}"
        if not isinstance(raw, Mapping):
            raise DeckDataError(f"{where}: expected a table")
        number = raw.get("n")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1 or number in seen:
            raise DeckDataError(f"{where}: n must be a positive integer, unique")
        seen.add(number)
        cards.append(CardDef(SPECIAL, number, 0, _text(raw.get("name"), f"{where} name"),
                             _text(raw.get("short"), f"{where} short"), _ability(raw.get("effect"), where)))
    return Deck((sets[0], sets[1]), hand, tuple(cards))


def load_deck(path: Path | str = DATA_FILE) -> Deck:
    """Read and check a deck data file; raises DeckDataError (a ValueError) with the fault."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise DeckDataError(f"{path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckDataError(f"{path}: {exc}") from None
    try:
        return parse_deck(data)
    except DeckDataError as exc:
        raise DeckDataError(f"{path}: {exc}") from None


# -- labels ------------------------------------------------------------------------------------

_SET_WORDS: Final = {0: ("claire", "light"), 1: ("foncée", "dark")}


def piece_label(deck: Deck, piece: str) -> Text:
    """A short name with article for instructions: "l'Attaque 4 claire", "the light Attack 4"."""
    card = deck.card(piece)
    fr_set, en_set = _SET_WORDS.get(deck.owner(piece), (deck.sets[deck.owner(piece)],) * 2)
    if card.type == SPECIAL:
        return Text(f"la carte {card.name.fr} {fr_set}", f"the {en_set} {card.name.en} card")
    article = "l'" if card.type == ATTACK else "la "
    return Text(f"{article}{card.name.fr} {fr_set}", f"the {en_set} {card.name.en}")


def short_label(deck: Deck, pieces: tuple[str, ...] | list[str]) -> Text:
    """Cards as they fit on a screen line: "Renfort+Att 4", "—" for none."""
    if not pieces:
        return Text("—", "—")
    cards = [deck.card(p) for p in pieces]
    return Text("+".join(c.short.fr for c in cards), "+".join(c.short.en for c in cards))
