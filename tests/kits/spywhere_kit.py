"""Builders shared by the Spywhere tests (no tests here): hand-made positions and a patient policy."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.core import Action, Game, GameConfig
from games.spywhere import GAME
from games.spywhere.pieces import card_set, deck, nationality_card, passport
from games.spywhere.state import PLAY, SWAP, SpyState


def card(nat: str, n: int) -> str:
    """A nationality card id."""
    return nationality_card(nat, n)


def cards_of(nat: str, *numbers: int) -> tuple[str, ...]:
    """Several cards of one nationality."""
    return tuple(card(nat, n) for n in numbers)


def make_state(
    players: int = 3,
    nats: tuple[str, ...] = ("france", "allemagne", "angleterre"),
    hands: tuple[tuple[str, ...], ...] | None = None,
    centre: tuple[str | None, ...] | None = None,
    removed: str | None = "belgique",
    pile: tuple[str, ...] | None = None,
    **fields: Any,
) -> SpyState:
    """A position in the middle of a turn (default: seat 0 to swap), pile = every other card.

    `nats` are the passports' nationalities, one per seat (two per seat with 2 players).
    """
    per = 2 if players == 2 else 1
    in_play = tuple(n for n in card_set().ids if n != removed)
    passports = tuple(tuple(passport(n) for n in nats[s * per:(s + 1) * per]) for s in range(players))
    hands = hands if hands is not None else tuple(
        cards_of(in_play[s % len(in_play)], 1, 2, 3) for s in range(players))
    centre = centre if centre is not None else (
        card("espagne", 10), card("italie", 10), card("france", 10), card("allemagne", 10), card("angleterre", 10))
    used = {c for h in hands for c in h} | {c for c in centre if c is not None}
    for clue in fields.get("clues", ()):
        used |= set(clue)
    if pile is None:
        pile = tuple(c for c in deck(in_play) if c not in used)
    state = SpyState(
        players=players, retriple=False, first=0, removal_pending=False, removed=removed,
        nationalities=in_play, passports=passports, hands=tuple(tuple(sorted(h)) for h in hands),
        centre=centre, pile=tuple(sorted(pile)), clues=((),) * players, guesses=((),) * players,
        phase=PLAY, step=SWAP, active=0, turn=0,
    )
    return replace(state, **fields)


def apply_all(game: Game, state: Any, moves: list[tuple[int, Action]]) -> Any:
    """Apply (seat, action) moves in order."""
    for seat, act in moves:
        state = game.apply(state, seat, act).state
    return state


def patient_policy(game: Game, state: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Random play that identifies rarely and takes triples often, so piles run out and refills happen."""
    takes = [a for a in legal if a["type"] == "take"]
    if takes and rng.random() < 0.8:
        return rng.choice(takes)
    quiet = [a for a in legal if a["type"] in ("end_turn", "leave")]
    if quiet and rng.random() < 0.95:
        return quiet[0]
    return rng.choice(legal)


def fresh(players: int = 3, **options: Any) -> SpyState:
    """The initial state of a new game."""
    return GAME.initial_state(GameConfig(players=players, options=options))
