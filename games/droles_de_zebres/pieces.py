"""The animal tokens: kinds, values, counts per colour, tagged piece ids and their names."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from games.core import Text, tr

GAME_ID: Final = "droles-de-zebres"
COLOURS: Final = ("white", "green")

ZEBRA: Final = "zebra"
GAZELLE: Final = "gazelle"
CROCODILE: Final = "crocodile"
ELEPHANT: Final = "elephant"
LION: Final = "lion"


@dataclass(frozen=True)
class Kind:
    """One animal kind: its printed value, how many each colour has, names and screen letter."""

    name: str
    value: int
    count: int
    fr: str
    en: str
    feminine: bool
    letter: Text  # one letter for the reserve summary on a screen


# The rulebook's components list (values and counts per colour), in screen order.
KINDS: Final = {
    ZEBRA: Kind(ZEBRA, 6, 5, "zèbre", "zebra", False, tr("Z", "Z")),
    GAZELLE: Kind(GAZELLE, 2, 6, "gazelle", "gazelle", True, tr("G", "G")),
    CROCODILE: Kind(CROCODILE, 0, 2, "crocodile", "crocodile", False, tr("C", "C")),
    ELEPHANT: Kind(ELEPHANT, 5, 1, "éléphant", "elephant", False, tr("É", "E")),
    LION: Kind(LION, 1, 1, "lion", "lion", False, tr("L", "L")),
}
KIND_ORDER: Final = tuple(KINDS)

_COLOUR_FR: Final = {"white": ("blanc", "blanche"), "green": ("vert", "verte")}
COLOUR_LABEL: Final = {"white": tr("Blanc", "White"), "green": tr("Vert", "Green")}


@dataclass(frozen=True)
class PieceId:
    """A parsed piece id "droles-de-zebres/<colour>/<kind>/<n>"."""

    colour: str
    kind: str
    n: int


def piece_id(colour: str, kind: str, n: int) -> str:
    """The tag's piece id of the n-th (1-based) animal of a kind and colour."""
    return f"{GAME_ID}/{colour}/{kind}/{n}"


# Every animal token of both colours, in a stable order (colour, kind, number).
ALL_PIECES: Final = tuple(piece_id(c, k, n) for c in COLOURS for k in KIND_ORDER
                          for n in range(1, KINDS[k].count + 1))
_PIECE_SET: Final = frozenset(ALL_PIECES)
_SORT_KEY: Final = {p: i for i, p in enumerate(ALL_PIECES)}


def is_piece(value: object) -> bool:
    """True if `value` is one of this game's piece ids."""
    return isinstance(value, str) and value in _PIECE_SET


@cache
def parse_piece(piece: str) -> PieceId:
    """The colour, kind and number of a valid piece id; raises ValueError otherwise."""
    if piece not in _PIECE_SET:
        raise ValueError(f"not a {GAME_ID} piece: {piece!r}")
    _, colour, kind, n = piece.split("/")
    return PieceId(colour, kind, int(n))


# kinds and colours by piece id, read on every move of every playout
_KIND_OF: Final = {p: parse_piece(p).kind for p in ALL_PIECES}
_COLOUR_OF: Final = {p: parse_piece(p).colour for p in ALL_PIECES}


def kind_of(piece: str) -> str:
    """The kind ("zebra", ...) of a valid piece id."""
    try:
        return _KIND_OF[piece]
    except (KeyError, TypeError):  # not a piece id: parse_piece says why
        return parse_piece(piece).kind


def colour_of(piece: str) -> str:
    """The colour ("white"/"green") of a valid piece id."""
    try:
        return _COLOUR_OF[piece]
    except (KeyError, TypeError):  # not a piece id: parse_piece says why
        return parse_piece(piece).colour


def value_of(piece: str) -> int:
    """The printed value of a piece (counted only while face up)."""
    return KINDS[kind_of(piece)].value


def sort_pieces(pieces: tuple[str, ...] | list[str] | set[str] | frozenset[str]) -> tuple[str, ...]:
    """Pieces in the stable order of ALL_PIECES (keeps reserves canonical)."""
    return tuple(sorted(pieces, key=_SORT_KEY.__getitem__))


def colour_pieces(colour: str) -> tuple[str, ...]:
    """The 15 animals of one colour."""
    return tuple(p for p in ALL_PIECES if parse_piece(p).colour == colour)


def piece_label(piece: str, article: bool = True) -> Text:
    """"le zèbre blanc 3" / "the white zebra 3" (no number for one-of-a-kind animals)."""
    p = parse_piece(piece)
    k = KINDS[p.kind]
    adj = _COLOUR_FR[p.colour][1 if k.feminine else 0]
    num = f" {p.n}" if k.count > 1 else ""
    fr = f"{k.fr} {adj}{num}"
    en = f"{p.colour} {k.en}{num}"
    if not article:
        return tr(fr, en)
    art = "l'" if k.fr[0] in "aeéiou" else ("la " if k.feminine else "le ")
    return tr(f"{art}{fr}", f"the {en}")


def capitalise(text: Text) -> Text:
    """The same text with an upper-case first letter in both languages."""
    return tr(text.fr[:1].upper() + text.fr[1:], text.en[:1].upper() + text.en[1:])
