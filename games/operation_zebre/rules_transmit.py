"""Transmitting documents: reading, the interception window, hints, guesses, ÉCHEC cards."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from games.core import Action, Countdown, Rejection, Step, evolve, is_int
from games.operation_zebre.pieces import GameData
from games.operation_zebre.rules_rounds import (
    TEAM_NAMES,
    Effects,
    add_ticks,
    advance,
    lose,
    mission_achieved,
    say,
    tick,
)
from games.operation_zebre.rules_variants import combined
from games.operation_zebre.state import (
    CHECK,
    ECHEC,
    GUESS,
    INITIAL_HINT_TICKS,
    INTERCEPTION_BOXES,
    INTERCEPTION_SECONDS,
    MAX_LINE_ENTRY,
    READ,
    WINDOW,
    WRONG_ANSWER_TICKS,
    OZState,
    can_draw_echec,
    echecs_left,
    interception_points,
    opponents,
    reading_of,
    team_of,
    with_reading,
)
from games.operation_zebre.texts import MESSAGES, REFUSALS
from games.texts import seat_label

FIELDS: Mapping[str, tuple[frozenset[str], ...]] = {
    "read": (frozenset(),),
    "intercept": (frozenset(),),
    "no_intercept": (frozenset(),),
    "intercept_check": (frozenset({"correct"}),),
    "hint": (frozenset({"hint"}), frozenset({"hint", "line"}), frozenset({"hint", "value"})),
    "guess": (frozenset({"correct"}),),
}


def transmit_seats(state: OZState) -> frozenset[int]:
    """Seats that may act during a reading."""
    reader = state.reader
    assert reader is not None
    if state.step in (WINDOW, CHECK):
        return frozenset(opponents(state, reader))
    seats = {reader}
    if state.competitive and state.step == GUESS and state.lock and state.check is None:
        seats.update(opponents(state, reader))
    return frozenset(seats)


def check_transmit(data: GameData, state: OZState, seat: int, action: Mapping[str, Any]) -> Rejection | None:
    """Why a transmission action is refused, or None."""
    kind = action["type"]
    reader = state.reader
    assert reader is not None
    if kind in ("read", "intercept", "no_intercept", "intercept_check") and not state.competitive:
        return REFUSALS("wrong_phase")
    if kind in ("intercept", "no_intercept", "intercept_check"):
        if seat not in opponents(state, reader):
            return REFUSALS("not_opponent")
        if kind != "intercept_check":
            return None if state.step == WINDOW else REFUSALS("window_closed" if state.step in (GUESS, CHECK)
                                                             else "wrong_phase")
        if state.step not in (GUESS, CHECK):
            return REFUSALS("wrong_phase")
        if not state.lock:
            return REFUSALS("no_interception")
        if state.check is not None:
            return REFUSALS("already_checked")
        return None if isinstance(action["correct"], bool) else REFUSALS("bad_field")
    if seat != reader:
        return REFUSALS("not_reader")
    if kind == "read":
        return None if state.step == READ else REFUSALS("wrong_phase")
    if state.step != GUESS:
        return REFUSALS("already_guessed" if state.step == CHECK else "wrong_phase")
    reading = reading_of(state, seat)
    assert reading is not None
    if kind == "guess":
        return None if isinstance(action["correct"], bool) else REFUSALS("bad_field")
    return _check_hint(data, state, action)


def _check_hint(data: GameData, state: OZState, action: Mapping[str, Any]) -> Rejection | None:
    reading = reading_of(state, state.reader)  # type: ignore[arg-type]
    assert reading is not None
    hint = action["hint"]
    if hint not in ("initial", "erase") or (hint == "initial" and len(action) != 2) \
            or (hint == "erase" and len(action) != 3):
        return REFUSALS("bad_hint")
    if not state.hints:
        return REFUSALS("hints_off")
    if reading.hint is not None:
        return REFUSALS("hint_used")
    if hint == "erase" and state.competitive:
        return REFUSALS("erase_competitive")
    proto = combined(data, state.protocols)
    if proto is not None and hint not in proto.hints:
        return REFUSALS("protocol_hint")
    if hint == "initial":
        cost = INITIAL_HINT_TICKS
    else:
        doc = data.library.document(reading.document)
        if doc is not None:
            line = action.get("line")
            if not (is_int(line) and 0 <= line < len(doc.lines)):
                return REFUSALS("bad_line")
            if proto is not None and proto.hide_first_line and line == 0:
                return REFUSALS("protocol_first_line")
            cost = doc.lines[line].value
        else:
            value = action.get("value")
            if not (is_int(value) and 0 <= value <= MAX_LINE_ENTRY):
                return REFUSALS("bad_value")
            cost = value
    if proto is not None and proto.max_document_ticks is not None and reading.ticks + cost > proto.max_document_ticks:
        return REFUSALS("protocol_ticks")
    return None


def transmit_candidates(data: GameData, state: OZState, seat: int) -> Iterator[Action]:
    """Every transmission action worth checking for a seat."""
    yield {"type": "read"}
    yield {"type": "intercept"}
    yield {"type": "no_intercept"}
    for correct in (True, False):
        yield {"type": "intercept_check", "correct": correct}
    yield {"type": "hint", "hint": "initial"}
    reading = reading_of(state, seat) if state.reader == seat else None
    if reading is not None:
        doc = data.library.document(reading.document)
        if doc is not None:
            for line in range(len(doc.lines)):
                yield {"type": "hint", "hint": "erase", "line": line}
        else:
            for value in range(MAX_LINE_ENTRY + 1):
                yield {"type": "hint", "hint": "erase", "value": value}
    for correct in (True, False):
        yield {"type": "guess", "correct": correct}


def apply_transmit(data: GameData, state: OZState, seat: int, action: Mapping[str, Any]) -> Step[OZState]:
    """Apply a checked transmission action."""
    kind = action["type"]
    reader = state.reader
    assert reader is not None
    if kind == "read":
        return Step(evolve(state, step=WINDOW), _window_effects(state, reader))
    if kind in ("intercept", "no_intercept"):
        done = kind == "intercept"
        effect = say(MESSAGES("intercept_written" if done else "no_intercept"), kind="intercept")
        return Step(evolve(state, step=GUESS, lock=done), (effect,))
    if kind == "intercept_check":
        state = evolve(state, check=action["correct"])
        secret = say(MESSAGES("check_recorded"), frozenset(opponents(state, reader)), kind="secret")
        if state.step == CHECK:
            state, effects = _resolve(data, state)
            return Step(state, (secret, *effects))
        return Step(state, (secret,))
    if kind == "hint":
        return _apply_hint(data, state, action)
    return _apply_guess(data, state, action["correct"])


def _window_effects(state: OZState, reader: int) -> Effects:
    opp = opponents(state, reader)
    team = TEAM_NAMES[team_of(state, opp[0])]
    countdown = Countdown("countdown", MESSAGES("countdown"), frozenset(opp),
                          {"reader": reader, "team": team}, seconds=INTERCEPTION_SECONDS, seat=min(opp),
                          on_expire={"type": "no_intercept"})
    mates = frozenset(s for s in range(state.players) if s not in opp)
    return countdown, say(MESSAGES("window", team=team), mates, kind="window")


def _apply_hint(data: GameData, state: OZState, action: Mapping[str, Any]) -> Step[OZState]:
    reader = state.reader
    assert reader is not None
    reading = reading_of(state, reader)
    assert reading is not None
    doc = data.library.document(reading.document)
    name = seat_label(reader)
    if action["hint"] == "initial":
        letter = doc.initial if doc is not None else None
        state = with_reading(state, evolve(reading, hint="initial", initial=letter))
        shown = f" : {letter}" if letter else ""
        effect = say(MESSAGES("hint_initial", shown=shown), kind="hint", letter=letter)
        state = add_ticks(state, reader, INITIAL_HINT_TICKS)
        state, effects = tick(state, reader, INITIAL_HINT_TICKS, MESSAGES("why_hint", name=name))
        return Step(state, (effect, *effects))
    line = action.get("line")
    value = doc.lines[int(line)].value if doc is not None and line is not None else int(action["value"])
    state = with_reading(state, evolve(reading, hint="erase", erase_line=line, erase_value=value))
    state = add_ticks(state, reader, value)
    state, effects = tick(state, reader, value, MESSAGES("why_erase", name=name))
    return Step(state, (say(MESSAGES("hint_erase"), kind="hint", value=value), *effects))


def _apply_guess(data: GameData, state: OZState, correct: bool) -> Step[OZState]:
    reader = state.reader
    assert reader is not None
    reading = reading_of(state, reader)
    assert reading is not None
    doc = data.library.document(reading.document)
    title = doc.title if doc is not None else None
    reading = evolve(reading, result=correct, title=title)
    state = with_reading(state, reading)
    shown = f" : {title}" if title else ""
    effects: Effects = (say(MESSAGES("right" if correct else "wrong", shown=shown), kind="reveal",
                            correct=correct, title=title),)
    if not state.competitive:
        if correct:
            if mission_achieved(data, state, reading):
                i = reading.mission
                assert i is not None
                state = evolve(state, missions_done=state.missions_done[:i] + (True,) + state.missions_done[i + 1:])
                effects += (say(MESSAGES("mission_achieved"), kind="mission", mission=i),)
            state, more = advance(data, state)
            return Step(state, effects + more)
        if not can_draw_echec(state):
            state, more = lose(state, 0, "echec")
            return Step(state, effects + more)
        return Step(evolve(state, phase=ECHEC), effects)
    if not correct:
        state, more = tick(state, reader, WRONG_ANSWER_TICKS, MESSAGES("why_wrong"))
        effects += more
        if state.lost is not None:
            return Step(state, effects)
    if state.lock and state.check is None:
        return Step(evolve(state, step=CHECK), effects)
    state, more = _resolve(data, state)
    return Step(state, effects + more)


def _resolve(data: GameData, state: OZState) -> tuple[OZState, Effects]:
    """The interception card is turned over; points by the reader's ticks; next reader."""
    reader = state.reader
    assert reader is not None
    reading = reading_of(state, reader)
    assert reading is not None
    team = 1 - team_of(state, reader)
    name = TEAM_NAMES[team]
    if state.lock and state.check:
        points = interception_points(reading.ticks)
        boxes = state.interceptions[team]
        if len(boxes) < INTERCEPTION_BOXES:
            boxes = boxes + (points,)
            effect = say(MESSAGES("interception_points", team=name, points=points),
                         kind="interception", team=team, points=points)
        else:
            effect = say(MESSAGES("interception_full", team=name), kind="interception", team=team, points=0)
        inter = state.interceptions[:team] + (boxes,) + state.interceptions[team + 1:]
        state = evolve(state, interceptions=inter)
    else:
        effect = say(MESSAGES("interception_missed", team=name), kind="interception", team=team, points=0)
    state, more = advance(data, state)
    return state, (effect, *more)


def echec_outcomes(state: OZState) -> list[tuple[Action, float]]:
    """One ÉCHEC card drawn from those left, each equally likely."""
    left = echecs_left(state)
    return [({"type": "echec", "card": i}, 1 / len(left)) for i in left]


def apply_echec(data: GameData, state: OZState, action: Mapping[str, Any]) -> Step[OZState]:
    """An ÉCHEC card is drawn after a wrong answer: tick its value, then the next reader."""
    reader = state.reader
    assert reader is not None
    i = action["card"]
    value = state.echec_values[i]
    state = evolve(state, echecs_drawn=state.echecs_drawn + (i,))
    state, effects = tick(state, reader, value, MESSAGES("why_echec"))
    if state.lost is not None:
        return Step(state, effects)
    state, more = advance(data, state)
    return Step(state, effects + more)

