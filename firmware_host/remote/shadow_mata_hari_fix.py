"""Operation: Mata Hari across tables: the renamings of the shadow's hidden cards tried when the rules
contradict a stand-in (shadow_mata_hari.py steps the moves; this module holds the changes it tries).

A change (`Fix`) renames cards wherever they are and may lay other cards of a host seat's hand in its
current offer, by the very moves that laid it. They are tried in a fixed order, each made from the
shadow and what the joining seats are told only: the cards the joining seats are now shown first,
then cards that meet a demand given to the seat that must meet it, then other offers, then any two
hidden cards exchanged, then two pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.remote.shadow import Moves
from games.core import CHANCE, Action, Game, IllegalAction
from games.mata_hari.pieces import card
from games.mata_hari.rules_statements import matches
from games.mata_hari.state import COUNTER, OVER, REQUIRE, MHState, Seen, offer_size, with_seat

OBJECTIVES = "mata-hari/objectives/"
NEEDS = {"mata_hari": "mata-hari", "hitman": "hitman"}  # a move of the active player -> the partner its offer holds

def stand_ins(cards: Iterable[str]) -> list[str]:
    """Stand-ins' order: resources before partners (a partner stand-in would change verdicts), then by name."""
    return sorted(cards, key=lambda c: (card(c).family != "resource", c))


def _relabel_action(action: Action, perm: Mapping[str, str]) -> Action:
    got = action.get("card")
    if isinstance(got, str) and got in perm:
        return {**action, "card": perm[got]}
    return action


def relabel_plan(plan: Moves, perm: Mapping[str, str], hidden: bool) -> Moves:
    """The moves of `plan` relabelled, but for its last when it shows its card (it is the host's own)."""
    return [(s, a if n == len(plan) - 1 and not hidden else _relabel_action(a, perm)) for n, (s, a) in enumerate(plan)]


def _relabel_state(state: MHState, perm: Mapping[str, str]) -> MHState:
    """`state` with its cards renamed by `perm` wherever they are (hands, offers, pads, objectives, pile)."""
    def ren(c: str) -> str:
        return perm.get(c, c)

    def rens(cs: Iterable[str]) -> tuple[str, ...]:
        return tuple(ren(c) for c in cs)

    seats = tuple(replace(s, hand=tuple(sorted(rens(s.hand))), offer=rens(s.offer), loose=rens(s.loose),
                          objective=None if s.objective is None else ren(s.objective)) for s in state.seats)
    seen = tuple(Seen(x.viewer, x.owner, rens(x.cards)) for x in state.seen)
    return replace(state, seats=seats, pile=tuple(sorted(rens(state.pile))),
                   objectives=tuple(sorted(rens(state.objectives))), seen=seen, removed=rens(state.removed))


def _permutation(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """A renaming of cards that makes each first card of `pairs` the second (a pair that contradicts an
    earlier one is left out); the cards whose names were taken get those given up, in order."""
    perm: dict[str, str] = {}
    for x, y in pairs:
        if x != y and x not in perm and y not in perm.values():
            perm[x] = y
    perm.update(zip(sorted(set(perm.values()) - set(perm)), sorted(set(perm) - set(perm.values()))))
    return perm


@dataclass(frozen=True)
class Fix:
    """A change of the shadow: its cards renamed by `perm`, and seat's offer made `offer` (seat None: not)."""

    perm: Mapping[str, str]
    seat: int | None = None
    offer: tuple[str, ...] = ()


NO_FIX = Fix({})

class Relabelling:
    """The changes of the shadow's cards tried, in order (the shadow's own methods: `MHShadow`)."""

    game: Game[Any, Any]
    seats: frozenset[int]
    log: Moves
    states: list[MHState]

    @property
    def state(self) -> MHState:
        """The joining table's state."""
        return self.states[-1]

    _told: Callable[[MHState], tuple[Any, ...]]  # the shadow's method: the joining seats' views of a state

    def _hidden_cards(self, state: MHState) -> set[str]:
        """Cards whose place the joining seats do not know: the host seats' and the pile's."""
        known: set[str] = set(state.removed)
        for j in self.seats:
            s = state.seats[j]
            known |= {*s.hand, *s.loose}
            known |= {c for x in state.seen if x.viewer == j for c in x.cards}
            if s.picks:
                known |= set(state.pile)
        out = set(state.pile)
        for i, s in enumerate(state.seats):
            if i not in self.seats:
                out |= {*s.hand, *s.loose}
        return out - known

    def _shown(self, fix: Fix, plan: Moves, hidden: bool, want: tuple[Any, ...], cycles: bool = True) -> Fix | None:
        """`fix` and then the relabelling that makes the cards the joining seats are shown after the plan
        the ones they see: those they receive, are shown, the pile they pick from (`cycles`: a card of an
        offer coming in by way of one of its kind), every hand at the end (None: the plan is not allowed,
        or nothing more to relabel)."""
        state = self._fixed_state(fix)
        try:
            for s, a in relabel_plan(plan, fix.perm, hidden):
                state = self.game.apply(state, s, a).state  # the stand-in as chosen before: a first guess
        except IllegalAction:
            return None
        mine = self._told(state)
        pairs: list[tuple[str, str]] = []
        for have, got in zip(mine[:len(self.seats)], want[:len(self.seats)]):
            if have.me is not None and got.me is not None:
                pairs += _pairs(have.me.hand, got.me.hand)
                if have.me.pile is not None and got.me.pile is not None:
                    pairs += self._into_pile(state, set(got.me.pile), cycles)
                for x, y in zip(have.me.seen, got.me.seen):
                    if len(x.cards) == len(y.cards):
                        pairs += list(zip(x.cards, y.cards))
        have, got = mine[0], want[0]  # the public part is the same in every joining seat's view
        pairs += _pairs(have.removed, got.removed)
        offered = self._offered() if got.phase == OVER else set()
        for sa, sb in zip(have.seats, got.seats):
            pairs += _pairs(sa.hand or (), sb.hand or (), offered)
            if sa.objective is not None and sb.objective is not None:
                pairs.append((sa.objective, sb.objective))
        then = _permutation(pairs)
        if not then:
            return None
        perm = {c: then.get(fix.perm.get(c, c), fix.perm.get(c, c)) for c in {*fix.perm, *then}}
        return Fix({k: v for k, v in perm.items() if k != v}, fix.seat, tuple(then.get(c, c) for c in fix.offer))

    def _into_pile(self, state: MHState, pile: set[str], cycles: bool) -> list[tuple[str, str]]:
        """Renamings that make the shadow's pile `pile` (shown to a joining seat that picks): a card that
        must come in takes the name of one that must go out; one whose name played a part in an offer
        takes instead the name of a card of its kind a host seat holds that played none, which takes the
        name of the card going out."""
        coming = sorted(pile - set(state.pile), key=_alike)
        going = sorted(set(state.pile) - pile, key=_alike)
        offered = self._offered()
        held = [c for i, s in enumerate(state.seats) if i not in self.seats for c in s.hand
                if c not in offered and c not in pile]
        pairs: list[tuple[str, str]] = []
        for c in coming:
            out = next((g for g in going if _alike(g)[:2] == _alike(c)[:2]), going[0] if going else None)
            if out is None:
                return pairs
            going.remove(out)
            stand = next((h for h in held if _alike(h)[:3] == _alike(c)[:3]), None) \
                or next((h for h in held if _alike(h)[:2] == _alike(c)[:2]), None)
            if cycles and c in offered and stand is not None and _alike(out)[:2] != _alike(c)[:2]:
                held.remove(stand)
                pairs += [(c, stand), (stand, out), (out, c)]
            else:
                pairs += [(c, out), (out, c)]
        return pairs

    def _offered(self) -> set[str]:
        """The cards that lay in a host seat's offer at some move of the shadow."""
        return {c for st in self.states for i, s in enumerate(st.seats) if i not in self.seats for c in s.offer}

    def _fixed_state(self, fix: Fix) -> MHState:
        """The shadow's state with `fix` made."""
        state = _relabel_state(self.state, fix.perm) if fix.perm else self.state
        return with_seat(state, fix.seat, offer=fix.offer) if fix.seat is not None else state

    def _from_pile(self, plan: Moves) -> dict[str, str]:
        """A card dealt or drawn to a joining seat that the shadow gave a host seat: that stand-in becomes
        the first card of the pile (an objective, the first objective left)."""
        seat, action = plan[-1]
        state = self.state
        got = action.get("card")
        if seat != CHANCE or not isinstance(got, str) or got in state.pile or got in state.objectives:
            return {}
        spare = sorted(state.objectives) if got.startswith(OBJECTIVES) else stand_ins(state.pile)
        return _permutation([(spare[0], got)]) if spare else {}

    def _demanded(self, seat: int, action: Action) -> Iterator[dict[str, str]]:
        """Relabellings that give a host seat concerned more cards that meet the demand it must meet (a
        binding demand, the Hitman's), or fewer: one card, then two, then three."""
        state = self.state
        wild = state.phase == COUNTER
        st = state.demand.statement if wild and state.demand is not None and state.demand.mode == REQUIRE \
            else state.hitman.demand if state.hitman is not None else None
        if st is None:
            return
        free = self._hidden_cards(state)

        def meets(c: str) -> bool:
            return matches(c, st.cat, st.value) or (wild and card(c).family == "partner")

        offered = self._offered()
        for t in self._concerned(seat, action):
            s = state.seats[t]
            # cards that played no part in an offer first: their names change nothing said of one
            mine = sorted((c for c in stand_ins(s.hand) if c in free and c not in s.offer), key=lambda c: c in offered)
            outside = sorted((c for c in stand_ins(free) if c not in s.hand),
                             key=lambda c: (c in offered, c not in state.pile))
            for more in (True, False):
                give = [c for c in mine if meets(c) != more]
                take = [c for c in outside if meets(c) == more]
                for r in range(1, min(len(give), len(take), offer_size(state) or 1) + 1):
                    yield _permutation(zip(give[:r], take[:r]))

    def _searched(self, seat: int, action: Action) -> Iterator[dict[str, str]]:
        """Relabellings of the offers and hands of the host seats concerned: one card, then two."""
        state = self.state
        free = self._hidden_cards(state)
        for t in self._concerned(seat, action):
            s = state.seats[t]
            mine = [c for c in s.offer if c in free] + stand_ins(c for c in s.hand if c not in s.offer and c in free)
            others = stand_ins(c for c in free if c not in s.hand)
            pool = [*stand_ins(c for c in s.hand if c not in s.offer and c in free), *others]
            for x in mine:
                for y in pool:
                    if x != y:
                        yield {x: y, y: x}
            offer = [c for c in s.offer if c in free]
            for x1, x2 in itertools.combinations(offer, 2):
                for y1, y2 in itertools.permutations(pool[:24], 2):
                    if len({x1, x2, y1, y2}) == 4:
                        yield {x1: y1, y1: x1, x2: y2, y2: x2}

    def _retargets(self, seat: int, action: Action, real_told: tuple[Any, ...]) -> Iterator[Fix]:
        """Other cards of its hand in the offer of a host seat concerned (the cards the joining seats were
        just shown, else one card changed, then two, then three), laid in the moves that laid its offer."""
        state = self.state
        for t in self._concerned(seat, action):
            offer = state.seats[t].offer
            start = self._offer_start(t)
            if not offer or start is None:
                continue
            common = set(state.seats[t].hand)
            for st in self.states[start:]:
                common &= set(st.seats[t].hand)
            free = self._hidden_cards(state)
            for want in real_told[:len(self.seats)]:
                for shown in [x.cards for x in (want.me.seen if want.me is not None else ()) if x.seat == t][-1:]:
                    # the offer a joining seat was just shown: its cards not in the hand come in for others
                    tokens = [c for c in stand_ins(common) if c in free and c not in shown]
                    perm = _permutation(zip(tokens, [c for c in shown if c not in common]))
                    if len(shown) == len(offer):
                        yield Fix(perm, t, tuple(shown))
            spare = stand_ins(c for c in common if c not in offer)
            # a card from outside the hand for a card of the hand that is not in the offer, laid in one
            # place of the offer: the partner an accusation removed first, then any other
            gone = [c for c in real_told[0].removed if c not in state.removed]
            tokens = [c for c in spare if c in free]  # for a card needed: any of them (one may have been seen)
            outside = [c for c in stand_ins(free) if c not in state.seats[t].hand and c not in gone]
            for y in gone:
                yield from self._one_in(t, offer, tokens, y)
            kind = NEEDS.get(str(action.get("type") if action.get("hitman") is not True else "hitman"))
            if kind is not None and t == state.active:  # the partner the active player's move needs
                for y in (c for c in [*spare, *outside] if card(c).partner == kind):
                    if y in spare:
                        yield from (Fix({}, t, tuple(y if n == i else c for n, c in enumerate(offer)))
                                    for i in range(len(offer)))
                    else:
                        yield from self._one_in(t, offer, tokens, y)
            for r in range(1, len(offer) + 1):
                for where in itertools.combinations(range(len(offer)), r):
                    for cards in itertools.permutations(spare, r):
                        new = list(offer)
                        for i, c in zip(where, cards):
                            new[i] = c
                        yield Fix({}, t, tuple(new))
            for y in [] if gone else outside:
                yield from self._one_in(t, offer, tokens[:1], y)

    @staticmethod
    def _one_in(t: int, offer: tuple[str, ...], tokens: list[str], y: str) -> Iterator[Fix]:
        """Card `y` for the first of `tokens` (a card of seat t's hand), laid in each place of its offer."""
        for x in tokens:
            for i in range(len(offer)):
                yield Fix(_permutation([(x, y)]), t, tuple(y if n == i else c for n, c in enumerate(offer)))

    def _offer_start(self, t: int) -> int | None:
        """The move from which seat t's offer has lain on its pad (None: it is empty)."""
        for i in range(len(self.states) - 1, -1, -1):
            if not self.states[i].seats[t].offer:
                return i
        return None

    def _concerned(self, seat: int, action: Action) -> list[int]:
        """The host seats whose offer or hand the move may turn on."""
        state = self.state
        concerned = [seat, action.get("target"), action.get("seat"), state.active]
        if state.hitman is not None:
            concerned.append(state.hitman.victim)
        return [s for s in dict.fromkeys(concerned)
                if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < state.players and s not in self.seats]

    def _fixed(self, fix: Fix, moves: Moves) -> Moves | None:
        """The shadow's moves with `fix` made, and the plan (None: the offer cannot be laid so)."""
        log = [(s, _relabel_action(a, fix.perm)) for s, a in self.log]
        if fix.seat is not None:
            start = self._offer_start(fix.seat)
            if start is None:
                return None
            hand = set(_relabel_state(self.states[start], fix.perm).seats[fix.seat].hand)
            spare = stand_ins(c for c in hand if c not in fix.offer)
            stack: list[int] = []
            temporary: list[tuple[int, int]] = []  # (lay, take back) of a card not in the offer at the end
            for i in range(start, len(log)):
                s, a = log[i]
                if s == fix.seat and a.get("type") == "lay":
                    stack.append(i)
                elif s == fix.seat and a.get("type") == "take_back" and stack:
                    temporary.append((stack.pop(), i))
            if len(stack) != len(fix.offer):
                return None
            for i, c in zip(stack, fix.offer):
                log[i] = (fix.seat, {**log[i][1], "card": c})
            for lay, back in temporary:
                level = sum(1 for j, k in temporary if j < lay < k)  # cards laid meanwhile: on the pad with it
                if level >= len(spare):
                    return None
                c = spare[level]
                log[lay] = (fix.seat, {**log[lay][1], "card": c})
                log[back] = (fix.seat, {**log[back][1], "card": c})
        return [*log, *moves]


def _pairs(have: Iterable[str], want: Iterable[str], first: Collection[str] = ()) -> list[tuple[str, str]]:
    """The cards `have` shows that `want` does not, paired with those `want` shows instead, alike with
    alike as far as they go, those of `first` first (what was said of one is then likelier true of the
    other)."""
    a = sorted(set(have) - set(want), key=lambda c: (c not in first, _alike(c)))
    b = sorted(set(want) - set(have), key=_alike)
    out = []
    for kind in dict.fromkeys(_alike(c)[:2] for c in a):  # a partner for one of its kind, a colour for its colour
        mine, theirs = [c for c in a if _alike(c)[:2] == kind], [c for c in b if _alike(c)[:2] == kind]
        out += list(zip(mine, theirs))
    paired = {c for pair in out for c in pair}
    return out + list(zip([c for c in a if c not in paired], [c for c in b if c not in paired]))


def _alike(cid: str) -> tuple[str, str, int, str]:
    """A card's family, kind or colour, value: what statements speak of (an objective: its name)."""
    if cid.startswith(OBJECTIVES):
        return ("objective", "", 0, cid)
    c = card(cid)
    return (c.family, c.partner or c.colour or "", c.value or 0, cid)
