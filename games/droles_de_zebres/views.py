"""Per-seat views (everything is public in this game) and the 128x64 screens built from them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from games.core import SQUARES, Screen, Text, essential, evolve, last_state, tr
from games.droles_de_zebres.pieces import COLOUR_LABEL, KIND_ORDER, KINDS, kind_of
from games.droles_de_zebres.pieces_board import line_id, line_label
from games.droles_de_zebres.rules import guardian_steps, swap_targets, to_act
from games.droles_de_zebres.scoring import INAUGURATION_BONUS, territory_scores, totals, winners_of
from games.droles_de_zebres.state import (
    CROCODILE,
    FIRST,
    GUARDIAN,
    MOVE,
    OVER,
    PLACE,
    DdzState,
    board_of,
    empty_in_line,
    seat_of,
)
from games.frozen import quick_init


@quick_init
@dataclass(frozen=True)
class SquareView:
    """An occupied square as everyone sees it."""

    square: str
    piece: str
    kind: str
    seat: int
    face_up: bool


@quick_init
@dataclass(frozen=True)
class TerritoryView:
    """A territory's live majority: tokens per seat, face-up points, leader (None = equal)."""

    name: str
    squares: tuple[str, ...]
    filled: int
    tokens: tuple[int, int]
    points: int
    leader: int | None


@quick_init
@dataclass(frozen=True)
class DdzView:
    """What a seat knows: the whole game (nothing is secret in Drôles de Zèbres).

    seat: whose view (None = public). open_squares: where an animal may be placed now.
    reserve_counts: per seat, animals left per kind in KIND_ORDER. projected: the scores if the
    game ended now (final scores once over).
    """

    seat: int | None
    board: str
    board_rows: tuple[str, ...]
    colours: tuple[str, str]
    phase: str
    to_act: tuple[int, ...]
    turn: int | None
    first: int | None
    guardian: int | None
    guardian_line: str | None
    squares: tuple[SquareView, ...]
    reserves: tuple[tuple[str, ...], tuple[str, ...]]
    reserve_counts: tuple[tuple[int, ...], tuple[int, ...]]
    open_squares: tuple[str, ...]
    crocodile: str | None
    swap_targets: tuple[str, ...]
    move_steps: tuple[int, ...]
    inauguration: int | None
    territories: tuple[TerritoryView, ...]
    projected: tuple[int, int]
    winners: tuple[int, ...]
    turns: int


def view(state: DdzState, seat: int | None) -> DdzView:
    """The view of `seat` (or the public one): the same facts for everyone, plus who asks."""
    public = _public(state)
    return public if seat is None else evolve(public, seat=seat)


@last_state
def _public(state: DdzState) -> DdzView:
    """The facts every seat reads: worked out once for the views of one state."""
    board = board_of(state)
    squares = tuple(SquareView(SQUARES[i], c.piece, kind_of(c.piece), seat_of(state, c.piece), c.face_up)
                    for i, c in enumerate(state.cells) if c is not None)
    counts = tuple(_kind_counts(r) for r in state.reserves)
    terr = territory_scores(state)
    projected = totals(state, terr)
    return DdzView(
        seat=None,
        board=state.board,
        board_rows=board.rows(),
        colours=state.colours,
        phase=state.phase,
        to_act=tuple(sorted(to_act(state))),
        turn=state.turn,
        first=state.first,
        guardian=state.guardian,
        guardian_line=None if state.guardian is None else line_id(state.guardian),
        squares=squares,
        reserves=state.reserves,
        reserve_counts=(counts[0], counts[1]),
        open_squares=tuple(SQUARES[i] for i in empty_in_line(state, state.guardian))
        if state.phase == PLACE and state.guardian is not None else (),
        crocodile=None if state.croc is None else SQUARES[state.croc],
        swap_targets=tuple(SQUARES[j] for j in swap_targets(state, state.croc, state.swapped))
        if state.croc is not None else (),
        move_steps=guardian_steps(state) if state.phase == MOVE else (),
        inauguration=state.inauguration,
        territories=tuple(TerritoryView(t.name, t.squares, t.filled, t.tokens, t.points, t.leader)
                          for t in terr),
        projected=projected,
        winners=winners_of(projected) if state.phase == OVER else (),
        turns=state.turns,
    )


@lru_cache(maxsize=64)
def _kind_counts(reserve: tuple[str, ...]) -> tuple[int, ...]:
    """Animals per kind in KIND_ORDER (a reserve changes at one move in two)."""
    counts = Counter(map(kind_of, reserve))
    return tuple(counts[k] for k in KIND_ORDER)


# ---------------------------------------------------------------------------------------------
# Screens: title + lines of ~21 characters (the table pages what does not fit; essential lines wrap).

TITLE = tr("Drôles de Zèbres", "Drôles de Zèbres")


def _cat(*parts: Text) -> Text:
    return tr("".join(p.fr for p in parts), "".join(p.en for p in parts))


def _colour(view: DdzView, seat: int) -> Text:
    return COLOUR_LABEL[view.colours[seat]]


def _reserve_line(view: DdzView, seat: int) -> Text:
    parts_fr, parts_en = [], []
    for kind, n in zip(KIND_ORDER, view.reserve_counts[seat]):
        parts_fr.append(f"{KINDS[kind].letter.fr}{n}")
        parts_en.append(f"{KINDS[kind].letter.en}{n}")
    return tr("Rés. " + " ".join(parts_fr), "Left " + " ".join(parts_en))


def _majority_line(view: DdzView, me: int) -> Text:
    mine = "".join(t.name for t in view.territories if t.leader == me)
    theirs = "".join(t.name for t in view.territories if t.leader == 1 - me)
    return tr(f"Maj vous:{mine or '-'} adv:{theirs or '-'}", f"Lead you:{mine or '-'} opp:{theirs or '-'}")


def _score_line(view: DdzView, me: int) -> Text:
    a, b = view.projected[me], view.projected[1 - me]
    star = tr("", "")
    if view.inauguration is not None:
        star = tr(" ★vous", " ★you") if view.inauguration == me else tr(" ★adv", " ★opp")
    return tr(f"Prévu {a}-{b}{star.fr}", f"Proj. {a}-{b}{star.en}")


def _public_lines(view: DdzView) -> tuple[Text, ...]:
    a, b = view.projected
    c0, c1 = _colour(view, 0), _colour(view, 1)
    return (tr(f"{c0.fr} {a} - {c1.fr} {b}", f"{c0.en} {a} - {c1.en} {b}"),)


def screen(view: DdzView, seat: int | None) -> Screen:
    """The seat's screen, from its view only."""
    if view.phase == OVER:
        return _final_screen(view, seat)
    if view.phase == FIRST:
        return Screen(TITLE, (tr("Tirage au sort du", "Drawing the first"), tr("premier joueur…", "player…")),
                      icon="wait")
    if view.phase == GUARDIAN:
        if view.first is None:  # either player may start: the one who places the guardian does
            return Screen(TITLE, (tr("Qui commence ?", "Who starts?"),
                                  essential(tr("Le 1er joueur place le gardien (menu).",
                                               "The first player places the guardian (menu)."))),
                          icon="wait" if seat is None else "turn")
        if seat == view.first:
            return Screen(tr("Le gardien", "The guardian"),
                          (essential(tr("Vous commencez : placez le gardien (menu).",
                                        "You start: place the guardian (menu).")),), icon="turn")
        return Screen(TITLE, (_cat(_colour(view, view.first), tr(" commence :", " starts:")),
                              tr("il place le gardien.", "places the guardian.")), icon="wait")
    assert view.turn is not None and view.guardian is not None
    line = line_label(view.guardian)
    mine = seat is not None and view.turn == seat
    if seat is None:
        return Screen(TITLE, (_cat(tr("Tour : ", "Turn: "), _colour(view, view.turn)),
                              _cat(tr("Gardien : ", "Guardian: "), line), *_public_lines(view)))
    if mine and view.phase == CROCODILE:
        return Screen(tr("Crocodile", "Crocodile"),
                      (essential(tr(f"En {view.crocodile} : échanger avec " + " ".join(view.swap_targets) + " ?",
                                    f"On {view.crocodile}: swap with " + " ".join(view.swap_targets) + "?")),),
                      icon="turn")
    if mine and view.phase == MOVE:
        return Screen(tr("Le gardien", "The guardian"),
                      (_cat(tr("Face à ", "Facing "), line),
                       essential(tr("Avancez-le de " + "/".join(map(str, view.move_steps)),
                                    "Move it " + "/".join(map(str, view.move_steps)) + " steps"))),
                      icon="turn")
    me_colour = _colour(view, seat)
    title = (_cat(me_colour, tr(" · à vous", " · your turn")) if mine
             else _cat(me_colour, tr(" · attendez", " · wait")))
    where = (_open_line(view, line) if mine and view.phase == PLACE
             else _cat(tr("Gardien : ", "Guardian: "), line))
    return Screen(title, (essential(where), _reserve_line(view, seat), _majority_line(view, seat),
                          _score_line(view, seat)),
                  icon="turn" if mine else "wait")


def _open_line(view: DdzView, line: Text) -> Text:
    """The faced line and its free squares in 21 characters ("col. C : 1 2 5")."""
    by_column = view.guardian_line is not None and view.guardian_line.startswith("col")
    free = " ".join(sq[1:] if by_column else sq[0] for sq in view.open_squares)
    return tr(f"{line.fr[:1].upper()}{line.fr[1:]} : {free}", f"{line.en[:1].upper()}{line.en[1:]}: {free}")


def _territory_lines(view: DdzView) -> list[Text]:
    """Who took each territory and its points, three per line ("a:B18 b:V24 c:=0")."""
    cells_fr, cells_en = [], []
    for t in view.territories:
        if t.leader is None:
            cells_fr.append(f"{t.name}:={t.points}")
            cells_en.append(f"{t.name}:={t.points}")
        else:
            colour = COLOUR_LABEL[view.colours[t.leader]]
            cells_fr.append(f"{t.name}:{colour.fr[0]}{t.points}")
            cells_en.append(f"{t.name}:{colour.en[0]}{t.points}")
    return [essential(tr(" ".join(cells_fr[i:i + 3]), " ".join(cells_en[i:i + 3])))
            for i in range(0, len(cells_fr), 3)]


def _final_screen(view: DdzView, seat: int | None) -> Screen:
    if seat is None:
        lines = list(_public_lines(view))
    else:
        me, opp = view.projected[seat], view.projected[1 - seat]
        lines = [essential(tr(f"Vous {me} - adv {opp}", f"You {me} - opp {opp}"))]
    terr = _territory_lines(view)
    if view.inauguration is not None:
        c = _colour(view, view.inauguration)
        bonus = tr(f"Inaug. +{INAUGURATION_BONUS} : {c.fr}", f"Opening +{INAUGURATION_BONUS}: {c.en}")
        lines.extend(terr)
        lines.append(essential(bonus))
    else:
        lines.extend(terr)
    if len(view.winners) == 2:
        title = tr("Fin · égalité", "End · draw")
    elif seat is None:
        title = _cat(tr("Fin · ", "End · "), _colour(view, view.winners[0]), tr(" gagne", " wins"))
    else:
        title = tr("Fin · gagné !", "End · you win!") if view.winners == (seat,) else tr("Fin · perdu", "End · you lose")
    return Screen(title, tuple(lines), big=None if seat is None else str(view.projected[seat]),
                  icon="trophy" if seat is not None and seat in view.winners else None)
