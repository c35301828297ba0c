"""A simple opponent: greedy on the projected score margin (a `games.playout.Policy`)."""

from __future__ import annotations

import random
from typing import Any

from games.core import Action, Game
from games.droles_de_zebres.pieces import kind_of
from games.droles_de_zebres.rules import legal_actions
from games.droles_de_zebres.scoring import totals
from games.droles_de_zebres.state import CROCODILE, MOVE, PLACE, DdzState
from games.droles_de_zebres.rules_transition import transition


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
