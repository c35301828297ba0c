"""States that differ only in what one seat may not know (for the hidden-information tests)."""

from __future__ import annotations

from collections.abc import Iterator

from games.core import evolve
from games.mata_hari.state import COMPOSING, OVER, MHState, with_seat


def _swap(state: MHState, x: str, y: str) -> MHState:
    """The state with cards x and y exchanged wherever they are hidden (hands, offers, pile)."""
    def ren(c: str) -> str:
        return y if c == x else x if c == y else c

    seats = tuple(evolve(s, hand=tuple(sorted(map(ren, s.hand))), offer=tuple(map(ren, s.offer)))
                  for s in state.seats)
    return evolve(state, seats=seats, pile=tuple(sorted(map(ren, state.pile))))


def hidden_variants(state: MHState, seat: int) -> Iterator[MHState]:
    """Permute other seats' hidden cards, offers and objectives with each other and the pile."""
    if state.phase == OVER:
        return  # scoring is face up: nothing is hidden any more
    me = state.seats[seat]
    physical = {c for s in state.seats for c in s.loose}  # lying on a pad: kept where they are
    seen = {c for x in state.seen if x.viewer == seat for c in x.cards}
    fixed = physical | seen | set(me.hand)
    pile = [] if me.picks else [c for c in state.pile if c not in fixed]
    others = [j for j in range(state.players) if j != seat]
    hidden = {j: [c for c in (*state.seats[j].offer, *state.seats[j].hand) if c not in fixed]
              for j in others}
    for idx, j in enumerate(others):
        cards = list(dict.fromkeys(hidden[j]))  # offer cards first
        nxt = others[(idx + 1) % len(others)]
        other = [c for c in hidden[nxt] if c not in cards] if nxt != j else []
        for n, card in enumerate(cards):  # every hidden card of every other seat
            if pile:
                yield _swap(state, card, pile[n % len(pile)])
            if other:
                yield _swap(state, card, other[n % len(other)])
        s = state.seats[j]
        if s.objective is not None and s.objective not in physical:
            o2 = state.seats[nxt].objective
            if nxt != j and o2 is not None and o2 != s.objective and o2 not in physical:
                st = with_seat(state, j, objective=o2)
                yield with_seat(st, nxt, objective=s.objective)
            elif state.objectives:
                spare = state.objectives[0]
                st = evolve(state, objectives=tuple(sorted((*state.objectives[1:], s.objective))))
                yield with_seat(st, j, objective=spare)
        if s.draft is not None:
            yield with_seat(state, j, draft=None)
        if s.status == COMPOSING and s.statements:
            yield with_seat(state, j, statements=s.statements[:-1])
