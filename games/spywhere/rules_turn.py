"""A turn: draw, swap with the centre, take a triple (bonus card, refill), identify; then the end.

Whenever the centre holds three identical cards after the swap the turn stops at the TAKE step,
even when the triple is of the player's own nationality (they may only leave it): a step that
depended on the passport would tell everyone the player's nationality.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.core import Action, Effect, Rejection, Step, evolve, is_int
from games.spywhere.pieces import CENTRE_SLOTS, TRIPLE, card_set, nat_name, nat_of
from games.spywhere.rules_setup import check_centre
from games.spywhere.scoring import reveal_effect
from games.spywhere.state import (
    BONUS,
    DRAW,
    FINAL,
    IDENTIFY,
    OVER,
    PLAY,
    REFILL,
    SETUP,
    SWAP,
    TAKE,
    SpyState,
    centre_counts,
    empty_slots,
    free_cards,
    may_identify_in_turn,
    open_targets,
    own_nats,
    put,
    required_guesses,
    too_early_to_identify,
    triple_nats,
    without,
)
from games.spywhere.texts import MESSAGES, REFUSALS, SILENT
from games.texts import seat_label

# action type -> its fields besides "type"
FIELDS: dict[str, frozenset[str]] = {
    "remove": frozenset({"nationality"}),
    "swap": frozenset({"slot", "card"}),
    "take": frozenset({"slots"}),
    "leave": frozenset(),
    "identify": frozenset({"target", "nationality"}),
    "end_turn": frozenset(),
    "done": frozenset(),
}
STEP_TYPES: dict[str, tuple[frozenset[str], str]] = {
    SETUP: (frozenset({"remove"}), "wrong_step:setup"),
    SWAP: (frozenset({"swap"}), "wrong_step:swap"),
    TAKE: (frozenset({"take", "leave"}), "wrong_step:take"),
    IDENTIFY: (frozenset({"identify", "end_turn"}), "wrong_step:identify"),
    FINAL: (frozenset({"identify", "done"}), "wrong_step:final"),
}


def allowed_triples(state: SpyState, seat: int) -> list[tuple[int, ...]]:
    """Slot triples (1-based, sorted) of identical centre cards `seat` may take."""
    own = own_nats(state, seat)
    out: list[tuple[int, ...]] = []
    for nat in triple_nats(state.centre):
        if nat in own:
            continue
        slots = [i + 1 for i, c in enumerate(state.centre) if c is not None and nat_of(c) == nat]
        out += list(combinations(slots, TRIPLE))
    return out


# -- legality -------------------------------------------------------------------------------------


def check_player(state: SpyState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    """None if the (already to-act) seat may do `action` now, else the precise reason."""
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        return REFUSALS("unknown_action")
    if set(action) - {"type"} != FIELDS[kind]:
        return REFUSALS("bad_action")
    step = state.phase if state.phase in (SETUP, FINAL) else state.step
    if kind == "identify" and state.phase == PLAY and too_early_to_identify(state):
        return REFUSALS("too_early")
    types, wrong = STEP_TYPES[step]
    if kind not in types:
        return REFUSALS(wrong)
    if kind == "swap":
        return _check_swap(state, seat, action)
    if kind == "take":
        return _check_take(state, seat, action)
    if kind == "identify":
        return _check_identify(state, seat, action)
    if kind == "remove" and action["nationality"] not in card_set().ids:
        return REFUSALS("unknown_nationality")
    return None


def _check_swap(state: SpyState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    slot = action["slot"]
    if not is_int(slot) or not 1 <= slot <= CENTRE_SLOTS:
        return REFUSALS("bad_slot")
    if state.centre[slot - 1] is None:
        return REFUSALS("empty_slot")
    if not isinstance(action["card"], str) or action["card"] not in state.hands[seat]:
        return REFUSALS("not_in_hand")
    return None


def _check_take(state: SpyState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    slots = action["slots"]
    if (not isinstance(slots, (list, tuple)) or len(slots) != TRIPLE or not all(is_int(s) for s in slots)
            or len(set(slots)) != TRIPLE or not all(1 <= s <= CENTRE_SLOTS for s in slots)):
        return REFUSALS("bad_slots")
    cards = [state.centre[s - 1] for s in slots]
    if any(c is None for c in cards) or len({nat_of(c) for c in cards if c is not None}) != 1:
        return REFUSALS("not_a_triple")
    if nat_of(str(cards[0])) in own_nats(state, seat):
        return REFUSALS("triple_refused")
    return None


def _check_identify(state: SpyState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    target, nat = action["target"], action["nationality"]
    if not is_int(target) or not 0 <= target < state.players or target == seat:
        return REFUSALS("bad_target")
    if target not in open_targets(state, seat):
        return REFUSALS("already_identified")
    if not isinstance(nat, str) or nat not in card_set().ids:
        return REFUSALS("unknown_nationality")
    if nat not in state.nationalities:
        return REFUSALS("nationality_removed")
    if nat not in free_cards(state, seat):
        return REFUSALS("card_used")
    return None


def player_actions(state: SpyState, seat: int) -> list[Action]:
    """Every action the (to-act) seat may take now, in menu order."""
    step = state.phase if state.phase in (SETUP, FINAL) else state.step
    if step == SETUP:
        return [{"type": "remove", "nationality": n} for n in card_set().ids]
    if step == SWAP:
        return [{"type": "swap", "slot": i + 1, "card": card}
                for i, c in enumerate(state.centre) if c is not None
                for card in state.hands[seat]]
    if step == TAKE:
        return [*({"type": "take", "slots": list(t)} for t in allowed_triples(state, seat)), {"type": "leave"}]
    if step in (IDENTIFY, FINAL):
        ident: list[Action] = [{"type": "identify", "target": t, "nationality": n}
                               for t in open_targets(state, seat) for n in free_cards(state, seat)]
        return [{"type": "end_turn" if step == IDENTIFY else "done"}, *ident]
    return []


# -- chance during play ---------------------------------------------------------------------------


def play_outcomes(state: SpyState) -> list[Action]:
    """Chance outcomes of the current draw or refill (each equally likely)."""
    if state.step in (DRAW, BONUS):
        return [{"type": "draw", "card": c} for c in state.pile]
    if state.step == REFILL:
        return [{"type": "centre", "slot": s, "card": c} for s in empty_slots(state) for c in state.pile]
    return []


def check_play_chance(state: SpyState, action: Mapping[str, Any]) -> Rejection | None:
    """None if `action` is a possible chance outcome of the current step."""
    kind = action.get("type")
    if state.step in (DRAW, BONUS) and kind == "draw" and set(action) == {"type", "card"}:
        return None if action["card"] in state.pile else REFUSALS("not_in_pile")
    if state.step == REFILL and kind == "centre" and set(action) == {"type", "slot", "card"}:
        return check_centre(state, action)
    return REFUSALS("bad_chance")


# -- transitions ----------------------------------------------------------------------------------


def apply_play_chance(state: SpyState, action: Mapping[str, Any]) -> Step[SpyState]:
    """A checked draw (turn or bonus) or a refill card."""
    seat = state.active
    if action["type"] == "draw":
        card = action["card"]
        hand = tuple(sorted(state.hands[seat] + (card,)))
        state = evolve(state, hands=put(state.hands, seat, hand), pile=without(state.pile, card))
        effects: list[Effect] = [
            Effect("secret", MESSAGES("drew", nat=nat_name(nat_of(card))),
                   frozenset({seat}), {"zone": f"pad.{seat}", "piece": card}),
        ]
        if state.step == DRAW:
            return Step(evolve(state, step=SWAP), tuple(effects))
        if empty_slots(state) and state.pile:
            return Step(evolve(state, step=REFILL), tuple(effects))
        step = after_take(state)
        return Step(step.state, (*effects, *step.effects))
    slot, card = action["slot"], action["card"]
    state = evolve(state, centre=put(state.centre, slot - 1, card), pile=without(state.pile, card),
                    refilled=state.refilled + (slot,))
    effects = [Effect("centre", SILENT, data={"zone": f"centre.{slot}", "piece": card})]
    if empty_slots(state) and state.pile:
        return Step(state, tuple(effects))
    step = _after_refill(state)
    return Step(step.state, (*effects, *step.effects))


def redraw_can_avoid_triple(centre: tuple[str | None, ...], pile: tuple[str, ...]) -> bool:
    """Whether some draw onto the empty slots leaves no triple (else re-triple would never stop)."""
    k = min(sum(c is None for c in centre), len(pile))
    in_centre = centre_counts(centre)
    in_pile = Counter(nat_of(c) for c in pile)
    room = sum(min(m, max(0, TRIPLE - 1 - in_centre[n])) for n, m in in_pile.items())
    return room >= k


def _after_refill(state: SpyState) -> Step[SpyState]:
    """Optional rule: a triple made by the refill goes back into the pile and 3 cards are redrawn."""
    nats = triple_nats(state.centre)
    if not state.retriple or not nats:
        return after_take(state)
    nat = nats[0]
    fresh = [s for s in reversed(state.refilled) if nat_of(str(state.centre[s - 1])) == nat]
    older = [i + 1 for i, c in enumerate(state.centre)
             if c is not None and nat_of(c) == nat and i + 1 not in fresh]
    back = (fresh + older)[:TRIPLE]
    cards = tuple(str(state.centre[s - 1]) for s in back)
    centre = tuple(None if i + 1 in back else c for i, c in enumerate(state.centre))
    pile = tuple(sorted(state.pile + cards))
    if not redraw_can_avoid_triple(centre, pile):
        return after_take(state)
    state = evolve(state, centre=centre, pile=pile, refilled=tuple(s for s in state.refilled if s not in back))
    text = MESSAGES("retriple", nat=nat_name(nat))
    return Step(evolve(state, step=REFILL), (Effect("return_to_pile", text, data={
        "zones": [f"centre.{s}" for s in back], "pieces": list(cards)}),))


def apply_player(state: SpyState, seat: int, action: Mapping[str, Any]) -> Step[SpyState]:
    """Apply a checked player action."""
    kind = action["type"]
    who = seat_label(seat)
    if kind == "swap":
        slot, card = action["slot"], action["card"]
        old = str(state.centre[slot - 1])
        hand = tuple(sorted(without(state.hands[seat], card) + (old,)))
        state = evolve(state, hands=put(state.hands, seat, hand), centre=put(state.centre, slot - 1, card),
                        last_swap=(seat, slot, card, old), swaps=(*state.swaps, (seat, nat_of(card), nat_of(old))))
        effect = Effect("swap", MESSAGES("swap", seat=who, laid=nat_name(nat_of(card)), lifted=nat_name(nat_of(old))),
                        data={"zone": f"centre.{slot}", "laid": card, "lifted": old})
        if triple_nats(state.centre):
            return Step(evolve(state, step=TAKE), (effect,))
        step = after_take(state)
        return Step(step.state, (effect, *step.effects))
    if kind == "take":
        slots = sorted(action["slots"])
        cards = tuple(str(state.centre[s - 1]) for s in slots)
        centre = tuple(None if i + 1 in slots else c for i, c in enumerate(state.centre))
        clues = put(state.clues, seat, tuple(sorted(state.clues[seat] + cards)))
        state = evolve(state, centre=centre, clues=clues, refilled=())
        effect = Effect("take", MESSAGES("take", seat=who, nat=nat_name(nat_of(cards[0]))),
                        data={"zones": [f"centre.{s}" for s in slots], "pieces": list(cards)})
        if state.pile:
            return Step(evolve(state, step=BONUS), (effect,))
        step = after_take(state)
        return Step(step.state, (effect, *step.effects))
    if kind == "leave":
        state = evolve(state, left=(*state.left, (seat, tuple(triple_nats(state.centre)))))
        step = after_take(state)
        return Step(step.state, (Effect("message", MESSAGES("leave", seat=who)),
                                 *step.effects))
    if kind == "identify":
        return _identify(state, seat, action["target"], action["nationality"])
    if kind == "end_turn":
        return end_turn(state)
    return _finish(evolve(state, finished=tuple(sorted(state.finished + (seat,)))), ())


def _identify(state: SpyState, seat: int, target: int, nat: str) -> Step[SpyState]:
    guesses = put(state.guesses, seat, state.guesses[seat] + ((target, nat),))
    state = evolve(state, guesses=guesses)
    who, whom = seat_label(seat), seat_label(target)
    effects = (
        Effect("message", MESSAGES("identified", seat=who, target=whom), data={"seat": seat, "target": target}),
        Effect("secret", MESSAGES("my_guess", target=whom, nat=nat_name(nat)), frozenset({seat}),
               {"target": target, "nationality": nat}),
    )
    if state.phase == PLAY:
        step = end_turn(state)
        return Step(step.state, (*effects, *step.effects))
    if not open_targets(state, seat) or not free_cards(state, seat):
        state = evolve(state, finished=tuple(sorted(state.finished + (seat,))))
    return _finish(state, effects)


def after_take(state: SpyState) -> Step[SpyState]:
    """After the triple decision (or the refill): the identification step, or the end of the turn."""
    if may_identify_in_turn(state):
        return Step(evolve(state, step=IDENTIFY))
    return end_turn(state)


def end_turn(state: SpyState) -> Step[SpyState]:
    """Pass to the next player, or trigger the end (all opponents identified, or empty pile)."""
    seat = state.active
    if len(state.guesses[seat]) >= required_guesses(state):
        text = MESSAGES("everyone_identified", seat=seat_label(seat))
        return enter_final(evolve(state, ender=seat), Effect("message", text, data={"ender": seat}))
    if not state.pile:
        return enter_final(state, Effect("message", MESSAGES("pile_empty")))
    nxt = (seat + 1) % state.players
    state = evolve(state, active=nxt, turn=state.turn + 1, step=DRAW, refilled=())
    return Step(state, (Effect("turn", MESSAGES("to_play", seat=seat_label(nxt)), data={"seat": nxt}),))


def enter_final(state: SpyState, effect: Effect) -> Step[SpyState]:
    """Everyone still holding identifications places the rest, all at once."""
    done = tuple(s for s in range(state.players) if not open_targets(state, s) or not free_cards(state, s))
    state = evolve(state, phase=FINAL, step="", finished=done)
    return _finish(state, (effect,))


def _finish(state: SpyState, effects: tuple[Effect, ...]) -> Step[SpyState]:
    """End the game once every seat has finished its last identifications."""
    if len(state.finished) < state.players:
        return Step(state, effects)
    state = evolve(state, phase=OVER)
    return Step(state, (*effects, reveal_effect(state)))
