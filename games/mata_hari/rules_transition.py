"""State transitions of Operation: Mata Hari: set-up, chance, every action, and the turn's flow.

Every function takes a state already checked legal by rules.reject and returns a new state plus
effects; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from games.core import CHANCE, Action, Effect, Step, Text, evolve
from games.mata_hari import pieces as C
from games.mata_hari.rules_statements import feasible, statement_label
from games.mata_hari.state import (
    ACCUSE,
    COMPOSING,
    CONFIRMED,
    COUNTER,
    DEAL,
    DECLARE,
    DRAW,
    HITMAN,
    IDLE,
    OFFER,
    OVER,
    PASSED,
    REQUIRE,
    SETTLE,
    SWAP,
    WANT,
    WITHDRAWN,
    Accusation,
    Demand,
    Draft,
    End,
    Hitman,
    MHState,
    SeatState,
    Seen,
    Statement,
    add_cards,
    has_partner,
    offer_size,
    owe_cover,
    pending,
    remove_cards,
    with_seat,
)
from games.mata_hari.texts import MESSAGES
from games.texts import join, seat_label


def initial_state(players: int) -> MHState:
    """The state before the deal: every card of the player count in the pile, covers at the centre."""
    su = C.setup(players)
    return MHState(players=players, seats=tuple(SeatState() for _ in range(players)),
                   pile=su.deck, objectives=su.objectives, stock=C.card_set().covers)


def msg(text: Text, audience: Iterable[int] | None = None, kind: str = "message", **data: Any) -> Effect:
    """An effect for an audience (None: everybody)."""
    aud = None if audience is None else frozenset(audience)
    return Effect(kind, text, aud, data)


def _names(cards: Iterable[str]) -> Text:
    return join((C.label(c) for c in cards), ", ")


# -- chance ------------------------------------------------------------------------------------


def chance_outcomes(state: MHState) -> list[tuple[Action, float]]:
    """Deal: any missing card to any seat still short (weights give a uniform deal). Draw: any pile card."""
    if state.phase == DEAL:
        deal = C.setup(state.players).deal
        need = [max(0, deal - len(s.hand)) for s in state.seats]
        no_obj = [i for i, s in enumerate(state.seats) if s.objective is None]
        total = sum(need) + len(no_obj)
        out: list[tuple[Action, float]] = []
        if no_obj:
            p = 1.0 / total / len(state.objectives)
            out += [({"type": "deal", "seat": i, "card": o}, p) for i in no_obj for o in state.objectives]
        for i, k in enumerate(need):
            if k:
                p = k / total / len(state.pile)
                out += [({"type": "deal", "seat": i, "card": c}, p) for c in state.pile]
        return out
    if state.phase == DRAW and state.draws > 0 and state.pile:
        p = 1.0 / len(state.pile)
        return [({"type": "draw", "seat": state.active, "card": c}, p) for c in state.pile]
    return []


def _chance(state: MHState, a: Mapping[str, Any]) -> Step[MHState]:
    i, cid = a["seat"], a["card"]
    s = state.seats[i]
    secret = msg(MESSAGES("received", card=C.label(cid)), {i}, "receive", card=cid)
    if cid in state.objectives:
        state = evolve(state, objectives=tuple(o for o in state.objectives if o != cid))
        state = with_seat(state, i, objective=cid, loose=(*s.loose, cid))
    else:
        state = evolve(state, pile=tuple(c for c in state.pile if c != cid))
        state = with_seat(state, i, hand=add_cards(s.hand, [cid]), loose=(*s.loose, cid))
    effects = [secret]
    if a["type"] == "draw":
        state = evolve(state, draws=state.draws - 1)
        if not state.pile:
            return _pile_out(state, effects)
        return _advance(state, effects)
    deal = C.setup(state.players).deal
    if all(s.objective is not None and len(s.hand) == deal for s in state.seats):
        state = evolve(state, phase=OFFER, active=0, turn=1)
        effects.append(msg(MESSAGES("to_play", seat=seat_label(0)), kind="turn", seat=0))
    return Step(state, tuple(effects))


# -- the turn's flow ---------------------------------------------------------------------------


def _end(state: MHState, end: End, effects: list[Effect]) -> Step[MHState]:
    state = evolve(state, phase=OVER, end=end)
    effects.append(msg(MESSAGES(f"end_{end.reason}"), kind="end", reason=end.reason))
    return Step(state, tuple(effects))


def _next_turn(state: MHState) -> MHState:
    seats = tuple(evolve(s, offer=(), statements=(), status=IDLE, draft=None) for s in state.seats)
    return evolve(state, seats=seats, phase=OFFER, active=(state.active + 1) % state.players,
                   turn=state.turn + 1, demand=None, accusations=(), seen=(), draws=0, hitman=None,
                   exchanged_with=None)


def _pile_out(state: MHState, effects: list[Effect]) -> Step[MHState]:
    """The pile's last card was drawn or picked: no more draws or picks; covers due still come.

    The rulebook's refusal reads « pioche 2 cartes …, prend 1 carte Couverture du côté Compromis »
    and a founded accusation's cover comes before the accuser's pick: a cover already due when the
    pile runs out is taken before the game ends (see `_advance`).
    """
    seats = tuple(evolve(s, picks=0) for s in state.seats)
    state = evolve(state, seats=seats, draws=0)
    if state.phase in (DRAW, COUNTER) and state.covers_due:
        state = evolve(state, phase=SETTLE)  # the turn is over: only the covers due remain
        effects.append(msg(MESSAGES("pile_empty"), kind="message"))
    return _advance(state, effects)


def _advance(state: MHState, effects: list[Effect]) -> Step[MHState]:
    """End the game when an end condition holds, else pass the turn once nothing is owed.

    A refusal's draws come before its cover (rulebook order), so the end conditions wait for the
    draws to be done whatever order the cards were handled in on the table.
    """
    if state.phase == DRAW and state.draws == 0:
        state = evolve(state, phase=SETTLE)
    if state.phase != DRAW:
        if not state.stock:
            return _end(state, End("pile" if not state.pile else "covers"), effects)
        if not state.pile and not state.covers_due:
            return _end(state, End("pile"), effects)
    if state.phase == SETTLE and not pending(state):
        state = _next_turn(state)
        effects.append(msg(MESSAGES("to_play", seat=seat_label(state.active)), kind="turn", seat=state.active))
    return Step(state, tuple(effects))


def _return_offers(state: MHState) -> MHState:
    """Every offer still on a pad goes back to its owner's hand (the cards stay on the pad: loose)."""
    seats = tuple(evolve(s, loose=(*s.loose, *s.offer), offer=(), statements=(), draft=None)
                  for s in state.seats)
    return evolve(state, seats=seats)


def _exchange(state: MHState, j: int, effects: list[Effect]) -> Step[MHState]:
    a = state.active
    give, get = state.seats[a].offer, state.seats[j].offer
    state = with_seat(state, a, hand=add_cards(remove_cards(state.seats[a].hand, give), get))
    state = with_seat(state, j, hand=add_cards(remove_cards(state.seats[j].hand, get), give))
    state = evolve(_return_offers(state), phase=SETTLE, exchanged_with=j)
    effects += [
        msg(MESSAGES("exchange", a=seat_label(a), b=seat_label(j)), kind="exchange", seats=[a, j], count=len(give)),
        msg(MESSAGES("you_get", cards=_names(get)), {a}, "receive", cards=list(get)),
        msg(MESSAGES("you_get", cards=_names(give)), {j}, "receive", cards=list(give)),
    ]
    return _advance(state, effects)


def _accuse(state: MHState, seat: int, t: int, kind: str) -> Step[MHState]:
    target = state.seats[t]
    partner = has_partner(target.offer, kind)
    pname = C.name(kind)
    state = with_seat(state, seat, draft=None)
    if partner is None:
        look = Seen(seat, t, target.offer)
        # Accusing the same offer again shows nothing new: keep one record of the look.
        seen = state.seen if look in state.seen else (*state.seen, look)
        state = evolve(state, accusations=(*state.accusations, Accusation(seat, t, kind, False)),
                        seen=seen)
        state = owe_cover(state, seat)
        effects = [
            msg(MESSAGES("unfounded", a=seat_label(seat), b=seat_label(t)), kind="verdict",
                accuser=seat, accused=t, partner=kind, founded=False),
            msg(MESSAGES("offer_seen", seat=seat_label(t), cards=_names(target.offer)), {seat}, "reveal",
                seat=t, cards=list(target.offer)),
        ]
        return Step(state, tuple(effects))
    state = evolve(state, accusations=(*state.accusations, Accusation(seat, t, kind, True)),
                    removed=(*state.removed, partner))
    state = with_seat(state, t, hand=remove_cards(target.hand, [partner]), offer=(), statements=(),
                      loose=(*target.loose, *target.offer), status=WITHDRAWN, draft=None)
    state = owe_cover(state, t)
    state = with_seat(state, seat, picks=state.seats[seat].picks + 1)
    effects = [msg(MESSAGES("founded", seat=seat_label(t), partner=pname), kind="verdict",
                   accuser=seat, accused=t, partner=kind, founded=True, card=partner)]
    if t == state.active:
        # The active player's offer is withdrawn: no exchange this turn.
        state = evolve(_return_offers(state), phase=SETTLE)
        return _advance(state, effects)
    return Step(state, tuple(effects))


def _complete_statement(state: MHState, seat: int, value: Any) -> Step[MHState]:
    s = state.seats[seat]
    d = s.draft
    assert d is not None and d.q is not None and d.cat is not None
    st = Statement(d.q, d.n, d.cat, value)
    state = with_seat(state, seat, draft=None)
    if d.purpose == DECLARE:
        return Step(with_seat(state, seat, statements=(*s.statements, st)))
    if d.purpose in (WANT, REQUIRE):
        return Step(evolve(state, demand=Demand(d.purpose, st)))
    # The Hitman's demand: the victim substitutes if it holds what is demanded.
    h = state.hitman
    assert h is not None
    state = evolve(state, hitman=evolve(h, demand=st))
    text = statement_label(st)
    victim = state.seats[h.victim]
    effects = [msg(MESSAGES("demand", st=text), kind="demand", seat=seat)]
    if feasible(st, (), victim.hand, offer_size(state), wild=False):
        effects.append(msg(MESSAGES("must_swap", seat=seat_label(h.victim)), kind="message"))
        return Step(evolve(state, phase=SWAP), tuple(effects))
    effects.append(msg(MESSAGES("cannot_swap", seat=seat_label(h.victim)), kind="message"))
    return _exchange(state, h.victim, effects)


def _edited(state: MHState, seat: int, offer: tuple[str, ...]) -> MHState:
    """A change of the offer's cards clears what was said about them (and the active's demand)."""
    status = state.seats[seat].status
    if state.phase == COUNTER:
        status = COMPOSING if offer else IDLE
    state = with_seat(state, seat, offer=offer, statements=(), draft=None, status=status)
    if state.phase == OFFER:
        state = evolve(state, demand=None)
    return state


def transition(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    """The new state and effects for a legal action."""
    if seat == CHANCE:
        return _chance(state, a)
    apply = _ACTIONS.get(a["type"])
    if apply is None:
        raise AssertionError(f"unhandled action {a['type']}")  # rules.reject refuses unknown types
    return apply(state, seat, a)


def _lift(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    s = state.seats[seat]
    gone = [a["card"]] if "card" in a else list(s.loose)
    return Step(with_seat(state, seat, loose=remove_cards(s.loose, gone)))


def _take_cover(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    s = state.seats[seat]
    stock = tuple(c for c in state.stock if c != a["cover"])
    state = evolve(state, stock=stock)
    state = evolve(state, covers_due=state.covers_due[1:])
    state = with_seat(state, seat, covers=(*s.covers, a["cover"]), compromis=s.compromis + 1)
    effects = [msg(MESSAGES("cover_taken", seat=seat_label(seat)), kind="cover", seat=seat)]
    if not stock:
        state = evolve(state, covers_due=())  # none left to take: the game ends (_advance)
    return _advance(state, effects)


def _lay(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return Step(_edited(state, seat, (*state.seats[seat].offer, a["card"])))


def _take_back(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return Step(_edited(state, seat, remove_cards(state.seats[seat].offer, [a["card"]])))


def _say(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return Step(with_seat(state, seat, draft=Draft(a["what"])))


def _quant(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    draft = state.seats[seat].draft
    assert draft is not None
    return Step(with_seat(state, seat, draft=evolve(draft, q=a["q"], n=a.get("n", 0))))


def _cat(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    draft = state.seats[seat].draft
    assert draft is not None
    return Step(with_seat(state, seat, draft=evolve(draft, cat=a["cat"])))


def _pred(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return _complete_statement(state, seat, a["value"])


def _cancel(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return Step(with_seat(state, seat, draft=None))


def _clear(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    state = with_seat(state, seat, statements=(), draft=None)
    return Step(evolve(state, demand=None) if state.phase == OFFER else state)


def _confirm_action(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return _confirm(state, seat)


def _step_out(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    """pass or withdraw: the offer goes back loose, the seat is out of this negotiation."""
    s = state.seats[seat]
    passed = a["type"] == "pass"
    state = with_seat(state, seat, loose=(*s.loose, *s.offer), offer=(), statements=(), draft=None,
                      status=PASSED if passed else WITHDRAWN)
    text = MESSAGES("passes" if passed else "withdraws", seat=seat_label(seat))
    return Step(state, (msg(text, kind="status"),))


def _accuse_action(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    if "partner" not in a:
        return Step(with_seat(state, seat, draft=Draft(ACCUSE, target=a["target"])))
    return _accuse(state, seat, a["target"], a["partner"])


def _accept_action(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return _accept(state, a["seat"], bool(a.get("hitman")))


def _refuse(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    """refuse or no_offer: offers back, the active seat draws two and owes a cover."""
    state = evolve(_return_offers(state), phase=DRAW, draws=2)
    state = owe_cover(state, seat)
    return Step(state, (msg(MESSAGES("refuses", seat=seat_label(seat)), kind="refuse"),))


def _mata_hari(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    state = evolve(_return_offers(state), phase=SETTLE)
    s = state.seats[seat]
    state = with_seat(state, seat, incognito=s.incognito + s.compromis, compromis=0, picks=s.picks + 2)
    return _advance(state, [msg(MESSAGES("mata_hari"), kind="mata_hari", seat=seat)])


def _no_demand(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    h = state.hitman
    assert h is not None
    return _exchange(evolve(state, hitman=evolve(h, waived=True)), h.victim, [])


def _pick(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    s = state.seats[seat]
    cid = a["card"]
    state = evolve(state, pile=tuple(c for c in state.pile if c != cid))
    state = with_seat(state, seat, hand=add_cards(s.hand, [cid]), loose=(*s.loose, cid), picks=s.picks - 1)
    effects = [msg(MESSAGES("picks", seat=seat_label(seat)), kind="pick")]
    if not state.pile:
        return _pile_out(state, effects)
    return _advance(state, effects)


def _pick_done(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    return _advance(with_seat(state, seat, picks=0), [])


def _visionary(state: MHState, seat: int, a: Mapping[str, Any]) -> Step[MHState]:
    v = a["value"]
    shown = sorted(C.setup(state.players).by_value[v])
    effects = [msg(MESSAGES("visionary", seat=seat_label(seat), value=v), kind="reveal", seat=seat, cards=shown)]
    return _end(state, End("visionary", seat, v), effects)


_ACTIONS: Final[Mapping[str, Callable[[MHState, int, Mapping[str, Any]], Step[MHState]]]] = {
    "lift": _lift, "take_cover": _take_cover, "lay": _lay, "take_back": _take_back,
    "say": _say, "quant": _quant, "cat": _cat, "pred": _pred, "cancel": _cancel, "clear": _clear,
    "confirm": _confirm_action, "pass": _step_out, "withdraw": _step_out, "accuse": _accuse_action,
    "accept": _accept_action, "refuse": _refuse, "no_offer": _refuse, "mata_hari": _mata_hari,
    "no_demand": _no_demand, "pick": _pick, "pick_done": _pick_done, "visionary": _visionary,
}


def _confirm(state: MHState, seat: int) -> Step[MHState]:
    s = state.seats[seat]
    said = [statement_label(st) for st in s.statements]
    if state.phase == OFFER:
        d = state.demand
        if d is not None:
            t = statement_label(d.statement)
            said.append(MESSAGES("demand" if d.mode == REQUIRE else "wish", st=t))
        effects = [msg(MESSAGES("offers", seat=seat_label(seat), n=len(s.offer)),
                       kind="offer", seat=seat, count=len(s.offer),
                       said=[t.fr for t in said])]
        return Step(evolve(state, phase=COUNTER), tuple(effects))
    if state.phase == SWAP:
        assert state.hitman is not None
        return _exchange(state, state.hitman.victim, [])
    state = with_seat(state, seat, status=CONFIRMED, draft=None)
    return Step(state, (msg(MESSAGES("counter_offers", seat=seat_label(seat)), kind="offer", seat=seat,
                            count=len(s.offer), said=[t.fr for t in said]),))


def _accept(state: MHState, j: int, hitman: bool) -> Step[MHState]:
    a = state.active
    state = evolve(state, seats=tuple(evolve(s, draft=None) for s in state.seats))
    if not hitman:
        return _exchange(state, j, [])
    state = evolve(state, phase=HITMAN, hitman=Hitman(j), exchanged_with=j)
    state = owe_cover(state, j)
    return Step(state, (msg(MESSAGES("hitman", seat=seat_label(j)), kind="hitman", seat=a, victim=j),))

