"""What each seat may know: the public table, the seat's own document, its team's secret.

A document's title, card, side, lines and censoring are only ever in its reader's view (the
table never shows lines to anyone else, even after they are read aloud). What becomes public is
stored in public fields of the Reading when it becomes public (theme, initial, ticks, title).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.core import CHANCE, Text

from .pieces import SIDES, GameData
from .rules_rounds import final_result, visible_count
from .rules_variants import mission_slots
from .state import (
    ECHEC, STAGE_READY, TRANSMIT, OZState, Reading, opponents, reading_of, team_of,
    team_seats, with_reading,
)


def _public_reading(r: Reading) -> dict[str, Any]:
    return {
        "seat": r.seat,
        "status": "ready" if r.stage == STAGE_READY else "preparing",
        "ticks": r.ticks if r.stage == STAGE_READY else None,
        "started": r.started,
        "category": r.category,
        "hint": r.hint,
        "initial": r.initial,
        "erase_value": r.erase_value,
        "result": r.result,
        "title": r.title,
        "mission": r.mission if r.started else None,
    }


def _own_reading(data: GameData, state: OZState, r: Reading) -> dict[str, Any]:
    lib = data.library
    doc = lib.document(r.document)
    sides = {}
    if r.card is not None:
        card = lib.card(r.card)
        for side in SIDES:
            d = lib.document(card.side(side))
            sides[side] = d.title if d is not None else None
    lines = [] if doc is None else [
        {"text": line.text, "value": line.value, "hidden": hid}
        for line, hid in zip(doc.lines, r.hidden)
    ]
    shown = [ln for ln in lines if not ln["hidden"]]
    return {
        "seat": r.seat,
        "stage": r.stage,
        "card": r.card,
        "side": r.side,
        "sides": sides,
        "known": doc is not None,
        "title": doc.title if doc is not None else None,
        "category": doc.category if doc is not None else None,
        "initial": doc.initial if doc is not None else None,
        "lines": lines,
        "visible": len(shown),
        "sum": sum(ln["value"] for ln in shown),
        "readable": visible_count(data, r),
        "erase_line": r.erase_line,
        "ticks": r.ticks,
        "mission": r.mission,
        "hint": r.hint,
        "result": r.result,
    }


def build_view(data: GameData, state: OZState, seat: int | None, to_act: frozenset[int]) -> dict[str, Any]:
    """The view of `seat` (None = public)."""
    view: dict[str, Any] = {
        "mode": state.mode,
        "difficulty": state.difficulty,
        "players": state.players,
        "seat": seat,
        "round": state.round,
        "rounds": state.rounds,
        "phase": state.phase,
        "step": state.step if state.phase in (TRANSMIT, ECHEC) else None,
        "to_act": sorted("chance" if s == CHANCE else s for s in to_act),
        "hints": state.hints,
        "tracks": [{"size": t.size, "ticked": t.ticked, "left": t.left,
                    "score": t.score if state.competitive else None} for t in state.tracks],
        "readings": [_public_reading(r) for r in state.readings],
        "order": list(state.order),
        "reader": state.reader,
        "own": None,
        "over": state.phase == "over",
        "lost": state.lost,
        "reason": state.reason,
        "result": final_result(state),
    }
    if state.competitive:
        view["teams"] = [list(team_seats(state, t)) for t in (0, 1)]
        view["team"] = team_of(state, seat) if seat is not None else None
        view["interceptions"] = [list(b) for b in state.interceptions]
        view["lock"] = state.lock
        view["checked"] = state.check is not None
        reader = state.reader
        if seat is not None and reader is not None and seat in opponents(state, reader):
            view["check"] = state.check
    else:
        view["echecs"] = {"left": state.echec_limit - len(state.echecs_drawn),
                          "drawn": [state.echec_values[i] for i in state.echecs_drawn]}
        view["protocols"] = [{"id": p, "text": data.protocols[p].text} for p in state.protocols]
        if state.mission_cards:
            names = [data.mission_cards[c].name for c in state.mission_cards]
            view["missions"] = {
                "cards": list(state.mission_cards),
                "name": Text(" + ".join(n.fr for n in names), " + ".join(n.en for n in names)),
                "list": [{"card": m.card, "text": m.text, "done": done}
                         for m, done in zip(mission_slots(data, state.mission_cards), state.missions_done)]}
        else:
            view["missions"] = None
    if seat is not None:
        mine = reading_of(state, seat)
        if mine is not None:
            view["own"] = _own_reading(data, state, mine)
    return view


def _variant_documents(data: GameData, r: Reading) -> list[str]:
    ids = sorted(data.library.documents)
    return [d for d in ids if d != r.document][:2]


def hidden_variants(data: GameData, state: OZState, seat: int) -> list[OZState]:
    """States differing only in what `seat` may not know: other readers' cards, sides,
    documents, censoring, erased line, private mission claims; the other team's secret check."""
    out: list[OZState] = []
    keys = data.library.card_keys()
    for r in state.readings:
        if r.seat == seat:
            continue
        for k, doc_id in enumerate(_variant_documents(data, r)):
            n = len(data.library.documents[doc_id].lines)
            card = next((c for c in keys if c != r.card), r.card)
            changed = replace(
                r,
                card=card,
                side=None if r.side is None else ("verso" if r.side == "recto" else "recto"),
                document=None if r.side is None else doc_id,
                hidden=() if r.side is None else tuple((i + k) % 2 == 0 for i in range(n)),
                erase_line=None if r.erase_line is None else (r.erase_line + 1) % n,
                mission=r.mission if r.started or not state.mission_cards else
                (None if r.mission is not None else 0),
            )
            out.append(with_reading(state, changed))
        if r.side is not None:  # the same reading as an unknown document entered by sum
            out.append(with_reading(state, replace(r, card=None, side=None, document=None, hidden=(),
                                                   erase_line=None)))
    reader = state.reader
    if state.competitive and reader is not None and state.check is not None \
            and seat not in opponents(state, reader):
        out.append(replace(state, check=not state.check))
    return out
