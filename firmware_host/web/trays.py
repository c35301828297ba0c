"""The simulator's trays: the pieces of the current game that lie off the table, per seat.

A seat's tray holds what is in that player's hands: the pieces its own view names and the public
view does not (a hand of cards), and the set it plays with (Drôles de Zèbres' colour, ZOP's deck:
a set named for that seat in the public view, or sets as many and as large as the players). Every
other piece of the game waits in the box. Only the simulator's pages get trays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from firmware_host.web.redact import piece_ids
from games.core import Game, to_json

if TYPE_CHECKING:
    from firmware_host.storage.tags import TagRegistry
    from firmware_host.web.hub import TableSnap


def set_of(piece: str) -> str:
    """The set part of a piece id ("droles-de-zebres/white/lion/1" -> "white")."""
    parts = piece.split("/")
    return parts[1] if len(parts) > 2 else ""


def _lists(value: Any) -> list[list[Any]]:
    if isinstance(value, Mapping):
        return [x for v in value.values() for x in _lists(v)]
    if isinstance(value, list):
        return [value] + [x for v in value for x in _lists(v)]
    return []


def owned_sets(game: Game[Any, Any], public: Any, players: int) -> dict[int, str]:
    """Game seat -> the set of pieces it plays with, when the game has one set per player."""
    pieces = game.pieces()
    sets = list(dict.fromkeys(set_of(p) for p in pieces))
    for items in _lists(public):
        if len(items) == players and len(set(map(str, items))) == players and all(i in sets for i in items):
            return dict(enumerate(items))
    sizes = Counter(set_of(p) for p in pieces)
    if len(sets) == players and len(set(sizes.values())) == 1:
        return dict(enumerate(sets))
    return {}


def _sensed_pieces(snap: TableSnap, registry: TagRegistry, zones: Any = None) -> set[str]:
    out = set()
    for zone, uids in snap.sensed.items():
        if zones is None or zone in zones:
            out |= {p for p in (registry.piece(u) for u in uids) if p is not None}
    return out


def _owned(snap: TableSnap, gseat: int, public_pieces: set[str], sets: Mapping[int, str]) -> set[str]:
    game = snap.game
    assert game is not None
    mine = piece_ids(game, to_json(game.view(snap.state, gseat))) - public_pieces
    if gseat in sets:
        mine |= {p for p in game.pieces() if set_of(p) == sets[gseat]}
    return mine


def table_trays(snap: TableSnap, registry: TagRegistry) -> dict[str, Any]:
    """For the virtual table: each table seat's tray and the box, by set, without what lies on the table."""
    game = snap.game
    if game is None:
        return {"seats": {}, "box": {}}
    public = to_json(game.view(snap.state, None))
    public_pieces = piece_ids(game, public)
    sets = owned_sets(game, public, len(snap.seats))
    on_table = _sensed_pieces(snap, registry)
    order = {p: i for i, p in enumerate(game.pieces())}
    seats: dict[str, list[str]] = {}
    held: set[str] = set()
    for gseat, table_seat in enumerate(snap.seats):
        if table_seat is None:
            continue
        mine = _owned(snap, gseat, public_pieces, sets) - on_table - held
        held |= mine
        seats[str(table_seat)] = sorted(mine, key=lambda p: order.get(p, 1 << 30))
    box: dict[str, list[str]] = {}
    for p in game.pieces():
        if p not in on_table and p not in held:
            box.setdefault(set_of(p), []).append(p)
    return {"seats": seats, "box": box}


def seat_hands(snap: TableSnap, seat: int, registry: TagRegistry) -> dict[str, Any]:
    """For a seat's phone in the simulator: the pieces on its own pad, and those in its hands."""
    game = snap.game
    pad = f"seat{seat}.pad"
    on_pad = sorted(_sensed_pieces(snap, registry, {pad}))
    if game is None or seat not in snap.seats:
        return {"pad": on_pad, "tray": []}
    gseat = snap.seats.index(seat)
    public = to_json(game.view(snap.state, None))
    public_pieces = piece_ids(game, public)
    mine = _owned(snap, gseat, public_pieces, owned_sets(game, public, len(snap.seats)))
    order = {p: i for i, p in enumerate(game.pieces())}
    # a piece of one's own lying anywhere on the table is not in one's hands
    tray = sorted(mine - _sensed_pieces(snap, registry), key=lambda p: order.get(p, 1 << 30))
    return {"pad": [p for p in on_pad if p.startswith(game.id + "/")], "tray": tray}
