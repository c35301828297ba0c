"""Playouts of the strong search with a model of the opponent: greedy placements some of the time.

Uniformly random playouts let the opponent scatter its animals, so the search never sees the plan
a sensible player follows from the first turns: its zebras laid where it leads, a territory it
holds filled with points. Here the opponent of the deciding seat places greedily (the best gain
in margin now, as `ai.greedy_policy` places) with a given probability, and at random otherwise;
the deciding seat's own moves stay random. The gain of a placement is worked out from the
territories it touches only (`placement_gains`), so a greedy placement costs a few dozen
arithmetic steps rather than a copy of the position per candidate.
"""

from __future__ import annotations

import random
from typing import Final

from games.droles_de_zebres.ai_model import (
    GAZELLE,
    HIDES,
    KIND_OF,
    LION,
    N_KINDS,
    OWNER_OF,
    P_OVER,
    P_PLACE,
    POINTS,
    UP,
    ZEBRA,
    Model,
    ModelAction,
    code,
)
from games.droles_de_zebres.pieces_board import LINE_SQUARES, NEIGHBOURS
from games.droles_de_zebres.scoring import INAUGURATION_BONUS

_SIGN: Final = ((0, 1, -1), (0, -1, 1))  # by seat, then by leader (0 none, 1 seat 0, 2 seat 1)


def _held(cells: list[int], members: tuple[int, ...], seat: int) -> int:
    """What a territory gives `seat` in margin: its face-up points, counted for whoever leads it."""
    tokens = 0
    points = 0
    for i in members:
        c = cells[i]
        if c:
            tokens += 1 if OWNER_OF[c] == 0 else -1
            points += POINTS[c]
    return points * _SIGN[seat][0 if tokens == 0 else 1 if tokens > 0 else 2]


def _lion_gain(model: Model, seat: int, index: int) -> int:
    """The margin `seat` gains by laying its lion on `index` (its neighbours hidden or sent home)."""
    cells = model.cells
    board = model.board
    touched = {board.territory_of[index]}
    for j in NEIGHBOURS[index]:
        c = cells[j]
        if c and (KIND_OF[c] == GAZELLE or (KIND_OF[c] == ZEBRA and UP[c])):
            touched.add(board.territory_of[j])
    before = sum(_held(cells, board.members[t], seat) for t in touched)
    saved = [(j, cells[j]) for j in NEIGHBOURS[index]]
    cells[index] = code(LION, seat, True)
    for j, c in saved:
        if c and KIND_OF[c] == ZEBRA and UP[c]:
            cells[j] = c + 1
        elif c and KIND_OF[c] == GAZELLE:
            cells[j] = 0
    after = sum(_held(cells, board.members[t], seat) for t in touched)
    full = _fills(model, index)
    cells[index] = 0
    for j, c in saved:
        cells[j] = c
    return after - before + full


def _fills(model: Model, index: int) -> int:
    """The inauguration's worth to the placer when a placement on `index` (already on the board)
    completes its territory first."""
    if model.inauguration >= 0:
        return 0
    cells = model.cells
    for i in model.board.members[model.board.territory_of[index]]:
        if not cells[i]:
            return 0
    return INAUGURATION_BONUS


def placement_gains(model: Model) -> list[tuple[int, ModelAction]]:
    """Every placement of the seat to act (phase P_PLACE) with the margin it gains now."""
    seat = model.turn
    cells = model.cells
    board = model.board
    reserve = model.reserves[seat]
    kinds = [k for k in range(N_KINDS) if reserve[k]]
    out: list[tuple[int, ModelAction]] = []
    for i in LINE_SQUARES[model.guardian]:
        if cells[i]:
            continue
        members = board.members[board.territory_of[i]]
        before = _held(cells, members, seat)
        hidden = model.lion_next_to(i)
        for k in kinds:
            if k == LION:
                out.append((_lion_gain(model, seat, i), ("p", k, i)))
                continue
            cells[i] = code(k, seat, not (hidden and HIDES[code(k, seat, True)]))
            gain = _held(cells, members, seat) - before + _fills(model, i)
            cells[i] = 0
            out.append((gain, ("p", k, i)))
    return out


def greedy_placement(model: Model, rng: random.Random) -> ModelAction:
    """A placement of the seat to act with the best gain now (ties drawn at random)."""
    gains = placement_gains(model)
    best = max(g for g, _ in gains)
    top = [a for g, a in gains if g == best]
    return top[int(rng.random() * len(top))] if len(top) > 1 else top[0]


def modelled_playout(model: Model, rng: random.Random, shares: tuple[float, float]) -> Model:
    """Play `model` to the end in place: each seat places greedily with the probability its share
    says, every other move is uniformly random; returns it."""
    while model.phase != P_OVER:
        seat = model.turn
        if model.phase == P_PLACE and rng.random() < shares[seat]:
            model.play(seat, greedy_placement(model, rng))
        else:
            model.play(seat, model.random_action(rng))
    return model
