"""A tree search for ZOP's strong decision: information-set MCTS over the round, both seats'
commits decoupled (games.zop.ai.choose_with(..., "tree", ...); no level uses it yet: at the same
time per move it played even with the flat search, docs/performance.md).

Single observer: every iteration deals the opponent's unknown cards afresh from the deciding
seat's view (a determinization, `games.zop.ai_sample`) and walks one tree shared by all of them.
A node is a turn of the round, reached by the cards both seats laid in the turns before it (as
the deciding seat would see them at the reveal). ZOP's commit is simultaneous, so each node keeps
one table of statistics per seat (decoupled UCT, Lanctot et al. 2013): each seat chooses its card
by UCB over its own cards only, never knowing the other's choice, and a card's UCB counts the
iterations in which it was in that seat's hand (availability, Cowling et al. 2012) since the
opponent's hand differs from one determinization to the next. The tree grows by one turn an
iteration; below it both seats lay random cards to the end of the round (`games.zop.ai_model`).
The root's cards are the deciding seat's candidates, legal whatever the opponent laid; the
card(s) the opponent already laid face down are chosen again, by its statistics or by a model of
the opponent given for the current turn.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.ai.budget import Deadline
from games.zop.ai_model import Picker, RoundModel

# one seat's card at a node: [visits, total reward, availability]
Arm = list[float]


class TurnNode:
    """A turn of the round: each seat's card statistics, and the turns after each pair of cards."""

    __slots__ = ("arms", "children")

    def __init__(self) -> None:
        self.arms: tuple[dict[str, Arm], dict[str, Arm]] = ({}, {})
        self.children: dict[tuple[str | None, str | None], TurnNode] = {}


@dataclass(frozen=True)
class CardStats:
    """A root card after the search: visits and mean reward for the deciding seat."""

    card: str
    visits: int
    mean: float


def _select(arms: dict[str, Arm], options: list[str], exploration: float, rng: random.Random) -> str:
    """UCB with availability over `options` (untried cards first, in random order)."""
    untried = []
    for c in options:
        arm = arms.get(c)
        if arm is None:
            untried.append(c)
        else:
            arm[2] += 1
    if untried:
        card = untried[int(rng.random() * len(untried))] if len(untried) > 1 else untried[0]
        arms[card] = [0.0, 0.0, 1.0]
        return card
    log, sqrt = math.log, math.sqrt
    best, best_value = options[0], -1.0
    for c in options:
        visits, total, avail = arms[c]
        value = total / visits + exploration * sqrt(log(avail) / visits)
        if value > best_value:
            best, best_value = c, value
    return best


def search(root_model: Callable[[random.Random], RoundModel], seat: int, candidates: list[str],
           reward: Callable[[RoundModel, int], float], roll: Picker, give: Picker, deadline: Deadline,
           rng: random.Random, exploration: float = 0.7, first_opponent: Picker | None = None) -> list[CardStats]:
    """Root cards of `seat`, most visited first (ties: better mean, then card).

    `root_model(rng)` is a fresh determinization at the commit, the opponent's face-down cards
    back in its hand; `candidates` the cards `seat` may lay now; `reward(model, seat)` in [0, 1]
    at the end of the round, the opponent's being one minus it. `first_opponent`, if given,
    chooses the opponent's card(s) of this turn instead of its statistics (a model of it).
    """
    opp = 1 - seat
    root = TurnNode()
    while not deadline.over():
        model = root_model(rng)
        node = root
        path: list[tuple[TurnNode, str | None, str | None]] = []
        first = True
        while not model.over():
            picks: list[str | None] = [None, None]
            for who in (seat, opp):
                side = model.sides[who]
                if len(side.laid) >= model.required(who):
                    continue
                if first and who == opp and first_opponent is not None:
                    model.fill(who, first_opponent)
                    continue
                options = candidates if first and who == seat else side.hand
                if options:
                    card = _select(node.arms[who], options, exploration, rng)
                    model.lay(who, card)
                    picks[who] = card
                    model.fill(who, roll)
            first = False
            model.reveal(rng, give)
            path.append((node, picks[seat], picks[opp]))
            key = (picks[0], picks[1])
            child = node.children.get(key)
            if child is None:
                node.children[key] = TurnNode()
                break
            node = child
        model.play_out(rng, roll, give)
        mine = reward(model, seat)
        for n, a, b in path:
            if a is not None:
                arm = n.arms[seat][a]
                arm[0] += 1
                arm[1] += mine
            if b is not None:
                arm = n.arms[opp][b]
                arm[0] += 1
                arm[1] += 1.0 - mine
        deadline.spend()
    stats = [CardStats(c, int(a[0]), a[1] / a[0] if a[0] else 0.0) for c, a in root.arms[seat].items()]
    stats.sort(key=lambda s: (-s.visits, -s.mean, s.card))
    return stats
