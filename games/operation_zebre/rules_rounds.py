"""How the game moves on: ticking suspicion (and losing), turns, rounds, the end, missions."""

from __future__ import annotations

from games.core import Effect, Text, evolve
from games.operation_zebre.pieces import GameData
from games.operation_zebre.rules_variants import mission_slots
from games.operation_zebre.state import (
    COMPETITIVE,
    GUESS,
    OVER,
    PREPARE,
    READ,
    READERS_PER_TEAM,
    STAGE_READY,
    TRANSMIT,
    OZState,
    Reading,
    readers_of,
    reading_of,
    team_of,
    track_of,
    with_reading,
)
from games.operation_zebre.texts import MESSAGES
from games.texts import seat_label

Effects = tuple[Effect, ...]
TEAM_NAMES = ("A", "B")


def say(text: Text, audience: frozenset[int] | None = None, kind: str = "message", **data: object) -> Effect:
    """A message effect."""
    return Effect(kind, text, audience, dict(data))


def lose(state: OZState, team: int, reason: str) -> tuple[OZState, Effects]:
    """The game ends at once: `team` lost (cooperative: the table lost)."""
    state = evolve(state, phase=OVER, lost=team, reason=reason)
    if state.competitive:
        name = TEAM_NAMES[team]
        other = TEAM_NAMES[1 - team]
        return state, (say(MESSAGES("team_blown", team=name, other=other), kind="end", reason=reason),)
    return state, (say(MESSAGES(f"lost_{reason}"), kind="end", reason=reason),)


def tick(state: OZState, seat: int, n: int, why: Text) -> tuple[OZState, Effects]:
    """Tick `n` suspicion boxes on the track of `seat`'s team; losing when boxes run out."""
    idx = track_of(state, seat)
    track, overflow = state.tracks[idx].tick(n)
    state = evolve(state, tracks=state.tracks[:idx] + (track,) + state.tracks[idx + 1:])
    effect = Effect("tick", MESSAGES("tick", why=why, n=n), None,
                    {"track": idx, "ticks": n, "left": track.left})
    if overflow:
        state, end = lose(state, team_of(state, seat), "suspicion")
        return state, (effect, *end)
    return state, (effect,)


def add_ticks(state: OZState, seat: int, n: int) -> OZState:
    """Record ticks on the seat's reading (what the interception scale looks at)."""
    reading = reading_of(state, seat)
    assert reading is not None
    return with_reading(state, evolve(reading, ticks=reading.ticks + n))


def all_ready(state: OZState) -> bool:
    """True when every reading of the round is confirmed and no reader is missing."""
    if any(r.stage != STAGE_READY for r in state.readings):
        return False
    if state.competitive:
        return all(len(readers_of(state, t)) == READERS_PER_TEAM for t in (0, 1))
    return len(state.readings) == state.players


def reading_order(state: OZState) -> tuple[int, ...]:
    """Cooperative: seat order. Competitive: teams alternate, the team with more suspicion
    points first (tie: more interception points; tie again: team A)."""
    if not state.competitive:
        return tuple(sorted(r.seat for r in state.readings))
    keys = [(state.tracks[t].score, sum(state.interceptions[t])) for t in (0, 1)]
    lead = 1 if keys[1] > keys[0] else 0
    first, second = readers_of(state, lead), readers_of(state, 1 - lead)
    return tuple(r.seat for pair in zip(first, second) for r in pair)


def begin_turn(data: GameData, state: OZState) -> tuple[OZState, Effects]:
    """The next reader announces the theme: the category (known documents) becomes public."""
    seat = state.order[state.turn]
    reading = reading_of(state, seat)
    assert reading is not None
    doc = data.library.document(reading.document)
    category = doc.category if doc is not None else None
    state = with_reading(state, evolve(reading, started=True, category=category))
    state = evolve(state, step=READ if state.competitive else GUESS, lock=None, check=None)
    return state, (say(MESSAGES("reads", name=seat_label(seat)), kind="turn", seat=seat),)


def begin_transmission(data: GameData, state: OZState) -> tuple[OZState, Effects]:
    """Every document is censored: readers take their card in hand and read in turn."""
    state = evolve(state, phase=TRANSMIT, order=reading_order(state), turn=0)
    state, effects = begin_turn(data, state)
    return state, (say(MESSAGES("take_documents"), kind="phase"), *effects)


def advance(data: GameData, state: OZState) -> tuple[OZState, Effects]:
    """The reading is over: next reader, or end of the round (and maybe of the game)."""
    state = evolve(state, phase=TRANSMIT, turn=state.turn + 1)
    if state.turn < len(state.order):
        return begin_turn(data, state)
    done = say(MESSAGES("round_over", round=state.round, rounds=state.rounds), kind="round", round=state.round)
    if state.round < state.rounds:
        state = evolve(state, round=state.round + 1, phase=PREPARE, readings=(), order=(), turn=0,
                        step=GUESS, lock=None, check=None)
        return state, (done,)
    if state.mission_cards and not all(state.missions_done):
        state, end = lose(state, 0, "missions")
        return state, (done, *end)
    state = evolve(state, phase=OVER, reason="rounds")
    if state.mode == COMPETITIVE:
        return state, (done, say(MESSAGES("end_competitive"), kind="end"))
    return state, (done, say(MESSAGES("end_won"), kind="end"))


def visible_count(data: GameData, reading: Reading) -> int | None:
    """Lines left readable (1 after Effacer); None for an unknown document."""
    if reading.document is None:
        return None
    if reading.hint == "erase":
        return 1
    return reading.hidden.count(False)


def mission_achieved(data: GameData, state: OZState, reading: Reading) -> bool:
    """Whether the claimed mission holds for a document just guessed (unknowable fields trusted)."""
    if not state.mission_cards or reading.mission is None or state.missions_done[reading.mission]:
        return False
    slot = mission_slots(data, state.mission_cards)[reading.mission]
    mission = data.mission_cards[slot.card].missions[slot.index]
    doc = data.library.document(reading.document)
    if mission.category is not None and doc is not None and doc.category != mission.category:
        return False
    if mission.max_ticks is not None and reading.ticks > mission.max_ticks:
        return False
    if mission.hint is not None and (reading.hint or "none") != mission.hint:
        return False
    shown = visible_count(data, reading)
    return not (mission.max_visible_lines is not None and shown is not None
                and shown > mission.max_visible_lines)
