"""A compact copy of Spywhere's rules for the computer player's playouts: counts per nationality.

Which card of a nationality lies where never changes the game, so the model keeps counts: per
hand, in the centre, in the pile. It plays the chance events itself (draws, bonus card, refill,
the optional re-triple) and stops at nothing: playouts run to the final scores.

It must follow games/spywhere/turns.py: tests/games/spywhere/test_ai.py replays thousands of real
turns through both and compares them. A rule changed there must be changed here too.
"""

from __future__ import annotations

import random
from typing import Final, Literal

from games.spywhere.pieces import CENTRE_SLOTS, ENDER_BONUS, TRIPLE, TWO_PLAYER_FIRST_ROUND, nat_of
from games.spywhere.state import DRAW, FINAL, IDENTIFY, OVER, PLAY, SWAP, TAKE, SpyState, passports_per_seat

# steps and phases as small integers
S_DRAW, S_SWAP, S_TAKE, S_IDENTIFY, S_FINAL, S_OVER = range(6)
STEPS: Final = {DRAW: S_DRAW, SWAP: S_SWAP, TAKE: S_TAKE, IDENTIFY: S_IDENTIFY}

# Moves: ("s", give, lift) swap, ("t", nat) take a triple, ("l",) leave it, ("i", target, nat)
# identify, ("e",) end the turn, ("d",) done (final identifications). Nationalities are indices.
Move = tuple[Literal["s", "i"], int, int] | tuple[Literal["t"], int] | tuple[Literal["l", "e", "d"]]


_NAT: dict[str, str] = {}  # card -> nationality (nat_of), for the few hundred cards of the game


class SpyModel:
    """A position during play (phases PLAY, FINAL, OVER). Mutable: `copy` before trying."""

    __slots__ = ("players", "k", "per", "required", "retriple", "id_order", "hands", "centre", "pile",
                 "pile_n", "passports", "own", "clue_mask", "guesses", "used", "placed", "step", "active",
                 "turn", "ender", "finished")

    players: int
    k: int  # nationalities in play, by index
    per: int  # passports per seat
    required: int  # identifications that end the game
    retriple: bool
    id_order: list[int]  # each nationality's rank by id (the re-triple takes the first)
    hands: list[list[int]]  # per seat, cards per nationality
    centre: list[int]
    pile: list[int]
    pile_n: int
    passports: tuple[tuple[int, ...], ...]
    own: tuple[frozenset[int], ...]
    clue_mask: list[int]  # per seat, a bit per nationality of its clue pile
    guesses: list[list[tuple[int, int]]]  # per seat, (target, nationality)
    used: list[int]  # per seat, a bit per identification card played
    placed: list[list[int]]  # per seat, identifications placed on each target
    step: int
    active: int
    turn: int
    ender: int
    finished: list[bool]

    def copy(self) -> SpyModel:
        """An independent copy."""
        m = SpyModel.__new__(SpyModel)
        m.players, m.k, m.per, m.required = self.players, self.k, self.per, self.required
        m.retriple, m.id_order = self.retriple, self.id_order
        m.hands = [h[:] for h in self.hands]
        m.centre = self.centre[:]
        m.pile = self.pile[:]
        m.pile_n = self.pile_n
        m.passports, m.own = self.passports, self.own
        m.clue_mask = self.clue_mask[:]
        m.guesses = [g[:] for g in self.guesses]
        m.used = self.used[:]
        m.placed = [p[:] for p in self.placed]
        m.step, m.active, m.turn, m.ender = self.step, self.active, self.turn, self.ender
        m.finished = self.finished[:]
        return m

    # -- queries -------------------------------------------------------------------------------
    def round(self) -> int:
        """The 1-based round (each player plays once per round)."""
        return self.turn // self.players + 1

    def open_targets(self, seat: int) -> list[int]:
        """Opponents `seat` may still identify."""
        placed = self.placed[seat]
        return [t for t in range(self.players) if t != seat and placed[t] < self.per]

    def free_nats(self, seat: int) -> list[int]:
        """Nationalities whose identification card `seat` still holds."""
        used = self.used[seat]
        return [n for n in range(self.k) if not used >> n & 1]

    def may_identify(self) -> bool:
        """Whether the active player's turn has an identification step."""
        if self.players == 2 and self.round() < TWO_PLAYER_FIRST_ROUND:
            return False
        return bool(self.open_targets(self.active)) and bool(self.free_nats(self.active))

    def triples(self) -> list[int]:
        """Nationalities with at least three cards in the centre."""
        return [n for n in range(self.k) if self.centre[n] >= TRIPLE]

    def to_act(self) -> list[int]:
        """Seats with a decision now (the unfinished ones in the final phase)."""
        if self.step == S_FINAL:
            return [s for s in range(self.players) if not self.finished[s]]
        if self.step == S_OVER:
            return []
        return [self.active]

    def moves(self, seat: int) -> list[Move]:
        """Every move of `seat` now (chance steps are played by `advance`)."""
        step = self.step
        if step == S_SWAP:
            hand, centre = self.hands[seat], self.centre
            gives = [n for n in range(self.k) if hand[n]]
            lifts = [n for n in range(self.k) if centre[n]]
            return [("s", g, f) for g in gives for f in lifts]
        if step == S_TAKE:
            return [*(("t", n) for n in self.triples() if n not in self.own[seat]), ("l",)]
        if step == S_IDENTIFY or step == S_FINAL:
            out: list[Move] = [("e",) if step == S_IDENTIFY else ("d",)]
            out += [("i", t, n) for t in self.open_targets(seat) for n in self.free_nats(seat)]
            return out
        return []

    # -- chance ------------------------------------------------------------------------------
    def _draw(self, rng: random.Random) -> int:
        r = int(rng.random() * self.pile_n)
        pile = self.pile
        n = 0
        while r >= pile[n]:
            r -= pile[n]
            n += 1
        pile[n] -= 1
        self.pile_n -= 1
        return n

    def advance(self, rng: random.Random) -> None:
        """Play the chance step (the active player's draw) if it is one."""
        if self.step == S_DRAW:
            self.hands[self.active][self._draw(rng)] += 1
            self.step = S_SWAP

    # -- moves ---------------------------------------------------------------------------------
    def play(self, seat: int, move: Move, rng: random.Random) -> None:
        """Apply a legal move of `seat`, then any chance step that follows."""
        # move[0] tested each time (not a local): mypy narrows the tuple's type on it
        if move[0] == "s":
            _, give, lift = move
            hand, centre = self.hands[seat], self.centre
            hand[give] -= 1
            hand[lift] += 1
            centre[give] += 1
            centre[lift] -= 1
            if self.triples():
                self.step = S_TAKE
            else:
                self._after_take()
        elif move[0] == "t":
            self._take(seat, move[1], rng)
        elif move[0] == "l":
            self._after_take()
        elif move[0] == "i":
            _, target, nat = move
            self.guesses[seat].append((target, nat))
            self.used[seat] |= 1 << nat
            self.placed[seat][target] += 1
            if self.step == S_IDENTIFY:
                self._end_turn()
            elif not self.open_targets(seat) or not self.free_nats(seat):
                self._finish(seat)
        elif move[0] == "e":
            self._end_turn()
        elif move[0] == "d":
            self._finish(seat)
        else:
            raise ValueError(f"unknown model move {move!r}")
        self.advance(rng)

    def _take(self, seat: int, nat: int, rng: random.Random) -> None:
        self.centre[nat] -= TRIPLE
        self.clue_mask[seat] |= 1 << nat
        if not self.pile_n:
            self._after_take()
            return
        self.hands[seat][self._draw(rng)] += 1  # the bonus card
        self._refill(rng)

    def _refill(self, rng: random.Random) -> None:
        """Fill the empty centre slots from the pile; the optional re-triple rule."""
        while True:
            while sum(self.centre) < CENTRE_SLOTS and self.pile_n:
                self.centre[self._draw(rng)] += 1
            triples = self.triples()
            if not self.retriple or not triples:
                break
            nat = min(triples, key=self.id_order.__getitem__)  # turns.py: the first by id
            centre = self.centre[:]
            centre[nat] -= TRIPLE
            pile = self.pile[:]
            pile[nat] += TRIPLE
            # the same guard as turns.redraw_can_avoid_triple: stop when a triple is unavoidable
            empty = min(CENTRE_SLOTS - sum(centre), self.pile_n + TRIPLE)
            room = sum(min(pile[n], max(0, TRIPLE - 1 - centre[n])) for n in range(self.k))
            if room < empty:
                break
            self.centre, self.pile = centre, pile
            self.pile_n += TRIPLE
        self._after_take()

    def _after_take(self) -> None:
        if self.may_identify():
            self.step = S_IDENTIFY
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        seat = self.active
        if len(self.guesses[seat]) >= self.required:
            self.ender = seat
            self._enter_final()
        elif not self.pile_n:
            self._enter_final()
        else:
            self.active = (seat + 1) % self.players
            self.turn += 1
            self.step = S_DRAW

    def _enter_final(self) -> None:
        self.step = S_FINAL
        for s in range(self.players):
            if not self.open_targets(s) or not self.free_nats(s):
                self.finished[s] = True
        if all(self.finished):
            self.step = S_OVER

    def _finish(self, seat: int) -> None:
        self.finished[seat] = True
        if all(self.finished):
            self.step = S_OVER

    # -- scores --------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Each seat's score as it stands (scoring.seat_result)."""
        out = []
        for s in range(self.players):
            hand = self.hands[s]
            n = sum(hand[x] for x in self.passports[s])
            correct = sum(1 for t, g in self.guesses[s] if g in self.own[t])
            out.append(n + n * correct + (ENDER_BONUS if self.ender == s else 0))
        return out


def from_state(state: SpyState) -> SpyModel:
    """The model of a real state in play (PLAY at a player's step, FINAL or OVER)."""
    nats = state.nationalities
    index = {n: i for i, n in enumerate(nats)}
    k = len(nats)

    def counts(cards: tuple[str | None, ...]) -> list[int]:
        out = [0] * k
        for c in cards:
            if c is not None:
                nat = _NAT.get(c)
                if nat is None:
                    nat = _NAT[c] = nat_of(c)
                out[index[nat]] += 1
        return out

    m = SpyModel.__new__(SpyModel)
    m.players, m.k = state.players, k
    m.per = passports_per_seat(state)
    m.required = (state.players - 1) * m.per
    m.retriple = state.retriple
    m.id_order = [sorted(nats).index(n) for n in nats]
    m.hands = [counts(h) for h in state.hands]
    m.centre = counts(state.centre)
    m.pile = counts(state.pile)
    m.pile_n = len(state.pile)
    m.passports = tuple(tuple(index[nat_of(p)] for p in ps) for ps in state.passports)
    m.own = tuple(frozenset(p) for p in m.passports)
    m.clue_mask = [sum(1 << i for i in {index[nat_of(c)] for c in clues}) for clues in state.clues]
    m.guesses = [[(t, index[g]) for t, g in gs] for gs in state.guesses]
    m.used = [sum(1 << index[g] for _, g in gs) for gs in state.guesses]
    m.placed = [[sum(1 for t, _ in gs if t == x) for x in range(state.players)] for gs in state.guesses]
    m.step = S_OVER if state.phase == OVER else S_FINAL if state.phase == FINAL else STEPS[state.step]
    m.active, m.turn = state.active, state.turn
    m.ender = -1 if state.ender is None else state.ender
    m.finished = [s in state.finished for s in range(state.players)]
    assert state.phase in (PLAY, FINAL, OVER)
    return m


def signature(m: SpyModel) -> tuple[object, ...]:
    """What the model holds, for comparing it with a converted real state."""
    return (tuple(map(tuple, m.hands)), tuple(m.centre), tuple(m.pile), m.pile_n, tuple(m.clue_mask),
            tuple(map(tuple, m.guesses)), m.step, m.active, m.turn, m.ender, tuple(m.finished))
