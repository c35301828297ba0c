"""What each seat may know (typed views) and what its 128x64 screen shows (from the view only)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache

from games.core import Screen, Text, essential, evolve, last_state
from games.frozen import quick_init
from games.mata_hari import pieces as C
from games.mata_hari.rules import visionary_values
from games.mata_hari.rules_statements import category_label, quant_label, statement_label
from games.mata_hari.scoring import eliminated, points
from games.mata_hari.state import (
    COMPOSING,
    CONFIRMED,
    COUNTER,
    DEAL,
    DRAW,
    HITMAN,
    OFFER,
    OVER,
    REQUIRE,
    SETTLE,
    SWAP,
    Accusation,
    Demand,
    Draft,
    End,
    Hitman,
    MHState,
    Statement,
    may_lie,
    owed,
)
from games.texts import join, seat_label


@quick_init
@dataclass(frozen=True)
class SeatView:
    """What everyone knows of a seat; its hand, objective and points once the game is over."""

    seat: int
    cards: int  # cards held (the offer included)
    compromis: int
    incognito: int
    offer: int  # cards in its offer now
    status: str
    owed: int  # Compromis covers still to take
    picks: int  # cards still to choose from the pile
    pad: int  # cards lying on its pad
    has_objective: bool
    said: tuple[Statement, ...]  # its declaration, once public
    hand: tuple[str, ...] | None = None  # scoring is done face up
    objective: str | None = None
    points: int | None = None


@quick_init
@dataclass(frozen=True)
class SeenOffer:
    """An offer shown to this seat after its unfounded accusation."""

    seat: int
    cards: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class PrivateView:
    """What only the seat itself knows."""

    seat: int
    hand: tuple[str, ...]
    objective: str | None
    offer: tuple[str, ...]
    loose: tuple[str, ...]  # cards on its pad outside the offer, to lift
    said: tuple[Statement, ...]
    draft: Draft | None  # the statement being built on its buttons
    demand: Demand | None  # its own demand as active player, before it is shown
    may_lie: bool
    score: int
    visionary: tuple[int, ...]  # values whose every card it holds
    seen: tuple[SeenOffer, ...]
    pile: tuple[str, ...] | None  # looking through the pile is what a pick is


@quick_init
@dataclass(frozen=True)
class MHView:
    """A seat's view (the public one when `me` is None)."""

    game: str
    phase: str
    turn: int
    active: int
    players: int
    pile: int
    covers: int
    deal: int
    seats: tuple[SeatView, ...]
    demand: Demand | None
    accusations: tuple[Accusation, ...]
    hitman: Hitman | None
    exchanged_with: int | None
    removed: tuple[str, ...]
    end: End | None
    eliminated: tuple[int, ...]
    me: PrivateView | None


def view(state: MHState, seat: int | None) -> MHView:
    """Everything `seat` may know now (None: the public view)."""
    public = _public(state)
    if seat is not None and 0 <= seat < state.players:
        return evolve(public, me=_private(state, seat))
    return public


@last_state
def _public(state: MHState) -> MHView:
    """What every seat may know: the same for each seat's view of one state."""
    over = state.phase == OVER
    seats = []
    for i, s in enumerate(state.seats):
        public_said = s.status == CONFIRMED or (i == state.active and state.phase not in (OFFER, DEAL))
        seats.append(SeatView(
            seat=i, cards=len(s.hand), compromis=s.compromis, incognito=s.incognito, offer=len(s.offer),
            status=s.status, owed=owed(state, i), picks=s.picks, pad=len(s.offer) + len(s.loose),
            has_objective=s.objective is not None, said=s.statements if public_said else (),
            # scoring is done face up: hands and objectives are shown
            hand=s.hand if over else None, objective=s.objective if over else None,
            points=points(s.hand, s.objective, s.incognito) if over else None,
        ))
    return MHView(
        game=C.GAME_ID, phase=state.phase, turn=state.turn, active=state.active, players=state.players,
        pile=len(state.pile), covers=len(state.stock), deal=C.setup(state.players).deal, seats=tuple(seats),
        demand=state.demand if state.phase not in (OFFER, DEAL) else None,
        accusations=state.accusations, hitman=state.hitman, exchanged_with=state.exchanged_with,
        removed=state.removed, end=state.end, eliminated=tuple(eliminated([s.compromis for s in state.seats])),
        me=None,
    )


_score = lru_cache(maxsize=64)(points)  # a seat's hand and covers change far less often than the state


def _private(state: MHState, seat: int) -> PrivateView:
    s = state.seats[seat]
    return PrivateView(
        seat=seat, hand=s.hand, objective=s.objective, offer=s.offer, loose=s.loose, said=s.statements,
        draft=s.draft, demand=state.demand if seat == state.active else None, may_lie=may_lie(s),
        score=_score(tuple(s.hand), s.objective, s.incognito),
        visionary=tuple(visionary_values(state, seat)) if state.phase not in (DEAL, OVER) else (),
        seen=tuple(SeenOffer(x.owner, x.cards) for x in state.seen if x.viewer == seat),
        pile=state.pile if s.picks and state.phase != OVER else None,
    )


# -- screens -----------------------------------------------------------------------------------


def screen_key(state: MHState, seat: int, pad_sensed: bool) -> Hashable | None:
    """Everything `screen` reads of the seat's view, from what the seat may know: its own holdings,
    the covers it owes and the turn's public course (None once the game is over)."""
    phase = state.phase
    if phase == OVER or not 0 <= seat < state.players:
        return None
    mine = state.seats[seat]  # one object while the seat's holdings, draft and status stay
    if phase == DEAL:
        return DEAL, state.players, len(mine.hand), mine.objective is not None, pad_sensed
    active = state.active
    # the hand gives the score and the values held (visionary), with the objective and covers
    key = (phase, state.players, state.turn, active, pad_sensed, mine, state.covers_due.count(seat))
    if phase == OFFER:
        return (*key, state.demand) if seat == active else key  # the demand: the active seat's own yet
    if phase == COUNTER:
        act = state.seats[active]
        others = tuple(s.status for s in state.seats) if seat == active else None
        return (*key, len(act.offer), act.statements, state.demand, others)
    if phase == SWAP:
        return (*key, state.hitman)
    return key


STATUS = {"idle": ("", ""), "composing": ("en cours", "pending"), "confirmed": ("validée", "confirmed"),
          "passed": ("passe", "passed"), "withdrawn": ("retirée", "withdrawn")}


def _t(fr: str, en: str) -> Text:
    return Text(fr, en)


def _said(st: Statement) -> Text:
    return statement_label(st)


def _hand_summary(me: PrivateView, seat: SeatView) -> Text:
    return _hand_counts(tuple(me.hand), me.score)


@lru_cache(maxsize=64)
def _hand_counts(hand: tuple[str, ...], score: int) -> Text:
    """Cards by colour and the score (cached: a hand stays the same while the others play)."""
    counts = {"red": 0, "blue": 0, "green": 0, "partner": 0}
    for cid in hand:
        c = C.card(cid)
        counts[c.colour or "partner"] += 1
    fr = f"R{counts['red']} B{counts['blue']} V{counts['green']} P{counts['partner']} {score}pts"
    en = f"R{counts['red']} B{counts['blue']} G{counts['green']} P{counts['partner']} {score}pts"
    return _t(fr, en)


def _objective_line(me: PrivateView, seat: SeatView) -> Text:
    return _objective_text(me.objective)


@lru_cache(maxsize=16)
def _objective_text(objective: str | None) -> Text:
    if objective is None:
        return _t("Objectif ?", "Objective ?")
    obj = C.card_set().objectives[objective]
    r, k = C.name(obj.resource), C.name(obj.skull)
    return _t(f"{r.fr} ☠{k.fr}", f"{r.en} ☠{k.en}")


def _cover_line(seat: SeatView) -> Text:
    cover = f"C{seat.compromis} I{seat.incognito}"
    return _t(f"Couvertures {cover}", f"Covers {cover}")


def _draft_line(d: Draft) -> Text:
    if d.purpose == "accuse" and d.target is not None:
        who = seat_label(d.target)
        return _t(f"Accuser {who.fr} de…", f"Accuse {who.en} of…")
    head = {"declare": ("Je déclare", "I state"), "want": ("Je voudrais", "I'd like"),
            "require": ("J'exige", "I demand"), "hitman": ("J'exige", "I demand")}[d.purpose]
    q = quant_label(d.q, d.n, short=True) if d.q else _t("…", "…")
    c = category_label(d.cat) if d.cat else _t("", "")
    return _t(f"{head[0]} {q.fr} {c.fr}".strip(), f"{head[1]} {q.en} {c.en}".strip())


def _demand_line(demand: Demand | None) -> Text | None:
    if demand is None:
        return None
    st = _said(demand.statement)
    if demand.mode == REQUIRE:
        return _t(f"Exige {st.fr}", f"Demands {st.en}")
    return _t(f"Voudrait {st.fr}", f"Would like {st.en}")


def screen(v: MHView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
    """The seat's screen computed from its view only; `pad_sensed` False: its cards are chosen in its menu."""
    phase, active = v.phase, v.active
    me = v.me
    title = _t(f"Mata Hari · tour {v.turn}", f"Mata Hari · turn {v.turn}")
    if phase == OVER:
        return _over_screen(v, me)
    if phase == DEAL:
        if me is None:
            return Screen(_t("Distribution", "Dealing"), (_t("Posez vos cartes", "Lay your cards"),
                          _t("sur votre pad", "on your pad")), icon="wait")
        mine = v.seats[me.seat]
        return Screen(_t("Distribution", "Dealing"),
                      (_t("Posez vos cartes", "Lay your cards") if pad_sensed
                       else _t("La table tire vos cartes", "The table draws your cards"),
                       _t(f"Cartes {mine.cards}/{v.deal}", f"Cards {mine.cards}/{v.deal}"),
                       _t("Objectif : " + ("oui" if mine.has_objective else "à poser" if pad_sensed else "à venir"),
                          "Objective: " + ("yes" if mine.has_objective else "to lay" if pad_sensed else "to come"))),
                      big=str(mine.cards), icon="wait")
    lines: list[Text] = []
    icon = "wait"
    if me is not None:
        mine = v.seats[me.seat]
        lines.extend(essential(t) for t in _todo(v, me, mine, pad_sensed))
        if lines:
            icon = "warn"
        elif me.seat == active and phase in (OFFER, COUNTER, HITMAN):
            icon = "turn"
    lines.extend(_phase_lines(v, me, pad_sensed))
    if me is not None:
        mine = v.seats[me.seat]
        # the most urgent line, then the objective and the hand: with a menu they stay in view
        # (the first page), the other lines go on the pages ◀ ▶ reach past the menu
        lines = [*lines[:1], essential(_objective_line(me, mine)), essential(_hand_summary(me, mine)), *lines[1:],
                 _cover_line(mine)]
    return Screen(title, tuple(lines), icon=icon)


def _todo(v: MHView, me: PrivateView, mine: SeatView, pad_sensed: bool) -> list[Text]:
    out = []
    if me.draft is not None:
        out.append(_draft_line(me.draft))
    if mine.owed:
        out.append(_t("Prenez 1 couverture", "Take 1 cover"))
    if mine.picks:
        out.append(_t(f"Pioche : prenez {mine.picks}", f"Pile: take {mine.picks}"))
    if me.loose:
        where = ("", "") if pad_sensed else (" au menu", " in the menu")
        out.append(_t(f"Ramassez {len(me.loose)} carte(s){where[0]}", f"Lift {len(me.loose)} card(s){where[1]}"))
    if me.visionary:
        out.append(_t(f"Vous avez tous les {me.visionary[0]} !", f"You hold every {me.visionary[0]}!"))
    return out


def _phase_lines(v: MHView, me: PrivateView | None, pad_sensed: bool) -> list[Text]:
    phase, a = v.phase, v.active
    mine = None if me is None else me.seat
    act = v.seats[a]
    name = seat_label(a)
    if phase == OFFER:
        if me is not None and mine == a:
            said = [_said(x) for x in me.said]
            dl = _demand_line(me.demand)
            how = ("posez", "lay") if pad_sensed else ("au menu", "in the menu")
            out = [_t(f"Offre {len(me.offer)}/3 : {how[0]}", f"Offer {len(me.offer)}/3: {how[1]}")]
            out += said[:1] + ([dl] if dl else [])
            return out
        return [_t(f"{name.fr} prépare son offre", f"{name.en} prepares an offer")]
    if phase == COUNTER:
        out = [_t(f"{name.fr} offre {act.offer}", f"{name.en} offers {act.offer}")]
        out += [_said(x) for x in act.said[:1]]
        dl = _demand_line(v.demand)
        if dl:
            out.append(dl)
        if mine is not None and mine != a:
            st = v.seats[mine]
            fr, en = STATUS[st.status]
            out.insert(0, _t(f"Votre offre {st.offer}/{act.offer} {fr}",
                             f"Your offer {st.offer}/{act.offer} {en}"))
        elif mine == a:
            ready = join(seat_label(i) for i, s in enumerate(v.seats) if s.status == CONFIRMED)
            busy = join(seat_label(i) for i, s in enumerate(v.seats) if s.status == COMPOSING)
            out.insert(0, _t("Offres : " + (ready.fr or "aucune"), "Offers: " + (ready.en or "none")))
            if busy.fr:
                out.insert(1, _t("En cours : " + busy.fr, "Pending: " + busy.en))
        return out
    if phase == HITMAN:
        return [_t(f"Tueur de {name.fr} !", f"{name.en}'s Hitman!")]
    if phase == SWAP:
        h = v.hitman
        assert h is not None
        demanded = _said(h.demand) if h.demand else _t("", "")
        victim = seat_label(h.victim)
        return [_t(f"{victim.fr} remplace", f"{victim.en} swaps"),
                _t(f"Exigé : {demanded.fr}", f"Demanded: {demanded.en}")]
    if phase in (DRAW, SETTLE):
        return [_t(f"Fin du tour de {name.fr}", f"End of {name.en}'s turn")]
    return []


def _over_screen(v: MHView, me: PrivateView | None) -> Screen:
    end = v.end
    visionary = end is not None and end.reason == "visionary" and end.seat is not None
    lines = []
    if end is not None and end.seat is not None and visionary:
        who = seat_label(end.seat)
        lines.append(_t(f"{who.fr} : tous les {end.value}", f"{who.en}: every {end.value}"))
        winners = [end.seat]
    else:
        elim = v.eliminated
        alive = [s for s in v.seats if s.seat not in elim]
        best = max((s.points for s in alive if s.points is not None), default=None)
        winners = [s.seat for s in alive if s.points == best]
        if not winners:
            # Everyone tied for most Compromis covers: the rulebook eliminates them all.
            lines.append(_t("Tous éliminés", "All eliminated"))
            lines.append(_t("Aucun gagnant", "No winner"))
        else:
            names = join(seat_label(w) for w in winners)
            lines.append(_t("Gagnant : " + names.fr, "Winner: " + names.en))
        if elim and winners:
            out = join(seat_label(e) for e in elim)
            lines.append(_t("Éliminés : " + out.fr, "Out: " + out.en))
    big = None
    if me is not None and not visionary:
        p = v.seats[me.seat].points
        lines.append(_t(f"Vous : {p} pts", f"You: {p} pts"))
        big = str(p)
    won = me is not None and me.seat in winners
    return Screen(_t("Fin de partie", "Game over"), tuple(essential(t) for t in lines), big=big,
                  icon="trophy" if won else None)

