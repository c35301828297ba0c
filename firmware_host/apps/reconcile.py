"""Reconciliation of the sensed table with the game (the "set pieces" pattern).

The sensed layout is compared with `expected_layout(state)`. A difference equal to the footprint
of exactly one legal action becomes that action; anything else becomes ONE instruction at a time
("remove X from C3", then "put Y on D4") until sensed and expected match again.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from firmware_host.screens.frames import zone_label
from firmware_host.storage.tags import TagRegistry, piece_game
from games.core import CHANCE, Action, Game, Layout, Mistake, Text, UnknownGame, normalise_layout, tr
from games.frozen import quick_init
from games.registry import game_info

log = logging.getLogger(__name__)


FixKind = Literal["remove", "place"]


@quick_init  # every correction of a table is made at each reading that is not a move
@dataclass(frozen=True)
class Fix:
    """One correction the players must make: put a piece on a zone or take it off."""

    kind: FixKind
    zone: str  # logical zone of the game ("C3", "pad.0", "centre.2")
    piece: str


@dataclass(frozen=True)
class Instruction:
    """The fix the table asks for now, the game seats whose screens say it, and its sentence."""

    fix: Fix
    audience: frozenset[int]
    text: Text


@dataclass(frozen=True)
class Refusal:
    """Why the table asks for a fix: the mistake's class (None: no mistake, the game itself wants
    the piece moved), its reason, and the game seats that read it (those that made the mistake,
    and the owner of the pad it is on)."""

    seats: frozenset[int]
    text: Text
    mistake: Mistake | None
    code: str  # the game's rejection code, or the class's


@dataclass(frozen=True)
class Stranger:
    """A tag on the table that the current game ignores: unknown, or a piece of another game."""

    zone: str  # physical zone name
    uid: str
    piece: str | None  # None = unknown tag


def game_name(game_id: str) -> Text:
    """A game's name as its menu shows it (its id for a game this table does not have)."""
    try:
        return game_info(game_id).name
    except UnknownGame:
        return Text(game_id, game_id)


def strangers_text(strangers: Sequence[Stranger], zone: Callable[[str], Text]) -> Text:
    """One message naming tags the game ignores: the games of the pieces by name, every zone
    where one lies (`zone` names a physical zone for the seat reading it)."""
    pieces = [s for s in strangers if s.piece is not None]
    unknown = [s for s in strangers if s.piece is None]
    out: list[Text] = []
    if pieces:
        games = list(dict.fromkeys(piece_game(s.piece) for s in pieces if s.piece is not None))
        names = [game_name(g) for g in games]
        where = _zones(pieces, zone)
        several = len(set(s.zone for s in pieces)) > 1 or len(pieces) > 1
        if len(names) > 1:
            what = tr("Pièces d'autres jeux", "Pieces of other games")
        else:
            what = tr("Pièces d'un autre jeu", "Pieces of another game") if several \
                else tr("Pièce d'un autre jeu", "Piece of another game")
        gone = tr("ignorées", "ignored") if several else tr("ignorée", "ignored")
        out.append(tr(f"{what.fr} ({', '.join(n.fr for n in names)}) sur {where.fr} : {gone.fr}",
                      f"{what.en} ({', '.join(n.en for n in names)}) on {where.en}: {gone.en}"))
    if unknown:
        where = _zones(unknown, zone)
        if len(unknown) > 1:
            out.append(tr(f"Étiquettes inconnues sur {where.fr} : ignorées", f"Unknown tags on {where.en}: ignored"))
        else:
            out.append(tr(f"Étiquette inconnue sur {where.fr} : ignorée", f"Unknown tag on {where.en}: ignored"))
    return tr(" · ".join(t.fr for t in out), " · ".join(t.en for t in out))


def _zones(strangers: Sequence[Stranger], zone: Callable[[str], Text]) -> Text:
    names = [zone(z) for z in dict.fromkeys(s.zone for s in strangers)]
    return tr(", ".join(n.fr for n in names), ", ".join(n.en for n in names))


def stranger_notices(strangers: Sequence[Stranger], seats: Sequence[int | None], humans: Iterable[int]
                     ) -> dict[int, Text]:
    """What each game seat is told of tags just laid that the game ignores, one message per seat:
    a tag on a human player's pad is that player's news; on any other zone (the board, the centre,
    a computer's pad, a pad of a seat out of the game) every seated player's."""
    people = set(humans)
    everyone = [g for g, t in enumerate(seats) if t is not None]
    found: dict[int, list[Stranger]] = {}
    for s in strangers:
        owner = _pad_owner(s.zone)
        gseat = seats.index(owner) if owner is not None and owner in seats else None
        for g in [gseat] if gseat is not None and gseat in people else everyone:
            found.setdefault(g, []).append(s)
    return {g: strangers_text(mine, functools.partial(zone_label, for_seat=seats[g]))
            for g, mine in sorted(found.items())}


def _pad_owner(zone: str) -> int | None:
    """The table seat whose pad a physical zone is ("seat3.pad" -> 3), None for other zones."""
    if zone.startswith("seat") and zone.endswith(".pad") and zone[4:-4].isdigit():
        return int(zone[4:-4])
    return None


def classify(sensed: Mapping[str, Iterable[str]], registry: TagRegistry, game_id: str | None
             ) -> tuple[dict[str, frozenset[str]], list[Stranger]]:
    """Split sensed tags (physical zone -> UIDs) into this game's pieces and strangers."""
    layout: dict[str, set[str]] = {}
    strangers: list[Stranger] = []
    for zone, uids in sensed.items():
        for uid in uids:
            piece = registry.piece(uid)
            if piece is not None and game_id is not None and piece_game(piece) == game_id:
                layout.setdefault(zone, set()).add(piece)
            else:
                strangers.append(Stranger(zone, uid, piece))
    strangers.sort(key=lambda s: (s.zone, s.uid))
    return {z: frozenset(p) for z, p in layout.items() if p}, strangers


def restrict(layout: Layout, zones: Iterable[str]) -> dict[str, frozenset[str]]:
    """Only the zones the table can sense (a game may expect zones this table lacks)."""
    keep = set(zones)
    return {z: p for z, p in normalise_layout(layout).items() if z in keep}


def fixes(expected: Layout, sensed: Layout) -> list[Fix]:
    """Every correction, removals first (a square must be cleared before it is filled)."""
    exp = normalise_layout(expected)
    sen = normalise_layout(sensed)
    removals = [Fix("remove", z, p) for z in sorted(sen) for p in sorted(sen[z] - exp.get(z, frozenset()))]
    places = [Fix("place", z, p) for z in sorted(exp) for p in sorted(exp[z] - sen.get(z, frozenset()))]
    # a piece that only moved: say where to put it after it is lifted (one instruction at a time)
    return removals + places


def matching_actions(game: Game[Any, Any], state: Any, sensed: Layout, zones: Iterable[str],
                     chance_sensed: bool = False) -> list[tuple[int, Action]]:
    """Legal actions (of every seat to act) whose footprint equals the sensed layout."""
    zone_set = set(zones)
    target = restrict(sensed, zone_set)
    return [(seat, act) for seat, act, foot in footprints(game, state, zone_set, chance_sensed) if foot == target]


def footprints(game: Game[Any, Any], state: Any, zones: Iterable[str], chance_sensed: bool = False
               ) -> list[tuple[int, Action, dict[str, frozenset[str]]]]:
    """Every legal action of every seat to act with its footprint on the sensed zones (a state's
    list can be kept: the session reuses it for each settled change until the state moves)."""
    zone_set = set(zones)
    found: list[tuple[int, Action, dict[str, frozenset[str]]]] = []
    for seat in sorted(game.to_act(state)):
        if seat == CHANCE:
            if not chance_sensed:
                continue
            candidates = [a for a, _ in game.chance_outcomes(state)]
        else:
            candidates = game.legal_actions(state, seat)
        for act in candidates:
            try:
                foot = restrict(game.footprint(state, seat, act), zone_set)
            except Exception:  # a rules bug must not freeze the table: skip that action, say so
                log.error("%s: footprint of a %r action failed", game.id, act.get("type"), exc_info=True)
                continue
            found.append((seat, act, foot))
    return found


def instruction(game: Game[Any, Any], fix: Fix, zone: Text) -> Text:
    """The sentence for one fix ("Retirez le lion blanc de C3")."""
    piece = game.piece_label(fix.piece)
    if fix.kind == "remove":
        return tr(f"Retirez {piece.fr} de {zone.fr}", f"Remove {piece.en} from {zone.en}")
    return tr(f"Posez {piece.fr} sur {zone.fr}", f"Put {piece.en} on {zone.en}")
