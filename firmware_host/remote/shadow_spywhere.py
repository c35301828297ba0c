"""Spywhere across tables: the joining table's game as the host tells it (its "shadow").

The host's engine deals and draws every card (the joining table's seats are told which card to take
from their own deck and lay on their pad; the centre is laid at both tables). What the joining
seats may not know is the host seats' passports, the cards dealt or drawn to them, and the
nationality of their identifications. Each of those crosses as a stand-in chosen from the shadow
alone: the first undealt passport, the first card of the shadow's pile, the first identification
card still free. Every other move crosses as it is.

A stand-in card may turn out to be a card the rules later show elsewhere: dealt to a joining seat
or laid in the centre from the pile (the stand-in becomes a card that stayed in the shadow's pile
since its draw, one of the same nationality first), or laid in the centre by the host seat that
holds it for real (the latest stand-in still in that seat's hand becomes that card, for good).
With the re-triple rule a triple a refill makes goes back into the pile unless the pile could not
avoid another: the shadow's pile must give the host's outcome, so when it would not, a stand-in is
changed for a card of another nationality; and a card shuffled back was in sight meanwhile, so no
stand-in drawn before can become it (spy_draws.py). A triple taken by a host seat shows that its passport is
not of that nationality (its stand-in passport is exchanged with another that fits). Each of
those choices is made from the shadow and the move shown only, so it is the same whatever the host
seats really hold; the moves changed are sent again (`rewrite`), and the joining table takes its
game back to the first of them without a word and lays it again (nothing it can see changes: no
stand-in is ever on its table). At the end the rules show everything: the stand-ins become the
passports, the hands' cards and the identifications revealed, and the joining table's game is then
the host's, move for move the same state. The order in which a host seat drew the cards still in
its hand never crosses (they are given to its stand-ins in the order of the cards' names).

Every change is checked: the moves sent must give the joining seats, at every move, the very views
and turns they were told, and at the end the host's exact state (else nothing is sent, and why is
logged: `CannotFollow`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from firmware_host.remote import spy_draws
from firmware_host.remote.shadow import CannotFollow, Moves, view_digests
from games.core import CHANCE, JSON, Action, Game, GameConfig, IllegalAction, to_json
from games.spywhere.pieces import nat_of
from games.spywhere.state import OVER, SpyState, free_cards, own_nats, undealt_passports

PASSPORT, CARD, IDENTIFY = "passport", "card", "identify"
# changes of stand-ins tried for one move at most (each a replay from the first move it changes)
TRIES = 64


class SpyShadow:
    """The joining table's game of Spywhere as the host told it: its moves (`log`) and their states."""

    def __init__(self, game: Game[Any, Any], config: GameConfig, seats: Iterable[int]):
        self.game = game
        self.seats = frozenset(seats)
        self.log: Moves = []
        self.states: list[SpyState] = [game.initial_state(config)]  # states[i]: before move i
        self.seen: list[tuple[Any, ...]] = []  # what the joining seats were told after each move (views, turns)
        self.hidden: dict[int, tuple[str, int]] = {}  # log index of a stand-in -> (what it hides, its seat)
        self.pinned: set[int] = set()  # stand-in cards shown since: the real card, for good

    @property
    def state(self) -> SpyState:
        """The joining table's state."""
        return self.states[-1]

    def clone(self) -> SpyShadow:
        """A copy that steps on without changing this one."""
        again = SpyShadow.__new__(SpyShadow)
        again.game, again.seats = self.game, self.seats
        again.log, again.states, again.seen = list(self.log), list(self.states), list(self.seen)
        again.hidden, again.pinned = dict(self.hidden), set(self.pinned)
        return again

    # -- what the joining seats see -------------------------------------------------------------
    def _told(self, state: SpyState) -> tuple[Any, ...]:
        """The joining seats' views and the seats to act (compared as they are: cheaper than their JSON)."""
        return (*(self.game.view(state, s) for s in sorted(self.seats)), self.game.to_act(state))

    def _secret(self, seat: int, action: Action) -> tuple[str, int] | None:
        """(what it hides, the host seat) for a move the joining seats may not know; None: it crosses as it is."""
        kind = action.get("type")
        if seat == CHANCE and kind in ("passport", "deal"):
            to = action.get("to")
            if to in self.seats or not isinstance(to, int):
                return None
            return (PASSPORT if kind == "passport" else CARD), to
        if seat == CHANCE and kind == "draw":  # the active seat draws (its turn, or its bonus card)
            return None if self.state.active in self.seats else (CARD, self.state.active)
        if seat != CHANCE and seat not in self.seats and kind == "identify":
            return IDENTIFY, seat
        return None

    # -- stand-ins --------------------------------------------------------------------------------
    def _stand_in(self, action: Action, kind: str, seat: int) -> Action:
        """The first move of its kind the shadow allows: chosen from the shadow alone."""
        state = self.state
        if kind == PASSPORT:
            spare = sorted(undealt_passports(state))
            if not spare:
                raise CannotFollow("spywhere: no passport left to stand in")
            return {"type": "passport", "to": seat, "card": spare[0]}
        if kind == CARD:
            if not state.pile:
                raise CannotFollow("spywhere: no card left to stand in")
            return {**{k: v for k, v in action.items() if k != "card"}, "card": min(state.pile)}
        free = free_cards(state, seat)
        if not free:
            raise CannotFollow("spywhere: no identification card left to stand in")
        return {"type": "identify", "target": action.get("target"), "nationality": free[0]}

    def _cards(self) -> dict[str, int]:
        """Each stand-in card not yet shown -> its log index."""
        return {str(self.log[i][1]["card"]): i for i, (kind, _) in self.hidden.items()
                if kind == CARD and i not in self.pinned}

    def _relabel(self, i: int, card: str) -> Action:
        return {**self.log[i][1], "card": card}

    # -- a move shown: the stand-ins it contradicts -------------------------------------------------
    def _repairs(self, seat: int, action: Action) -> list[dict[int, Action]]:
        """The changes of stand-ins that may let the shadow allow the move shown, first tried first
        (chosen from the shadow and the move); [{}]: none is needed."""
        state, kind = self.state, action.get("type")
        card = action.get("card")
        if seat == CHANCE and kind in ("deal", "draw", "centre") and isinstance(card, str) \
                and card not in state.pile:
            return self._from_pile(card)
        if seat == CHANCE and kind == "passport" and isinstance(card, str) and card not in undealt_passports(state):
            return [self._passport_free(card)]
        if seat != CHANCE and kind == "swap" and isinstance(card, str) and card not in state.hands[seat]:
            return self._from_hand(seat, card)
        if seat != CHANCE and kind == "take":
            slots = action.get("slots")
            first = state.centre[slots[0] - 1] if isinstance(slots, list) and slots and isinstance(slots[0], int) \
                and not isinstance(slots[0], bool) and 1 <= slots[0] <= len(state.centre) else None
            if first is not None and nat_of(first) in own_nats(state, seat):
                return [self._passports(seat, nat_of(first))]
        return [{}]

    def _steady(self, i: int) -> list[str]:
        """The cards in the shadow's pile from move `i` to now: those a stand-in drawn at move `i` may
        become (a card shuffled back into the pile by a re-triple was out of it before)."""
        pile = set(self.states[i].pile)
        for state in self.states[i + 1:]:
            pile.intersection_update(state.pile)
        return sorted(pile - {str(a["card"]) for s, a in self.log[i:] if s == CHANCE and a.get("type") == "centre"})

    def _alike_first(self, i: int, nat: str) -> list[str]:
        """`_steady(i)`, the cards of `nat` first: a stand-in that changes for one of the same
        nationality leaves every pile's nationalities, so every re-triple, as they were."""
        steady = self._steady(i)
        return [c for c in steady if nat_of(c) == nat] + [c for c in steady if nat_of(c) != nat]

    def _from_pile(self, card: str) -> list[dict[int, Action]]:
        """A card shown from the pile that a stand-in holds: that stand-in becomes a card that stayed in
        the pile, else another stand-in's card, which becomes one that stayed in the pile."""
        i = self._cards().get(card)
        if i is None:
            raise CannotFollow(f"spywhere: {card} is shown from the pile but the shadow has it elsewhere")
        out: list[dict[int, Action]] = [{i: self._relabel(i, other)} for other in self._alike_first(i, nat_of(card))]
        for j in sorted(set(self._cards().values()) - {i}, reverse=True):  # else through another stand-in
            given = str(self.log[j][1]["card"])
            out += [{i: self._relabel(i, given), j: self._relabel(j, other)}
                    for other in self._alike_first(j, nat_of(given))[:1]]
        return out

    def _from_hand(self, seat: int, card: str) -> list[dict[int, Action]]:
        """A host seat lays a card it holds for real: a stand-in still in its hand (the latest first)
        becomes that card (and a stand-in that held that card takes the one given up)."""
        hand = self.state.hands[seat]
        mine = sorted((i for i, (kind, s) in self.hidden.items()
                       if kind == CARD and s == seat and i not in self.pinned and self.log[i][1]["card"] in hand),
                      reverse=True)
        other = self._cards().get(card)
        out: list[dict[int, Action]] = []
        for i in mine:
            if other is not None:
                out.append({i: self._relabel(i, card), other: self._relabel(other, str(self.log[i][1]["card"]))})
            elif card in self._steady(i):
                out.append({i: self._relabel(i, card)})
        if not out:
            raise CannotFollow(f"spywhere: seat {seat} lays {card}, which the shadow cannot have given it")
        return out

    def _retriples(self) -> list[dict[int, Action]]:
        """Stand-ins changed for a card of another nationality that stayed in the pile (the latest
        first): a pile of other nationalities may shuffle a triple back, or keep it, as the host's did."""
        out: list[dict[int, Action]] = []
        for i in sorted(self._cards().values(), reverse=True):
            mine = nat_of(str(self.log[i][1]["card"]))
            firsts: dict[str, str] = {}
            for card in self._steady(i):
                firsts.setdefault(nat_of(card), card)
            out += [{i: self._relabel(i, c)} for n, c in sorted(firsts.items()) if n != mine]
        return out

    def _passport_slots(self) -> dict[int, tuple[int, str]]:
        """Each stand-in passport's log index -> (seat, passport)."""
        return {i: (s, str(self.log[i][1]["card"])) for i, (kind, s) in self.hidden.items() if kind == PASSPORT}

    def _passport_free(self, card: str) -> dict[int, Action]:
        """A passport dealt to a joining seat that a stand-in holds: the stand-in takes the first passport left."""
        held = {p: i for i, (_, p) in self._passport_slots().items()}
        spare = sorted(p for p in undealt_passports(self.state) if p != card)
        if card not in held or not spare:
            raise CannotFollow(f"spywhere: the passport {card} cannot be dealt in the shadow")
        return {held[card]: self._relabel(held[card], spare[0])}

    def _passports(self, seat: int, nat: str) -> dict[int, Action]:
        """A host seat takes a triple of `nat`: its passports are not of it. The first exchange that
        fits every triple each host seat took, else the first assignment that does."""
        state = self.state
        taken = {s: {nat_of(c) for c in state.clues[s]} | ({nat} if s == seat else set()) for s in range(state.players)}
        slots = self._passport_slots()
        fits = {i: p for i, (s, p) in slots.items() if nat_of(p) not in taken[s]}
        wrong = [i for i in slots if i not in fits]
        spare = sorted(undealt_passports(state))
        if len(wrong) == 1:
            i = wrong[0]
            s, mine = slots[i]
            for p in spare:  # an undealt passport first: one stand-in changes
                if nat_of(p) not in taken[s]:
                    return {i: self._relabel(i, p)}
            for j in sorted(slots, reverse=True):
                t, theirs = slots[j]
                if j != i and t != s and nat_of(theirs) not in taken[s] and nat_of(mine) not in taken[t] \
                        and theirs not in state.passports[s]:
                    return {i: self._relabel(i, theirs), j: self._relabel(j, mine)}
        order = sorted(slots)
        pool = sorted({p for _, p in slots.values()} | set(spare))
        found = _assign(order, [slots[i][0] for i in order], pool, taken)
        if found is None:
            raise CannotFollow("spywhere: no passports fit the triples taken")
        return {i: self._relabel(i, p) for i, p in zip(order, found) if p != slots[i][1]}

    # -- the end: everything shown --------------------------------------------------------------
    def _revealed(self, real: SpyState, log: Moves) -> dict[int, Action]:
        """The stand-ins as the end shows them: the passports, the identifications and the cards each
        host seat drew (a card in hand, or laid since: each given to a draw made while it was out of sight)."""
        changes: dict[int, Action] = {}
        state, sights = self.state, spy_draws.sightings(self.states, log, self.seats)
        for seat in range(real.players):
            if seat in self.seats:
                continue
            mine = sorted(i for i, (_, s) in self.hidden.items() if s == seat)
            passports = [i for i in mine if self.hidden[i][0] == PASSPORT]
            guesses = [i for i in mine if self.hidden[i][0] == IDENTIFY]
            draws = [i for i in mine if self.hidden[i][0] == CARD]
            cards = [i for i in draws if i not in self.pinned]
            shown = set(state.hands[seat]) - {str(log[i][1]["card"]) for i in cards}
            held = sorted(set(real.hands[seat]) - shown)
            if len(passports) != len(real.passports[seat]) or len(guesses) != len(real.guesses[seat]) \
                    or len(held) != len(cards):
                raise CannotFollow(f"spywhere: seat {seat}'s stand-ins do not match what the end shows")
            for i, p in zip(passports, real.passports[seat]):
                changes[i] = {**log[i][1], "card": p}
            for i, (target, nat) in zip(guesses, real.guesses[seat]):
                changes[i] = {**log[i][1], "target": target, "nationality": nat}
            bounds = [(*spy_draws.window(sights.get(c, []), None), c) for c in held]
            for i in draws:
                if i in self.pinned:
                    laid = str(log[i][1]["card"])
                    bounds.append((*spy_draws.window(sights.get(laid, []), i), laid))
            found = spy_draws.match(draws, bounds)
            if found is None:
                raise CannotFollow(f"spywhere: seat {seat}'s cards were in sight after the draws standing in for them")
            for i, card in zip(draws, found):
                changes[i] = {**log[i][1], "card": card}
        return {i: a for i, a in changes.items() if a != log[i][1]}

    # -- one move of the host's ---------------------------------------------------------------------
    def _replay(self, log: Moves, start: int, told: int) -> list[SpyState]:
        """The states along `log` from move `start`, each of the first `told` moves telling the joining
        seats what they were told; CannotFollow if one is illegal or tells them otherwise."""
        states = self.states[:start + 1]
        for n in range(start, len(log)):
            seat, action = log[n]
            try:
                states.append(self.game.apply(states[-1], seat, action).state)
            except IllegalAction as exc:
                raise CannotFollow(f"spywhere: move {n} as told is illegal ({exc.code})") from None
            if n < told and self._told(states[-1]) != self.seen[n]:
                raise CannotFollow(f"spywhere: move {n} as told would show the joining seats another game")
        return states

    def costly(self, seat: int, action: Action, real: Any) -> bool:
        """True when the message for this move tells earlier moves again (a stand-in changes, or the end
        shows every one): a replay of up to the whole game, made off the table's loop (teller.py)."""
        if self.game.outcome(real) is not None:
            return True
        if self._secret(seat, action) is not None:
            return False
        try:
            if self._repairs(seat, action) != [{}]:
                return True
        except CannotFollow:
            return True  # said where the message is made
        if action.get("type") == "centre" and self.state.retriple:  # a refill's last card: a re-triple or not
            try:
                return self._told(self.game.apply(self.state, seat, action).state) != self._told(real)
            except IllegalAction:
                return True  # said where the message is made
        return False

    def _tries(self, repairs: list[dict[int, Action]]) -> Iterator[dict[int, Action]]:
        """The changes tried for a move, first tried first: those the move asks for, then each with a
        stand-in changed for the pile to shuffle a triple back, or keep it, as the host's did."""
        yield from repairs
        if self.state.retriple:
            for extra in self._retriples():
                yield from ({**changes, **extra} for changes in repairs if not set(changes) & set(extra))

    def step(self, before: Any, seat: int, action: Action, real: Any) -> tuple[str, dict[str, JSON]]:
        """The message for the host's move to `real`: ("move", ...), or ("rewrite", ...) when stand-ins changed."""
        old = len(self.log)
        secret = self._secret(seat, action)
        shown = self._stand_in(action, *secret) if secret is not None else dict(action)
        hidden = dict(self.hidden)
        if secret is not None:
            hidden[old] = secret
        done = self.game.outcome(real) is not None
        why = CannotFollow(f"spywhere: the host's move {old} has no counterpart for the joining seats")
        for changes in islice(self._tries([{}] if secret is not None else self._repairs(seat, action)), TRIES):
            try:
                log, start, states = self._told_as(changes, (seat, shown), real, hidden, done)
                break
            except CannotFollow as exc:
                why = exc
        else:
            raise why
        self.log[:] = log  # in place: the remote seats hold this list as the moves told
        self.states, self.hidden = states, hidden
        self.seen = [*self.seen[:old], self._told(states[-1])]
        self._pin()
        fields: dict[str, JSON]
        if start == old:
            fields = {"n": old, "seat": seat, "action": to_json(dict(self.log[old][1])),
                      "views": view_digests(self.game, real, self.seats)}
            if secret is not None and not done:
                fields["hidden"] = True
            return "move", fields
        return "rewrite", {"from": start, "moves": [[s, to_json(dict(a))] for s, a in self.log[start:]],
                           "views": view_digests(self.game, real, self.seats), "fresh": old}

    def _told_as(self, changes: dict[int, Action], move: tuple[int, Action], real: SpyState,
                 hidden: dict[int, tuple[str, int]], done: bool) -> tuple[Moves, int, list[SpyState]]:
        """(log, first move changed, states) with `changes` and the new move; CannotFollow if they do
        not tell the joining seats what they were told and what the host's move shows them."""
        old = len(self.log)
        log = [(s, changes.get(i, a)) for i, (s, a) in enumerate(self.log)] + [move]
        start = min(changes, default=old)
        states = self._replay(log, start, old)
        if not done and self._told(states[-1]) != self._told(real):
            raise CannotFollow(f"spywhere: the host's move {old} has no counterpart for the joining seats")
        if done:  # the end shows every secret: the stand-ins become what it shows
            ended = self.clone()
            ended.log, ended.states, ended.hidden = log, states, hidden
            final = ended._revealed(real, log)
            if final:
                log = [(s, final.get(i, a)) for i, (s, a) in enumerate(log)]
                start = min(start, *final)
                states = self._replay(log, start, old)
            if states[-1] != real:
                raise CannotFollow("spywhere: the moves as the end shows them do not make the host's game")
        return log, start, states

    def _pin(self) -> None:
        """A stand-in card no longer in its seat's hand was laid in the centre as the real card: for good."""
        hands, over = self.state.hands, self.state.phase == OVER
        # a new set: a clone shares the old one
        self.pinned = self.pinned | {i for i, (kind, seat) in self.hidden.items()
                                     if kind == CARD and (over or self.log[i][1]["card"] not in hands[seat])}


def _assign(order: list[int], owners: list[int], pool: list[str], taken: dict[int, set[str]]) -> list[str] | None:
    """The first passports (in `pool`'s order) for the stand-ins of `owners`, each seat's fitting its triples."""
    out: list[str] = []

    def place(k: int) -> bool:
        if k == len(order):
            return True
        for p in pool:
            if p not in out and nat_of(p) not in taken[owners[k]]:
                out.append(p)
                if place(k + 1):
                    return True
                out.pop()
        return False

    return out if place(0) else None
