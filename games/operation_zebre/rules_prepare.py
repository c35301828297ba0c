"""Choosing and censoring documents (simultaneous), and the set-up draws of the variant cards."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from games.core import Action, Rejection, Step, evolve, is_int
from games.operation_zebre.pieces import SIDES, GameData
from games.operation_zebre.rules_rounds import add_ticks, all_ready, begin_transmission, say, tick
from games.operation_zebre.rules_variants import combined, draw_candidates, mission_slots
from games.operation_zebre.state import (
    MAX_SUM_ENTRY,
    PREPARE,
    READERS_PER_TEAM,
    SETUP,
    STAGE_CARD,
    STAGE_CENSOR,
    STAGE_READY,
    OZState,
    Reading,
    readers_of,
    reading_of,
    team_of,
    with_reading,
    without_reading,
)
from games.operation_zebre.texts import MESSAGES, REFUSALS
from games.texts import seat_label

# action type -> its fields besides "type"
FIELDS: Mapping[str, frozenset[str]] = {
    "lay": frozenset({"card"}),
    "no_card": frozenset(),
    "withdraw": frozenset(),
    "side": frozenset({"side"}),
    "censor": frozenset({"line"}),
    "confirm": frozenset(),
    "enter_sum": frozenset({"value"}),
    "mission": frozenset({"mission"}),
}


def may_volunteer(state: OZState, seat: int) -> Rejection | None:
    """Whether a seat without a reading may start one (competitive: 2 readers a team)."""
    if state.competitive and len(readers_of(state, team_of(state, seat))) >= READERS_PER_TEAM:
        return REFUSALS("team_full")
    return None


def prepare_seats(state: OZState) -> frozenset[int]:
    """Seats that may act while documents are prepared."""
    out = {r.seat for r in state.readings if r.stage != STAGE_READY}
    for seat in range(state.players):
        if reading_of(state, seat) is None and may_volunteer(state, seat) is None:
            out.add(seat)
    return frozenset(out)


def visible_lines(data: GameData, reading: Reading) -> tuple[int, int]:
    """(visible line count, sum of their values) of a known document: what confirming ticks."""
    doc = data.library.documents[reading.document]  # type: ignore[index]
    shown = [line.value for line, hid in zip(doc.lines, reading.hidden) if not hid]
    return len(shown), sum(shown)


def _protocol_ticks(data: GameData, state: OZState, ticks: int) -> Rejection | None:
    proto = combined(data, state.protocols)
    if proto is not None and proto.max_document_ticks is not None and ticks > proto.max_document_ticks:
        return REFUSALS("protocol_ticks")
    return None


def check_prepare(data: GameData, state: OZState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    """Why a preparation action is refused, or None."""
    kind = action["type"]
    reading = reading_of(state, seat)
    if reading is not None and reading.stage == STAGE_READY:
        return REFUSALS("already_ready")
    if kind == "lay":
        return _check_lay(data, state, seat, reading, action["card"])
    if kind == "no_card":
        if reading is not None:
            return REFUSALS("has_card" if reading.card is not None else "already_laid")
        return may_volunteer(state, seat)
    if reading is None:
        return REFUSALS("no_reading")
    if kind == "withdraw":
        return None
    if kind == "side":
        return _check_side(data, reading, action["side"])
    if reading.stage == STAGE_CARD:
        return REFUSALS("side_first")
    if kind == "mission":
        return _check_mission(data, state, reading, action["mission"])
    return _check_document(data, state, reading, kind, action)


def _check_lay(data: GameData, state: OZState, seat: int, reading: Reading | None, card: Any) -> Rejection | None:
    if not data.library.has_card(card):
        return REFUSALS("card_unknown")
    if reading is None and (why := may_volunteer(state, seat)) is not None:
        return why
    if reading is not None and reading.card == card:
        return REFUSALS("same_card")
    if any(r.card == card for r in state.readings if r.seat != seat):
        return REFUSALS("card_in_use")
    return None


def _check_side(data: GameData, reading: Reading, side: Any) -> Rejection | None:
    card = data.library.card(reading.card) if reading.card is not None else None
    if side not in SIDES or card is None or (card.recto is None and card.verso is None):
        return REFUSALS("bad_side")
    return REFUSALS("same_side") if side == reading.side else None


def _check_document(data: GameData, state: OZState, reading: Reading, kind: str,
                    action: Mapping[str, Any]) -> Rejection | None:
    """censor, confirm (the document known) and enter_sum (unknown: the reader types its sum)."""
    known = reading.document is not None
    if kind == "censor":
        if not known:
            return REFUSALS("unknown_document")
        line = action["line"]
        return None if is_int(line) and 0 <= line < len(reading.hidden) else REFUSALS("bad_line")
    if kind == "confirm":
        if not known:
            return REFUSALS("unknown_document")
        return _check_confirm(data, state, reading)
    # enter_sum
    if known:
        return REFUSALS("known_document")
    value = action["value"]
    if not (is_int(value) and 0 <= value <= MAX_SUM_ENTRY):
        return REFUSALS("bad_value")
    return _protocol_ticks(data, state, value)


def _check_confirm(data: GameData, state: OZState, reading: Reading) -> Rejection | None:
    count, ticks = visible_lines(data, reading)
    proto = combined(data, state.protocols)
    if proto is not None and proto.max_visible_lines is not None and count > proto.max_visible_lines:
        return REFUSALS("protocol_lines")
    if proto is not None and proto.hide_first_line and not reading.hidden[0]:
        return REFUSALS("protocol_first_line")
    return _protocol_ticks(data, state, ticks)


def _check_mission(data: GameData, state: OZState, reading: Reading, mission: Any) -> Rejection | None:
    if not state.mission_cards:
        return REFUSALS("no_missions")
    if mission is None:
        return REFUSALS("same_mission") if reading.mission is None else None
    slots = mission_slots(data, state.mission_cards)
    if not is_int(mission) or not 0 <= mission < len(slots):
        return REFUSALS("bad_mission")
    if state.missions_done[mission]:
        return REFUSALS("mission_done")
    if mission == reading.mission:
        return REFUSALS("same_mission")
    doc = data.library.document(reading.document)
    slot = slots[mission]
    wanted = data.mission_cards[slot.card].missions[slot.index].category
    if wanted is not None and doc is not None and doc.category != wanted:
        return REFUSALS("mission_category")
    return None


def prepare_candidates(data: GameData, state: OZState, seat: int) -> Iterator[Action]:
    """Every preparation action worth checking for a seat (legal ones are those `check` accepts)."""
    reading = reading_of(state, seat)
    for key in data.library.card_keys():
        yield {"type": "lay", "card": key}
    yield {"type": "no_card"}
    if reading is None:
        return
    yield {"type": "withdraw"}
    for side in SIDES:
        yield {"type": "side", "side": side}
    if reading.stage == STAGE_CARD:  # the side comes first: `check_prepare` refuses the rest
        return
    for line in range(len(reading.hidden)):
        yield {"type": "censor", "line": line}
    yield {"type": "confirm"}
    if reading.document is None:
        for value in range(MAX_SUM_ENTRY + 1):
            yield {"type": "enter_sum", "value": value}
    if state.mission_cards:
        for m in range(len(state.missions_done)):
            yield {"type": "mission", "mission": m}
        yield {"type": "mission", "mission": None}


def apply_prepare(data: GameData, state: OZState, seat: int, action: Mapping[str, Any]) -> Step[OZState]:
    """Apply a checked preparation action."""
    kind = action["type"]
    reading = reading_of(state, seat)
    if kind == "lay":
        card = data.library.card(action["card"])
        blank = card.recto is None and card.verso is None
        # a card with no known side goes straight to entering the sum
        fresh = Reading(seat, STAGE_CENSOR if blank else STAGE_CARD, card=card.key)
        return Step(with_reading(state, fresh))
    if kind == "no_card":
        return Step(with_reading(state, Reading(seat, STAGE_CENSOR)))
    assert reading is not None
    if kind == "withdraw":
        return Step(without_reading(state, seat))
    if kind == "side":
        doc_id = data.library.card(reading.card).side(action["side"])  # type: ignore[arg-type]
        lines = len(data.library.documents[doc_id].lines) if doc_id is not None else 0
        # a new side is a new document: censoring and mission start again
        return Step(with_reading(state, evolve(reading, stage=STAGE_CENSOR, side=action["side"],
                                                document=doc_id, hidden=(False,) * lines, mission=None)))
    if kind == "censor":
        i = action["line"]
        hidden = reading.hidden[:i] + (not reading.hidden[i],) + reading.hidden[i + 1:]
        return Step(with_reading(state, evolve(reading, hidden=hidden)))
    if kind == "mission":
        return Step(with_reading(state, evolve(reading, mission=action["mission"])))
    ticks = visible_lines(data, reading)[1] if kind == "confirm" else action["value"]
    state = with_reading(state, evolve(reading, stage=STAGE_READY))
    state = add_ticks(state, seat, ticks)
    state, effects = tick(state, seat, ticks, MESSAGES("why_censors", name=seat_label(seat)))
    if state.lost is None and all_ready(state):
        state, more = begin_transmission(data, state)
        effects = (*effects, *more)
    return Step(state, effects)


def setup_outcomes(data: GameData, state: OZState) -> list[tuple[Action, float]]:
    """The chance draws of the PROTOCOLE or MISSIONS card asked "at random".

    Only cards compatible with those already in play are drawn (a contradictory card would be
    drawn again: the same odds among the compatible ones).
    """
    if state.draw_protocol:
        ids = draw_candidates(data, "protocol", state.protocols, state.mission_cards, state.hints,
                              missions_to_draw=state.draw_missions)
        return [({"type": "protocol", "id": pid}, 1 / len(ids)) for pid in ids]
    ids = draw_candidates(data, "missions", state.protocols, state.mission_cards, state.hints)
    return [({"type": "missions", "id": mid}, 1 / len(ids)) for mid in ids]


def apply_setup(data: GameData, state: OZState, action: Mapping[str, Any]) -> Step[OZState]:
    """Record a drawn variant card; preparation starts once nothing is left to draw."""
    if action["type"] == "protocol":
        proto = data.protocols[action["id"]]
        state = evolve(state, protocols=(*state.protocols, proto.id), draw_protocol=False)
        effect = say(MESSAGES("protocol_drawn", text=proto.text), kind="variant")
    else:
        card = data.mission_cards[action["id"]]
        state = evolve(state, mission_cards=(*state.mission_cards, card.id), draw_missions=False,
                        missions_done=(*state.missions_done, *(False,) * len(card.missions)))
        effect = say(card.name, kind="variant")
    phase = SETUP if state.draw_protocol or state.draw_missions else PREPARE
    return Step(evolve(state, phase=phase), (effect,))
