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
from games.droles_de_zebres.ai_model import P_OVER, Model, ModelAction
from games.droles_de_zebres.ai_playout import random_playout


class Node:
    """The move that led here: its playouts' statistics for the seat that chose it, and the
    minimax of the heuristic value (for seat 0, in [0, 1]) over what lies below.

    The game has no chance and nothing hidden, so a node always stands for one position: it
    keeps it (`model`), its moves (`moves`, in `Model.actions` order), those not tried yet, and
    its children in the moves' order once all are made (`order`). A child's count of the times
    its move was available (UCT's "avail") is the parent's passes since the child was made.
    """

    __slots__ = ("seat", "children", "visits", "total", "value", "model", "moves", "untried", "order",
                 "passes", "born")

    def __init__(self, seat: int, value: float, model: Model, born: int):
        self.seat = seat
        self.children: dict[ModelAction, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.value = value
        self.model = model  # never played on: a playout starts from a copy
        self.moves: list[ModelAction] | None = None  # made on the first pass
        self.untried: list[ModelAction] = []
        self.order: list[Node] = []
        self.passes = 0  # passes through this node on the way down (its moves were available)
        self.born = born  # the parent's passes before the one that made this node


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
    root = Node(-1, heuristic(root_model), root_model.copy(), 0)
    log, sqrt = math.log, math.sqrt  # locals: the selection below runs for every child on the path
    keep = 1.0 - weight
    while not deadline.over():
        node = root
        path = [root]
        state = node.model
        while state.phase != P_OVER:
            node.passes += 1
            if node.moves is None:
                node.moves = state.actions()
                node.untried = node.moves[:]
            untried = node.untried
            if untried:  # a move not tried yet, drawn among them in the moves' order
                count = len(untried)
                a = untried.pop(int(rng.random() * count)) if count > 1 else untried.pop()
                seat = state.turn
                state = state.copy()
                state.play(seat, a)
                child = node.children[a] = Node(seat, reward(state) if state.phase == P_OVER else heuristic(state),
                                                state, node.passes - 1)
                if not untried:
                    node.order = [node.children[m] for m in node.moves]
                path.append(child)
                break
            passes = node.passes
            best = node.order[0]
            best_value = -1.0
            if state.turn == 0:
                for child in node.order:
                    value = (keep * child.total / child.visits + weight * child.value
                             + exploration * sqrt(log(passes - child.born) / child.visits))
                    if value > best_value:
                        best, best_value = child, value
            else:
                for child in node.order:
                    value = (keep * child.total / child.visits + weight * (1.0 - child.value)
                             + exploration * sqrt(log(passes - child.born) / child.visits))
                    if value > best_value:
                        best, best_value = child, value
            node = best
            state = node.model
            path.append(node)
        if state.phase != P_OVER:
            state = random_playout(state.copy(), rng)
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
