"""Who acts in ZOP, what they may do, and why anything else is refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, Action, Rejection, evolve
from games.zop import rules_apart, rules_supply
from games.zop.pieces import Deck
from games.zop.rules_sealed import is_sealed, opens
from games.zop.rules_transition import giveable, takeable
from games.zop.state import COMMIT, CONFIRM, DRAW, EXCHANGE, GIVE, ROUND_END, TAKE, TRACKED, ZopState, with_side
from games.zop.texts import REFUSALS

# action type -> its fields besides "type" (an action with other fields is refused)
FIELDS: dict[str, frozenset[str]] = {
    "commit": frozenset({"card"}),
    "withdraw": frozenset({"card"}),
    "open": frozenset({"card", "salt"}),  # across tables: a card laid face down there, shown at the reveal
    "give": frozenset({"card"}),
    "exchange_done": frozenset(),
    "exchange_skip": frozenset(),
    "review": frozenset({"turn"}),
    "next_round": frozenset(),
    **rules_apart.FIELDS,
}
CHANCE_FIELDS: dict[str, frozenset[str]] = {"draw": frozenset({"seat", "card"}), "blind_take": frozenset({"card"})}


def to_act(deck: Deck, state: ZopState) -> frozenset[int]:
    """Seats that act now: both during the hidden commit (each while it has cards), or CHANCE."""
    if state.phase == DRAW:
        return frozenset({CHANCE})
    if rules_supply.opening(deck, state):  # the reveal waits for the cards laid at the other table
        return frozenset(s for s in (0, 1) if rules_supply.sealed(state, s))
    if state.phase == COMMIT:
        return frozenset(s for s in (0, 1) if rules_supply.required(deck, state, s) > 0)
    if state.phase == EXCHANGE and state.exchange is not None:
        if state.apart:
            acting = rules_apart.acting(state)
            return frozenset() if acting is None else frozenset({acting})
        return frozenset({CHANCE}) if state.exchange.stage == TAKE else frozenset({state.exchange.taker})
    if state.phase == ROUND_END:
        return frozenset({0, 1})
    return frozenset()


def chance_outcomes(deck: Deck, state: ZopState) -> list[tuple[Action, float]]:
    """Tracked mode: one card drawn from a shuffled pile, or taken blindly from a hand."""
    if state.phase == DRAW:
        for seat in (0, 1):
            side = state.sides[seat]
            if rules_supply.needs_draw(deck, side):
                p = 1.0 / len(side.shuffled)
                return [({"type": "draw", "seat": seat, "card": c}, p) for c in side.shuffled]
    if state.phase == EXCHANGE and state.exchange is not None and state.exchange.stage == TAKE:
        # a refused card (Reculer pour mieux sauter) is given back and another drawn: the same
        # as drawing uniformly among the others
        cards = takeable(deck, state, state.exchange)
        return [({"type": "blind_take", "card": c}, 1.0 / len(cards)) for c in cards]
    return []


def legal_actions(deck: Deck, state: ZopState, seat: int) -> list[Action]:
    """Every action the seat may take now."""
    if seat == CHANCE or seat not in to_act(deck, state):
        return []
    side = state.sides[seat]
    out: list[Action] = []
    if rules_supply.opening(deck, state):
        return out  # a card is opened with its salt, which only the table that laid it knows
    if state.phase == COMMIT:
        if len(side.laid) < rules_supply.required(deck, state, seat):
            out += [{"type": "commit", "card": c} for c in rules_supply.layable(deck, state, seat)]
        if side.laid:
            out.append({"type": "withdraw", "card": side.laid[-1]})
    elif state.phase == EXCHANGE and state.apart:
        out += rules_apart.legal(deck, state, seat)
    elif state.phase == EXCHANGE and state.exchange is not None:
        if state.exchange.stage == GIVE:
            out += [{"type": "give", "card": c} for c in giveable(deck, state, state.exchange)]
        elif state.exchange.stage == CONFIRM:
            out += [{"type": "exchange_done"}, {"type": "exchange_skip"}]
    elif state.phase == ROUND_END:
        out += [{"type": "review", "turn": t} for t in range(1, len(state.turns) + 1) if t != state.review[seat]]
        out.append({"type": "next_round"})
    return out


def _shape(action: Any, fields: Mapping[str, frozenset[str]]) -> str | None:
    """The action's type when it is a well-formed object of a known type, else None."""
    if not isinstance(action, Mapping):
        return None
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in fields or set(action) - {"type"} != fields[kind]:
        return None
    return kind


def check(deck: Deck, state: ZopState, seat: int, action: Action) -> Rejection | None:
    """None when legal, else the precise reason."""
    if seat == CHANCE:
        if CHANCE not in to_act(deck, state):
            return REFUSALS("not_your_turn")
        if _shape(action, CHANCE_FIELDS) is None:
            return REFUSALS("bad_action")
        if any(a == dict(action) for a, _ in chance_outcomes(deck, state)):
            return None
        return REFUSALS("bad_chance")
    kind = _shape(action, FIELDS)
    if kind is None:
        return REFUSALS("bad_action")
    if seat not in (0, 1):
        return REFUSALS("not_your_turn")
    if kind in ("commit", "withdraw"):
        return _check_pad(deck, state, seat, kind, action["card"])
    if kind == "open":
        return _check_open(deck, state, seat, action["card"], action["salt"])
    if state.apart and (kind in rules_apart.FIELDS or kind in ("give", "exchange_skip")):
        return rules_apart.check(deck, state, seat, kind, action)
    if kind in ("give", "exchange_done", "exchange_skip") or kind in rules_apart.FIELDS:
        return _check_exchange(deck, state, seat, kind, action)
    if state.phase != ROUND_END:
        return REFUSALS("wrong_phase")
    if kind == "review":
        turn = action["turn"]
        if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= len(state.turns) \
                or turn == state.review[seat]:
            return REFUSALS("bad_turn")
    return None


def _check_pad(deck: Deck, state: ZopState, seat: int, kind: str, card: Any) -> Rejection | None:
    if state.phase != COMMIT:
        return REFUSALS("wrong_phase")
    if rules_supply.opening(deck, state):  # at one table the cards would be shown already
        return REFUSALS("revealing")
    if seat not in to_act(deck, state):
        return REFUSALS("not_your_turn")
    sealed = state.apart and is_sealed(card)  # a card laid at the other table, known by its commitment
    if not sealed and not deck.is_card(card):
        return REFUSALS("bad_card")
    side = state.sides[seat]
    if kind == "withdraw":
        if card not in side.laid:
            return REFUSALS("not_laid")
        return None if card == side.laid[-1] else REFUSALS("withdraw_last")
    if len(side.laid) >= rules_supply.required(deck, state, seat):
        return REFUSALS("enough_cards")
    if card in side.laid:
        return REFUSALS("already_laid")
    if sealed:
        return None  # which card it is is checked when it is opened
    if not rules_supply.unplayed(state, card):
        return REFUSALS("already_played")
    if state.mode == TRACKED:
        return None if card in side.hand else REFUSALS("not_in_hand")
    if card in rules_supply.layable(deck, state, seat):
        return None
    if state.apart and card in rules_apart.lent(state, seat):
        return REFUSALS("lent")
    # a card of the other deck is refused as "not yours" before anything else, so a refusal never
    # tells which card the opponent laid; cards really held by a player always pass
    if deck.owner(card) != seat:
        return REFUSALS("not_yours")
    return REFUSALS("unavailable")


def _check_open(deck: Deck, state: ZopState, seat: int, card: Any, salt: Any) -> Rejection | None:
    """Opening the first placeholder on the seat's pad: the card committed to, and one it could lay."""
    if not rules_supply.opening(deck, state):
        return REFUSALS("wrong_phase")
    sealed = rules_supply.sealed(state, seat)
    if not sealed:
        return REFUSALS("not_your_turn")
    if not deck.is_card(card) or not opens(sealed[0], card, salt):
        return REFUSALS("seal_mismatch")
    side = state.sides[seat]
    at = side.laid.index(sealed[0])
    trial = with_side(state, seat, evolve(side, laid=side.laid[:at] + side.laid[at + 1:]))
    if card in side.laid or card not in rules_supply.layable(deck, trial, seat):
        return REFUSALS("seal_unavailable")
    return None


def _check_exchange(deck: Deck, state: ZopState, seat: int, kind: str, action: Action) -> Rejection | None:
    step = state.exchange
    if state.phase != EXCHANGE or step is None:
        return REFUSALS("wrong_phase")
    if seat != step.taker or step.stage == TAKE:
        return REFUSALS("not_your_turn")
    if kind in rules_apart.FIELDS:
        return REFUSALS("wrong_phase")  # moves of an exchange across tables only
    if kind == "give":
        if step.stage != GIVE:
            return REFUSALS("wrong_phase")
        card = action["card"]
        if not deck.is_card(card):
            return REFUSALS("bad_card")
        return None if card in giveable(deck, state, step) else REFUSALS("cannot_give")
    return None if step.stage == CONFIRM else REFUSALS("wrong_phase")
