"""Full Spywhere states drawn consistently with one seat's view (determinizations).

A seat sees its own passports, hand and identifications, and everything public: the centre,
every clue pile, who identified whom, the card counts of each hand and of the pile, and the last
swap (which card was laid, which lifted). It does not see the other passports, hands and
identification cards, nor the pile. `sample_state` deals those at random within what the view
proves:

- passports: the nationalities in play that are not the seat's own; nobody holds the passport
  of a nationality in their own clue pile (a player never takes a triple of their nationality);
  each fitting deal drawn as likely as the players' public actions make it
  (games.spywhere.ai_guess.passport_deals: what they laid, lifted and left in the centre);
- hands: the cards nobody has seen, except that the card lifted in the last swap is still in the
  swapper's hand (only their next swap could have given it back);
- identifications: the targets are public; the nationality on each card is any of that player's
  cards, one card per nationality;
- the turn counter and the first player come from the hand sizes (one card drawn per turn).
"""

from __future__ import annotations

import random
from functools import cache

from games.spywhere.ai_guess import Deal, passport_deals
from games.spywhere.pieces import HAND_SIZE, IDENTIFY_FROM_ROUND, TRIPLE, TWO_PLAYER_FIRST_ROUND, deck, passport
from games.spywhere.state import DRAW, OVER, PLAY, SETUP, SpyState
from games.spywhere.views import SpyView

# the cards of a set of nationalities: the same few tuples for every determinization
_deck = cache(deck)


class InconsistentView(ValueError):
    """A view no state can give (e.g. passports that the clue piles rule out)."""


def _passports(view: SpyView, seat: int, rng: random.Random, deals: list[Deal]) -> list[tuple[str, ...]]:
    """Passports for every seat: the seat's own, the others one of `deals`, drawn by its weight."""
    if all(info.passports == 0 for info in view.seats if info.seat != seat):  # before the deal
        return [view.passports if s == seat else () for s in range(view.players)]
    total = sum(w for w, _ in deals)
    if not deals or total <= 0:
        raise InconsistentView("no passports fit the clue piles")
    r = rng.random() * total
    chosen = deals[-1][1]
    for w, held in deals:
        r -= w
        if r < 0:
            chosen = held
            break
    nats = view.nationalities
    # during the deal a seat may hold fewer passports than it will: the first of its share
    out = [tuple(passport(nats[n]) for n in held)[:view.seats[s].passports] for s, held in enumerate(chosen)]
    out[seat] = view.passports
    return out


def _turn_and_first(view: SpyView) -> tuple[int, int]:
    """The 0-based turn counter and the first player, from the cards each hand has drawn."""
    if view.phase == SETUP:
        return 0, (view.waiting[0] if view.removal_pending and view.waiting else 0)
    drawn = sum(max(0, info.hand - HAND_SIZE - len(info.clues) // TRIPLE) for info in view.seats)
    if view.phase == PLAY and view.step != DRAW:
        drawn -= 1  # the active player's card of this turn
    turn_guess = max(0, drawn)
    if view.identify_wait > 0 and view.players == 2:
        # the view counts the turns left before identifications: the turn exactly
        fit = (TWO_PLAYER_FIRST_ROUND - 1) * (view.players if view.identify_from == IDENTIFY_FROM_ROUND else 1)
        turn = fit - view.identify_wait
        return turn, (view.active - turn) % view.players
    first = (view.active - turn_guess) % view.players
    return (view.round - 1) * view.players + (view.active - first) % view.players, first


def sample_state(view: SpyView, seat: int, rng: random.Random) -> SpyState:
    """A full state giving `seat` exactly `view` (see the module docstring)."""
    return sample_with(view, seat, rng, passport_deals(view, seat))


def sample_with(view: SpyView, seat: int, rng: random.Random, deals: list[Deal]) -> SpyState:
    """sample_state with the view's passport deals already weighed (many states of one view)."""
    if view.phase == OVER:
        return _revealed(view, seat)
    all_cards = _deck(view.nationalities)
    seen = set(view.hand) | {c for c in view.centre if c is not None} | {c for i in view.seats for c in i.clues}
    unseen = [c for c in all_cards if c not in seen]
    rng.shuffle(unseen)
    hands: list[tuple[str, ...]] = [() for _ in range(view.players)]
    hands[seat] = view.hand
    if view.last_swap is not None and view.last_swap[0] != seat and view.last_swap[3] in unseen:
        swapper, lifted = view.last_swap[0], view.last_swap[3]
        unseen.remove(lifted)
        hands[swapper] = (lifted,)
    for s in range(view.players):
        if s == seat:
            continue
        missing = view.seats[s].hand - len(hands[s])
        if missing < 0 or missing > len(unseen):
            raise InconsistentView(f"seat {s} holds {view.seats[s].hand} cards, not possible here")
        hands[s] = tuple(sorted(hands[s] + tuple(unseen[:missing])))
        unseen = unseen[missing:]
    if len(unseen) != view.pile:
        raise InconsistentView(f"{len(unseen)} cards left for a pile of {view.pile}")
    passports = _passports(view, seat, rng, deals)
    guesses = []
    for s, info in enumerate(view.seats):
        if s == seat:
            guesses.append(view.guesses)
            continue
        nats = list(view.nationalities)
        rng.shuffle(nats)
        guesses.append(tuple(zip(info.identified, nats)))
    turn, first = _turn_and_first(view)
    return SpyState(
        players=view.players, retriple=view.retriple, identify_from=view.identify_from, first=first, removal_pending=view.removal_pending,
        removed=view.removed, nationalities=view.nationalities, passports=tuple(passports), hands=tuple(hands),
        centre=view.centre, pile=tuple(sorted(unseen)), clues=tuple(i.clues for i in view.seats),
        guesses=tuple(guesses), phase=view.phase, step=view.step, active=view.active, turn=turn,
        refilled=(), ender=view.ender, finished=tuple(s for s, i in enumerate(view.seats) if i.finished),
        last_swap=view.last_swap, swaps=view.swaps, left=view.left)


def _revealed(view: SpyView, seat: int) -> SpyState:
    """The end of the game: everything is revealed, the state is rebuilt exactly (but the pile)."""
    hands = tuple(r.hand for r in view.results)
    seen = {c for h in hands for c in h} | {c for c in view.centre if c is not None} | {
        c for i in view.seats for c in i.clues}
    turn, first = _turn_and_first(view)
    return SpyState(
        players=view.players, retriple=view.retriple, identify_from=view.identify_from, first=first, removal_pending=view.removal_pending,
        removed=view.removed, nationalities=view.nationalities,
        passports=tuple(view.passports if r.seat == seat else tuple(passport(n) for n in r.passports)
                        for r in view.results), hands=hands,
        centre=view.centre, pile=tuple(c for c in deck(view.nationalities) if c not in seen),
        clues=tuple(i.clues for i in view.seats),
        guesses=tuple(tuple((t, g) for t, g, _ in r.guesses) for r in view.results), phase=view.phase,
        step=view.step, active=view.active, turn=turn, ender=view.ender,
        finished=tuple(s for s, i in enumerate(view.seats) if i.finished), last_swap=view.last_swap,
        swaps=view.swaps, left=view.left)

