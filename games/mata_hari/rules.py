"""Why an action is refused: the checks of every action type (rules_actions.py lists the candidates).

`reject` is the single source of truth of legality: rules_actions.legal_actions filters a finite
candidate list through it and rules_actions.to_act is every seat with at least one legal action.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.core import CHANCE, Rejection, is_int
from games.mata_hari.pieces import card_set, setup
from games.mata_hari.rules_drafts import (
    say,
    step_cancel,
    step_cat,
    step_clear,
    step_pred,
    step_quant,
)
from games.mata_hari.rules_statements import evaluate, feasible
from games.mata_hari.state import (
    ACCUSE,
    COMPOSING,
    CONFIRMED,
    COUNTER,
    DEAL,
    DRAW,
    HITMAN,
    IDLE,
    OFFER,
    OVER,
    REQUIRE,
    SWAP,
    MHState,
    blocked,
    has_partner,
    offer_size,
    pending,
)
from games.mata_hari.texts import REFUSALS
from games.texts import seat_label

# Allowed keys per action type (an action with other keys is malformed).
KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {  # type -> (required, optional)
    "deal": (frozenset({"seat", "card"}), frozenset()),
    "draw": (frozenset({"seat", "card"}), frozenset()),
    "lift": (frozenset(), frozenset({"card"})),
    "take_cover": (frozenset({"cover"}), frozenset()),
    "lay": (frozenset({"card"}), frozenset()),
    "take_back": (frozenset({"card"}), frozenset()),
    "say": (frozenset({"what"}), frozenset()),
    "quant": (frozenset({"q"}), frozenset({"n"})),
    "cat": (frozenset({"cat"}), frozenset()),
    "pred": (frozenset({"value"}), frozenset()),
    "cancel": (frozenset(), frozenset()),
    "clear": (frozenset(), frozenset()),
    "confirm": (frozenset(), frozenset()),
    "pass": (frozenset(), frozenset()),
    "withdraw": (frozenset(), frozenset()),
    "accuse": (frozenset({"target"}), frozenset({"partner"})),
    "accept": (frozenset({"seat"}), frozenset({"hitman"})),
    "refuse": (frozenset(), frozenset()),
    "mata_hari": (frozenset(), frozenset()),
    "no_demand": (frozenset(), frozenset()),
    "pick": (frozenset({"card"}), frozenset()),
    "pick_done": (frozenset(), frozenset()),
    "visionary": (frozenset({"value"}), frozenset()),
    "no_offer": (frozenset(), frozenset()),
}
CHANCE_TYPES = frozenset({"deal", "draw"})


def _is_seat(state: MHState, x: Any) -> bool:
    return is_int(x) and 0 <= x < state.players


def malformed(action: Any) -> Rejection | None:
    """A rejection when the action is not a known, well-formed JSON object."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return REFUSALS("bad_action:unreadable")
    spec = KEYS.get(action["type"])
    if spec is None:
        return REFUSALS("unknown_action")
    keys = set(action) - {"type"}
    required, optional = spec
    if not required <= keys or not keys <= required | optional:
        return REFUSALS("bad_action")
    return None


def max_offer() -> int:
    """The most cards an offer may hold (3)."""
    return int(card_set().table["max_offer"])


def can_close(state: MHState) -> bool:
    """The active player may resolve: nobody is half-way through a counter-offer, nothing owed."""
    return not pending(state) and all(s.status != COMPOSING for i, s in enumerate(state.seats)
                                      if i != state.active)


def accusable(state: MHState, target: int) -> bool:
    """A seat whose offer lies confirmed on its pad (the active one's, or a counter-offer)."""
    if target == state.active:
        return state.phase == COUNTER
    return state.seats[target].status == CONFIRMED


def _active_offer_k(state: MHState, seat: int) -> int:
    """The size the seat's offer must reach (3 max for the active player, k for the others)."""
    return max_offer() if state.phase == OFFER else offer_size(state)


def may_edit_offer(state: MHState, seat: int) -> bool:
    """Whether the seat may lay or take back offer cards now."""
    if state.phase == OFFER:
        return seat == state.active
    if state.phase == COUNTER:
        return seat != state.active and state.seats[seat].status in (IDLE, COMPOSING)
    if state.phase == SWAP:
        return state.hitman is not None and seat == state.hitman.victim
    return False


def _lay_feasible(state: MHState, seat: int, offer: tuple[str, ...]) -> bool:
    """Whether the offer can still be completed to meet the demand it must meet."""
    s = state.seats[seat]
    pool = [c for c in s.hand if c not in offer]
    k = offer_size(state)
    if state.phase == COUNTER and state.demand is not None and state.demand.mode == REQUIRE:
        return feasible(state.demand.statement, offer, pool, k, wild=True)
    if state.phase == SWAP and state.hitman is not None and state.hitman.demand is not None:
        return feasible(state.hitman.demand, offer, pool, k, wild=False)
    return True


def check(state: MHState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    """None if `seat` may take `action` now, else the precise reason (chance outcomes included)."""
    if seat == CHANCE:
        if state.phase not in (DEAL, DRAW) or (state.phase == DRAW and state.draws <= 0):
            return REFUSALS("not_your_turn")
        return reject_chance(state, action)
    if type(seat) is not int or not 0 <= seat < state.players:
        return REFUSALS("bad_seat")
    return reject(state, seat, action)


def reject_chance(state: MHState, action: Mapping[str, Any]) -> Rejection | None:
    """Why a chance outcome is impossible now (None: possible)."""
    bad = REFUSALS("bad_chance")
    if malformed(action) or action["type"] not in CHANCE_TYPES:
        return bad
    seat, cid = action["seat"], action["card"]
    if not _is_seat(state, seat) or not isinstance(cid, str):
        return bad
    s = state.seats[seat]
    if action["type"] == "deal":
        if state.phase != DEAL:
            return bad
        if cid in state.objectives:
            return None if s.objective is None else bad
        if cid in state.pile and len(s.hand) < setup(state.players).deal:
            return None
        return bad
    if state.phase == DRAW and state.draws > 0 and seat == state.active and cid in state.pile:
        return None
    return bad


def reject(state: MHState, seat: int, action: Mapping[str, Any], trusted: bool = False) -> Rejection | None:
    """Why `seat` may not take `action` now (None: legal). Never raises on bad input.

    trusted: the action comes from `candidates` (well-formed by construction).
    """
    if not trusted:
        bad = malformed(action)
        if bad:
            return bad
    if state.phase == OVER:
        return REFUSALS("game_over")
    kind = action["type"]
    if kind in CHANCE_TYPES:
        return REFUSALS("chance_only")
    handler = _HANDLERS[kind]
    if state.phase == DEAL and kind != "lift":
        return REFUSALS("dealing")
    return handler(state, seat, action)


# -- handlers ----------------------------------------------------------------------------------


def _lift(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    loose = state.seats[seat].loose
    if not loose:
        return REFUSALS("pad_empty")
    if "card" in a and (a["card"] not in loose or len(loose) < 2):
        return REFUSALS("not_on_pad")
    return None


def _take_cover(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if seat not in state.covers_due:
        return REFUSALS("no_cover_owed")
    if state.covers_due[0] != seat:
        return REFUSALS("cover_queue", seat=seat_label(state.covers_due[0]))
    if a["cover"] not in state.stock:
        return REFUSALS("bad_cover")
    return None


def _lay(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if not may_edit_offer(state, seat):
        return REFUSALS("not_now")
    s = state.seats[seat]
    cid = a["card"]
    if not isinstance(cid, str) or cid not in s.hand or cid in s.offer:
        return REFUSALS("not_in_hand")
    if s.loose:
        return REFUSALS("pad_busy")
    if state.phase == COUNTER and blocked(state, seat, state.active):
        return REFUSALS("blocked")
    if len(s.offer) >= _active_offer_k(state, seat):
        return REFUSALS("offer_full")
    if not _lay_feasible(state, seat, (*s.offer, cid)):
        return REFUSALS("breaks_demand:card")
    return None


def _take_back(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    s = state.seats[seat]
    if not may_edit_offer(state, seat):
        if state.phase == COUNTER and s.status == CONFIRMED:
            return REFUSALS("offer_locked")
        return REFUSALS("not_now")
    if a["card"] not in s.offer:
        return REFUSALS("not_in_offer")
    return None


def _confirm(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    s = state.seats[seat]
    if not may_edit_offer(state, seat):
        return REFUSALS("not_now")
    if s.draft is not None:
        return REFUSALS("draft_open")
    if state.phase == OFFER:
        if not 1 <= len(s.offer) <= max_offer():
            return REFUSALS("wrong_size:offer")
        return None
    k = offer_size(state)
    if len(s.offer) != k:
        return REFUSALS("wrong_size", k=k)
    if state.phase == SWAP:
        h = state.hitman
        if h is None or h.demand is None or not evaluate(h.demand, s.offer):
            return REFUSALS("breaks_demand:not_met")
        return None
    if s.status != COMPOSING:
        return REFUSALS("not_now")
    if blocked(state, seat, state.active):
        return REFUSALS("blocked")
    if state.demand is not None and state.demand.mode == REQUIRE and not feasible(
            state.demand.statement, s.offer, (), k, wild=True):
        return REFUSALS("breaks_demand")
    return None


def _pass(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if state.phase == COUNTER and seat != state.active and state.seats[seat].status in (IDLE, COMPOSING):
        return None
    return REFUSALS("not_now")


def _withdraw(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if state.phase == COUNTER and seat != state.active and state.seats[seat].status == CONFIRMED:
        return None
    return REFUSALS("not_now")


def _accuse(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if state.phase != COUNTER:
        return REFUSALS("not_now")
    t = a["target"]
    if not _is_seat(state, t) or t == seat or not accusable(state, t):
        return REFUSALS("bad_target")
    # No limit per accuser, accused or turn: « À tout moment … un joueur peut accuser un autre ».
    # Each unfounded accusation costs the accuser a Compromis cover, so the stock bounds them.
    d = state.seats[seat].draft
    if "partner" not in a:
        return None if d is None else REFUSALS("draft_open")
    if d is None or d.purpose != ACCUSE or d.target != t:
        return REFUSALS("no_draft")
    if a["partner"] not in card_set().partner_kinds:
        return REFUSALS("bad_partner")
    return None


def may_close(state: MHState, seat: int) -> bool:
    """Whether the seat may resolve the counter-offers now (accept one, refuse them, Mata Hari)."""
    return _closing(state, seat) is None


def _closing(state: MHState, seat: int) -> Rejection | None:
    if state.phase != COUNTER or seat != state.active:
        return REFUSALS("not_now")
    if pending(state):
        return REFUSALS("pending")
    if not can_close(state):
        return REFUSALS("waiting_offers")
    return None


def _accept(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    bad = _closing(state, seat)
    if bad:
        return bad
    j = a["seat"]
    if not _is_seat(state, j) or j == seat or state.seats[j].status != CONFIRMED:
        return REFUSALS("no_offer")
    if blocked(state, seat, j):
        return REFUSALS("blocked:accusation")
    if "hitman" in a:
        if a["hitman"] is not True:
            return REFUSALS("bad_action")
        if has_partner(state.seats[seat].offer, "hitman") is None:
            return REFUSALS("no_hitman")
    return None


def _refuse(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    return _closing(state, seat)


def _mata_hari(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    bad = _closing(state, seat)
    if bad:
        return bad
    if has_partner(state.seats[seat].offer, "mata-hari") is None:
        return REFUSALS("no_mata_hari")
    if any(s.status == CONFIRMED for i, s in enumerate(state.seats) if i != seat):
        return REFUSALS("offers_made")
    return None


def _no_demand(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    h = state.hitman
    if state.phase != HITMAN or seat != state.active or h is None or h.demand or h.waived:
        return REFUSALS("not_now")
    return None


def _pick(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if not state.seats[seat].picks:
        return REFUSALS("no_pick")
    if a["card"] not in state.pile:
        return REFUSALS("not_in_pile")
    return None


def _pick_done(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    return None if state.seats[seat].picks else REFUSALS("no_pick")


def visionary_values(state: MHState, seat: int) -> list[int]:
    """Priority values whose every card in play the seat holds."""
    return list(_values_held(tuple(state.seats[seat].hand), state.players))


@lru_cache(maxsize=64)
def _values_held(hand: tuple[str, ...], players: int) -> tuple[int, ...]:
    # asked for every seat at every state (its menu, its view): a hand changes far less often
    held = set(hand)
    return tuple(v for v, cards in sorted(setup(players).by_value.items()) if cards <= held)


def _visionary(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if not is_int(a["value"]) or a["value"] not in visionary_values(state, seat):
        return REFUSALS("not_visionary")
    return None


def _no_offer(state: MHState, seat: int, a: Mapping[str, Any]) -> Rejection | None:
    if state.phase == OFFER and seat == state.active and not state.seats[seat].hand:
        return None
    return REFUSALS("not_now")


_HANDLERS = {
    "lift": _lift, "take_cover": _take_cover, "lay": _lay, "take_back": _take_back, "say": say,
    "quant": step_quant, "cat": step_cat, "pred": step_pred, "cancel": step_cancel, "clear": step_clear,
    "confirm": _confirm, "pass": _pass, "withdraw": _withdraw, "accuse": _accuse,
    "accept": _accept, "refuse": _refuse, "mata_hari": _mata_hari, "no_demand": _no_demand,
    "pick": _pick, "pick_done": _pick_done, "visionary": _visionary, "no_offer": _no_offer,
}
