"""Why a step of composing a statement is refused: a declaration or a demand begun, its quantifier,
category and value chosen in turn, a draft given up, the statements made cleared (rules.py holds
every other action's checks and `reject`, the one way in)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Rejection, is_int
from games.mata_hari.pieces import card_set
from games.mata_hari.rules_statements import category_values, evaluate, language, quant_options
from games.mata_hari.state import (
    ACCUSE,
    COMPOSING,
    COUNTER,
    DECLARE,
    HITMAN,
    HITMAN_DEMAND,
    OFFER,
    REQUIRE,
    WANT,
    MHState,
    Statement,
    may_lie,
    offer_size,
)
from games.mata_hari.texts import REFUSALS


def draft_k(state: MHState, seat: int, purpose: str) -> int:
    """How many cards the statement being built speaks about."""
    if purpose == DECLARE:
        return len(state.seats[seat].offer)
    return offer_size(state)


def completion_ok(state: MHState, seat: int, purpose: str, q: str, n: int,
                  cat: str | None = None, value: Any = None) -> bool:
    """Whether this partial statement can be completed into an allowed one.

    Demands may ask anything; a declaration must be true of the offer (a Double Agent in it
    allows lies) and must not repeat one already made.
    """
    s = state.seats[seat]
    if purpose != DECLARE or may_lie(s):
        return True
    cats = [cat] if cat is not None else list(language().categories)
    for c in cats:
        values = [value] if value is not None else category_values(c, state.players)
        for v in values:
            st = Statement(q, n, c, v)
            if st not in s.statements and evaluate(st, s.offer):
                return True
    return False


def say(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    """A statement begun: a declaration of the seat's offer, a demand, or the Hitman's demand."""
    what = a["what"]
    s = state.seats[seat]
    if what not in (DECLARE, WANT, REQUIRE, HITMAN_DEMAND):
        return REFUSALS("bad_action")
    if s.draft is not None:
        return REFUSALS("draft_open")
    if what == HITMAN_DEMAND:
        h = state.hitman
        if state.phase != HITMAN or seat != state.active or h is None or h.demand or h.waived:
            return REFUSALS("not_now")
        return None
    if what == DECLARE:
        if not (state.phase == OFFER and seat == state.active) and not (
                state.phase == COUNTER and seat != state.active and s.status == COMPOSING):
            return REFUSALS("not_now")
        if len(s.statements) >= int(card_set().table["max_declarations"]):
            return REFUSALS("too_many")
    elif state.phase != OFFER or seat != state.active:
        return REFUSALS("not_now")
    elif state.demand is not None:
        return REFUSALS("demand_made")
    if not s.offer:
        return REFUSALS("empty_offer")
    return None


def step_quant(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    """The statement's quantifier: one the offer's size allows, and one a true statement can follow."""
    d = state.seats[seat].draft
    if d is None or d.purpose == ACCUSE or d.q is not None:
        return REFUSALS("no_draft")
    q, n = a["q"], a.get("n", 0)
    if q in ("all", "none") and "n" in a:
        return REFUSALS("bad_action")
    k = draft_k(state, seat, d.purpose)
    if not is_int(n) or (q, n) not in quant_options(k):
        return REFUSALS("bad_quantifier")
    if not completion_ok(state, seat, d.purpose, q, n):
        return REFUSALS("false_statement")
    return None


def step_cat(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    """The statement's category, once its quantifier is chosen."""
    d = state.seats[seat].draft
    if d is None or d.purpose == ACCUSE or d.q is None or d.cat is not None:
        return REFUSALS("no_draft")
    if not isinstance(a["cat"], str) or a["cat"] not in language().categories:
        return REFUSALS("bad_category")
    if not completion_ok(state, seat, d.purpose, d.q, d.n, a["cat"]):
        return REFUSALS("false_statement")
    return None


def step_pred(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    """The statement's value, the last step: a declaration true of the offer and not said before."""
    d = state.seats[seat].draft
    if d is None or d.purpose == ACCUSE or d.q is None or d.cat is None:
        return REFUSALS("no_draft")
    v = a["value"]
    if isinstance(v, bool) or v not in category_values(d.cat, state.players):
        return REFUSALS("bad_value")
    if not completion_ok(state, seat, d.purpose, d.q, d.n, d.cat, v):
        s = state.seats[seat]
        if Statement(d.q, d.n, d.cat, v) in s.statements:
            return REFUSALS("duplicate")
        return REFUSALS("false_statement:final")
    return None


def step_cancel(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    """The statement being composed given up."""
    return None if state.seats[seat].draft is not None else REFUSALS("no_draft")


def step_clear(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    """The statements and the demand made so far taken back, while they may still be."""
    s = state.seats[seat]
    if state.phase == OFFER and seat == state.active:
        return None if (s.statements or state.demand) else REFUSALS("nothing")
    if state.phase == COUNTER and seat != state.active and s.status == COMPOSING and s.statements:
        return None
    return REFUSALS("not_now")
