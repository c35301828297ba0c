"""What a settled change that matches no move was: the first half of a legal move (no mistake), the
computer's move still to be laid (no mistake), or a mistake of a known class (a piece of another
seat, the right piece on a wrong square, an occupied square, out of turn, the computer's move laid
wrongly, a piece moved while the computer is to play, over a limit, ...), with the seats that made
it: its reason goes to their screens."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from firmware_host.apps.reconcile import Fix, Refusal
from games.core import Action, Game, Mistake, Text, tr
from games.texts import seat_label

Layout = dict[str, frozenset[str]]
Footprint = tuple[int, Action, Layout]


class Later(Sequence[Footprint]):
    """A state's footprints, worked out when first read: most scenes are told without them (a
    move's effects still to lay, the computer's move awaited, a piece lifted), and the loop's
    idle time works them out then, off the event (`TableReading.prepare`). Read it while the
    state it was made for stands."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], Sequence[Footprint]]) -> None:
        self._make = make
        self._made: Sequence[Footprint] | None = None

    def _all(self) -> Sequence[Footprint]:
        if self._made is None:
            self._made = self._make()
        return self._made

    @overload
    def __getitem__(self, index: int) -> Footprint: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Footprint]: ...
    def __getitem__(self, index: int | slice) -> Footprint | Sequence[Footprint]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Footprint]:
        return iter(self._all())


@dataclass(frozen=True)
class Scene:
    """What the table knows when a settled change matches no move (layouts on the sensed zones)."""

    game: Game[Any, Any]
    state: Any
    expected: Layout  # what the game wants on the table
    sensed: Layout  # what lies there
    before: Layout | None  # what lay there when the table last matched the game
    footprints: Sequence[Footprint]  # the legal moves of the seats to act, as the table would show them
    humans: frozenset[int]  # seated human players
    computers: frozenset[int]
    to_act: frozenset[int]
    pending: frozenset[int]  # computer seats whose move the table waits to see laid


def between(low: Layout, high: Layout, sensed: Layout) -> bool:
    """True when every zone holds what `low` and `high` agree on, and nothing neither has."""
    for zone in set(low) | set(high) | set(sensed):
        a, b, now = low.get(zone, frozenset()), high.get(zone, frozenset()), sensed.get(zone, frozenset())
        if not (a & b) <= now <= (a | b):
            return False
    return True


def half_move(scene: Scene) -> bool:
    """True when the table shows part of a legal move of a human to act (a lift before a swap):
    no mistake, the rest of the move is awaited."""
    exp = scene.expected
    return any(seat in scene.humans and foot != scene.sensed and between(exp, foot, scene.sensed)
               for seat, _, foot in scene.footprints)


def still_to_lay(scene: Scene, fix: Fix) -> bool:
    """True when the fix is part of what the game changed since the table last matched it (the
    computer's move, a move's effects) and nobody touched that zone since, or the table shows that
    change partly made: no mistake."""
    before = scene.before
    if before is None:  # the table never matched the game yet: it is being set up
        return fix.kind == "place"
    untouched = scene.sensed.get(fix.zone, frozenset()) == before.get(fix.zone, frozenset())
    return untouched or between(before, scene.expected, scene.sensed)


def _computer_move(scene: Scene) -> Text:
    """The computer's move the table waits for, in words ("Coup de J2 (ordinateur) : ...")."""
    name = _names(scene.pending, scene.computers)
    before = scene.before or {}
    laid = [(z, p) for z in sorted(scene.expected) for p in sorted(scene.expected[z] - before.get(z, frozenset()))
            if not z.startswith("pad.")]
    if not laid:
        return tr(f"D'abord le coup de {name.fr}.", f"{name.en}'s move first.")
    zone, piece = laid[0]
    label = scene.game.piece_label(piece)
    return tr(f"Coup de {name.fr} : {label.fr} sur {zone}.", f"{name.en}'s move: {label.en} on {zone}.")


def guidance(scene: Scene, fix: Fix) -> Refusal | None:
    """Why the game itself wants the fix made (a card played goes to its line, a gazelle flees a
    lion), when it says so: on a pad for its owner, on the shared zones for every player."""
    pad = _pad_owner(fix.zone)
    seats = frozenset({pad}) & scene.humans if pad is not None else scene.to_act & scene.humans
    moved = scene.game.effect(scene.state, fix.zone, fix.piece, fix.kind == "remove")
    if moved is not None:
        readers = frozenset({pad}) & scene.humans if pad is not None else scene.humans
        return Refusal(readers, moved.message, None, moved.code) if readers else None
    explain = scene.game.explain if fix.kind == "remove" else scene.game.explain_removal
    for seat in sorted(seats):
        why = explain(scene.state, seat, fix.zone, fix.piece)
        if why is not None and why.code in scene.game.guidance:
            return Refusal(frozenset({seat}), why.message, None, why.code)
    return None


def _pad_owner(zone: str) -> int | None:
    return int(zone[4:]) if zone.startswith("pad.") and zone[4:].isdigit() else None


def _names(seats: frozenset[int], computers: frozenset[int]) -> Text:
    fr, en = [], []
    for seat in sorted(seats):
        name = seat_label(seat)
        fr.append(f"{name.fr} (ordinateur)" if seat in computers else name.fr)
        en.append(f"{name.en} (computer)" if seat in computers else name.en)
    return tr(", ".join(fr), ", ".join(en))


def classify(scene: Scene, fix: Fix, zone_name: Text) -> Refusal | None:
    """The mistake behind the first fix, and the seats that read its reason (None: no reason)."""
    game, state, piece, zone = scene.game, scene.state, fix.piece, fix.zone
    humans, computers = scene.humans, scene.computers
    acting_humans = scene.to_act & humans
    pad = _pad_owner(zone)
    owner = game.owner(state, piece)
    if pad is not None:
        movers = frozenset({pad})
    elif owner is not None and owner in humans:
        movers = frozenset({owner})
    else:  # a neutral piece, or the computer's: the hands were a human's, those the game waits for
        movers = acting_humans or humans
    seats = movers | ({pad} & humans if pad is not None else frozenset())
    if scene.pending:
        return Refusal(seats, _computer_move(scene), Mistake.COMPUTER_MOVE, "computer_move")
    if scene.to_act and not acting_humans and scene.to_act & computers:
        name = _names(scene.to_act & computers, computers)
        return Refusal(seats, tr(f"C'est à {name.fr} de jouer.", f"It is {name.en}'s turn."),
                       Mistake.COMPUTER_TO_PLAY, "computer_to_play")
    mover = min(movers) if len(movers) == 1 else None
    explain = game.explain if fix.kind == "remove" else game.explain_removal
    why = explain(state, mover, zone, piece) if mover is not None and mover in humans else None
    if why is not None and why.code in game.mistakes:  # a class only the rules can see (a limit)
        return Refusal(seats, why.message, game.mistakes[why.code], why.code)
    others = frozenset(x for x in scene.to_act if x >= 0) - movers
    if movers and not movers & scene.to_act and others:
        name = _names(others, computers)
        return Refusal(seats, tr(f"Ce n'est pas votre tour : c'est à {name.fr}.",
                                 f"Not your turn: it is {name.en}'s."), Mistake.OUT_OF_TURN, "out_of_turn")
    if fix.kind == "place":
        text = why.message if why is not None else tr("Cette pièce reste en place.", "This piece stays where it is.")
        return Refusal(seats, text, Mistake.LIFTED, why.code if why is not None else "lifted")
    if owner is not None and owner not in movers:
        return Refusal(seats, tr("Cette pièce n'est pas à vous.", "This piece is not yours."), Mistake.NOT_YOURS,
                       "not_yours")
    exp = scene.expected
    playable = any(seat in movers and piece in foot[z] - exp.get(z, frozenset())
                   for seat, _, foot in scene.footprints for z in foot if z != zone)
    if playable:
        before = scene.before if scene.before is not None else scene.expected
        if pad is None and before.get(zone):
            return Refusal(seats, tr(f"{zone_name.fr} est déjà occupée.", f"{zone_name.en} is already taken."),
                           Mistake.OCCUPIED, "occupied")
        text = why.message if why is not None else tr(f"Pas sur {zone_name.fr}.", f"Not on {zone_name.en}.")
        return Refusal(seats, text, Mistake.WRONG_SQUARE, why.code if why is not None else "wrong_square")
    if why is not None:
        return Refusal(seats, why.message, Mistake.RULE, why.code)
    return None
