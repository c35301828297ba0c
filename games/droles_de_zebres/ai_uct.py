"""Drôles de Zèbres' tree search: UCT over `ai_model` with implicit minimax backups of the margin.

Random playouts to the end give the opponent no plan: a reply that takes a territory at once is
no likelier in them than any other. Each node therefore also keeps a heuristic value, the margin
on the board after its move (each seat's score if the game ended there), backed up the tree by
minimax over the children expanded so far; selection reads the playouts' mean blended with that
value, so the best immediate reply the tree has seen weighs on the move before it (implicit
minimax backups: Lanctot, Winands, Pepels and Sturtevant, 2014). The most visited root move is
played. Every random choice comes from the generator given: a search is reproducible for a seed
and a budget counted in iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.ai.budget import Deadline
from games.ai.search import MoveStats
from games.droles_de_zebres.ai_model import P_OVER, Model, ModelAction, random_playout


class Node:
    """The move that led here: its playouts' statistics for the seat that chose it, and the
    minimax of the heuristic value (for seat 0, in [0, 1]) over what lies below."""

    __slots__ = ("seat", "children", "visits", "total", "avail", "value")

    def __init__(self, seat: int, value: float):
        self.seat = seat
        self.children: dict[ModelAction, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.value = value


def search(root_model: Model, deadline: Deadline, rng: random.Random, exploration: float, weight: float,
           reward: Callable[[Model], float], heuristic: Callable[[Model], float]) -> list[MoveStats[ModelAction]]:
    """The root's moves, most visited first (ties: better mean), after UCT until `deadline`.

    `reward(model)`: seat 0's reward in [0, 1] at the end of a game; `heuristic(model)`: seat 0's
    estimate in [0, 1] of a position on the way; `weight`: the heuristic's share in selection.
    An empty list means the budget allowed no iteration or the root has no move.
    """
    root = grow(root_model, deadline, rng, exploration, weight, reward, heuristic)
    moves = [MoveStats(a, c.visits, c.total / c.visits if c.visits else 0.0) for a, c in root.children.items()]
    moves.sort(key=lambda m: (-m.visits, -m.mean))
    return moves


def grow(root_model: Model, deadline: Deadline, rng: random.Random, exploration: float, weight: float,
         reward: Callable[[Model], float], heuristic: Callable[[Model], float]) -> Node:
    """The tree of `search` (its root: the move that led to `root_model`, seat -1)."""
    root = Node(-1, heuristic(root_model))
    log, sqrt = math.log, math.sqrt  # locals: the selection below runs for every child on the path
    keep = 1.0 - weight
    while not deadline.over():
        state = root_model.copy()
        node = root
        path = [root]
        while state.phase != P_OVER:
            acts = state.actions()
            seat = state.turn
            children = node.children
            untried = []
            for a in acts:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                a = untried[int(rng.random() * len(untried))] if len(untried) > 1 else untried[0]
                state.play(seat, a)
                node = children[a] = Node(seat, reward(state) if state.phase == P_OVER else heuristic(state))
                path.append(node)
                break
            best = acts[0]
            best_value = -1.0
            for a in acts:
                child = children[a]
                h = child.value if seat == 0 else 1.0 - child.value
                value = (keep * child.total / child.visits + weight * h
                         + exploration * sqrt(log(child.avail) / child.visits))
                if value > best_value:
                    best, best_value = a, value
            node = children[best]
            state.play(seat, best)
            path.append(node)
        if state.phase != P_OVER:
            random_playout(state, rng)
        r0 = reward(state)
        for n in path:
            n.visits += 1
            if n.seat == 0:
                n.total += r0
            elif n.seat == 1:
                n.total += 1.0 - r0
        _back_up(path)
        deadline.spend()
    return root


def _back_up(path: list[Node]) -> None:
    """The minimax of the heuristic values, from the last node's parent up while one changes."""
    for i in range(len(path) - 2, -1, -1):
        node = path[i]
        values = [c.value for c in node.children.values()]
        value = max(values) if path[i + 1].seat == 0 else min(values)
        if value == node.value:
            return  # the nodes above read this one's value, unchanged
        node.value = value
