"""What each seat may know (view) and what its 128x64 screen shows (screen, from the view only)."""

from __future__ import annotations

from typing import Any

from games.core import Screen, Text, essential
from games.mata_hari import cards as C
from games.mata_hari.scoring import eliminated, points
from games.mata_hari.state import (
    COMPOSING, CONFIRMED, COUNTER, DEAL, DRAW, HITMAN, OFFER, OVER, REQUIRE, SETTLE, SWAP, MHState, may_lie,
    owed, seat_name,
)
from games.mata_hari.statements import (
    Statement, category_label, parse_statement, quant_label, statement_label,
)
from games.mata_hari.rules import visionary_values


def _st(st: Statement) -> dict[str, Any]:
    return st.to_action_fields()


def view(state: MHState, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may know now (None: the public view), as JSON-ready data."""
    over = state.phase == OVER
    seats = []
    for i, s in enumerate(state.seats):
        public_said = s.status == CONFIRMED or (i == state.active and state.phase not in (OFFER, DEAL))
        entry: dict[str, Any] = {
            "seat": i, "cards": len(s.hand), "compromis": s.compromis, "incognito": s.incognito,
            "offer": len(s.offer), "status": s.status, "owed": owed(state, i), "picks": s.picks,
            "pad": len(s.offer) + len(s.loose), "has_objective": s.objective is not None,
            "said": [_st(x) for x in s.statements] if public_said else [],
        }
        if over:
            # Scoring is done face up: hands and objectives are shown.
            entry.update(hand=list(s.hand), objective=s.objective,
                         points=points(s.hand, s.objective, s.incognito))
        seats.append(entry)
    demand = None
    if state.demand is not None and state.phase not in (OFFER, DEAL):
        demand = {"mode": state.demand.mode, "statement": _st(state.demand.statement)}
    hitman = None
    if state.hitman is not None:
        h = state.hitman
        hitman = {"victim": h.victim, "demand": None if h.demand is None else _st(h.demand),
                  "waived": h.waived}
    out: dict[str, Any] = {
        "game": C.GAME_ID, "phase": state.phase, "turn": state.turn, "active": state.active,
        "players": state.players, "pile": len(state.pile), "covers": len(state.stock),
        "deal": C.setup(state.players).deal, "seats": seats, "demand": demand,
        "accusations": [{"accuser": x.accuser, "accused": x.accused, "partner": x.partner,
                         "founded": x.founded} for x in state.accusations],
        "hitman": hitman, "exchanged_with": state.exchanged_with, "removed": list(state.removed),
        "end": None if state.end is None else {"reason": state.end.reason, "seat": state.end.seat,
                                               "value": state.end.value},
        "eliminated": eliminated([s.compromis for s in state.seats]),
        "me": None,
    }
    if seat is not None and 0 <= seat < state.players:
        out["me"] = _private(state, seat)
    return out


def _private(state: MHState, seat: int) -> dict[str, Any]:
    s = state.seats[seat]
    d = s.draft
    own_demand = None
    if seat == state.active and state.demand is not None:
        own_demand = {"mode": state.demand.mode, "statement": _st(state.demand.statement)}
    return {
        "seat": seat, "hand": list(s.hand), "objective": s.objective, "offer": list(s.offer),
        "loose": list(s.loose), "said": [_st(x) for x in s.statements],
        "draft": None if d is None else {"purpose": d.purpose, "q": d.q, "n": d.n, "cat": d.cat,
                                         "target": d.target},
        "demand": own_demand, "may_lie": may_lie(s),
        "score": points(s.hand, s.objective, s.incognito),
        "visionary": visionary_values(state, seat) if state.phase not in (DEAL, OVER) else [],
        "seen": [{"seat": x.owner, "cards": list(x.cards)} for x in state.seen if x.viewer == seat],
        # Looking through the pile is what a pick is (founded accusation, Mata Hari).
        "pile": list(state.pile) if s.picks and state.phase != OVER else None,
    }


# -- screens -----------------------------------------------------------------------------------


STATUS = {"idle": ("", ""), "composing": ("en cours", "pending"), "confirmed": ("validée", "confirmed"),
          "passed": ("passe", "passed"), "withdrawn": ("retirée", "withdrawn")}


def _t(fr: str, en: str) -> Text:
    return Text(fr, en)


def _said(st: dict[str, Any]) -> Text:
    parsed = parse_statement(st)
    return statement_label(parsed) if parsed else _t("?", "?")


def _hand_summary(me: dict[str, Any], seat: dict[str, Any]) -> Text:
    counts = {"red": 0, "blue": 0, "green": 0, "partner": 0}
    for cid in me["hand"]:
        c = C.card(cid)
        counts[c.colour or "partner"] += 1
    fr = f"R{counts['red']} B{counts['blue']} V{counts['green']} P{counts['partner']} {me['score']}pts"
    en = f"R{counts['red']} B{counts['blue']} G{counts['green']} P{counts['partner']} {me['score']}pts"
    return _t(fr, en)


def _objective_line(me: dict[str, Any], seat: dict[str, Any]) -> Text:
    if me["objective"] is None:
        return _t("Objectif ?", "Objective ?")
    obj = C.card_set().objectives[me["objective"]]
    r, k = C.name(obj.resource), C.name(obj.skull)
    return _t(f"{r.fr} ☠{k.fr}", f"{r.en} ☠{k.en}")


def _cover_line(seat: dict[str, Any]) -> Text:
    cover = f"C{seat['compromis']} I{seat['incognito']}"
    return _t(f"Couvertures {cover}", f"Covers {cover}")


def _draft_line(d: dict[str, Any]) -> Text:
    if d["purpose"] == "accuse":
        return _t(f"Accuser {seat_name(d['target'])} de…", f"Accuse {seat_name(d['target'])} of…")
    head = {"declare": ("Je déclare", "I state"), "want": ("Je voudrais", "I'd like"),
            "require": ("J'exige", "I demand"), "hitman": ("J'exige", "I demand")}[d["purpose"]]
    q = quant_label(d["q"], d["n"], short=True) if d["q"] else _t("…", "…")
    c = category_label(d["cat"]) if d["cat"] else _t("", "")
    return _t(f"{head[0]} {q.fr} {c.fr}".strip(), f"{head[1]} {q.en} {c.en}".strip())


def _demand_line(demand: dict[str, Any] | None) -> Text | None:
    if demand is None:
        return None
    st = _said(demand["statement"])
    if demand["mode"] == REQUIRE:
        return _t(f"Exige {st.fr}", f"Demands {st.en}")
    return _t(f"Voudrait {st.fr}", f"Would like {st.en}")


def screen(v: dict[str, Any], seat: int | None) -> Screen:
    """The seat's screen computed from its view only."""
    phase, active = v["phase"], v["active"]
    me = v.get("me")
    title = _t(f"Mata Hari · tour {v['turn']}", f"Mata Hari · turn {v['turn']}")
    if phase == OVER:
        return _over_screen(v, me)
    if phase == DEAL:
        if me is None:
            return Screen(_t("Distribution", "Dealing"), (_t("Posez vos cartes", "Lay your cards"),
                          _t("sur votre pad", "on your pad")), icon="wait")
        mine = v["seats"][me["seat"]]
        return Screen(_t("Distribution", "Dealing"),
                      (_t("Posez vos cartes", "Lay your cards"),
                       _t(f"Cartes {mine['cards']}/{v['deal']}", f"Cards {mine['cards']}/{v['deal']}"),
                       _t("Objectif : " + ("oui" if mine["has_objective"] else "à poser"),
                          "Objective: " + ("yes" if mine["has_objective"] else "to lay"))),
                      big=str(mine["cards"]), icon="wait")
    lines: list[Text] = []
    icon = "wait"
    if me is not None:
        mine = v["seats"][me["seat"]]
        lines.extend(essential(t) for t in _todo(v, me, mine))
        if lines:
            icon = "warn"
        elif me["seat"] == active and phase in (OFFER, COUNTER, HITMAN):
            icon = "turn"
    lines.extend(_phase_lines(v, me))
    if me is not None:
        mine = v["seats"][me["seat"]]
        # the most urgent line, then the objective and the hand: with a menu they stay in view
        # (the first page), the other lines go on the pages ◀ ▶ reach past the menu
        lines = [*lines[:1], essential(_objective_line(me, mine)), essential(_hand_summary(me, mine)), *lines[1:],
                 _cover_line(mine)]
    return Screen(title, tuple(lines), icon=icon)


def _todo(v: dict[str, Any], me: dict[str, Any], mine: dict[str, Any]) -> list[Text]:
    out = []
    if me["draft"] is not None:
        out.append(_draft_line(me["draft"]))
    if mine["owed"]:
        out.append(_t("Prenez 1 couverture", "Take 1 cover"))
    if mine["picks"]:
        out.append(_t(f"Pioche : prenez {mine['picks']}", f"Pile: take {mine['picks']}"))
    if me["loose"]:
        out.append(_t(f"Ramassez {len(me['loose'])} carte(s)", f"Lift {len(me['loose'])} card(s)"))
    if me["visionary"]:
        out.append(_t(f"Vous avez tous les {me['visionary'][0]} !", f"You hold every {me['visionary'][0]}!"))
    return out


def _phase_lines(v: dict[str, Any], me: dict[str, Any] | None) -> list[Text]:
    phase, a = v["phase"], v["active"]
    mine = None if me is None else me["seat"]
    act = v["seats"][a]
    if phase == OFFER:
        if mine == a:
            said = [_said(x) for x in me["said"]] if me else []
            dl = _demand_line(me["demand"]) if me else None
            out = [_t(f"Offre {len(me['offer'])}/3 : posez", f"Offer {len(me['offer'])}/3: lay")]
            out += said[:1] + ([dl] if dl else [])
            return out
        return [_t(f"{seat_name(a)} prépare son offre", f"{seat_name(a)} prepares an offer")]
    if phase == COUNTER:
        out = [_t(f"{seat_name(a)} offre {act['offer']}", f"{seat_name(a)} offers {act['offer']}")]
        out += [_said(x) for x in act["said"][:1]]
        dl = _demand_line(v["demand"])
        if dl:
            out.append(dl)
        if mine is not None and mine != a:
            st = v["seats"][mine]
            fr, en = STATUS[st["status"]]
            out.insert(0, _t(f"Votre offre {st['offer']}/{act['offer']} {fr}",
                             f"Your offer {st['offer']}/{act['offer']} {en}"))
        elif mine == a:
            ready = [seat_name(i) for i, s in enumerate(v["seats"]) if s["status"] == CONFIRMED]
            busy = [seat_name(i) for i, s in enumerate(v["seats"]) if s["status"] == COMPOSING]
            out.insert(0, _t("Offres : " + (" ".join(ready) or "aucune"),
                             "Offers: " + (" ".join(ready) or "none")))
            if busy:
                out.insert(1, _t("En cours : " + " ".join(busy), "Pending: " + " ".join(busy)))
        return out
    if phase == HITMAN:
        return [_t(f"Tueur de {seat_name(a)} !", f"{seat_name(a)}'s Hitman!")]
    if phase == SWAP:
        h = v["hitman"]
        st = _said(h["demand"]) if h and h["demand"] else _t("", "")
        return [_t(f"{seat_name(h['victim'])} remplace", f"{seat_name(h['victim'])} swaps"),
                _t(f"Exigé : {st.fr}", f"Demanded: {st.en}")]
    if phase in (DRAW, SETTLE):
        return [_t(f"Fin du tour de {seat_name(a)}", f"End of {seat_name(a)}'s turn")]
    return []


def _over_screen(v: dict[str, Any], me: dict[str, Any] | None) -> Screen:
    end = v["end"] or {}
    lines = []
    if end.get("reason") == "visionary":
        lines.append(_t(f"{seat_name(end['seat'])} : tous les {end['value']}",
                        f"{seat_name(end['seat'])}: every {end['value']}"))
        winners = [end["seat"]]
    else:
        elim = v["eliminated"]
        alive = [s for s in v["seats"] if s["seat"] not in elim]
        best = max(s["points"] for s in alive)
        winners = [s["seat"] for s in alive if s["points"] == best]
        lines.append(_t("Gagnant : " + " ".join(seat_name(w) for w in winners),
                        "Winner: " + " ".join(seat_name(w) for w in winners)))
        if elim:
            lines.append(_t("Éliminés : " + " ".join(seat_name(e) for e in elim),
                            "Out: " + " ".join(seat_name(e) for e in elim)))
    big = None
    if me is not None and end.get("reason") != "visionary":
        p = v["seats"][me["seat"]]["points"]
        lines.append(_t(f"Vous : {p} pts", f"You: {p} pts"))
        big = str(p)
    won = me is not None and me["seat"] in winners
    return Screen(_t("Fin de partie", "Game over"), tuple(essential(t) for t in lines), big=big,
                  icon="trophy" if won else None)

