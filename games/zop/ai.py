"""Computer players of ZOP (games.ai API): which card to lay face down, which card to give back.

- easy: the greedy card 40 % of the time, any card otherwise.
- greedy: the card with the best expected points this turn (mine minus the opponent's), the
  opponent's card taken as any card it may hold (the one-ply baseline of bench/bench_ai.py).
- strong: determinized Monte-Carlo with sequential halving: each playout deals the opponent's
  unknown cards at random (games.zop.ai_sample), lets the opponent choose its face-down card with
  a model (its greedy card a quarter of the time, any card otherwise), reveals, and plays the round
  to its end with random cards (games.zop.ai_model); the reward is the round won as the match
  values it (a tied revanche is a belle: a win for the seat behind, a loss for the seat ahead),
  then the margin. The candidates are
  compared on common random numbers: each sweep of the halving plays every card on the same deal
  of the hidden cards and against the same opponent card. At the round's end, once every card
  either seat has left is in its hand (deck model), the rest of the round is solved exactly
  instead (games.zop.ai_endgame: each turn a matrix game, its equilibrium's card drawn with the
  seed).
- `choose_with(view, seat, "tree", ...)`: the same decision by the tree search of
  games.zop.ai_tree (information-set MCTS over the round), played against the strong level by
  bench/bench_ai.py --opponent tree; no level uses it (it played even with the flat search).

The decision reads the seat's view only: in the deck model ("tracked") its own hand, pile and
discard; in physical play ("sensed") the table does not know any hand, so the computer may lay
any card of its deck not played yet, like a human there (see docs/games/zop.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, Final

from games.ai import check_request
from games.ai.budget import Budget
from games.ai.search import Ranked, sequential_halving
from games.core import Action, Game, evolve
from games.zop import GAME, ai_tree
from games.zop import rules_supply as supply
from games.zop.ai_endgame import Endgame, plays
from games.zop.ai_model import RoundModel, from_state, uniform_picker
from games.zop.ai_sample import Dealer, Knowledge, knowledge
from games.zop.ai_sample import sample_state as _sample
from games.zop.pieces import ATTACK, DEFENCE, Deck
from games.zop.rules_reveal import Resolution, resolve
from games.zop.state import (
    COMMIT,
    CONFIRM,
    EXCHANGE,
    GIVE,
    REVANCHE,
    ROUND_END,
    TRACKED,
    Pending,
    ZopState,
    other,
    with_side,
)
from games.zop.views import ZopView

LEVELS: Final = ("easy", "greedy", "strong")
# the strong level's searches: flat Monte-Carlo over its cards, or the tree of games.zop.ai_tree;
# each budget takes about the same CPU time (~125 ms p50 on the development machine, ~1.3 s on a
# Pi Zero 2 W, assumed 10x slower, games.ai.budget.PI_SLOWDOWN, where the table's clock cap stops
# the longest searches). Flat: 420 playouts won 18 of 24 matches against bench/bench_ai.py's flat
# Monte-Carlo player, 1260 won 27 of 30 (seeds 0-29), 1260 on common random numbers 141 of 164,
# with the opponent's model below 145 of 164, with the round's end solved exactly 149 of 164
# (seeds 0-163). The tree played no better than the
# flat search at the same time (docs/performance.md), so the strong level keeps the flat one.
# From 2026-11-28 the flat search runs its 1260 playouts in about 40 % of its former CPU time (the playout
# loop inlined, the same draws and decisions: tests/games/zop/test_ai_decisions.py).
SEARCHES: Final = ("flat", "tree")
SEARCH_BUDGETS: Final = {"flat": Budget(1260), "tree": Budget(980)}
STRONG_SEARCH: Final = "flat"
DEFAULT_BUDGETS: Final = {"easy": Budget(1), "greedy": Budget(1), "strong": SEARCH_BUDGETS[STRONG_SEARCH]}
EASY_GREEDY: Final = 0.4  # easy: share of greedy choices
# strong: share of greedy choices in the opponent model, for its face-down card of this turn. The
# benchmark's flat Monte-Carlo player lays the greedy card no more often than chance (547 commits:
# 31.1 % against 30.7 %, bench/sweep_zop_opponent_choice.py), a greedy one always: a quarter hedges
OPPONENT_GREEDY: Final = 0.25
MARGIN_SCALE: Final = 8.0
# what giving a card away costs, by effect kind (attack and defence: their strength)
GIFT_COST: Final = {"cancel": 6, "counter": 5, "multiply": 4, "boost": 3, "extra_cards": 2, "blind_exchange": 2,
                    "score": 3, "none": 0}


def sample_state(view: ZopView, seat: int, rng: random.Random) -> ZopState:
    """A full state giving `seat` exactly `view`, the opponent's unknown cards dealt at random."""
    return _sample(GAME.deck, view, seat, rng)


def needs_decision(view: ZopView, seat: int) -> bool:
    """True when `seat` has a choice to make now (a card to lay or give, an exchange to confirm).

    A seat that laid its card(s) only waits (taking a card back is never the computer's wish);
    at the end of a round the computer is always ready: `choose` then answers "next round", but a
    table should leave that button to its humans.
    """
    me = view.me
    if me is None or view.seat != seat:
        return False
    if view.phase == COMMIT:
        return len(me.laid) < me.to_lay
    if view.phase == EXCHANGE and view.exchange is not None and view.exchange.taker == seat:
        return view.exchange.stage in (GIVE, CONFIRM)
    return False


# -- immediate points (the greedy player, and the opponent model of the strong one) -------------

_MEMO: dict[tuple[tuple[tuple[str, ...], tuple[str, ...]], tuple[Pending, Pending]], Resolution] = {}


def _net(deck: Deck, seat: int, mine: tuple[str, ...], theirs: tuple[str, ...], pending: tuple[Pending, Pending]) -> int:
    """Points `seat` scores minus the opponent's when these cards face each other this turn."""
    laid = (mine, theirs) if seat == 0 else (theirs, mine)
    key = (laid, pending)
    res = _MEMO.get(key)
    if res is None:
        if len(_MEMO) > 50_000:
            _MEMO.clear()
        res = _MEMO[key] = resolve(deck, laid, pending)
    return res.points[seat] - res.points[other(seat)]


def greedy_values(deck: Deck, seat: int, laid: tuple[str, ...], candidates: list[str], opponent: list[str],
                  pending: tuple[Pending, Pending]) -> list[float]:
    """Expected points this turn (mine minus theirs) of each candidate, any opponent card alike."""
    if not opponent:
        return [float(_net(deck, seat, laid + (c,), (), pending)) for c in candidates]
    return [sum(_net(deck, seat, laid + (c,), (d,), pending) for d in opponent) / len(opponent)
            for c in candidates]


def _best(values: list[float], rng: random.Random) -> int:
    top = max(values)
    best = [i for i, v in enumerate(values) if v == top]
    return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


def _opponent_options(view: ZopView, seat: int, k: Knowledge, state: ZopState) -> list[str]:
    """Cards the opponent may lay this turn, as far as `seat` knows."""
    opp = other(seat)
    if view.mode == TRACKED:
        return list(k.opp_pool)
    trial = with_side(state, opp, evolve(state.sides[opp], laid=()))
    return list(supply.layable(GAME.deck, trial, opp))


def _my_cards(view: ZopView, seat: int, state: ZopState) -> list[str]:
    """Every card `seat` still has this round (what its opponent must allow for)."""
    me = view.me
    assert me is not None
    if view.mode == TRACKED:
        return [c for c in me.hand if c not in me.laid] + list(me.pile) + list(me.unseen) + list(me.discard)
    return list(supply.layable(GAME.deck, state, seat))


# -- the commit -----------------------------------------------------------------------------------


class NoSafeCard(ValueError):
    """Physical play after a blind exchange: no card is legal whatever the opponent laid."""


def _commit_candidates(view: ZopView, seat: int, state: ZopState) -> list[str]:
    """Cards `seat` may lay whatever the opponent laid face down (the view cannot tell which).

    In the deck model, and in physical play before any blind exchange, that is every legal card.
    In physical play after an exchange a card of either deck may be in either hand, and whether a
    card is still free depends on the opponent's face-down cards: every possibility is tried.
    """
    def legal(s: ZopState) -> set[str]:
        return {a["card"] for a in GAME.legal_actions(s, seat) if a["type"] == "commit"}

    opp = other(seat)
    count = view.sides[opp].laid_count
    if view.mode == TRACKED or not count or not any(s.received for s in state.sides):
        return sorted(legal(state))
    safe: set[str] | None = None
    todo = [with_side(state, opp, evolve(state.sides[opp], laid=()))]
    while todo:
        trial = todo.pop()
        side = trial.sides[opp]
        if len(side.laid) == count:
            safe = legal(trial) if safe is None else safe & legal(trial)
            continue
        todo += [with_side(trial, opp, evolve(side, laid=side.laid + (c,))) for c in supply.layable(GAME.deck, trial, opp)]
    if not safe:
        raise NoSafeCard("ZOP in physical play (deck option 'sensed'): after a blind exchange no card is "
                         "sure to be free now the opponent has laid; computer seats need the deck model")
    return sorted(safe)


def tie_offset(view: ZopView, seat: int) -> float:
    """What a tied round is worth to `seat` for the match, as half a point of margin either way.

    A tied revanche goes to the belle: as good as a win for a seat that lost the manche, as bad as
    a loss for the one that won it. Elsewhere a tie is worth half a win (a tied manche leads to the
    belle, a tied belle is played again).
    """
    if view.label != REVANCHE or not view.results or view.results[0].winner is None:
        return 0.0
    return -0.5 if view.results[0].winner == seat else 0.5


def margin_reward(margin: float) -> float:
    """A round's reward in [0, 1] for a final margin (tie offset included): the win, then the margin."""
    win = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return 0.7 * win + 0.3 * (0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE))


def _reward(model: RoundModel, seat: int, offset: float = 0.0) -> float:
    return margin_reward(model.margin(seat) + offset)


def _gift_cost(deck: Deck, card: str) -> float:
    c = deck.card(card)
    return float(c.value) if c.type in (ATTACK, DEFENCE) else float(GIFT_COST.get(c.kind, 3))


def _give_picker(deck: Deck) -> Callable[[RoundModel, int, list[str]], str]:
    order = {c: (_gift_cost(deck, c), c) for c in deck.all_ids()}  # the cheapest gift first

    def give(model: RoundModel, seat: int, choices: list[str]) -> str:
        return min(choices, key=order.__getitem__)
    return give


def _opponent_picker(table: dict[str, float], rng: random.Random) -> Callable[[RoundModel, int, list[str]], str]:
    def pick(model: RoundModel, seat: int, choices: list[str]) -> str:
        if rng.random() < OPPONENT_GREEDY:
            values = [table.get(c, 0.0) for c in choices]
            return choices[_best(values, rng)]
        return choices[int(rng.random() * len(choices))]
    return pick


def _at_commit(view: ZopView, seat: int, rng: random.Random, k: Knowledge) -> RoundModel:
    """A determinization of the round at this commit, the opponent's face-down cards back in its hand."""
    model = from_state(GAME.deck, _sample(GAME.deck, view, seat, rng, k), rng)
    theirs = model.sides[other(seat)]
    theirs.hand.extend(theirs.laid)  # its face-down cards: chosen again by the opponent model
    theirs.laid = []
    return model


def _opponent_table(view: ZopView, seat: int, state: ZopState, opponent: list[str],
                    pending: tuple[Pending, Pending]) -> dict[str, float]:
    """The opponent's greedy value of each card it may lay, any card of `seat` alike (its view)."""
    options = sorted(set(opponent))
    return dict(zip(options, greedy_values(GAME.deck, other(seat), (), options, _my_cards(view, seat, state), pending)))


def _rank_commit(view: ZopView, seat: int, level: str, rng: random.Random, budget: Budget | None,
                 state: ZopState, k: Knowledge, search: str) -> list[Ranked[Action]]:
    deck = GAME.deck
    me = view.me
    assert me is not None
    cards = _commit_candidates(view, seat, state)
    pending = (view.sides[0].pending, view.sides[1].pending)
    opponent = _opponent_options(view, seat, k, state)
    values = greedy_values(deck, seat, me.laid, cards, opponent, pending)
    if level == "greedy" or (level == "easy" and rng.random() < EASY_GREEDY):
        order = sorted(range(len(cards)), key=lambda i: -values[i])
        first = _best(values, rng)
        order.remove(first)
        return [Ranked({"type": "commit", "card": cards[i]}, values[i], 0) for i in [first, *order]]
    if level == "easy":
        i = int(rng.random() * len(cards))
        return [Ranked({"type": "commit", "card": cards[i]}, values[i], 0)]
    if len(cards) == 1:
        return [Ranked({"type": "commit", "card": cards[0]}, values[0], 0)]
    if search == "flat":
        exact = _rank_endgame(view, seat, rng, k, cards)
        if exact is not None:
            return exact
        return _rank_flat(view, seat, rng, budget, state, k, cards, opponent, pending)
    give = _give_picker(deck)

    def root(r: random.Random) -> RoundModel:
        return _at_commit(view, seat, r, k)

    them = _opponent_picker(_opponent_table(view, seat, state, opponent, pending), rng)
    stats = ai_tree.search(root, seat, cards, _reward, uniform_picker(rng), give,
                           (budget or SEARCH_BUDGETS["tree"]).start(), rng, first_opponent=them)
    seen = {s.card for s in stats}  # a clock cap may stop the search before every card was tried
    ranked = [Ranked[Action]({"type": "commit", "card": s.card}, s.mean, s.visits) for s in stats]
    return ranked + [Ranked({"type": "commit", "card": c}, 0.0, 0) for c in cards if c not in seen]


def in_endgame(view: ZopView, seat: int, k: Knowledge) -> bool:
    """True when every card either seat has left is in its hand, both hands known to `seat`
    (deck model): games.zop.ai_endgame solves the rest of the round exactly."""
    me = view.me
    opp = view.sides[other(seat)]
    return (view.mode == TRACKED and me is not None and not (me.pile or me.unseen or me.discard)
            and not opp.pile_size and not opp.discard_size and not k.opp_first_pass
            and len(k.opp_pool) == opp.cards_left and Endgame.applies(GAME.deck))


def _rank_endgame(view: ZopView, seat: int, rng: random.Random, k: Knowledge, cards: list[str]
                  ) -> list[Ranked[Action]] | None:
    """The round's end solved exactly (games.zop.ai_endgame): a card drawn from the equilibrium
    strategy; None outside the endgame (the flat search decides)."""
    if not in_endgame(view, seat, k):
        return None
    me = view.me
    assert me is not None
    opp = other(seat)
    deck = GAME.deck
    offset = tie_offset(view, seat)
    game = Endgame(deck, seat, lambda m: margin_reward(m + offset), lambda c: _gift_cost(deck, c))
    hands = [tuple(sorted(me.hand)), tuple(k.opp_pool)]
    if seat == 1:
        hands.reverse()
    options = [plays(hands[seat], me.to_lay, me.laid), plays(hands[opp], view.sides[opp].to_lay)]
    if seat == 1:
        options.reverse()
    margin = view.sides[0].points - view.sides[1].points
    pending = (view.sides[0].pending, view.sides[1].pending)
    mine, theirs, _ = game.turn((hands[0], hands[1]), pending, margin, (options[0], options[1]))
    rows, cols = options[seat], options[opp]
    at = len(me.laid)
    weight: dict[str, float] = {}
    worth: dict[str, float] = {}
    for p, x in zip(rows, mine):
        card = p[at]
        weight[card] = weight.get(card, 0.0) + (x if x > 1e-9 else 0.0)
        laid = [p, p]
        v = 0.0
        for q, y in zip(cols, theirs):
            laid[opp] = q
            if y > 1e-9:
                v += y * game.after((hands[0], hands[1]), pending, margin, (laid[0], laid[1]))
        worth[card] = max(worth.get(card, 0.0), v)
    order = sorted(weight, key=lambda c: (-weight[c], -worth[c], c))
    r, pick = rng.random() * sum(weight.values()), order[0]
    for c in sorted(weight):
        if weight[c] <= 0.0:
            continue
        pick = c
        r -= weight[c]
        if r < 0:
            break
    order.remove(pick)
    assert pick in cards and all(c in cards for c in order), "the endgame lays legal cards only"
    return [Ranked({"type": "commit", "card": c}, worth[c], 0) for c in [pick, *order]]


def _rank_flat(view: ZopView, seat: int, rng: random.Random, budget: Budget | None, state: ZopState,
               k: Knowledge, cards: list[str], opponent: list[str], pending: tuple[Pending, Pending]
               ) -> list[Ranked[Action]]:
    """Flat Monte-Carlo over the candidates (sequential halving), the opponent's card from a model."""
    deck = GAME.deck
    opp = other(seat)
    table = _opponent_table(view, seat, state, opponent, pending)
    give = _give_picker(deck)
    offset = tie_offset(view, seat)
    deal = Dealer(deck, view, seat, k).deal if view.mode == TRACKED else lambda r: _at_commit(view, seat, r, k)

    def pull(i: int, r: random.Random) -> float:
        # every draw of a playout from r, the opponent's card before any of `seat`'s extra ones:
        # paired pulls then deal the same hidden cards and the same opponent card to each candidate
        roll = uniform_picker(r)
        model = deal(r)
        model.fill(opp, _opponent_picker(table, r))
        model.lay(seat, cards[i])
        model.play_out(r, roll, give)  # its first turn: `seat`'s other cards by `roll`, the reveal
        return _reward(model, seat, offset)

    best, stats = sequential_halving(len(cards), pull, (budget or SEARCH_BUDGETS["flat"]).start(), rng,
                                     paired=True)
    order = sorted(range(len(cards)), key=lambda i: (i != best, -stats[i].mean, -stats[i].visits, i))
    return [Ranked({"type": "commit", "card": cards[i]}, stats[i].mean, stats[i].visits) for i in order]


def _rank_give(view: ZopView, seat: int, level: str, rng: random.Random) -> list[Ranked[Action]]:
    me = view.me
    assert me is not None
    cards = sorted(me.giveable, key=lambda c: (_gift_cost(GAME.deck, c), c))
    if level == "easy" and rng.random() >= EASY_GREEDY:
        cards.insert(0, cards.pop(int(rng.random() * len(cards))))
    return [Ranked({"type": "give", "card": c}, -_gift_cost(GAME.deck, c), 0) for c in cards]


# -- the API --------------------------------------------------------------------------------------


def rank(view: ZopView, seat: int, level: str, rng: random.Random, budget: Budget | None = None) -> list[Ranked[Action]]:
    """Candidate actions of `seat`, best first, with their estimated values."""
    return _rank(view, seat, level, rng, budget)


def choose_with(view: ZopView, seat: int, search: str, rng: random.Random, budget: Budget | None = None) -> Action:
    """The strong level's decision made by one of SEARCHES (to play the searches against each
    other: bench/bench_ai.py --opponent flat|tree); the budget defaults to SEARCH_BUDGETS."""
    if search not in SEARCHES:
        raise ValueError(f"unknown search {search!r}; searches: {', '.join(SEARCHES)}")
    return _rank(view, seat, "strong", rng, budget or SEARCH_BUDGETS[search], search)[0].action


def _rank(view: ZopView, seat: int, level: str, rng: random.Random, budget: Budget | None,
          search: str = STRONG_SEARCH) -> list[Ranked[Action]]:
    check_request(view, seat, level, rng, budget, LEVELS, 2)
    if view.phase == ROUND_END:
        return [Ranked({"type": "next_round"}, 0.0, 0)]
    if not needs_decision(view, seat):
        raise ValueError(f"seat {seat} has no decision to make now (phase {view.phase})")
    if view.phase == EXCHANGE:
        assert view.exchange is not None
        if view.exchange.stage == CONFIRM:
            # physical play: the table cannot know the hands; the computer's exchange is made by
            # the players as the table guides them
            return [Ranked({"type": "exchange_done"}, 0.0, 0)]
        return _rank_give(view, seat, level, rng)
    k = knowledge(GAME.deck, view, seat)
    state = _sample(GAME.deck, view, seat, rng, k)
    return _rank_commit(view, seat, level, rng, budget, state, k, search)


def choose(view: ZopView, seat: int, level: str, rng: random.Random, budget: Budget | None = None) -> Action:
    """The computer's action for `seat` from its view (legal; same view and seed: same action)."""
    return rank(view, seat, level, rng, budget)[0].action


def greedy_policy(game: Game[Any, Any], state: ZopState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """The greedy player as a `games.playout.Policy` over the true state's legal actions (for
    benches and tests: an opponent that never needs to guess which cards are free)."""
    view = GAME.view(state, seat)
    if state.phase == COMMIT and needs_decision(view, seat):
        cards = [a["card"] for a in legal if a["type"] == "commit"]
        k = knowledge(GAME.deck, view, seat)
        pending = (view.sides[0].pending, view.sides[1].pending)
        values = greedy_values(GAME.deck, seat, state.sides[seat].laid, cards,
                               _opponent_options(view, seat, k, state), pending)
        return {"type": "commit", "card": cards[_best(values, rng)]}
    if needs_decision(view, seat) or state.phase == ROUND_END:
        return choose(view, seat, "greedy", rng)
    return rng.choice(legal)
