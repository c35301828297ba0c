"""ZOP's state transitions: draws, laying cards, the reveal, blind exchanges, rounds and the match.

Every function returns a new state and the effects to show; the input state is never changed.
Actions reaching here were checked legal by games.zop.rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Effect, Step, Text, evolve
from games.zop import rules_apart, rules_supply
from games.zop.pieces import Ability, Deck, short_label
from games.zop.rules_reveal import resolve
from games.zop.state import (
    BELLE,
    COMMIT,
    CONFIRM,
    DRAW,
    EXCHANGE,
    GIVE,
    MANCHE,
    OVER,
    REVANCHE,
    ROUND_END,
    TAKE,
    TRACKED,
    ExchangeStep,
    RoundResult,
    Swap,
    TurnRecord,
    ZopState,
    other,
    with_side,
)
from games.zop.texts import MESSAGES, ROUNDS, SILENT


def _to(seat: int) -> frozenset[int]:
    return frozenset({seat})


# -- set-up and turns ----------------------------------------------------------------------------


def initial_state(deck: Deck, mode: str, apart: bool = False) -> ZopState:
    """The first turn of the first round (manche), piles shuffled when tracked; `apart`: the players
    sit at two tables."""
    sides = (rules_supply.new_side(deck, mode, 0), rules_supply.new_side(deck, mode, 1))
    return start_turn(deck, ZopState(mode=mode, round_no=1, label=MANCHE, turn=1, phase=COMMIT, sides=sides,
                                     apart=apart))


def start_turn(deck: Deck, state: ZopState) -> ZopState:
    """Draw the hands (tracked) and open the hidden commit, or wait for chance draws."""
    if state.mode != TRACKED:
        return evolve(state, phase=COMMIT)
    sides = (rules_supply.refill(deck, state.sides[0]), rules_supply.refill(deck, state.sides[1]))
    needs = any(rules_supply.needs_draw(deck, s) for s in sides)
    return evolve(state, sides=sides, phase=DRAW if needs else COMMIT)


def draw(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """A chance draw from the shuffled first pass of a seat's pile."""
    side = rules_supply.refill(deck, rules_supply.draw(state.sides[seat], card))
    return Step(start_turn(deck, with_side(state, seat, side)))


# -- the hidden commit ---------------------------------------------------------------------------


def lay(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """A card laid face down on the seat's pad; the reveal follows when both seats are done."""
    side = state.sides[seat]
    state = with_side(state, seat, evolve(side, laid=side.laid + (card,)))
    # no banner text: both screens already say it ("Posée : Att 4", "Adv : a posé"); the opponent
    # sees a card arrive on the pad anyway: it learns that, never which card
    effects: list[Effect] = [
        Effect("laid", SILENT, _to(seat), {"card": card}),
        Effect("opponent_laid", SILENT, _to(other(seat)), {"seat": seat}),
    ]
    if all(len(state.sides[s].laid) >= rules_supply.required(deck, state, s) for s in (0, 1)) \
            and not rules_supply.opening(deck, state):  # a placeholder: the reveal waits for its card
        step = reveal(deck, state)
        return Step(step.state, tuple(effects) + step.effects)
    return Step(state, tuple(effects))


def open_card(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """Across tables: the first placeholder on the seat's pad becomes the card laid there (checked
    against its commitment); the reveal follows once no placeholder is left."""
    side = state.sides[seat]
    at = side.laid.index(rules_supply.sealed(state, seat)[0])
    state = with_side(state, seat, evolve(side, laid=side.laid[:at] + (card,) + side.laid[at + 1:]))
    if all(len(state.sides[s].laid) >= rules_supply.required(deck, state, s) for s in (0, 1)) \
            and not rules_supply.opening(deck, state):
        return reveal(deck, state)
    return Step(state)


def withdraw(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """The last card laid taken back before the reveal."""
    side = state.sides[seat]
    state = with_side(state, seat, evolve(side, laid=side.laid[:-1]))
    return Step(state, (
        Effect("withdrawn", SILENT, _to(seat), {"card": card}),
        Effect("opponent_withdrew", SILENT, _to(other(seat)), {"seat": seat}),
    ))


# -- the reveal ----------------------------------------------------------------------------------


def _reveal_text(deck: Deck, record: TurnRecord, seat: int) -> Text:
    mine, theirs = short_label(deck, record.cards[seat]), short_label(deck, record.cards[other(seat)])
    p, q = record.points[seat], record.points[other(seat)]
    return MESSAGES("reveal", mine=mine, theirs=theirs, p=p, q=q)


def reveal(deck: Deck, state: ZopState) -> Step[ZopState]:
    """Both seats' cards shown together and scored; then exchanges, or the next turn."""
    laid = (state.sides[0].laid, state.sides[1].laid)
    res = resolve(deck, laid, (state.sides[0].pending, state.sides[1].pending))
    record = TurnRecord(state.turn, laid, res.cancelled, res.points, res.notes)
    sides = tuple(
        evolve(side, hand=tuple(c for c in side.hand if c not in side.laid), laid=(),
                line=side.line + side.laid, points=side.points + res.points[s], pending=res.pending[s])
        for s, side in enumerate(state.sides))
    revealed = set(laid[0]) | set(laid[1])
    state = evolve(state, sides=(sides[0], sides[1]), turns=state.turns + (record,),
                    exposed=tuple(c for c in state.exposed if c not in revealed),
                    exchange_queue=res.exchanges)
    data: dict[str, Any] = {"turn": record.turn, "cards": [list(c) for c in laid],
                            "points": list(res.points), "cancelled": [list(c) for c in res.cancelled],
                            "notes": list(res.notes)}
    effects = tuple(Effect("reveal", _reveal_text(deck, record, s), _to(s), data) for s in (0, 1))
    step = next_exchange(deck, state)
    return Step(step.state, effects + step.effects)


# -- blind exchanges -----------------------------------------------------------------------------


def ability_of(deck: Deck, card: str) -> Ability:
    """The effect parameters of the Échange card being resolved."""
    ability = deck.card(card).ability
    assert ability is not None and ability.kind == "blind_exchange", card
    return ability


def takeable(deck: Deck, state: ZopState, step: ExchangeStep) -> tuple[str, ...]:
    """Tracked: the victim's remaining hand cards the taker may draw (refused kinds excluded)."""
    refuse = ability_of(deck, step.card).refuse
    return tuple(c for c in state.sides[other(step.taker)].hand if deck.card(c).kind not in refuse)


def giveable(deck: Deck, state: ZopState, step: ExchangeStep) -> tuple[str, ...]:
    """Tracked: the taker's own remaining cards it may give back (not the card just taken)."""
    refuse = ability_of(deck, step.card).refuse
    return tuple(c for c in state.sides[step.taker].hand
                 if c != step.taken and deck.card(c).kind not in refuse)


def next_exchange(deck: Deck, state: ZopState) -> Step[ZopState]:
    """Start the next blind exchange waiting, skipping impossible ones; end the turn after."""
    effects: list[Effect] = []
    queue = state.exchange_queue
    while queue:
        (taker, card), queue = queue[0], queue[1:]
        if state.apart and state.mode == TRACKED:  # the table would deal hands at two tables: never played
            effects.append(Effect("exchange_void", MESSAGES("exchange_apart"), None, {"taker": taker}))
            continue
        step = ExchangeStep(taker, card, TAKE if state.mode == TRACKED else CONFIRM)
        if state.apart:  # the cards stay at their tables (rules_apart.py)
            opened = rules_apart.opening(deck, state, taker, card)
            if opened is None:
                effects.append(Effect("exchange_void", MESSAGES("exchange_void"), None, {"taker": taker}))
                continue
            step = opened
        elif state.mode == TRACKED:
            gift = ability_of(deck, card).give == "choice"
            probe = evolve(state, exchange=step)
            if not takeable(deck, probe, step) or (gift and not giveable(deck, probe, step)):
                effects.append(Effect("exchange_void", MESSAGES("exchange_void"), None,
                                      {"taker": taker}))
                continue
        state = evolve(state, phase=EXCHANGE, exchange=step, exchange_queue=queue)
        # the guidance is on both screens for as long as the exchange lasts: no banner over it
        effects.append(Effect("exchange", SILENT, None, {"taker": taker}))
        return Step(state, tuple(effects))
    ended = end_turn(deck, evolve(state, exchange=None, exchange_queue=()))
    return Step(ended.state, tuple(effects) + ended.effects)


def _move(state: ZopState, giver: int, card: str) -> ZopState:
    """A card moved from one seat's hand to the other's (tracked)."""
    src, dst = state.sides[giver], state.sides[other(giver)]
    state = with_side(state, giver, evolve(src, hand=tuple(c for c in src.hand if c != card)))
    return with_side(state, other(giver), evolve(dst, hand=dst.hand + (card,)))


def swap_counts(state: ZopState, taker: int, gift: bool) -> ZopState:
    """The cards each seat received and gave, after an exchange."""
    t, v = state.sides[taker], state.sides[other(taker)]
    back = 1 if gift else 0
    state = with_side(state, taker, evolve(t, received=t.received + 1, given=t.given + back))
    return with_side(state, other(taker), evolve(v, given=v.given + 1, received=v.received + back))


def _expose(exposed: tuple[str, ...], card: str) -> tuple[str, ...]:
    return exposed if card in exposed else exposed + (card,)


def finish_exchange(deck: Deck, state: ZopState, swap: Swap) -> Step[ZopState]:
    """The exchange recorded; the next one, or the end of the turn."""
    state = evolve(state, swaps=state.swaps + (swap,), exchange=None)
    return next_exchange(deck, state)


def blind_take(deck: Deck, state: ZopState, card: str) -> Step[ZopState]:
    """Tracked: the chance draw of the exchange; both players see which card changes hands."""
    step = state.exchange
    assert step is not None
    taker = step.taker
    state = _move(state, other(taker), card)
    state = evolve(state, exposed=_expose(state.exposed, card))
    label = short_label(deck, (card,))
    effect = Effect("exchange_take", MESSAGES("exchange_take", card=label),
                    frozenset({0, 1}), {"taker": taker, "card": card})
    if ability_of(deck, step.card).give == "choice":
        return Step(evolve(state, exchange=evolve(step, stage=GIVE, taken=card)), (effect,))
    state = swap_counts(state, taker, gift=False)
    done = finish_exchange(deck, state, Swap(state.turn, taker, card, None))
    return Step(done.state, (effect,) + done.effects)


def give(deck: Deck, state: ZopState, seat: int, card: str) -> Step[ZopState]:
    """Tracked: the taker gives a card of its choice back."""
    step = state.exchange
    assert step is not None
    state = _move(state, seat, card)
    state = swap_counts(evolve(state, exposed=_expose(state.exposed, card)), seat, gift=True)
    label = short_label(deck, (card,))
    effect = Effect("exchange_give", MESSAGES("exchange_give", card=label),
                    frozenset({0, 1}), {"taker": seat, "card": card})
    done = finish_exchange(deck, state, Swap(state.turn, seat, step.taken, card))
    return Step(done.state, (effect,) + done.effects)


def confirm_exchange(deck: Deck, state: ZopState, seat: int, done: bool) -> Step[ZopState]:
    """Sensed: the taker says the physical exchange was made (or that it was not possible)."""
    step = state.exchange
    assert step is not None
    if not done:
        nothing = Effect("exchange_void", MESSAGES("no_swap"), None, {"taker": seat})
        after = next_exchange(deck, evolve(state, exchange=None))
        return Step(after.state, (nothing,) + after.effects)
    gift = ability_of(deck, step.card).give == "choice"
    state = swap_counts(state, seat, gift)
    return finish_exchange(deck, state, Swap(state.turn, seat, None, None))


# -- end of turn, round and match ---------------------------------------------------------------


def end_turn(deck: Deck, state: ZopState) -> Step[ZopState]:
    """Unplayed cards to the discard; the next turn, or the end of the round."""
    if state.mode == TRACKED:
        sides = (rules_supply.discard_hand(state.sides[0]), rules_supply.discard_hand(state.sides[1]))
        state = evolve(state, sides=sides)
    if all(rules_supply.out_of_cards(deck, state, s) for s in (0, 1)):
        return end_round(state)
    return Step(start_turn(deck, evolve(state, turn=state.turn + 1)))


def next_label(results: tuple[RoundResult, ...]) -> str | None:
    """The next round of the match, None when it is decided (best of three)."""
    last = results[-1]
    if last.label == BELLE:
        return None if last.winner is not None else BELLE  # a tied decider is played again
    if last.label == MANCHE:
        return REVANCHE if last.winner is not None else BELLE  # a tie goes straight to the decider
    return None if last.winner is not None and last.winner == results[0].winner else BELLE


def round_text(result: RoundResult, seat: int) -> Text:
    """"Manche : 23 à 18" from a seat's side."""
    return MESSAGES("round_end", name=ROUNDS[result.label], p=result.points[seat], q=result.points[other(seat)])


def end_round(state: ZopState) -> Step[ZopState]:
    """The count of the round; the next round of the match, or its end."""
    pts = (state.sides[0].points, state.sides[1].points)
    winner = None if pts[0] == pts[1] else (0 if pts[0] > pts[1] else 1)
    result = RoundResult(state.label, pts, winner, (len(state.sides[0].line), len(state.sides[1].line)))
    results = state.results + (result,)
    upcoming = next_label(results)
    data: dict[str, Any] = {"label": result.label, "points": list(pts), "winner": winner,
                            "turns": [list(t.points) for t in state.turns]}
    effects = [Effect("round_end", round_text(result, s), _to(s), data) for s in (0, 1)]
    if upcoming is None:
        champion = results[-1].winner
        effects += [Effect("match_end", MESSAGES("match_won") if s == champion else MESSAGES("match_lost"),
                           _to(s), {"winner": champion}) for s in (0, 1)]
        return Step(evolve(state, results=results, phase=OVER), tuple(effects))
    return Step(evolve(state, results=results, phase=ROUND_END, review=(1, 1)), tuple(effects))


def next_round(deck: Deck, state: ZopState) -> Step[ZopState]:
    """The next round: every card back to its own deck, decks shuffled, points from zero."""
    label = next_label(state.results)
    assert label is not None
    sides = (rules_supply.new_side(deck, state.mode, 0), rules_supply.new_side(deck, state.mode, 1))
    fresh = evolve(state, round_no=state.round_no + 1, label=label, turn=1, sides=sides, turns=(),
                    exchange=None, exchange_queue=(), swaps=(), exposed=(), review=(1, 1))
    effect = Effect("new_round", MESSAGES("new_round", name=ROUNDS[label]), None, {"label": label})
    return Step(start_turn(deck, fresh), (effect,))


def set_review(state: ZopState, seat: int, turn: int) -> Step[ZopState]:
    """A seat reads another turn of the round's count."""
    review = (turn, state.review[1]) if seat == 0 else (state.review[0], turn)
    return Step(evolve(state, review=review))


def transition(deck: Deck, state: ZopState, seat: int, action: Mapping[str, Any]) -> Step[ZopState]:
    """Dispatch a checked action to its transition."""
    kind = action["type"]
    if kind == "draw":
        return draw(deck, state, action["seat"], action["card"])
    if kind == "blind_take":
        return blind_take(deck, state, action["card"])
    if kind == "commit":
        return lay(deck, state, seat, action["card"])
    if kind == "withdraw":
        return withdraw(deck, state, seat, action["card"])
    if kind == "open":
        return open_card(deck, state, seat, action["card"])
    if kind == "give":
        return give(deck, state, seat, action["card"])
    if kind in ("exchange_done", "exchange_skip"):
        return confirm_exchange(deck, state, seat, kind == "exchange_done")
    if kind == "review":
        return set_review(state, seat, action["turn"])
    if kind == "next_round":
        return next_round(deck, state)
    raise AssertionError(f"unchecked action {kind!r}")
