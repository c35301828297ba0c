"""Computer players of Spywhere (games.ai API): swaps, triples, identifications, the removal.

- easy: sensible but careless: keeps cards of its own nationality, identifies half of its
  turns with a guess that only avoids what the clue piles rule out, a random move otherwise.
- greedy: the same sensible play every time (the one-ply baseline): lift a card of its own
  nationality laying another, take every triple it may, identify one opponent per turn.
- strong: lifts its own nationality and makes triples it may take (their bonus card); reads the
  others' passports from the clue piles and what every player did in view of all (their swaps and
  left triples, by nationality), and how sensibly each of them plays (games.spywhere.ai_guess);
  identifies one opponent per turn, surest first, while it may still be the one ending the game
  (3 points), else keeps its cards for the end, where it places them for the win over sampled
  ends of the game (games.spywhere.ai_plan). Whether to take a triple is weighed by determinized
  Monte-Carlo with sequential halving: each playout deals the hidden passports (weighted by how
  likely they make the players' actions), hands and pile at random within what the seat knows
  (games.spywhere.ai_sample), plays the move, then the game to its end in a counts-only model
  (games.spywhere.ai_model), the seat playing as above, each opponent sensibly as often as its
  actions showed, else at random; every move is tried on the same deals; the reward is winning,
  then the margin.

The decision reads the seat's view only. Which card of a nationality moves never matters, so
moves are chosen by nationality and turned back into actions on concrete cards and slots.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import combinations
from typing import Final

from games.ai import check_request
from games.ai.budget import Budget
from games.ai.search import Ranked, sequential_halving
from games.core import Action
from games.spywhere.ai_guess import Deal, Odds, best_guess, odds_of, passport_deals, sensible_shares
from games.spywhere.ai_model import S_FINAL, S_IDENTIFY, S_OVER, S_SWAP, S_TAKE, Move, SpyModel, from_state
from games.spywhere.ai_plan import RACE_MIN, final_plan, race_chance, surest
from games.spywhere.ai_sample import sample_state, sample_with
from games.spywhere.pieces import TRIPLE, card_set, nat_of
from games.spywhere.state import SETUP
from games.spywhere.views import SpyView

__all__ = ["LEVELS", "DEFAULT_BUDGETS", "choose", "rank", "sample_state", "needs_decision"]

LEVELS: Final = ("easy", "greedy", "strong")
# strong: playouts to the end of the game, at the triple steps only (swaps and identifications
# take under 1 ms); at those steps ~100-250 ms on the development machine,
# ~1-2.5 s on a Pi Zero 2 W (assumed 10x slower, games.ai.budget.PI_SLOWDOWN)
DEFAULT_BUDGETS: Final = {"easy": Budget(1), "greedy": Budget(1), "strong": Budget(400)}
EASY_RANDOM: Final = 0.3  # easy: share of random moves
EASY_IDENTIFY: Final = 0.5  # easy: chance of identifying in a turn
MARGIN_SCALE: Final = 4.0
FINAL_SAMPLES: Final = 200  # strong: sampled ends of the game weighing the last identifications

Policy = Callable[[SpyModel, int, random.Random], Move]


def needs_decision(view: SpyView, seat: int) -> bool:
    """True when `seat` has a choice to make now (every step where it is to act is one)."""
    return view.seat == seat and seat in view.waiting


# -- policies over the model ------------------------------------------------------------------


def random_move(m: SpyModel, seat: int, rng: random.Random) -> Move:
    """A move drawn like a uniformly random choice among the real game's actions."""
    step = m.step
    if step == S_SWAP:
        return ("s", _weighted(m.hands[seat], rng), _weighted(m.centre, rng))
    if step == S_TAKE:
        options: list[Move] = [("l",)]
        for n in m.triples():
            if n not in m.own[seat]:
                options += [("t", n)] * math.comb(m.centre[n], TRIPLE)
        return options[int(rng.random() * len(options))]
    moves = m.moves(seat)
    return moves[int(rng.random() * len(moves))]


def _weighted(counts: list[int], rng: random.Random) -> int:
    r = int(rng.random() * sum(counts))
    n = 0
    while r >= counts[n]:
        r -= counts[n]
        n += 1
    return n


def _guess(m: SpyModel, seat: int, rng: random.Random) -> Move | None:
    """An identification ruling out what the seat knows: its own nationalities, the clue piles."""
    targets = m.open_targets(seat)
    free = m.free_nats(seat)
    if not targets or not free:
        return None
    target = targets[int(rng.random() * len(targets))]
    plausible = [n for n in free if n not in m.own[seat] and not m.clue_mask[target] >> n & 1] or free
    return ("i", target, plausible[int(rng.random() * len(plausible))])


def sensible_move(m: SpyModel, seat: int, rng: random.Random, identify: float = 1.0) -> Move:
    """Keep own-nationality cards, take every triple allowed, identify (with chance `identify`)."""
    step = m.step
    if step == S_SWAP:
        own, hand, centre = m.own[seat], m.hands[seat], m.centre
        gives = [n for n in range(m.k) if hand[n] and n not in own]
        lifts = [n for n in own if centre[n]]
        if gives and lifts:
            return ("s", gives[int(rng.random() * len(gives))], lifts[int(rng.random() * len(lifts))])
        same = [n for n in range(m.k) if hand[n] and centre[n]]
        if same:  # lay a card like one already there and lift it back: nothing given away
            n = same[int(rng.random() * len(same))]
            return ("s", n, n)
        return random_move(m, seat, rng)
    if step == S_TAKE:
        allowed = [n for n in m.triples() if n not in m.own[seat]]
        return ("t", allowed[0]) if allowed else ("l",)
    if step == S_IDENTIFY:
        guess = _guess(m, seat, rng) if rng.random() < identify else None
        return guess or ("e",)
    if step == S_FINAL:
        return _guess(m, seat, rng) or ("d",)
    raise ValueError(f"no move at step {step}")


def _targets(m: SpyModel, seat: int) -> dict[int, int]:
    return {t: m.per - m.placed[seat][t] for t in m.open_targets(seat)}


def smart_move(m: SpyModel, seat: int, rng: random.Random, odds: Odds) -> Move:
    """The strong level's own play: lift its nationality, make and take triples, identify the likeliest.

    Swaps lift a card of its own nationality when there is one, laying a card of another that
    makes a triple it may take (its bonus card) when it can; identifications follow `odds`
    (games.spywhere.ai_guess), one per turn, so that the seat may be the one ending the game.
    """
    step = m.step
    if step == S_SWAP:
        own, hand, centre = m.own[seat], m.hands[seat], m.centre
        gives = [n for n in range(m.k) if hand[n] and n not in own]
        lifts = [n for n in own if centre[n]]
        makers = [n for n in gives if centre[n] == TRIPLE - 1]
        # the others' share of each nationality: lay what they are least likely to want
        theirs = [sum(odds[t][n] for t in range(m.players) if t != seat) for n in range(m.k)]
        gives.sort(key=lambda n: (theirs[n], n))
        if lifts and gives:
            return ("s", makers[0] if makers else gives[0], lifts[0])
        if makers:
            others = [n for n in range(m.k) if centre[n] and n != makers[0] and n not in own]
            if others:
                return ("s", makers[0], max(others, key=lambda n: (theirs[n], -n)))
        same = [n for n in range(m.k) if hand[n] and centre[n]]
        if same:  # lay a card like one already there and lift it back: nothing given away
            return ("s", same[0], same[0])
        if lifts:  # only own cards in hand and of the centre: trade one for another
            return ("s", next(n for n in own if hand[n]), lifts[0])
        return random_move(m, seat, rng)
    if step == S_TAKE:
        allowed = [n for n in m.triples() if n not in m.own[seat]]
        return ("t", allowed[0]) if allowed else ("l",)
    if step in (S_IDENTIFY, S_FINAL):
        guess = best_guess(odds, _targets(m, seat), m.free_nats(seat))
        if guess is not None:
            return ("i", guess[0], guess[1])
        return ("e",) if step == S_IDENTIFY else ("d",)
    raise ValueError(f"no move at step {step}")


def play_out(m: SpyModel, policies: list[Policy], rng: random.Random) -> None:
    """Play `m` to the end, each seat with its policy."""
    while m.step != S_OVER:
        if m.step == S_FINAL:
            for seat in m.to_act():
                m.play(seat, policies[seat](m, seat, rng), rng)
        else:
            seat = m.active
            m.play(seat, policies[seat](m, seat, rng), rng)


def _reward(m: SpyModel, seat: int) -> float:
    scores = m.scores()
    mine = scores[seat]
    best = max(s for i, s in enumerate(scores) if i != seat)
    win = 1.0 if mine > best else (1.0 / scores.count(mine)) if mine == best else 0.0
    return 0.75 * win + 0.25 * (0.5 + 0.5 * math.tanh((mine - best) / MARGIN_SCALE))


# -- from model moves to actions --------------------------------------------------------------


def _to_action(view: SpyView, move: Move) -> Action:
    """The real action of a model move for the seat of `view` (first card/slot of each kind)."""
    nats = view.nationalities
    if move[0] == "s":
        give, lift = nats[move[1]], nats[move[2]]
        card = next(c for c in view.hand if nat_of(c) == give)
        slot = next(i + 1 for i, c in enumerate(view.centre) if c is not None and nat_of(c) == lift)
        return {"type": "swap", "slot": slot, "card": card}
    if move[0] == "t":
        slots = [i + 1 for i, c in enumerate(view.centre) if c is not None and nat_of(c) == nats[move[1]]]
        return {"type": "take", "slots": list(next(combinations(slots, TRIPLE)))}
    if move[0] == "i":
        return {"type": "identify", "target": move[1], "nationality": nats[move[2]]}
    return {"type": {"l": "leave", "e": "end_turn", "d": "done"}[move[0]]}


def _decision_model(view: SpyView, seat: int, rng: random.Random, deals: list[Deal]) -> SpyModel:
    return from_state(sample_with(view, seat, rng, deals))


def _final_action(view: SpyView, seat: int, base: SpyModel, rng: random.Random, deals: list[Deal], odds: Odds,
                  budget: Budget | None) -> Action:
    """The last identifications: the placing that wins most often over sampled ends of the game."""
    ends = []
    shares = sensible_shares(view, seat)
    for _ in range(min(FINAL_SAMPLES, (budget or DEFAULT_BUDGETS["strong"]).iterations)):
        m = _decision_model(view, seat, rng, deals)
        policies = [sensible_move if rng.random() < shares[s] else random_move for s in range(m.players)]
        while acting := [s for s in m.to_act() if s != seat]:
            for s in acting:
                m.play(s, policies[s](m, s, rng), rng)
        ends.append(m)
    pick = surest(final_plan(ends, seat, _targets(base, seat), base.free_nats(seat), odds), odds)
    return _to_action(view, ("i", *pick) if pick is not None else ("d",))


# -- the API ------------------------------------------------------------------------------------


def rank(view: SpyView, seat: int, level: str, rng: random.Random, budget: Budget | None = None) -> list[Ranked[Action]]:
    """Candidate actions of `seat`, best first, with their estimated values."""
    check_request(view, seat, level, rng, budget, LEVELS, view.players)
    if not needs_decision(view, seat):
        raise ValueError(f"seat {seat} has no decision to make now (waiting: {list(view.waiting)})")
    if view.phase == SETUP:
        # the removed nationality is chosen before the passports are dealt: nothing to weigh
        nats = card_set().ids
        nat = nats[int(rng.random() * len(nats))]
        return [Ranked({"type": "remove", "nationality": nat}, 0.0, 0)]
    deals = passport_deals(view, seat)
    base = _decision_model(view, seat, rng, deals)
    moves = base.moves(seat)
    if level != "strong":
        if level == "easy" and rng.random() < EASY_RANDOM:
            move = random_move(base, seat, rng)
        else:
            move = sensible_move(base, seat, rng, EASY_IDENTIFY if level == "easy" else 1.0)
        return [Ranked(_to_action(view, move), 0.0, 0)]

    odds = odds_of(deals, view.players, len(view.nationalities))
    if base.step == S_IDENTIFY:
        # one identification a turn while the race to end the game (3 points) may still be won;
        # else the cards wait for the end, when more is known (games.spywhere.ai_plan)
        if race_chance(base, seat, sensible_shares(view, seat)) < RACE_MIN:
            return [Ranked({"type": "end_turn"}, 0.0, 0)]
        return [Ranked(_to_action(view, smart_move(base, seat, rng, odds)), 0.0, 0)]
    if base.step == S_FINAL:
        return [Ranked(_final_action(view, seat, base, rng, deals, odds, budget), 0.0, 0)]
    if base.step != S_TAKE:
        # swaps and the last identifications: the policy's choice; the playouts' outcomes vary
        # far more between deals than between two swaps, so weighing every swap only adds noise
        return [Ranked(_to_action(view, smart_move(base, seat, rng, odds)), 0.0, 0)]

    def mine(m: SpyModel, s: int, r: random.Random) -> Move:
        return smart_move(m, s, r, odds)

    # each other player plays sensibly in a playout as often as its own actions showed; the k-th
    # playout of every move starts from the same deal and seed, so that moves are compared on
    # the same worlds rather than on their luck
    shares = sensible_shares(view, seat)
    deadline = (budget or DEFAULT_BUDGETS["strong"]).start()
    seeds = [rng.getrandbits(32) for _ in range(deadline.budget.iterations)]
    pulled = [0] * len(moves)

    def pull(i: int, _: random.Random) -> float:
        r = random.Random(seeds[pulled[i] % len(seeds)])
        pulled[i] += 1
        m = _decision_model(view, seat, r, deals)
        policies: list[Policy] = [
            mine if s == seat else sensible_move if r.random() < shares[s] else random_move for s in range(m.players)]
        m.play(seat, moves[i], r)
        play_out(m, policies, r)
        return _reward(m, seat)

    best, stats = sequential_halving(len(moves), pull, deadline, rng)
    order = sorted(range(len(moves)), key=lambda i: (i != best, -stats[i].mean, -stats[i].visits, i))
    return [Ranked(_to_action(view, moves[i]), stats[i].mean, stats[i].visits) for i in order]


def choose(view: SpyView, seat: int, level: str, rng: random.Random, budget: Budget | None = None) -> Action:
    """The computer's action for `seat` from its view (legal; same view and seed: same action)."""
    return rank(view, seat, level, rng, budget)[0].action
