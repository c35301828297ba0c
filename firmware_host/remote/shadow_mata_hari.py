"""Operation: Mata Hari across tables: the joining table's game as the host tells it (its "shadow").

The host's engine deals and draws every card. What the joining seats may not know is the host
seats' objectives and cards: those dealt, drawn or picked to them, laid in their offers, taken back,
lifted from their pads, exchanged between them, and every statement or accusation they compose
before it is said. A move that shows the joining seats nothing (a step of a statement being
composed, an accusation's target chosen) is not told at all: the message carries no move. A move
that hides a card crosses as a stand-in, the first move of its kind the shadow allows that tells the
joining seats what the host's move told them. A statement, a demand or an accusation crosses when
it is said, as the steps that compose it in the shadow.

The host seats' hidden cards decide what everyone sees: a declaration must be true of the offer
(unless a Double Agent is in it), an accusation's verdict is the offer's, a Hitman or Mata Hari must
be in the active player's offer, a Hitman's demand is met or not by its victim's hand; and the
joining seats see the cards they receive in an exchange, the offer they are shown after an unfounded
accusation, the whole pile when they pick from it, and at the end every hand and objective. When the
shadow cannot tell the host's move so, its cards are relabelled: first exactly as the joining seats
now see them (the cards they were shown take the place of the shadow's), else by a search over the
offers and hands of the seats concerned (a card of the offer exchanged for another of the shadow's
hidden cards: the seat's hand first, then the pile, then the other host seats'), in a fixed order.
Every choice is made from the shadow and what the joining seats are told only, so it is the same
whatever the host seats really hold; the moves changed are sent again (`rewrite`), checked first:
they must show the joining seats, move by move, what they were told, and the host's move as the host
told it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from firmware_host.remote.shadow import CannotFollow, Moves, view_digests
from firmware_host.remote.shadow_mata_hari_fix import NO_FIX, OBJECTIVES, Fix, Relabelling, relabel_plan, stand_ins
from firmware_host.remote.shadow_mata_hari_history import History, flows
from games.core import CHANCE, JSON, Action, Game, GameConfig, IllegalAction, to_json
from games.mata_hari.rules import reject
from games.mata_hari.rules_actions import candidates
from games.mata_hari.state import HITMAN, OVER, SWAP, MHState, Statement

# moves whose card is the author's secret: they cross as stand-ins (which cover a player takes off the
# stock is no secret of the game's: it crosses as it is, so that both tables' stocks hold the same covers
# and a joining seat's cover is one the host's stock has)
SECRET_CARDS = frozenset({"lay", "take_back", "lift", "pick"})
# relabellings tried by the search for one move (each a state relabelled and the move tried on it)
MOST_TRIES = 4000


def _quant(st: Statement) -> Action:
    return {"type": "quant", "q": st.q, "n": st.n} if st.q in ("least", "exact") else {"type": "quant", "q": st.q}


def _composed(what: str, st: Statement) -> Moves:
    """The steps that compose `st` on a seat's buttons (the seat is filled in by the caller)."""
    return [(0, {"type": "say", "what": what}), (0, _quant(st)), (0, {"type": "cat", "cat": st.cat}),
            (0, {"type": "pred", "value": st.value})]



class MHShadow(Relabelling):
    """The joining table's game of Mata Hari as the host told it: its moves (`log`) and their states."""

    def __init__(self, game: Game[Any, Any], config: GameConfig, seats: Iterable[int]):
        self.game, self.config = game, config
        self.seats = frozenset(seats)
        self.log: Moves = []
        self.states: list[MHState] = [game.initial_state(config)]  # states[i]: before move i
        self.seen: list[tuple[Any, ...]] = []  # what the joining seats were told after each move
        self.tries = 0  # relabellings tried (for the figures)
        self.longest = 0  # the most changes tried for one move (for the figures)
        self.searched = 0  # moves told by searching the whole history again (for the figures)
        self.nodes = 0  # the most moves that search tried for one move (for the figures)

    def clone(self) -> MHShadow:
        """A copy that steps on without changing this one."""
        again = MHShadow.__new__(MHShadow)
        again.game, again.config, again.seats, again.tries = self.game, self.config, self.seats, self.tries
        again.longest, again.searched, again.nodes = self.longest, self.searched, self.nodes
        again.log, again.states, again.seen = list(self.log), list(self.states), list(self.seen)
        return again

    # -- what the joining seats see -------------------------------------------------------------
    def _told(self, state: MHState) -> tuple[Any, ...]:
        """The joining seats' views, the seats the table waits for, and which joining seats may act."""
        g = self.game
        mine = frozenset(s for s in self.seats if state.phase != OVER
                         and any(reject(state, s, a, True) is None for a in candidates(state, s)))
        return (*(g.view(state, s) for s in sorted(self.seats)), g.waiting_for(state), mine)

    def _last(self) -> tuple[Any, ...]:
        return self.seen[-1] if self.seen else self._told(self.state)

    # -- the move to tell ------------------------------------------------------------------------
    def _hidden(self, seat: int, action: Action) -> bool:
        """A move whose card the joining seats may not know."""
        if seat == CHANCE:
            return action.get("seat") not in self.seats
        return seat not in self.seats and action.get("type") in SECRET_CARDS and "card" in action

    def _said(self, seat: int, action: Action, public: Any) -> Moves:
        """The steps that compose what `seat` says with this move (read from the public view after it)."""
        kind = action.get("type")
        shadow = self.state.seats[seat] if 0 <= seat < len(self.state.seats) else None
        if shadow is None or seat in self.seats:
            return []
        steps: Moves = []
        if kind == "confirm" and self.state.phase != SWAP:
            if shadow.statements or (self.state.demand is not None and seat == self.state.active):
                steps.append((seat, {"type": "clear"}))
            for st in public.seats[seat].said:
                steps += [(seat, a) for _, a in _composed("declare", st)]
            if seat == self.state.active and public.demand is not None:
                steps += [(seat, a) for _, a in _composed(public.demand.mode, public.demand.statement)]
        elif kind == "accuse" and "partner" in action:
            steps.append((seat, {"type": "accuse", "target": action.get("target")}))
        elif kind == "pred" and self.state.phase == HITMAN and public.hitman is not None \
                and public.hitman.demand is not None:
            steps += [(seat, a) for _, a in _composed("hitman", public.hitman.demand)[:-1]]
        if shadow.draft is not None:
            steps.insert(0, (seat, {"type": "cancel"}))
        return steps

    def _candidates(self, state: MHState, seat: int, action: Action) -> list[Action]:
        """Stand-ins for a move hiding a card: the moves of its kind the state allows, in a fixed order."""
        kind = action.get("type")
        if seat == CHANCE:
            to = action.get("seat")
            if not isinstance(to, int) or not 0 <= to < state.players:
                return []
            pool = sorted(state.objectives) if str(action.get("card")).startswith(OBJECTIVES) else stand_ins(state.pile)
            return [{"type": kind, "seat": to, "card": c} for c in pool]
        s = state.seats[seat]
        if kind == "lay":
            pool = stand_ins(c for c in s.hand if c not in s.offer)
        elif kind == "take_back":
            pool = list(reversed(s.offer))
        elif kind == "lift":
            pool = list(s.loose)
        else:
            pool = stand_ins(state.pile)
        return [{"type": kind, "card": c} for c in pool]

    def _plan(self, seat: int, action: Action, real: MHState) -> tuple[Moves, bool]:
        """The moves that tell the host's move in the shadow as it stands (the last possibly not allowed
        there yet), and whether it hides a card."""
        public = self.game.view(real, None)
        prefix = self._said(seat, action, public)
        if not self._hidden(seat, action):
            return [*prefix, (seat, dict(action))], False
        state = self.state
        for pre_seat, pre in prefix:
            try:
                state = self.game.apply(state, pre_seat, pre).state
            except IllegalAction:
                break
        options = self._candidates(state, seat, action)
        want = self._told(real)
        for option in options:
            try:
                after = self.game.apply(state, seat, option).state
            except IllegalAction:
                continue
            if self._told(after) == want:
                return [*prefix, (seat, option)], True
        if options:
            return [*prefix, (seat, options[0])], True
        raise CannotFollow(f"mata-hari: no stand-in for seat {seat}'s {action.get('type')}")

    # -- trying a relabelling ---------------------------------------------------------------------
    def _tried(self, fix: Fix, plan: Moves, hidden: bool, want: tuple[Any, ...]
               ) -> tuple[Moves, list[MHState]] | None:
        """The plan as made from the shadow with `fix` made (a stand-in chosen again there) and its states,
        when its last tells the joining seats `want` (None: it does not, or the plan is not allowed)."""
        self.tries += 1
        moves = relabel_plan(plan, fix.perm, hidden)
        states = [self._fixed_state(fix)]
        try:
            for s, a in moves[:-1]:
                states.append(self.game.apply(states[-1], s, a).state)
        except IllegalAction:
            return None
        seat, last = moves[-1]
        for option in self._candidates(states[-1], seat, last) if hidden and fix != NO_FIX else [last]:
            try:
                after = self.game.apply(states[-1], seat, option).state
            except IllegalAction:
                continue
            if self._told(after) == want:
                return [*moves[:-1], (seat, option)], [*states[1:], after]
        return None

    def _replayed(self, log: Moves, start: int, told: int) -> list[MHState] | None:
        """The states along `log` from `start`, the first `told` moves telling what they told (None: not so)."""
        states = self.states[:start + 1]
        for n in range(start, len(log)):
            try:
                states.append(self.game.apply(states[-1], *log[n]).state)
            except IllegalAction:
                return None
            if n < told and self._told(states[-1]) != self.seen[n]:
                return None
        return states

    # -- one move of the host's -------------------------------------------------------------------
    def costly(self, seat: int, action: Action, real: Any) -> bool:
        """True: a move that tells something may need a search over the shadow's cards (up to
        MOST_TRIES relabellings), and finding whether it tells anything costs what telling a move
        that tells nothing does; every message is made off the table's loop (teller.py)."""
        return True

    def step(self, before: Any, seat: int, action: Action, real: Any) -> tuple[str, dict[str, JSON]]:
        """The message for the host's move to `real`: ("move", ...), or ("rewrite", ...) when nothing
        crosses (no moves) or moves were told again."""
        old = len(self.log)
        want = self._told(real)
        if seat != CHANCE and seat not in self.seats and want == self._last():
            # nothing the joining seats see changed: a statement or accusation being composed
            return "rewrite", {"from": old, "moves": [], "views": view_digests(self.game, real, self.seats),
                               "fresh": old}
        plan, hidden = self._plan(seat, action, real)
        log, states = self._found(seat, action, plan, hidden, (before, real), want)
        start = min((i for i, (s, a) in enumerate(self.log) if log[i] != (s, a)), default=old)
        self.log[:] = log  # in place: the remote seats hold this list as the moves told
        self.states = states
        self.seen = [*self.seen[:old], *(self._told(st) for st in states[old + 1:-1]), want]
        if start == old and len(plan) == 1:
            fields: dict[str, JSON] = {"n": old, "seat": seat, "action": to_json(dict(self.log[old][1])),
                                       "views": view_digests(self.game, real, self.seats)}
            if hidden:
                fields["hidden"] = True
            return "move", fields
        return "rewrite", {"from": start, "moves": [[s, to_json(dict(a))] for s, a in self.log[start:]],
                           "views": view_digests(self.game, real, self.seats), "fresh": old}

    def _found(self, seat: int, action: Action, plan: Moves, hidden: bool, move: tuple[MHState, MHState],
               want: tuple[Any, ...]) -> tuple[Moves, list[MHState]]:
        """The shadow's moves, changed where they must be, and the plan, telling the host's move as it told
        it; and their states."""
        ahead = self._tried(NO_FIX, plan, hidden, want)
        if ahead is not None:
            return [*self.log, *ahead[0]], [*self.states, *ahead[1]]
        old = len(self.log)
        real = move[1]
        fixes: Iterable[Fix] = [NO_FIX, Fix(self._from_pile(plan))]
        if real.phase != OVER:  # the end shows every hand: the cards it shows, else the history searched again
            fixes = itertools.chain(fixes, (Fix(p) for p in self._demanded(seat, action)),
                                    self._retargets(seat, action, want), (Fix(p) for p in self._searched(seat, action)))
        for number, fix in enumerate(itertools.islice(fixes, MOST_TRIES)):
            self.longest = max(self.longest, number)
            for tried in (fix, self._shown(fix, plan, hidden, want), self._shown(fix, plan, hidden, want, False)):
                made = None if tried is None else self._tried(tried, plan, hidden, want)
                if tried is None or made is None:
                    continue
                log = self._fixed(tried, made[0])
                if log is None:
                    continue
                start = min((i for i, (s, a) in enumerate(self.log) if log[i] != (s, a)), default=old)
                states = self._replayed(log, start, old)
                if states is not None and self._told(states[-1]) == want:
                    return log, states
        found = self._history(plan, hidden, move, want)
        if found is not None:
            return found
        raise CannotFollow(f"mata-hari: no cards of the shadow tell the host's move {old} "
                           f"({action.get('type')} of seat {seat})")

    def _history(self, plan: Moves, hidden: bool, move: tuple[MHState, MHState], want: tuple[Any, ...]
                 ) -> tuple[Moves, list[MHState]] | None:
        """The whole history searched again for the cards each hidden move moved (None: not found in the bound)."""
        host = [t for t in range(self.state.players) if t not in self.seats]
        flags = [self._hidden(s, a) for s, a in self.log] + [False] * (len(plan) - 1) + [hidden]
        outs = flows(self.states, [*self.log, *plan], move, host)
        search = History(self.game, self._told, self._candidates, host)
        found = search.find(self.states, [*self.log, *plan], flags, self.seen, want, outs)
        self.searched += 1
        self.nodes = max(self.nodes, search.nodes)
        return found
