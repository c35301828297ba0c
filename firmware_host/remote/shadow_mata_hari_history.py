"""Operation: Mata Hari across tables: a whole told history found again, card by card.

When no renaming of the shadow's stand-ins tells the host's move (mostly the end, which shows every
hand and objective), the history is searched again move by move: the moves the joining seats were
told stay as they are, and each move that hid a card (a card dealt, drawn or picked to a host seat,
laid, taken back, lifted) may move another card, depth first, a choice undone when a later move
no longer tells the joining seats what it told them. The host's real moves are one such history,
so one exists; the search finds the first in a fixed order that reads the shadow and what the
joining seats were told only (the end's hands and objectives among it), never the host's cards.

It is pruned by what the end shows and what the joining seats were shown: a card in a host seat's
hand must be in its final hand (or be one the joining seats are later shown it holds) or leave it by
the cards its later exchanges give, and a card it must hold that another seat has must come by
those it receives (both numbers are public); before its last exchange it must hold as many cards it
does not end with as it then gives, but for those later exchanges give back; a card in a hand is
never in a pile a joining seat is later shown, nor one later dealt or drawn to a joining seat; an
objective dealt is the one the end shows. A failure names the host seats it turns on, and the
search goes back to the latest choice of one of them (past the cards laid in an offer when no offer
from that hand would mend it); a state met again at the same move by another order of the same
cards is not searched twice.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from firmware_host.remote.shadow import Moves
from games.core import CHANCE, Action, Game, IllegalAction
from games.mata_hari.state import OVER, MHState, with_seat

# the most moves tried (a hidden move given one card, and the told moves after it up to the next)
MOST_NODES = 20_000
# offers tried to tell whether a failure turns on the cards laid or on the hand they were laid from
MOST_OFFERS = 300

Told = Callable[[MHState], tuple[Any, ...]]
Options = Callable[[MHState, int, Action], list[Action]]


def flows(states: Sequence[MHState], moves: Moves, last: tuple[MHState, MHState], host: Sequence[int]
          ) -> list[list[tuple[int, int, int]]]:
    """flows[i][t]: how many cards leave host seat t's hand from move i on; how many come into it
    other than from the pile (by exchanges); and how many cards it must hold, from move i, that it
    does not end with (or receive before), to give at its last exchange (those it gives then that it
    ends with must come back by later exchanges). Public numbers. `states` are along `moves` but for
    the last move, which leads from `last[0]` to `last[1]`; the moves between add none."""
    pairs = [*itertools.pairwise(states), *[(states[-1], states[-1])] * (len(moves) - len(states)), last]
    steps = []  # per move: (out, in from the pile, in by an exchange) of each seat
    for (a, b), (seat, action) in zip(pairs, moves):
        pile = seat == CHANCE or action.get("type") == "pick"
        steps.append([(cards_out(a, b, t), cards_out(b, a, t) if pile else 0, 0 if pile else cards_out(b, a, t))
                      if t in host else (0, 0, 0) for t in range(last[1].players)])
    out = [[(0, 0, 0)] * last[1].players]
    lasts: dict[int, tuple[int, int]] = {}  # seat -> (cards given at its last exchange, minus those coming back)
    for step in reversed(steps):
        row = []
        for t, ((x, y, _), (gone, pin, xin)) in enumerate(zip(out[0], step)):
            if t not in lasts and gone:
                lasts[t] = (gone, y)
                need = gone - y
            else:
                need = out[0][t][2] - pin - xin if t in lasts else 0
            row.append((x + gone, y + xin, need))
        out.insert(0, row)
    return out


def cards_out(before: MHState, after: MHState, t: int) -> int:
    """How many cards left seat t's hand from `before` to `after` (a public number: exchanges, removals)."""
    gone = list(before.seats[t].hand)
    for c in after.seats[t].hand:
        if c in gone:
            gone.remove(c)
    return len(gone)


class History:
    """The search for a told history: the moves as told, with those that hid a card free to change."""

    def __init__(self, game: Game[Any, Any], told: Told, options: Options, host: Sequence[int]):
        self.game, self.told, self.options, self.host = game, told, options, tuple(host)
        self.nodes = 0  # moves tried in the last search (for the figures)
        self._holds: list[dict[int, frozenset[str]]] = []

    def find(self, states: Sequence[MHState], moves: Moves, hidden: Sequence[bool], seen: Sequence[tuple[Any, ...]],
             want: tuple[Any, ...], outs: Sequence[Sequence[tuple[int, int, int]]]
             ) -> tuple[Moves, list[MHState]] | None:
        """Moves like `moves` (those `hidden` may move other cards) from `states[0]`, the n-th telling
        `seen[n]`, the last telling `want`, and their states (None: none found within the bound).
        `states` are the shadow's along `moves` (its first choices); `outs[i][t]`: how many cards leave
        host seat t's hand from move i on, and come into it by exchanges (`flows`).

        A move that no longer tells what it told names the host seats it turns on; the search then goes
        back to the latest choice of one of those seats (the choices in between changed nothing of it)."""
        self.nodes = 0
        n = len(moves)
        moves = list(moves)
        final = self._final(states[0], want)
        holds = self._held(states[0], moves, seen, want) if final is not None else []
        self._holds = holds
        piles = self._piles(seen, moves, hidden)
        path: list[MHState] = [states[0]]
        dead: dict[tuple[int, MHState], frozenset[int]] = {}  # states that lead nowhere, and the seats why
        everyone = frozenset(self.host)

        def misfit(i: int, after: MHState) -> frozenset[int]:
            """The host seats move i, which led to `after`, turns on when it no longer fits (empty: it fits)."""
            if i < len(seen) and self.told(after) != seen[i]:
                return self._turns_on(path[i], moves[i], seen[i])
            if i == n - 1 and self.told(after) != want:
                return everyone
            if final is None:
                return frozenset()
            return self._may_not_end(after, final, outs[i + 1], piles[i + 1], holds[i + 1])

        def forward(i: int) -> tuple[int, frozenset[int]]:
            """The told moves from i applied up to the next that hid a card (-1 and the seats it turns on:
            one no longer fits)."""
            while i < n and not hidden[i]:
                try:
                    after = self.game.apply(path[-1], *moves[i]).state
                except IllegalAction:
                    return -1, self._turns_on(path[i], moves[i], None)
                wrong = misfit(i, after)
                if wrong:
                    return -1, wrong
                path.append(after)
                i += 1
            return i, frozenset()

        stack: list[tuple[int, Iterator[Action], set[int]]] = []  # a choice: its move, cards left, seats failed
        at, wrong = forward(0)
        while True:
            if at == n:
                return moves, path
            if at >= 0 and (at, path[-1]) in dead:
                at, wrong = -1, dead[at, path[-1]]
            if at >= 0:
                stack.append((at, iter(self._ordered(path[at], moves[at], states, at, final, outs)), set()))
            elif wrong:
                # back to the latest choice the failure turns on (the choices after it are not to blame)
                while stack and not self._to_blame(stack[-1][0], moves, path, wrong):
                    stack.pop()
                if stack:
                    stack[-1][2].update(wrong)
            if not stack:
                return None
            i, left, failed = stack[-1]
            del path[i + 1:]
            option = next(left, None)
            if option is None:
                dead[i, path[i]] = frozenset(failed or everyone)
                stack.pop()
                at, wrong = -1, dead[i, path[i]]
                continue
            self.nodes += 1
            if self.nodes > MOST_NODES:
                return None
            seat = moves[i][0]
            try:
                after = self.game.apply(path[i], seat, option).state
            except IllegalAction:
                at, wrong = -1, frozenset()
                continue
            wrong = misfit(i, after) or dead.get((i + 1, after), frozenset())
            if wrong:
                failed.update(wrong)
                at, wrong = -1, frozenset()  # this choice only: the next is tried
                continue
            moves[i] = (seat, option)
            path.append(after)
            at, wrong = forward(i + 1)
            if at < 0:
                dead[i + 1, after] = wrong

    def _to_blame(self, i: int, moves: Moves, path: Sequence[MHState], wrong: frozenset[int]) -> bool:
        """Hidden move i may be to blame for a failure that turns on `wrong` (not a card laid in, or taken
        back from, an offer that no offer from its seat's hand would mend)."""
        t = self._chooser(moves[i])
        if t not in wrong:
            return False
        if -1 - t not in wrong or moves[i][1].get("type") not in ("lay", "take_back"):
            return True
        return not all(st.seats[t].offer for st in path[i + 1:])  # laid in an earlier offer

    def _chooser(self, move: tuple[int, Action]) -> int | None:
        """The seat whose cards a hidden move moves (the seat dealt to, for chance)."""
        seat, action = move
        to = action.get("seat") if seat == CHANCE else seat
        return to if isinstance(to, int) and not isinstance(to, bool) else None

    def _turns_on(self, state: MHState, move: tuple[int, Action], told: tuple[Any, ...] | None) -> frozenset[int]:
        """The host seats whose cards may decide what move tells (all of them when none is named); a seat
        whose offer could be none of the same size from its hand that tells it is named as -1 - seat
        (its hand is to blame, not the cards laid in that offer)."""
        seat, action = move
        named = {seat, action.get("seat"), action.get("target"), state.active, state.exchanged_with}
        if state.hitman is not None:
            named.add(state.hitman.victim)
        out = {t for t in self.host if t in named}
        for t in list(out):
            if state.seats[t].offer and not self._any_offer(state, t, move, told):
                out.add(-1 - t)
        return frozenset(out) or frozenset(self.host)

    def _any_offer(self, state: MHState, t: int, move: tuple[int, Action], told: tuple[Any, ...] | None) -> bool:
        """Some offer of seat t of the same size, from its hand, lets `move` tell `told` (None: be allowed)."""
        s = state.seats[t]
        for offer in itertools.islice(itertools.combinations(s.hand, len(s.offer)), MOST_OFFERS):
            try:
                after = self.game.apply(with_seat(state, t, offer=offer), *move).state
            except IllegalAction:
                continue
            if told is None or self.told(after) == told:
                return True
        return False

    # -- what the end shows ------------------------------------------------------------------------
    def _final(self, start: MHState, want: tuple[Any, ...]) -> tuple[dict[int, set[str]], dict[int, str | None],
                                                                     set[str]] | None:
        """The host seats' final hands and objectives, and the final pile, when `want` is the end (None: not)."""
        end = want[0]
        if end.phase != OVER:
            return None
        hands = {t: set(end.seats[t].hand or ()) for t in self.host}
        objectives = {t: end.seats[t].objective for t in self.host}
        held = {c for s in end.seats for c in (s.hand or ())}
        return hands, objectives, set(start.pile) - held - set(end.removed)

    def _held(self, start: MHState, moves: Moves, seen: Sequence[tuple[Any, ...]], want: tuple[Any, ...]
              ) -> list[dict[int, frozenset[str]]]:
        """held[i][t]: the cards the joining seats are shown in host seat t's hands from move i on (a
        partner an accusation removes from its offer, its offer shown to a joining accuser, the cards
        a joining seat receives from it): t must hold each by then."""
        n = len(moves)
        told = [*seen, *[None] * (n - 1 - len(seen)), want][:n]
        held: list[dict[int, frozenset[str]]] = [{}] * (n + 1)
        now: dict[int, set[str]] = {t: set() for t in self.host}
        for k in range(n - 1, -1, -1):
            after = told[k]
            before = self.told(start) if k == 0 else told[k - 1]
            if after is not None and before is not None:
                self._shown_held(moves[k], before, after, now)
            held[k] = {t: frozenset(cs) for t, cs in now.items()}
        return held

    def _shown_held(self, move: tuple[int, Action], before: tuple[Any, ...], after: tuple[Any, ...],
                    now: dict[int, set[str]]) -> None:
        """Add to `now` the cards `move` shows the joining seats in a host seat's hand."""
        seat, action = move
        target = action.get("target")
        if isinstance(target, int) and target in now:
            now[target].update(c for c in after[0].removed if c not in before[0].removed)
        views = zip(before[:-2], after[:-2])
        for b, a in views:
            if a.me is None or b.me is None:
                continue
            for x in a.me.seen:
                if x.seat in now and x not in b.me.seen:
                    now[x.seat].update(x.cards)
            got = [c for c in a.me.hand if c not in b.me.hand]
            giver = a.exchanged_with if a.active == a.me.seat else a.active
            if got and seat != CHANCE and action.get("type") != "pick" and giver in now:
                now[giver].update(got)

    @staticmethod
    def _piles(seen: Sequence[tuple[Any, ...]], moves: Moves, hidden: Sequence[bool]) -> list[frozenset[str]]:
        """piles[i]: cards that must still be in the pile after move i-1: those of the next pile a joining
        seat is shown, and those told dealt or drawn to a joining seat from move i on (no card goes back
        to the pile: a card in a hand then is wrong)."""
        n = len(moves)
        out: list[frozenset[str]] = [frozenset()] * (n + 1)
        shown: frozenset[str] = frozenset()
        told: set[str] = set()
        for i in range(n - 1, -1, -1):
            if i < len(seen):
                for view in seen[i][:-2]:
                    if view.me is not None and view.me.pile is not None:
                        shown = frozenset(view.me.pile)
            seat, action = moves[i]
            if seat == CHANCE and not hidden[i] and isinstance(action.get("card"), str):
                told.add(action["card"])
            out[i] = shown | told
        return out

    def _may_not_end(self, state: MHState, final: tuple[dict[int, set[str]], dict[int, str | None], set[str]],
                     outs: Sequence[tuple[int, int, int]], pile: frozenset[str], holds: dict[int, frozenset[str]]
                     ) -> frozenset[int]:
        """The host seats whose cards can no longer end as shown from `state` (a necessary condition)."""
        ends, objectives, rest = final
        hands = {t: ends[t] | holds.get(t, frozenset()) for t in self.host}  # cards each must hold yet
        elsewhere = {t: [u for u in range(state.players) if u != t] for t in self.host}
        wrong = set()
        for t in self.host:
            s = state.seats[t]
            if (s.objective is not None and s.objective != objectives[t]) \
                    or any(c in rest or c in pile for c in s.hand) \
                    or sum(c not in hands[t] for c in s.hand) > outs[t][0] \
                    or sum(c in hands[t] for u in elsewhere[t] for c in state.seats[u].hand) > outs[t][1] \
                    or sum(c not in ends[t] for c in s.hand) < outs[t][2]:
                wrong.add(t)
        # the seats holding cards a failing seat must end with may be to blame as well
        blamed = {u for u in self.host for t in wrong if u != t and any(c in hands[t] for c in state.seats[u].hand)}
        return frozenset(wrong | blamed)

    # -- the cards tried, in order -----------------------------------------------------------------
    def _ordered(self, state: MHState, move: tuple[int, Action], states: Sequence[MHState], i: int,
                 final: tuple[dict[int, set[str]], dict[int, str | None], set[str]] | None,
                 outs: Sequence[Sequence[tuple[int, int, int]]]) -> list[Action]:
        """The cards move i may move in `state`: those the end shows where the move leads first (a card
        dealt to a seat that ends with it, a card laid in an offer given away that its seat does not
        end with), then the shadow's own choice, then the rest in the shadow's order."""
        seat, action = move
        options = self.options(state, seat, action)
        mine = action.get("card")
        if final is None:
            return sorted(options, key=lambda a: a.get("card") != mine)
        hands, objectives, _ = final
        kind = action.get("type")
        to = action.get("seat") if seat == CHANCE else seat
        if not isinstance(to, int) or to not in hands:
            return sorted(options, key=lambda a: a.get("card") != mine)
        keep = {*hands[to], objectives[to], *self._holds[i].get(to, ())}
        others = {c for t, hand in hands.items() if t != to for c in hand}  # a card another host seat must end with
        if kind in ("deal", "draw", "pick"):
            return sorted(options, key=lambda a: (a.get("card") not in keep, a.get("card") in others,
                                                  a.get("card") != mine))
        if kind == "take_back":
            return sorted(options, key=lambda a: (a.get("card") not in keep, a.get("card") != mine))
        if kind == "lay" and self._given(states, i, to):
            return sorted(options, key=lambda a: (a.get("card") in keep, a.get("card") != mine))
        return sorted(options, key=lambda a: a.get("card") != mine)

    @staticmethod
    def _given(states: Sequence[MHState], i: int, t: int) -> bool:
        """The offer seat t lays a card in at move i is given away before it is emptied (in the shadow)."""
        for k in range(i + 1, len(states) - 1):
            before, after = states[k].seats[t], states[k + 1].seats[t]
            if not after.offer and before.offer:
                return len(after.hand) <= len(before.hand) and any(c not in after.hand for c in before.offer)
        return False
