"""Computer players of Drôles de Zèbres: the greedy baseline and a UCT search (games.ai API).

- greedy: the best projected margin now (and the guardian moved to limit the opponent's reply);
  also usable as a `games.playout.Policy` (`greedy_policy`).
- easy: the greedy move half of the time, a random one otherwise.
- strong: UCT over `ai_model` (a fast copy of the rules), random playouts to the end, the
  board's margin backed up by minimax in the tree beside them (`ai_uct`).

Nothing is hidden in this game, so the view gives the whole state (`sample_state` rebuilds it).
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

from games.ai import check_request
from games.ai.budget import Budget
from games.ai.search import Ranked
from games.core import SQUARES, Action, Game
from games.droles_de_zebres import ai_endgame, ai_model, ai_uct
from games.droles_de_zebres.pieces import GAZELLE, kind_of
from games.droles_de_zebres.pieces_board import SQUARE_INDEX, get_board
from games.droles_de_zebres.rules import legal_actions
from games.droles_de_zebres.rules_step import transition
from games.droles_de_zebres.scoring import totals
from games.droles_de_zebres.state import (
    CROCODILE,
    FIRST,
    FIRST_EITHER,
    FIRST_RANDOM,
    MOVE,
    PLACE,
    DdzState,
    Token,
)
from games.droles_de_zebres.views import DdzView


def _margin(state: DdzState, seat: int) -> int:
    scores = totals(state)
    return scores[seat] - scores[1 - seat]


def _distinct_placements(legal: list[Action]) -> list[Action]:
    """One placement per (kind, square): animals of one kind and colour are interchangeable."""
    seen: dict[tuple[str, str], Action] = {}
    for act in legal:
        if act["type"] == "place":
            seen.setdefault((kind_of(act["piece"]), act["square"]), act)
        else:
            seen.setdefault((act["type"], str(act.get("square", act.get("steps", "")))), act)
    return list(seen.values())


def _best_gain(state: DdzState, seat: int) -> int:
    """The best margin `seat` can reach with one placement from `state`."""
    options = _distinct_placements(legal_actions(state, seat))
    if not options:
        return _margin(state, seat)
    return max(_margin(transition(state, seat, act).state, seat) for act in options)


def greedy_policy(game: Game[Any, Any], state: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Place (or swap) for the best margin now; move the guardian to limit the opponent's reply."""
    return _greedy(state, seat, legal, rng)


def _greedy(state: DdzState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    if not legal:
        raise ValueError("greedy_policy: no legal action")
    candidates = _distinct_placements(legal)
    if state.phase == MOVE:
        scored = []
        for act in candidates:
            after = transition(state, seat, act).state
            nxt = after.turn
            reply = _best_gain(after, nxt) if after.phase == PLACE and nxt is not None else 0
            scored.append((-reply if nxt != seat else reply, act))
    elif state.phase in (PLACE, CROCODILE):
        scored = [(_margin(transition(state, seat, act).state, seat), act) for act in candidates]
    else:
        return rng.choice(legal)  # the guardian's first position
    best = max(score for score, _ in scored)
    return rng.choice([act for score, act in scored if score == best])


# ---------------------------------------------------------------------------------------------
# The computer player (games.ai API): levels, sample_state, choose, rank.

LEVELS: Final = ("easy", "greedy", "strong")
# strong: UCT iterations (each a whole imagined game in ai_model); p50 ~150 ms, p99 ~350 ms of CPU
# on the development machine, ~1.5 s on a Pi Zero 2 W (assumed 10x slower:
# games.ai.budget.PI_SLOWDOWN), where the table's clock cap stops the longest searches;
# 700 iterations took ~60 ms and won 30 of 40 seeded games against a flat Monte-Carlo player
# (bench/bench_ai.py), 1750 won 37 of the same 40
DEFAULT_BUDGETS: Final = {"easy": Budget(1), "greedy": Budget(1), "strong": Budget(1750)}
EASY_RANDOM: Final = 0.5  # easy: share of moves picked at random instead of greedily
EXPLORATION: Final = 0.5  # UCT constant, rewards in [0, 1]
MARGIN_SCALE: Final = 12.0  # points of margin worth about half the reward range
# strong: the share of the board's margin, backed up by minimax in the tree (ai_uct), in the
# value a move is selected by; the playouts' mean weighs the rest
HEURISTIC_WEIGHT: Final = 0.3
# strong: with this many animals or fewer left to lay, the end is read for a proven win
# (ai_endgame) within ENDGAME_NODES_PER_ITERATION positions per iteration of the budget (1750
# iterations: 14,000 positions, ~0.08 s); a move that wins against any reply is played,
# otherwise the UCT decides with its whole budget
ENDGAME_ANIMALS: Final = 12
ENDGAME_NODES_PER_ITERATION: Final = 8


def sample_state(view: DdzView, seat: int, rng: random.Random) -> DdzState:
    """The state behind a view: nothing is hidden in Drôles de Zèbres, so it is rebuilt exactly.

    `rng` is unused (kept for the common API). The first-player mode is not in the view; it only
    matters before the guardian is placed, so "random" is assumed while the draw is pending.
    """
    cells: list[Token | None] = [None] * len(SQUARES)
    for sq in view.squares:
        cells[SQUARE_INDEX[sq.square]] = Token(sq.piece, sq.face_up)
    croc = None if view.crocodile is None else SQUARE_INDEX[view.crocodile]
    swapped: tuple[str, ...] = ()
    if croc is not None:
        # gazelles across the river that the crocodile may no longer take: already swapped
        targets = set(view.swap_targets)
        board = get_board(view.board)
        across = [(j, cells[j]) for j in board.across[croc]]
        swapped = tuple(tok.piece for j, tok in across
                        if tok is not None and tok.face_up and kind_of(tok.piece) == GAZELLE
                        and SQUARES[j] not in targets)
    return DdzState(
        board=view.board, colours=view.colours, first_mode=FIRST_RANDOM if view.phase == FIRST else FIRST_EITHER,
        phase=view.phase, cells=tuple(cells), reserves=view.reserves, guardian=view.guardian, first=view.first,
        turn=view.turn, inauguration=view.inauguration, croc=croc, swapped=swapped, turns=view.turns)


def needs_decision(view: DdzView, seat: int) -> bool:
    """True when `seat` has a choice to make now (while the first player is open, both seats may
    place the guardian: the table decides whom to ask)."""
    return view.seat == seat and seat in view.to_act


def _reward(model: ai_model.Model, seat: int) -> float:
    """Win 0.8 (draw 0.4) plus up to 0.2 for the margin: wins first, then by how much."""
    a, b = model.totals()
    return _margin_reward((a - b) if seat == 0 else (b - a))


def _reward0(model: ai_model.Model) -> float:
    return _reward(model, 0)


def _heuristic0(model: ai_model.Model) -> float:
    """Seat 0's chances read from the board alone: the margin if the game ended now."""
    a, b = model.totals()
    return 0.5 + 0.5 * math.tanh((a - b) / MARGIN_SCALE)


def _margin_reward(margin: int) -> float:
    win = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return 0.8 * win + 0.2 * (0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE))


def _decision(view: Any, seat: int, level: str, rng: random.Random, budget: Budget | None
              ) -> tuple[DdzState, list[Action]]:
    check_request(view, seat, level, rng, budget, LEVELS, 2)
    if seat not in view.to_act:
        raise ValueError(f"seat {seat} has no decision to make now (to act: {list(view.to_act)})")
    state = sample_state(view, seat, rng)
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    return state, legal


def rank(view: DdzView, seat: int, level: str, rng: random.Random, budget: Budget | None = None
         ) -> list[Ranked[Action]]:
    """Candidate actions of `seat`, best first, with their estimated values in [0, 1]."""
    state, legal = _decision(view, seat, level, rng, budget)
    if level != "strong":
        act = _cheap_choice(state, seat, legal, level, rng)
        return [Ranked(act, 1.0, 0)]
    model = ai_model.from_state(state)
    if model.phase == ai_model.P_GUARDIAN:
        model.turn = seat  # both seats may place the guardian: this one does
    budget = budget or DEFAULT_BUDGETS["strong"]
    deadline = budget.start()
    if sum(model.left) <= ENDGAME_ANIMALS and model.phase != ai_model.P_GUARDIAN:
        win = ai_endgame.winning_move(model, budget.iterations * ENDGAME_NODES_PER_ITERATION, deadline)
        # a proven win is played (its value: a win by one point at least); short of one the UCT
        # decides, as it bets on the opponent's slips where best play by both sides would lose
        if win is not None:
            return [Ranked(ai_model.to_action(state, seat, win), _margin_reward(1), 0)]
    moves = ai_uct.search(model, deadline, rng, EXPLORATION, HEURISTIC_WEIGHT, _reward0, _heuristic0)
    if not moves:  # no iteration allowed (a clock cap already spent): the greedy move
        return [Ranked(_greedy(state, seat, legal, rng), 0.0, 0)]
    return [Ranked(ai_model.to_action(state, seat, m.action), m.mean, m.visits) for m in moves]


def _cheap_choice(state: DdzState, seat: int, legal: list[Action], level: str, rng: random.Random) -> Action:
    if level == "easy" and rng.random() < EASY_RANDOM:
        return rng.choice(_distinct_placements(legal))
    return _greedy(state, seat, legal, rng)


def choose(view: DdzView, seat: int, level: str, rng: random.Random, budget: Budget | None = None) -> Action:
    """The computer's action for `seat` from its view (legal; same view and seed: same action)."""
    state, legal = _decision(view, seat, level, rng, budget)
    if len(legal) == 1:
        return legal[0]
    if level != "strong":
        return _cheap_choice(state, seat, legal, level, rng)
    return rank(view, seat, level, rng, budget)[0].action
