"""What each seat may know: the public table, the seat's own document, its team's secret.

A document's title, card, side, lines and censoring are only ever in its reader's view (the
table never shows lines to anyone else, even after they are read aloud). What becomes public is
stored in public fields of the Reading when it becomes public (theme, initial, ticks, title).
The screens built from these views are in views_screen.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import CHANCE, Text, evolve, last_state
from games.frozen import quick_init
from games.operation_zebre.pieces import GameData
from games.operation_zebre.rules import to_act
from games.operation_zebre.rules_rounds import visible_count
from games.operation_zebre.rules_variants import mission_slots
from games.operation_zebre.scoring import Result, final_result
from games.operation_zebre.state import (
    ECHEC,
    OVER,
    STAGE_READY,
    TRANSMIT,
    OZState,
    Reading,
    opponents,
    reading_of,
    team_of,
    team_seats,
    with_reading,
)


@quick_init
@dataclass(frozen=True)
class TrackView:
    """A suspicion track: boxes, ticked, left; the highest visible value (competitive)."""

    size: int
    ticked: int
    left: int
    score: int | None


@quick_init
@dataclass(frozen=True)
class PublicReading:
    """A reading as everyone sees it: preparing or ready, then what the reading made public."""

    seat: int
    status: str  # "preparing" | "ready"
    ticks: int | None  # once ready
    started: bool
    category: str | None
    hint: str | None
    initial: str | None
    erase_value: int | None
    result: bool | None
    title: str | None
    mission: int | None  # the mission claimed, once the reading started


@quick_init
@dataclass(frozen=True)
class LineView:
    """A line of the reader's own document and whether it is censored."""

    text: str
    value: int
    hidden: bool


@quick_init
@dataclass(frozen=True)
class OwnReading:
    """The seat's own document: only its reader ever sees this."""

    seat: int
    stage: str
    card: str | None
    side: str | None
    recto: str | None  # the titles on the two sides of the card laid
    verso: str | None
    known: bool
    title: str | None
    category: str | None
    initial: str | None
    lines: tuple[LineView, ...]
    visible: int
    sum: int
    readable: int | None
    erase_line: int | None
    ticks: int
    mission: int | None
    hint: str | None
    result: bool | None


@quick_init
@dataclass(frozen=True)
class EchecsView:
    """Cooperative: ÉCHEC cards still to draw and the values drawn."""

    left: int
    drawn: tuple[int, ...]


@quick_init
@dataclass(frozen=True)
class ProtocolView:
    """A PROTOCOLE card in play."""

    id: str
    text: Text


@quick_init
@dataclass(frozen=True)
class MissionView:
    """One mission of the MISSIONS cards in play, achieved or not."""

    card: str
    text: Text
    done: bool


@quick_init
@dataclass(frozen=True)
class MissionsView:
    """The MISSIONS cards in play and their missions."""

    cards: tuple[str, ...]
    name: Text
    slots: tuple[MissionView, ...]


@quick_init
@dataclass(frozen=True)
class OZView:
    """A seat's view (seat None: the public view).

    Competitive fields (teams, team, interceptions, lock, checked) are None in the cooperative
    mode; `check` is the secret interception check, only in the view of the reader's opponents.
    Cooperative fields (echecs, protocols, missions) are None or empty in the competitive mode.
    """

    mode: str
    difficulty: str
    players: int
    seat: int | None
    round: int
    rounds: int
    phase: str
    step: str | None
    to_act: tuple[int, ...]  # players to act (chance draws are not listed)
    hints: bool
    tracks: tuple[TrackView, ...]
    readings: tuple[PublicReading, ...]
    order: tuple[int, ...]
    reader: int | None
    own: OwnReading | None
    over: bool
    lost: int | None
    reason: str | None
    result: Result | None
    teams: tuple[tuple[int, ...], ...] | None = None
    team: int | None = None
    interceptions: tuple[tuple[int, ...], ...] | None = None
    lock: bool | None = None
    checked: bool | None = None
    check: bool | None = None
    echecs: EchecsView | None = None
    protocols: tuple[ProtocolView, ...] = ()
    missions: MissionsView | None = None


def _public_reading(r: Reading) -> PublicReading:
    ready = r.stage == STAGE_READY
    return PublicReading(
        seat=r.seat, status="ready" if ready else "preparing", ticks=r.ticks if ready else None,
        started=r.started, category=r.category, hint=r.hint, initial=r.initial, erase_value=r.erase_value,
        result=r.result, title=r.title, mission=r.mission if r.started else None,
    )


# reader seat -> (game data, its reading, what it shows): a reading is carried unchanged (the same
# object) into the states the other seats make, so its seat's view part is worked out once
_OWN: dict[int, tuple[GameData, Reading, OwnReading]] = {}


def _own_reading(data: GameData, r: Reading) -> OwnReading:
    hit = _OWN.get(r.seat)
    if hit is not None and hit[0] is data and hit[1] is r:
        return hit[2]
    own = _own_reading_of(data, r)
    _OWN[r.seat] = (data, r, own)
    return own


def _own_reading_of(data: GameData, r: Reading) -> OwnReading:
    lib = data.library
    doc = lib.document(r.document)
    titles: dict[str, str | None] = {}
    if r.card is not None:
        card = lib.card(r.card)
        for side in ("recto", "verso"):
            d = lib.document(card.side(side))
            titles[side] = d.title if d is not None else None
    lines = () if doc is None else tuple(LineView(line.text, line.value, hid) for line, hid in zip(doc.lines, r.hidden))
    shown = [ln for ln in lines if not ln.hidden]
    return OwnReading(
        seat=r.seat, stage=r.stage, card=r.card, side=r.side, recto=titles.get("recto"), verso=titles.get("verso"),
        known=doc is not None, title=doc.title if doc is not None else None,
        category=doc.category if doc is not None else None, initial=doc.initial if doc is not None else None,
        lines=lines, visible=len(shown), sum=sum(ln.value for ln in shown), readable=visible_count(data, r),
        erase_line=r.erase_line, ticks=r.ticks, mission=r.mission, hint=r.hint, result=r.result,
    )


def view(data: GameData, state: OZState, seat: int | None) -> OZView:
    """The view of `seat` (None = public)."""
    public = _public(data, state)
    if seat is None:
        return public
    mine = reading_of(state, seat)
    own = _own_reading(data, mine) if mine is not None else None
    if state.competitive:
        reader = state.reader
        secret = reader is not None and seat in opponents(state, reader)
        return evolve(public, seat=seat, own=own, team=team_of(state, seat),
                       check=state.check if secret else None)
    return evolve(public, seat=seat, own=own)


@last_state
def _public(data: GameData, state: OZState) -> OZView:
    """What every seat may know: the same for each seat's view of one state."""
    base = OZView(
        mode=state.mode, difficulty=state.difficulty, players=state.players, seat=None, round=state.round,
        rounds=state.rounds, phase=state.phase, step=state.step if state.phase in (TRANSMIT, ECHEC) else None,
        to_act=tuple(sorted(s for s in to_act(state) if s != CHANCE)), hints=state.hints,
        tracks=tuple(TrackView(t.size, t.ticked, t.left, t.score if state.competitive else None)
                     for t in state.tracks),
        readings=tuple(_public_reading(r) for r in state.readings), order=state.order, reader=state.reader,
        own=None, over=state.phase == OVER,
        lost=state.lost, reason=state.reason, result=final_result(state),
    )
    if state.competitive:
        return evolve(
            base, teams=(team_seats(state, 0), team_seats(state, 1)),
            team=None, interceptions=state.interceptions,
            lock=state.lock, checked=state.check is not None, check=None,
        )
    missions = None
    if state.mission_cards:
        names = [data.mission_cards[c].name for c in state.mission_cards]
        missions = MissionsView(
            cards=state.mission_cards, name=Text(" + ".join(n.fr for n in names), " + ".join(n.en for n in names)),
            slots=tuple(MissionView(m.card, m.text, done)
                        for m, done in zip(mission_slots(data, state.mission_cards), state.missions_done)))
    return evolve(
        base, echecs=EchecsView(state.echec_limit - len(state.echecs_drawn),
                                tuple(state.echec_values[i] for i in state.echecs_drawn)),
        protocols=tuple(ProtocolView(p, data.protocols[p].text) for p in state.protocols), missions=missions,
    )


def hidden_variants(data: GameData, state: OZState, seat: int) -> list[OZState]:
    """States differing only in what `seat` may not know: other readers' cards, sides,
    documents, censoring, erased line, private mission claims; the other team's secret check."""
    out: list[OZState] = []
    keys = data.library.card_keys()
    all_docs = sorted(data.library.documents)
    for r in state.readings:
        if r.seat == seat:
            continue
        alts: list[str | None] = [c for c in keys if c != r.card] or [r.card]
        # every other card, each with a different document: over a game, every card and document
        docs = [d for d in all_docs if d != r.document]
        start = (len(state.readings) * 7 + r.seat * 3) % max(1, len(docs))
        docs = (docs[start:] + docs[:start])[:max(2, len(alts))]
        for k, doc_id in enumerate(docs):
            n = len(data.library.documents[doc_id].lines)
            card = alts[k % len(alts)]
            changed = evolve(
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
            out.append(with_reading(state, evolve(r, card=None, side=None, document=None, hidden=(),
                                                   erase_line=None)))
    reader = state.reader
    if state.competitive and reader is not None and state.check is not None \
            and seat not in opponents(state, reader):
        out.append(evolve(state, check=not state.check))
    return out
