"""The end of a ZOP round solved exactly, for the strong computer player (deck model only).

Once neither seat has cards left in its pile or discard, every card a seat still has is in its
hand, and the seat deciding knows both hands: its own, and the opponent's as every card the
opponent holds (games.zop.ai_sample.Knowledge.opp_pool). The rest of the round is then a game of
simultaneous moves with no hidden card: each turn both seats lay their card(s) at once, the reveal
is the game's own `resolve`, a blind exchange takes a card at random (a chance event, averaged)
and gives back the cheapest card (as the computer does). Backward induction values each turn as a
small zero-sum matrix game (rows: the deciding seat's sequences of cards, columns: the
opponent's) solved for its mixed equilibrium by the simplex method; the leaves are the round's end
valued by the search's reward (the round won as the match values it, plus the margin).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Final

from games.zop.ai_model import same_turn_extra
from games.zop.pieces import Deck
from games.zop.rules_reveal import Resolution, resolve
from games.zop.state import Pending

EPS: Final = 1e-9
Cards = tuple[str, ...]  # a seat's cards left, sorted
Play = tuple[str, ...]  # the cards a seat lays in one turn, in the order laid
Key = tuple[Cards, Cards, Pending, Pending, int]


def solve_matrix(payoff: list[list[float]]) -> tuple[list[float], list[float], float]:
    """The mixed equilibrium of a zero-sum matrix game: (row strategy, column strategy, value).

    The row player maximises `payoff[i][j]`. Simplex on the column player's problem (maximise
    sum y with (A + c) y <= 1, y >= 0, A + c > 0); the row strategy is read from the dual.
    Bland's rule: no cycling on degenerate games.
    """
    m, n = len(payoff), len(payoff[0])
    low = min(min(row) for row in payoff)
    shift = 1.0 - low
    # tableau rows: [coefficients of y (n), slacks (m), right-hand side]; basis: slack i in row i
    rows = [[payoff[i][j] + shift for j in range(n)] + [1.0 if k == i else 0.0 for k in range(m)] + [1.0]
            for i in range(m)]
    obj = [-1.0] * n + [0.0] * m + [0.0]
    basis = [n + i for i in range(m)]
    width = n + m
    while True:
        enter = next((j for j in range(width) if obj[j] < -EPS), -1)
        if enter < 0:
            break
        best, leave = 0.0, -1
        for i in range(m):
            a = rows[i][enter]
            if a > EPS:
                ratio = rows[i][width] / a
                if leave < 0 or ratio < best - EPS or (abs(ratio - best) <= EPS and basis[i] < basis[leave]):
                    best, leave = ratio, i
        pivot = rows[leave]
        p = pivot[enter]
        pivot[:] = [v / p for v in pivot]
        for r in rows:
            if r is not pivot and abs(r[enter]) > EPS:
                f = r[enter]
                r[:] = [a - f * b for a, b in zip(r, pivot)]
        f = obj[enter]
        obj[:] = [a - f * b for a, b in zip(obj, pivot)]
        basis[leave] = enter
    total = obj[width]  # sum of y = 1 / value of the shifted game
    y = [0.0] * n
    for i, b in enumerate(basis):
        if b < n:
            y[b] = rows[i][width]
    cols = [max(0.0, v / total) for v in y]
    xs = [max(0.0, obj[n + i] / total) for i in range(m)]
    return _norm(xs), _norm(cols), 1.0 / total - shift


def _norm(p: list[float]) -> list[float]:
    s = sum(p)
    return [v / s for v in p]


def plays(cards: Cards, count: int, prefix: Play = ()) -> list[Play]:
    """Every sequence of `count` cards a seat may lay from `cards`, starting with `prefix`."""
    rest = list(cards)
    for c in prefix:
        rest.remove(c)
    return sorted(prefix + p for p in set(permutations(rest, count - len(prefix))))


class Endgame:
    """The exact value of a round's end for one seat, memoised by position."""

    def __init__(self, deck: Deck, seat: int, reward: Callable[[int], float],
                 gift_cost: Callable[[str], float]):
        self.deck = deck
        self.seat = seat
        self.reward = reward  # the deciding seat's reward for its final margin
        self.gift_cost = gift_cost
        self.memo: dict[Key, float] = {}
        self._resolve: dict[tuple[Play, Play, Pending, Pending], Resolution] = {}
        self.games = 0  # matrix games solved (for benches)

    @staticmethod
    def applies(deck: Deck) -> bool:
        """False when the deck has cards this solver does not model (extra cards laid the same turn)."""
        return not same_turn_extra(deck)

    def _res(self, a: Play, b: Play, pa: Pending, pb: Pending) -> Resolution:
        key = (a, b, pa, pb)
        res = self._resolve.get(key)
        if res is None:
            res = self._resolve[key] = resolve(self.deck, (a, b), (pa, pb))
        return res

    def value(self, cards: tuple[Cards, Cards], pending: tuple[Pending, Pending], margin: int) -> float:
        """The deciding seat's value at a turn's start (margin: seat 0's points minus seat 1's)."""
        if not cards[0] and not cards[1]:
            return self.reward(margin if self.seat == 0 else -margin)
        key = (cards[0], cards[1], pending[0], pending[1], margin)
        v = self.memo.get(key)
        if v is None:
            counts = tuple(min(1 + pending[s].extra, len(cards[s])) for s in (0, 1))
            options = (plays(cards[0], counts[0]), plays(cards[1], counts[1]))
            v = self.memo[key] = self.turn(cards, pending, margin, options)[2]
        return v

    def turn(self, cards: tuple[Cards, Cards], pending: tuple[Pending, Pending], margin: int,
             options: tuple[list[Play], list[Play]]) -> tuple[list[float], list[float], float]:
        """The equilibrium of one turn: (deciding seat's strategy, opponent's, value)."""
        mine, theirs = options[self.seat], options[1 - self.seat]
        matrix = []
        for p in mine:
            row = []
            for q in theirs:
                laid = (p, q) if self.seat == 0 else (q, p)
                row.append(self.after(cards, pending, margin, laid))
            matrix.append(row)
        self.games += 1
        if len(mine) == 1 or len(theirs) == 1:  # one seat has no choice: the other takes its best
            if len(mine) == 1:
                j = min(range(len(theirs)), key=lambda j: (matrix[0][j], j))
                return [1.0], [1.0 if k == j else 0.0 for k in range(len(theirs))], matrix[0][j]
            i = max(range(len(mine)), key=lambda i: (matrix[i][0], -i))
            return [1.0 if k == i else 0.0 for k in range(len(mine))], [1.0], matrix[i][0]
        return solve_matrix(matrix)

    def after(self, cards: tuple[Cards, Cards], pending: tuple[Pending, Pending], margin: int,
              laid: tuple[Play, Play]) -> float:
        """The value once both seats laid these cards: the reveal, the blind exchanges, the next turn."""
        res = self._res(laid[0], laid[1], pending[0], pending[1])
        left = [list(cards[0]), list(cards[1])]
        for s in (0, 1):
            for c in laid[s]:
                left[s].remove(c)
        margin += res.points[0] - res.points[1]
        return self._exchanges(left, res.pending, margin, list(res.exchanges))

    def _exchanges(self, left: list[list[str]], pending: tuple[Pending, Pending], margin: int,
                   todo: list[tuple[int, str]]) -> float:
        """games.zop.ai_model.RoundModel.exchange, every blind draw averaged."""
        if not todo:
            return self.value((tuple(sorted(left[0])), tuple(sorted(left[1]))), pending, margin)
        (taker, card), rest = todo[0], todo[1:]
        ability = self.deck.card(card).ability
        assert ability is not None
        refuse = ability.refuse
        mine, theirs = left[taker], left[1 - taker]
        takeable = [c for c in theirs if self.deck.card(c).kind not in refuse]
        gift = ability.give == "choice"
        giveable = [c for c in mine if self.deck.card(c).kind not in refuse]
        if not takeable or (gift and not giveable):
            return self._exchanges(left, pending, margin, rest)
        total = 0.0
        for taken in takeable:
            trial = [left[0][:], left[1][:]]
            trial[1 - taker].remove(taken)
            trial[taker].append(taken)
            if gift:
                back = min(giveable, key=lambda c: (self.gift_cost(c), c))
                trial[taker].remove(back)
                trial[1 - taker].append(back)
            total += self._exchanges(trial, pending, margin, rest)
        return total / len(takeable)
