"""Spywhere's immutable game state and the small queries every rule module shares."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final, TypeVar

from games.spywhere.pieces import CENTRE_SLOTS, IDENTIFY_FROM_ROUND, TRIPLE, TWO_PLAYER_FIRST_ROUND, nat_of, passport

# Phases.
SETUP: Final = "setup"  # chance deals: removed nationality, passports, hands, centre
PLAY: Final = "play"  # turns
FINAL: Final = "final"  # the end was triggered: remaining identifications, all at once
OVER: Final = "over"

# Steps of a turn (phase PLAY).
DRAW: Final = "draw"  # chance: the active player draws one card (scanned on their pad)
SWAP: Final = "swap"  # the active player swaps a hand card with a centre card (sensed)
TAKE: Final = "take"  # a triple lies in the centre: take it (if allowed) or leave it
BONUS: Final = "bonus"  # chance: the bonus card after a take
REFILL: Final = "refill"  # chance: cards laid from the pile on the empty centre slots
IDENTIFY: Final = "identify"  # optionally one identification, then the turn ends

T = TypeVar("T")


@dataclass(frozen=True)
class SpyState:
    """Everything the table knows, secrets included. Card ids are piece ids.

    Unordered collections (hands, pile, clue piles) are kept sorted so equal games are equal.
    """

    players: int
    retriple: bool  # optional rule: a triple made by the refill is shuffled back and redrawn
    first: int  # seat of the first player
    removal_pending: bool  # the first player must still choose the removed nationality
    removed: str | None  # the nationality put back in the box (≤ 4 players)
    nationalities: tuple[str, ...]  # nationalities in play (empty while the removal is pending)
    passports: tuple[tuple[str, ...], ...]  # per seat, passport piece ids
    hands: tuple[tuple[str, ...], ...]  # per seat, nationality cards in hand
    centre: tuple[str | None, ...]  # slot 1..5 (index 0..4): the face-up card or None
    pile: tuple[str, ...]  # the draw pile (its order is chance's business)
    clues: tuple[tuple[str, ...], ...]  # per seat, taken triples, face up
    guesses: tuple[tuple[tuple[int, str], ...], ...]  # per seat, (target, nationality) in order
    phase: str = SETUP
    step: str = ""
    active: int = 0
    turn: int = 0  # 0-based index of the current turn since the first player's first turn
    refilled: tuple[int, ...] = ()  # slots (1-based) refilled since this turn's take
    ender: int | None = None  # seat who ended the game by identifying every opponent
    finished: tuple[int, ...] = ()  # final phase: seats with nothing more to identify
    last_swap: tuple[int, int, str, str] | None = None  # seat, slot, card laid, card lifted
    identify_from: str = IDENTIFY_FROM_ROUND  # 2 players: how "le 5e tour de jeu" is read (option)
    swaps: tuple[tuple[int, str, str], ...] = ()  # every swap, face up for all: seat, nationality laid, lifted
    left: tuple[tuple[int, tuple[str, ...]], ...] = ()  # every "leave": seat, nationalities of the triples left


def put(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """A copy of `items` with index `i` replaced by `value`."""
    return items[:i] + (value,) + items[i + 1:]


def without(cards: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    """`cards` minus one copy of each of `gone` (piece ids are unique)."""
    out = list(cards)
    for card in gone:
        out.remove(card)
    return tuple(out)


def passports_per_seat(state: SpyState) -> int:
    """Two passports each with 2 players, one otherwise."""
    return 2 if state.players == 2 else 1


def own_nats(state: SpyState, seat: int) -> frozenset[str]:
    """The nationalities of `seat`'s passports."""
    return frozenset(nat_of(p) for p in state.passports[seat])


def undealt_passports(state: SpyState) -> tuple[str, ...]:
    """Passports of the nationalities in play not yet dealt."""
    dealt = {p for ps in state.passports for p in ps}
    return tuple(passport(n) for n in state.nationalities if passport(n) not in dealt)


def centre_counts(centre: tuple[str | None, ...]) -> Counter[str]:
    """How many centre cards of each nationality."""
    return Counter(nat_of(c) for c in centre if c is not None)


def triple_nats(centre: tuple[str | None, ...]) -> list[str]:
    """Nationalities with at least three cards in the centre."""
    counts: dict[str, int] = {}  # a plain count: asked at every move, where a Counter costs most of it
    for card in centre:
        if card is not None:
            nat = nat_of(card)
            counts[nat] = counts.get(nat, 0) + 1
    return sorted(n for n, k in counts.items() if k >= TRIPLE)


def empty_slots(state: SpyState) -> list[int]:
    """Empty centre slots, 1-based."""
    return [i + 1 for i, c in enumerate(state.centre) if c is None]


def round_number(state: SpyState) -> int:
    """The 1-based round: each player plays once per round."""
    return state.turn // state.players + 1


def required_guesses(state: SpyState) -> int:
    """Identifications a player makes on all opponents (both nationalities each with 2 players)."""
    return (state.players - 1) * passports_per_seat(state)


def used_nats(state: SpyState, seat: int) -> frozenset[str]:
    """Identification cards `seat` has already placed (one card per nationality)."""
    return frozenset(n for _, n in state.guesses[seat])


def open_targets(state: SpyState, seat: int) -> list[int]:
    """Opponents `seat` may still place an identification card on."""
    per = passports_per_seat(state)
    placed: dict[int, int] = {}  # a plain count, as in triple_nats
    for target, _ in state.guesses[seat]:
        placed[target] = placed.get(target, 0) + 1
    return [t for t in range(state.players) if t != seat and placed.get(t, 0) < per]


def free_cards(state: SpyState, seat: int) -> list[str]:
    """Nationalities whose identification card `seat` still holds (removed one excluded)."""
    used = used_nats(state, seat)
    return [n for n in state.nationalities if n not in used]


def first_identification_turn(state: SpyState) -> int:
    """The 0-based turn from which identifications are allowed (0 but with 2 players).

    « Aucune tentative d'identification ne pourra être faite avant le 5e tour de jeu »: the 5th
    round (turn index 8 with 2 players) or the 5th turn of play (index 4), per `identify_from`.
    """
    if state.players != 2:
        return 0
    if state.identify_from == IDENTIFY_FROM_ROUND:
        return (TWO_PLAYER_FIRST_ROUND - 1) * state.players
    return TWO_PLAYER_FIRST_ROUND - 1


def too_early_to_identify(state: SpyState) -> bool:
    """Whether the current turn comes before the 2-player game's 5th « tour de jeu »."""
    return state.turn < first_identification_turn(state)


def may_identify_in_turn(state: SpyState) -> bool:
    """Whether the active player's turn has an identification step (2 players: from the 5th « tour »)."""
    if too_early_to_identify(state):
        return False
    return bool(open_targets(state, state.active)) and bool(free_cards(state, state.active))


def empty_centre() -> tuple[None, ...]:
    """The centre before the deal."""
    return (None,) * CENTRE_SLOTS
