"""The finite list of candidate actions of a seat, the legal ones, and who is to act."""

from __future__ import annotations

from collections.abc import Iterator

from games.core import CHANCE, Action, evolve, last_state
from games.mata_hari.pieces import card_set
from games.mata_hari.rules import may_close, may_edit_offer, reject, visionary_values
from games.mata_hari.rules_drafts import draft_k
from games.mata_hari.rules_statements import category_values, language, quant_options
from games.mata_hari.state import (
    ACCUSE,
    COUNTER,
    DEAL,
    DECLARE,
    DRAW,
    HITMAN,
    HITMAN_DEMAND,
    OFFER,
    OVER,
    REQUIRE,
    SWAP,
    WANT,
    MHState,
)


def candidates(state: MHState, seat: int, gestures: bool = True) -> Iterator[Action]:
    """Every action `seat` might take now, buttons first in menu order, then gestures (unless
    `gestures` is False: a menu lists buttons only)."""
    if state.phase == OVER:
        return
    yield from _buttons(state, seat)
    if gestures:
        yield from _gestures(state, seat)


def _buttons(state: MHState, seat: int) -> Iterator[Action]:
    s = state.seats[seat]
    if state.phase != DEAL:
        for v in visionary_values(state, seat):
            yield {"type": "visionary", "value": v}
        if s.draft is not None:
            yield from _draft_steps(state, seat)
            yield {"type": "cancel"}
    if s.picks:
        yield {"type": "pick_done"}
    if state.phase == OFFER and seat == state.active:
        yield {"type": "confirm"}
        for what in (DECLARE, WANT, REQUIRE):
            yield {"type": "say", "what": what}
        yield {"type": "clear"}
        yield {"type": "no_offer"}
    elif state.phase == COUNTER:
        yield from _counter_buttons(state, seat)
    elif state.phase == HITMAN and seat == state.active:
        yield {"type": "say", "what": HITMAN_DEMAND}
        yield {"type": "no_demand"}
    elif state.phase == SWAP:
        yield {"type": "confirm"}


def _counter_buttons(state: MHState, seat: int) -> Iterator[Action]:
    if seat == state.active:
        if may_close(state, seat):  # else `reject` refuses each of them for that same reason
            for j in range(state.players):
                if j != seat:
                    yield {"type": "accept", "seat": j}
                    yield {"type": "accept", "seat": j, "hitman": True}
            yield {"type": "mata_hari"}
            yield {"type": "refuse"}
    else:
        yield {"type": "confirm"}
        yield {"type": "say", "what": DECLARE}
        yield {"type": "clear"}
        yield {"type": "pass"}
        yield {"type": "withdraw"}
    for t in range(state.players):
        if t != seat:  # nobody accuses themselves
            yield {"type": "accuse", "target": t}


def _gestures(state: MHState, seat: int) -> Iterator[Action]:
    s = state.seats[seat]
    if s.loose:
        yield {"type": "lift"}
        if len(s.loose) > 1:
            for c in s.loose:
                yield {"type": "lift", "card": c}
    if state.covers_due and state.covers_due[0] == seat:
        for c in state.stock:
            yield {"type": "take_cover", "cover": c}
    if s.picks:
        for c in state.pile:
            yield {"type": "pick", "card": c}
    if state.phase in (OFFER, COUNTER, SWAP) and may_edit_offer(state, seat):
        for c in s.offer:
            yield {"type": "take_back", "card": c}
        if not s.loose:
            for c in s.hand:
                if c not in s.offer:
                    yield {"type": "lay", "card": c}


def _draft_steps(state: MHState, seat: int) -> Iterator[Action]:
    d = state.seats[seat].draft
    assert d is not None
    if d.purpose == ACCUSE:
        for p in card_set().partner_kinds:
            yield {"type": "accuse", "target": d.target, "partner": p}
        return
    if d.q is None:
        for q, n in quant_options(draft_k(state, seat, d.purpose)):
            yield {"type": "quant", "q": q, "n": n} if q in ("least", "exact") else {"type": "quant", "q": q}
    elif d.cat is None:
        for c in language().categories:
            yield {"type": "cat", "cat": c}
    else:
        for v in category_values(d.cat, state.players):
            yield {"type": "pred", "value": v}


def legal_actions(state: MHState, seat: int) -> list[Action]:
    """Every legal action of a (non-chance) seat (chance outcomes: see chance_outcomes)."""
    if type(seat) is not int or not 0 <= seat < state.players:
        return []
    return [a for a in candidates(state, seat) if reject(state, seat, a, True) is None]


def to_act(state: MHState) -> frozenset[int]:
    """Seats with at least one legal action, plus CHANCE when a card must be dealt or drawn."""
    if state.phase == OVER:
        return frozenset()
    return _acting(state)[0]


@last_state
def _acting(state: MHState) -> tuple[frozenset[int], frozenset[int]]:
    """(to_act, the seats with a legal action besides the visionary claim, CHANCE included in
    both when a card must be dealt or drawn): one look at each seat's actions for both, which the
    table asks of every state in a row."""
    acting, open_ = set(), set()
    for i in range(state.players):
        for a in candidates(state, i):
            if reject(state, i, a, True) is None:
                acting.add(i)
                if not _private(a):
                    open_.add(i)
                    break
    if state.phase == DEAL or (state.phase == DRAW and state.draws > 0):
        acting.add(CHANCE)
        open_.add(CHANCE)
    return frozenset(acting), frozenset(open_)


def _private(action: Action) -> bool:
    """An option that exists because of a secret: the visionary claim (a whole priority value in hand)."""
    return bool(action["type"] == "visionary")


def waiting_for(state: MHState) -> frozenset[int]:
    """`to_act` as the table may tell it: without the visionary claim, and with every statement or
    accusation being composed on a seat's screen set aside (its steps, and the moves it holds back,
    would tell the others what that screen shows)."""
    if state.phase == OVER:
        return frozenset()
    if not any(s.draft is not None for s in state.seats):
        return _acting(state)[1]
    state = evolve(state, seats=tuple(evolve(s, draft=None) for s in state.seats))
    out = {i for i in range(state.players)
           if any(not _private(a) and reject(state, i, a, True) is None for a in candidates(state, i))}
    if state.phase == DEAL or (state.phase == DRAW and state.draws > 0):
        out.add(CHANCE)
    return frozenset(out)
