"""Scoring: N own-nationality cards in hand, + N per correct identification, + 3 for the ender."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Effect, Outcome, to_json
from games.spywhere.pieces import ENDER_BONUS, nat_of
from games.spywhere.state import OVER, SpyState, own_nats
from games.spywhere.texts import MESSAGES
from games.texts import join, seat_label


@dataclass(frozen=True)
class SeatResult:
    """One player's revealed secrets and score breakdown."""

    seat: int
    passports: tuple[str, ...]  # nationality ids
    hand: tuple[str, ...]  # card piece ids
    own_cards: int  # N: hand cards of the player's own nationality (either one with 2 passports)
    guesses: tuple[tuple[int, str, bool], ...]  # (target, nationality, correct)
    correct: int
    bonus: int
    score: int


def seat_result(state: SpyState, seat: int) -> SeatResult:
    """The score breakdown of `seat` for the state as it stands."""
    own = own_nats(state, seat)
    n = sum(nat_of(c) in own for c in state.hands[seat])
    guesses = tuple((t, g, g in own_nats(state, t)) for t, g in state.guesses[seat])
    correct = sum(ok for _, _, ok in guesses)
    bonus = ENDER_BONUS if state.ender == seat else 0
    return SeatResult(seat, tuple(sorted(nat_of(p) for p in state.passports[seat])), state.hands[seat],
                      n, guesses, correct, bonus, n + n * correct + bonus)


def results(state: SpyState) -> tuple[SeatResult, ...]:
    """Every seat's breakdown."""
    return tuple(seat_result(state, s) for s in range(state.players))


def winners(res: tuple[SeatResult, ...]) -> tuple[int, ...]:
    """Seats with the highest score (all of them on a tie: the rulebook names no tie-break)."""
    best = max(r.score for r in res)
    return tuple(r.seat for r in res if r.score == best)


def outcome(state: SpyState) -> Outcome | None:
    """Scores and winners once the game is over."""
    if state.phase != OVER:
        return None
    res = results(state)
    return Outcome(tuple(float(r.score) for r in res), winners(res),
                   {"seats": [to_json(r) for r in res], "ender": state.ender})


def reveal_effect(state: SpyState) -> Effect:
    """The final reveal, for every seat: passports, identifications, scores."""
    res = results(state)
    best = winners(res)
    return Effect("reveal", MESSAGES("winners", seats=join((seat_label(s) for s in best), ", ")),
                  data={"seats": [to_json(r) for r in res], "winners": list(best)})
