"""Search shared by the computer players: determinized Monte-Carlo and information-set MCTS.

Both work on what a seat may know only: every iteration starts from a *determinization*, a full
state drawn by the game's `sample_state(view, seat, rng)` (the opponents' hidden cards dealt at
random among the cards that seat has not seen). Nothing here reads a true state.

- `sequential_halving`: flat Monte-Carlo over a few candidate actions; each pull samples a
  determinization, plays the candidate and a playout, and returns a reward in [0, 1]. The budget
  is shared out in rounds, the worse half of the candidates dropped after each round.
- `ismcts`: single-observer information-set MCTS (Cowling, Powley, Whitehouse 2012) over a
  game model: nodes are keyed by moves as the deciding seat knows them, UCB uses availability
  counts since a move legal in one determinization may be absent in another. With no hidden
  information (one determinization) it is plain UCT.

Every random choice comes from the `random.Random` given, so a search is reproducible for a
seed and a budget counted in iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from games.ai.budget import Deadline

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
A = TypeVar("A", bound=Hashable)  # a move of a game model, as the deciding seat knows it


@dataclass
class ArmStats:
    """One candidate's playouts: how many, and the sum of their rewards."""

    arm: int
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        """The average reward (0.0 before any playout)."""
        return self.total / self.visits if self.visits else 0.0


def best_arm(stats: Sequence[ArmStats], alive: Sequence[int] | None = None) -> int:
    """The candidate with the best mean among `alive` (ties: more playouts, then lower index)."""
    pool = range(len(stats)) if alive is None else alive
    return max(pool, key=lambda i: (stats[i].mean, stats[i].visits, -i))


def sequential_halving(n: int, pull: Callable[[int, random.Random], float], deadline: Deadline,
                       rng: random.Random, paired: bool = False) -> tuple[int, list[ArmStats]]:
    """Flat Monte-Carlo with sequential halving (Karnin et al. 2013): the best of `n` candidates.

    `pull(i, rng)` runs one playout of candidate i and returns its reward in [0, 1]. Returns the
    chosen index and every candidate's statistics. One candidate costs nothing. `paired`: common
    random numbers, every candidate of a sweep pulled with a generator seeded alike (the same
    determinization for each, when `pull` draws it first), so the candidates are compared on the
    same deals and the luck of the deal cancels out of their difference.
    """
    stats = [ArmStats(i) for i in range(n)]
    if n <= 1:
        return 0, stats
    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n)))
    while len(alive) > 1 and not deadline.over():
        per_arm = max(1, deadline.left // (len(alive) * rounds))
        for _ in range(per_arm):
            seed = rng.getrandbits(64) if paired else 0
            for i in alive:
                if deadline.over():
                    return best_arm(stats, alive), stats
                stats[i].total += pull(i, random.Random(seed) if paired else rng)
                stats[i].visits += 1
                deadline.spend()
        rounds = max(1, rounds - 1)
        alive.sort(key=lambda i: (-stats[i].mean, -stats[i].visits, i))
        alive = alive[:max(1, math.ceil(len(alive) / 2))]
    return best_arm(stats, alive), stats


class TreeGame(Protocol[S_contra, A]):
    """What `ismcts` needs from a game model (states may be mutated: `play` works in place)."""

    def to_act(self, state: S_contra) -> int:
        """The one seat choosing now."""

    def actions(self, state: S_contra) -> Sequence[A]:
        """The legal moves of the seat to act, as hashable keys."""

    def play(self, state: S_contra, action: A) -> None:
        """Apply a move in place."""

    def terminal(self, state: S_contra) -> bool:
        """True when the game (or the horizon of the search) is reached."""

    def rollout(self, state: S_contra, rng: random.Random) -> Sequence[float]:
        """Play on to the end (in place) and return each seat's reward in [0, 1]."""


class Node(Generic[A]):
    """A search node: statistics of the move that led here, for the seat that chose it."""

    __slots__ = ("seat", "children", "visits", "total", "avail")

    def __init__(self, seat: int):
        self.seat = seat
        self.children: dict[A, Node[A]] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


@dataclass(frozen=True)
class MoveStats(Generic[A]):
    """A root move after the search: visits and mean reward for the deciding seat."""

    action: A
    visits: int
    mean: float


def ismcts(sample: Callable[[random.Random], S], game: TreeGame[S, A], deadline: Deadline, rng: random.Random,
           exploration: float = 0.7, max_depth: int = 1_000) -> list[MoveStats[A]]:
    """Information-set MCTS from a root sampled afresh each iteration; root moves, best first.

    The best move is the most visited one (ties: better mean). An empty list means the budget
    allowed no iteration or the root has no move.
    """
    root: Node[A] = Node(-1)
    log, sqrt = math.log, math.sqrt  # locals: the selection below runs for every child on the path
    while not deadline.over():
        state = sample(rng)
        node = root
        path = [root]
        depth = 0
        while not game.terminal(state) and depth < max_depth:
            depth += 1
            acts = game.actions(state)
            seat = game.to_act(state)
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
                child = children[a] = Node(seat)
                game.play(state, a)
                path.append(child)
                break
            best = acts[0]
            best_value = -1.0
            for a in acts:
                child = children[a]
                value = child.total / child.visits + exploration * sqrt(log(child.avail) / child.visits)
                if value > best_value:
                    best, best_value = a, value
            node = children[best]
            game.play(state, best)
            path.append(node)
        rewards = game.rollout(state, rng)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.total += rewards[n.seat]
        deadline.spend()
    moves = [MoveStats(a, c.visits, c.total / c.visits if c.visits else 0.0) for a, c in root.children.items()]
    moves.sort(key=lambda m: (-m.visits, -m.mean))
    return moves


T = TypeVar("T")


@dataclass(frozen=True)
class Ranked(Generic[T]):
    """A candidate action with its estimated value (for hints: the best moves and their scores)."""

    action: T
    value: float
    playouts: int
